/// The OpenAPI 3.1 description of every public endpoint (API.md §3), served at
/// `GET /openapi.json`. A test compares its paths and methods with the router's table, so
/// the document cannot drift from what the server really answers.
public enum OpenAPIDocument {
    /// Rendered once; every request shares these bytes.
    public static let bytes: [UInt8] = Array(json.utf8)

    public static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "almanac",
    "version": "\#(AlmanacVersion.string)",
    "summary": "Cached exchange rates and book lookups.",
    "description": "Answers 'what is Bitcoin (or any currency) worth right now?' and 'what book is this ISBN?' from an in-memory TTL cache in front of public upstream APIs. Errors are RFC 9457 problem details. Cached answers carry X-Cache, Age, Cache-Control, ETag and Cache-Status, and honour If-None-Match.",
    "license": {"name": "MIT", "identifier": "MIT"}
  },
  "externalDocs": {"url": "\#(AlmanacVersion.projectURL)"},
  "servers": [{"url": "/"}],
  "tags": [
    {"name": "rates", "description": "Exchange rates (Bitcoin by default)."},
    {"name": "coindesk", "description": "CoinDesk Bitcoin Price Index v1 compatible endpoints (that API was retired in 2025)."},
    {"name": "books", "description": "Book lookups by ISBN."},
    {"name": "google-books", "description": "Google Books volumes compatible endpoint."},
    {"name": "operations", "description": "Health, readiness, metrics and this document."},
    {"name": "admin", "description": "Cache administration; exists only when server.adminToken is set."}
  ],
  "paths": {
    "/v1/rates": {
      "get": {
        "tags": ["rates"], "operationId": "listRates",
        "summary": "Every rate of a base currency (BTC by default), or a selection.",
        "parameters": [
          {"$ref": "#/components/parameters/base"},
          {"name": "symbols", "in": "query", "required": false, "description": "Comma-separated ISO 4217 codes to return; all when absent or empty.", "schema": {"type": "string", "pattern": "^([A-Za-z]{3}(,[A-Za-z]{3})*)?$", "example": "USD,GBP"}},
          {"$ref": "#/components/parameters/ifNoneMatch"}
        ],
        "responses": {
          "200": {"description": "The rate table.", "headers": {"X-Cache": {"$ref": "#/components/headers/X-Cache"}, "Age": {"$ref": "#/components/headers/Age"}, "ETag": {"$ref": "#/components/headers/ETag"}, "Cache-Status": {"$ref": "#/components/headers/Cache-Status"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RateTable"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/rates/{code}": {
      "get": {
        "tags": ["rates"], "operationId": "getRate",
        "summary": "One rate of a base currency.",
        "parameters": [
          {"$ref": "#/components/parameters/code"},
          {"$ref": "#/components/parameters/base"},
          {"$ref": "#/components/parameters/ifNoneMatch"}
        ],
        "responses": {
          "200": {"description": "The rate.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Rate"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/convert": {
      "get": {
        "tags": ["rates"], "operationId": "convert",
        "summary": "Converts an amount between two currencies through the cached table.",
        "parameters": [
          {"name": "from", "in": "query", "required": true, "schema": {"$ref": "#/components/schemas/CurrencyCode"}},
          {"name": "to", "in": "query", "required": true, "schema": {"$ref": "#/components/schemas/CurrencyCode"}},
          {"name": "amount", "in": "query", "required": false, "description": "A finite decimal number; default 1.", "schema": {"type": "string", "default": "1", "minLength": 1, "maxLength": 32, "pattern": "^[0-9]+(\\.[0-9]+)?$", "example": "2.5"}}
        ],
        "responses": {
          "200": {"description": "The conversion.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Conversion"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/currencies": {
      "get": {
        "tags": ["rates"], "operationId": "listCurrencies",
        "summary": "ISO 4217 currencies with names and symbols (built in, no upstream call).",
        "responses": {
          "200": {"description": "Currencies by code.", "content": {"application/json": {"schema": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Currency"}}}}}
        }
      }
    },
    "/v1/bpi/currentprice.json": {
      "get": {
        "tags": ["coindesk"], "operationId": "bpiCurrentPrice",
        "summary": "Bitcoin price in USD, GBP and EUR, CoinDesk v1 shape.",
        "responses": {
          "200": {"description": "The price index.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BPI"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/bpi/currentprice/{code}.json": {
      "get": {
        "tags": ["coindesk"], "operationId": "bpiCurrentPriceIn",
        "summary": "Bitcoin price in USD and one other currency, CoinDesk v1 shape.",
        "parameters": [{"$ref": "#/components/parameters/code"}],
        "responses": {
          "200": {"description": "The price index.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BPI"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/bpi/supported-currencies.json": {
      "get": {
        "tags": ["coindesk"], "operationId": "bpiSupportedCurrencies",
        "summary": "Currencies the price index supports, CoinDesk v1 shape.",
        "responses": {
          "200": {"description": "The currencies.", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "required": ["currency", "country"], "properties": {"currency": {"type": "string"}, "country": {"type": "string"}}}}}}}
        }
      }
    },
    "/v1/books": {
      "get": {
        "tags": ["books"], "operationId": "lookUpBooks",
        "summary": "Looks up to 20 ISBNs concurrently.",
        "parameters": [
          {"name": "isbn", "in": "query", "required": true, "description": "Comma-separated ISBNs as given (at most 20 non-empty items in all isbn parameters together; repeated ISBNs count). Each item is answered on its own: a malformed one gets its own {\"error\": problem} entry in a 200 answer; only a request with no item, or more than 20, is a 400.", "schema": {"type": "string", "pattern": "^[^,]*[^ ,][^,]*(,[^,]*){0,19}$", "example": "9780132350884,0-201-63361-2"}}
        ],
        "responses": {
          "200": {"description": "One result per ISBN as given: a book, or an error holding a problem.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BookResults"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/v1/books/{isbn}": {
      "get": {
        "tags": ["books"], "operationId": "getBook",
        "summary": "A book by ISBN-10 or ISBN-13 (hyphens and spaces allowed).",
        "parameters": [{"$ref": "#/components/parameters/isbn"}, {"$ref": "#/components/parameters/ifNoneMatch"}],
        "responses": {
          "200": {"description": "The book.", "headers": {"X-Cache": {"$ref": "#/components/headers/X-Cache"}, "Age": {"$ref": "#/components/headers/Age"}, "ETag": {"$ref": "#/components/headers/ETag"}, "Cache-Status": {"$ref": "#/components/headers/Cache-Status"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Book"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"description": "No provider knows this ISBN (cached for books.notFoundTtlSeconds), or no such route.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/books/{isbn}/cover": {
      "get": {
        "tags": ["books"], "operationId": "getBookCover",
        "summary": "The book's cover image, fetched only from hosts of configured providers, cached.",
        "parameters": [{"$ref": "#/components/parameters/isbn"}, {"$ref": "#/components/parameters/ifNoneMatch"}],
        "responses": {
          "200": {"description": "The image, with the upstream's image Content-Type.", "content": {"image/*": {"schema": {"type": "string", "contentMediaType": "image/*"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/books/v1/volumes": {
      "get": {
        "tags": ["google-books"], "operationId": "googleVolumes",
        "summary": "Google Books volumes search, for ISBN queries only.",
        "parameters": [
          {"name": "q", "in": "query", "required": true, "description": "isbn:<ISBN> or a bare ISBN; other queries answer 400, and so does an ISBN whose check digit is wrong (format isbn-query: the pattern plus the ISO 2108 check digit, which no pattern can express).", "schema": {"type": "string", "format": "isbn-query", "pattern": "^(isbn:)?([0-9]{9}[0-9Xx]|97[89][0-9]{10}|[0-9][0-9 -]{11,15}[0-9Xx])$", "example": "isbn:9780132350884"}}
        ],
        "responses": {
          "200": {"description": "Zero or one volume.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Volumes"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/healthz": {
      "get": {
        "tags": ["operations"], "operationId": "health",
        "summary": "Liveness: 200 while the process serves requests.",
        "responses": {"200": {"description": "Alive.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}}
      }
    },
    "/readyz": {
      "get": {
        "tags": ["operations"], "operationId": "ready",
        "summary": "Readiness: 503 once shutdown began (draining).",
        "responses": {
          "200": {"description": "Ready.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/metrics": {
      "get": {
        "tags": ["operations"], "operationId": "metrics",
        "summary": "Prometheus text exposition format 0.0.4.",
        "responses": {"200": {"description": "Metrics.", "content": {"text/plain; version=0.0.4; charset=utf-8": {"schema": {"type": "string"}}}}}
      }
    },
    "/openapi.json": {
      "get": {
        "tags": ["operations"], "operationId": "openapi",
        "summary": "This document.",
        "responses": {"200": {"description": "OpenAPI 3.1 document.", "content": {"application/json": {"schema": {"type": "object"}}}}}
      }
    },
    "/admin/cache": {
      "get": {
        "tags": ["admin"], "operationId": "cacheStats", "security": [{"adminToken": []}],
        "summary": "Cache statistics per namespace.",
        "responses": {
          "200": {"description": "Statistics.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CacheStats"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/AdminOff"}
        }
      },
      "delete": {
        "tags": ["admin"], "operationId": "purgeCache", "security": [{"adminToken": []}],
        "summary": "Purges every namespace.",
        "responses": {
          "200": {"description": "Purged.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Purged"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/AdminOff"}
        }
      }
    },
    "/admin/cache/{namespace}": {
      "delete": {
        "tags": ["admin"], "operationId": "purgeCacheNamespace", "security": [{"adminToken": []}],
        "summary": "Purges one namespace.",
        "parameters": [{"name": "namespace", "in": "path", "required": true, "schema": {"type": "string", "enum": ["rates", "books", "covers"]}}],
        "responses": {
          "200": {"description": "Purged.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Purged"}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"description": "Unknown namespace, or admin API off.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "adminToken": {"type": "http", "scheme": "bearer", "description": "server.adminToken"}
    },
    "headers": {
      "X-Cache": {"description": "HIT, MISS or STALE.", "schema": {"type": "string", "enum": ["HIT", "MISS", "STALE"]}},
      "Age": {"description": "Seconds since the answer was fetched.", "schema": {"type": "integer"}},
      "ETag": {"description": "Strong validator of the body.", "schema": {"type": "string"}},
      "Cache-Status": {"description": "RFC 9211 cache status.", "schema": {"type": "string"}}
    },
    "parameters": {
      "base": {"name": "base", "in": "query", "required": false, "description": "Base currency; rates of other bases are cross rates.", "schema": {"$ref": "#/components/schemas/CurrencyCode", "default": "BTC"}},
      "code": {"name": "code", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/CurrencyCode"}},
      "isbn": {"name": "isbn", "in": "path", "required": true, "description": "ISBN-10 or ISBN-13; hyphens and spaces allowed, X check digit in either case. A wrong check digit answers 400 naming the expected one (format isbn: the pattern plus the ISO 2108 check digit, which no pattern can express).", "schema": {"type": "string", "format": "isbn", "pattern": "^([0-9]{9}[0-9Xx]|97[89][0-9]{10}|[0-9][0-9 -]{11,15}[0-9Xx])$", "example": "978-0-13-235088-4"}},
      "ifNoneMatch": {"name": "If-None-Match", "in": "header", "required": false, "description": "ETag of a cached copy; a match answers 304.", "schema": {"type": "string"}}
    },
    "responses": {
      "NotModified": {"description": "The client's copy is current (no body)."},
      "BadRequest": {"description": "Malformed input (bad ISBN with the reason, bad amount, malformed code; request text is compared as bytes or Unicode scalars, so a digit followed by a combining mark is not a digit), or a request carrying Authorization more than once.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "NotFound": {"description": "Unknown route, currency or book.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "Unauthorized": {"description": "Missing or wrong bearer token.", "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}}, "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "AdminOff": {"description": "The admin API is off (no server.adminToken).", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "BadGateway": {"description": "Every upstream failed or sent garbage, or the provider listed a requested currency with a value that is not a positive finite number (the detail names the provider and the field; the rest of the table is still served).", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "GatewayTimeout": {"description": "The upstream did not answer in time.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "Unavailable": {"description": "Overloaded or draining.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    },
    "schemas": {
      "Problem": {
        "type": "object", "description": "RFC 9457 problem details.",
        "required": ["type", "title", "status", "detail"],
        "properties": {
          "type": {"type": "string", "format": "uri", "description": "about:blank or a docs/problems.md anchor."},
          "title": {"type": "string"},
          "status": {"type": "integer"},
          "detail": {"type": "string", "description": "What went wrong, in words a person can act on."}
        }
      },
      "CurrencyCode": {"type": "string", "pattern": "^[A-Za-z]{3}$", "example": "USD"},
      "Currency": {
        "type": "object", "required": ["code", "name", "symbol"],
        "properties": {"code": {"type": "string"}, "name": {"type": "string"}, "symbol": {"type": ["string", "null"], "description": "null when the currency has no symbol (XAU, ETH, …)"}}
      },
      "RateEntry": {
        "type": "object", "required": ["code", "name", "symbol", "rate"],
        "properties": {"code": {"type": "string"}, "name": {"type": "string"}, "symbol": {"type": ["string", "null"]}, "rate": {"type": "number"}}
      },
      "RateTable": {
        "type": "object", "required": ["base", "updated", "source", "rates"],
        "properties": {
          "base": {"type": "string"},
          "updated": {"type": "string", "format": "date-time"},
          "source": {"type": "string", "description": "The provider that answered."},
          "rates": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/RateEntry"}}
        }
      },
      "Rate": {
        "type": "object", "required": ["base", "code", "name", "symbol", "rate", "updated", "source"],
        "properties": {
          "base": {"type": "string"}, "code": {"type": "string"}, "name": {"type": "string"}, "symbol": {"type": ["string", "null"]},
          "rate": {"type": "number"}, "updated": {"type": "string", "format": "date-time"}, "source": {"type": "string"}
        }
      },
      "Conversion": {
        "type": "object", "required": ["from", "to", "amount", "rate", "result", "updated", "source"],
        "properties": {
          "from": {"type": "string"}, "to": {"type": "string"}, "amount": {"type": "number"}, "rate": {"type": "number"},
          "result": {"type": "number"}, "updated": {"type": "string", "format": "date-time"}, "source": {"type": "string"}
        }
      },
      "BPIEntry": {
        "type": "object", "required": ["code", "symbol", "rate", "description", "rate_float"],
        "properties": {
          "code": {"type": "string"}, "symbol": {"type": "string", "description": "HTML entity, e.g. &#36;"},
          "rate": {"type": "string", "example": "91,234.5600"}, "description": {"type": "string"}, "rate_float": {"type": "number"}
        }
      },
      "BPI": {
        "type": "object", "required": ["time", "disclaimer", "bpi"],
        "properties": {
          "time": {"type": "object", "required": ["updated", "updatedISO", "updateduk"], "properties": {
            "updated": {"type": "string", "example": "Sep 28, 2015 01:23:00 UTC"},
            "updatedISO": {"type": "string", "format": "date-time"},
            "updateduk": {"type": "string", "example": "Sep 28, 2015 at 02:23 BST"}}},
          "disclaimer": {"type": "string"},
          "chartName": {"type": "string"},
          "bpi": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/BPIEntry"}}
        }
      },
      "Book": {
        "type": "object",
        "required": ["isbn13", "isbn10", "title", "subtitle", "authors", "publisher", "publishedDate", "pageCount", "language", "description", "categories", "cover", "source"],
        "properties": {
          "isbn13": {"type": "string"}, "isbn10": {"type": ["string", "null"], "description": "null for 979 ISBNs"},
          "title": {"type": ["string", "null"]}, "subtitle": {"type": ["string", "null"]},
          "authors": {"type": "array", "items": {"type": "string"}},
          "publisher": {"type": ["string", "null"]}, "publishedDate": {"type": ["string", "null"]},
          "pageCount": {"type": ["integer", "null"]}, "language": {"type": ["string", "null"]},
          "description": {"type": ["string", "null"]},
          "categories": {"type": "array", "items": {"type": "string"}},
          "cover": {"type": ["string", "null"], "description": "/v1/books/{isbn13}/cover when a cover is known."},
          "source": {"type": "string"}
        }
      },
      "BookResults": {
        "type": "object", "required": ["results"],
        "properties": {"results": {"type": "object", "additionalProperties": {"oneOf": [
          {"$ref": "#/components/schemas/Book"},
          {"type": "object", "required": ["error"], "properties": {"error": {"$ref": "#/components/schemas/Problem"}}}
        ]}}}
      },
      "Volumes": {
        "type": "object", "required": ["kind", "totalItems"],
        "properties": {
          "kind": {"const": "books#volumes"}, "totalItems": {"type": "integer"},
          "items": {"type": "array", "items": {"type": "object", "properties": {
            "kind": {"const": "books#volume"},
            "volumeInfo": {"type": "object", "properties": {
              "title": {"type": "string"}, "subtitle": {"type": "string"},
              "authors": {"type": "array", "items": {"type": "string"}},
              "publisher": {"type": "string"}, "publishedDate": {"type": "string"}, "description": {"type": "string"},
              "industryIdentifiers": {"type": "array", "items": {"type": "object", "properties": {"type": {"type": "string"}, "identifier": {"type": "string"}}}},
              "pageCount": {"type": "integer"}, "categories": {"type": "array", "items": {"type": "string"}},
              "language": {"type": "string"},
              "imageLinks": {"type": "object", "properties": {"smallThumbnail": {"type": "string"}, "thumbnail": {"type": "string"}}}
            }}
          }}}
        }
      },
      "Status": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string", "enum": ["ok", "ready"]}}},
      "CacheStats": {
        "type": "object", "required": ["namespaces"],
        "properties": {"namespaces": {"type": "object", "additionalProperties": {"type": "object", "properties": {
          "entries": {"type": "integer"}, "bytes": {"type": "integer"}, "hits": {"type": "integer"}, "misses": {"type": "integer"},
          "stale": {"type": "integer"}, "evictions": {"type": "integer"}, "loadsInFlight": {"type": "integer"}}}}}
      },
      "Purged": {"type": "object", "required": ["purged"], "properties": {"purged": {"type": "array", "items": {"type": "string"}}}}
    }
  }
}
"""#
}
