/// The OpenAPI 3.1 description of every public endpoint (README "Quick tour", docs/rates.md, docs/books.md), served at
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
    "description": "Answers 'what is Bitcoin (or any currency) worth right now?' and 'what book is this ISBN?' from an in-memory TTL cache in front of public upstream APIs. Errors are RFC 9457 problem details. Cached answers carry X-Cache, Age, Cache-Control, ETag and Cache-Status, and honour If-None-Match. Every endpoint except health, readiness, metrics and admin may be read by web pages on other origins (CORS, server.cors.allowedOrigins, any origin by default): OPTIONS on their paths answers preflights (204, Access-Control-Allow-Methods: GET, HEAD), and ETag, Age, X-Cache, Cache-Status and X-Request-ID are exposed to scripts. 503 answers carry Retry-After.",
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
          {"$ref": "#/components/parameters/date"},
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
          {"$ref": "#/components/parameters/date"},
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
          {"name": "amount", "in": "query", "required": false, "description": "A finite decimal number; default 1.", "schema": {"type": "string", "default": "1", "minLength": 1, "maxLength": 32, "pattern": "^[0-9]+(\\.[0-9]+)?$", "example": "2.5"}},
          {"$ref": "#/components/parameters/date"}
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
        "summary": "Bitcoin price in USD and one other currency, CoinDesk's per-currency shape.",
        "description": "CoinDesk's own shape for this URL, which differs from currentprice.json: no chartName and no symbol, so that rate is each entry's second field (clients read it by position). bpi holds USD, then CODE (USD alone for USD). XBT is accepted as bitcoin and answered under its own code, at 1.0000.",
        "parameters": [{"name": "code", "in": "path", "required": true, "description": "Three letters, any case; XBT is bitcoin.", "schema": {"$ref": "#/components/schemas/CurrencyCode"}}],
        "responses": {
          "200": {"description": "The price index.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BPICurrency"}}}},
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
        "summary": "Currencies the price index supports, CoinDesk v1 shape: sorted by code, BTC and XBT both.",
        "responses": {
          "200": {"description": "The currencies.", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "required": ["currency", "country"], "properties": {"currency": {"type": "string"}, "country": {"type": "string"}}}}}}}
        }
      }
    },
    "/v1/rates/history": {
      "get": {
        "tags": ["rates"], "operationId": "ratesHistory",
        "summary": "Daily closes of complete UTC days over a range (no maximum), from cached blocks of days.",
        "description": "The close of day D is the daily candle that starts at D 00:00 UTC. USD, EUR and GBP are exchange closes (bitstamp from 2011-08-18, coinbase-exchange from 2015-07-20); every other ECB reference currency is the BTC-USD close times the USD rate of the latest ECB business day on or before D (Frankfurter). Days without a close are left out. An end after yesterday is cut to yesterday.",
        "parameters": [
          {"name": "start", "in": "query", "required": true, "schema": {"$ref": "#/components/schemas/Date"}},
          {"name": "end", "in": "query", "required": true, "schema": {"$ref": "#/components/schemas/Date"}},
          {"$ref": "#/components/parameters/base"},
          {"name": "symbols", "in": "query", "required": false, "description": "Comma-separated codes; default every currency with history except the base.", "schema": {"type": "string", "pattern": "^([A-Za-z]{3}(,[A-Za-z]{3})*)?$", "example": "USD,EUR"}},
          {"$ref": "#/components/parameters/ifNoneMatch"}
        ],
        "responses": {
          "200": {"description": "Closes by day, days ascending.", "headers": {"X-Cache": {"$ref": "#/components/headers/X-Cache"}, "Age": {"$ref": "#/components/headers/Age"}, "ETag": {"$ref": "#/components/headers/ETag"}, "Cache-Status": {"$ref": "#/components/headers/Cache-Status"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RatesHistory"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/v1/bpi/historical/close.json": {
      "get": {
        "tags": ["coindesk"], "operationId": "bpiHistoricalClose",
        "summary": "Daily closes in CoinDesk's historical/close.json shape.",
        "description": "No dates: the 31 days ending yesterday; for=yesterday: yesterday alone; an end after yesterday is cut to yesterday. No maximum range. XBT is BTC. CoinDesk's refusals are 404 text/plain: 'Sorry, that currency was not found', 'Sorry, the CoinDesk BPI only covers data from 2010-07-17 onwards.', 'Sorry, but your specified end date is before your start date.' (also for a start in the future). A malformed date, or only one of start and end, is a 400 problem naming the parameter.",
        "parameters": [
          {"name": "start", "in": "query", "required": false, "description": "With end.", "schema": {"$ref": "#/components/schemas/Date"}},
          {"name": "end", "in": "query", "required": false, "description": "With start.", "schema": {"$ref": "#/components/schemas/Date"}},
          {"name": "currency", "in": "query", "required": false, "schema": {"type": "string", "default": "USD", "example": "EUR"}},
          {"name": "for", "in": "query", "required": false, "schema": {"type": "string", "enum": ["yesterday"]}},
          {"name": "index", "in": "query", "required": false, "schema": {"type": "string", "enum": ["USD"]}},
          {"$ref": "#/components/parameters/ifNoneMatch"}
        ],
        "responses": {
          "200": {"description": "Closes by day, at most four decimals.", "headers": {"X-Cache": {"$ref": "#/components/headers/X-Cache"}, "Age": {"$ref": "#/components/headers/Age"}, "ETag": {"$ref": "#/components/headers/ETag"}, "Cache-Status": {"$ref": "#/components/headers/Cache-Status"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BPIHistorical"}}}},
          "304": {"$ref": "#/components/responses/NotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"description": "CoinDesk's refusal sentence.", "content": {"text/plain": {"schema": {"type": "string", "example": "Sorry, that currency was not found"}}}},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
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
        "summary": "The book's cover image, fetched only from origins (scheme, host, port) of configured providers, cached.",
        "description": "Cover URLs come from upstream answers, so they are held to the cover host policy: the configured providers' base URL origins plus the documented image hosts of the real providers (books.google.com and books.googleusercontent.com; the Internet Archive only while books.openLibrary.coversBaseUrl is the real one), over https on 443. URLs with userinfo, numeric-host tricks (decimal, octal, hex IPs), IPv6 literals, trailing dots or other schemes are refused. At most 3 redirects are followed, each checked before it is requested. A refused URL or hop is a 502 naming the provider whose answer named the image.",
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
          "200": {"description": "Zero or one volume. imageLinks point at almanac's own /v1/books/{isbn13}/cover, absolute: from server.publicBaseUrl when set, else from the request's Host (and, only with server.trustForwardedHeaders, the last Forwarded proto/host or X-Forwarded-Proto/X-Forwarded-Host element). No cover, no imageLinks.", "headers": {"Vary": {"description": "Forwarded, X-Forwarded-Proto, X-Forwarded-Host when links are built from trusted forwarded headers.", "schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Volumes"}}}},
          "400": {"description": "Not an ISBN query, or (for a book with a cover and no server.publicBaseUrl) a Host header that is not a valid host.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
          "502": {"$ref": "#/components/responses/BadGateway"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "504": {"$ref": "#/components/responses/GatewayTimeout"}
        }
      }
    },
    "/": {
      "get": {
        "tags": ["operations"], "operationId": "index",
        "summary": "This service: name, version, commit, links to this document and the docs, and every endpoint by group.",
        "responses": {"200": {"description": "The index.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ServiceIndex"}}}}}
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
          "200": {"description": "Ready (also while the shared cache is down: l2 says so).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}},
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
    "/admin/upstreams": {
      "get": {
        "tags": ["admin"], "operationId": "upstreamStates", "security": [{"adminToken": []}],
        "summary": "Each provider's steward state: breaker, cooldown, request budget, retries.",
        "responses": {
          "200": {"description": "Providers sorted by name.", "content": {"application/json": {"schema": {"type": "object", "required": ["providers"], "properties": {"providers": {"type": "array", "items": {"type": "object", "required": ["provider", "state", "breaker", "cooldown", "budget", "retries", "scope"], "properties": {"provider": {"type": "string"}, "state": {"type": "string", "enum": ["closed", "open", "half-open"]}, "breaker": {"type": "object"}, "cooldown": {"type": "object"}, "budget": {"type": "object"}, "retries": {"type": "object"}, "scope": {"type": "string", "enum": ["replica", "cluster"], "description": "replica: this replica's own state; cluster: the state shared through Redis, as this replica last saw it."}}}}}}}}},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "404": {"$ref": "#/components/responses/AdminOff"}
        }
      }
    },
    "/admin/cache/{namespace}": {
      "delete": {
        "tags": ["admin"], "operationId": "purgeCacheNamespace", "security": [{"adminToken": []}],
        "summary": "Purges one namespace.",
        "parameters": [{"name": "namespace", "in": "path", "required": true, "schema": {"type": "string", "enum": ["rates", "history", "books", "covers"]}}],
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
      "date": {"name": "date", "in": "query", "required": false, "description": "A complete UTC day: the answer is computed from that day's closes (updated = the close's instant, the next day's 00:00 UTC).", "schema": {"$ref": "#/components/schemas/Date"}},
      "ifNoneMatch": {"name": "If-None-Match", "in": "header", "required": false, "description": "ETag of a cached copy; a match answers 304.", "schema": {"type": "string"}}
    },
    "responses": {
      "NotModified": {"description": "The client's copy is current (no body)."},
      "BadRequest": {"description": "Malformed input (bad ISBN with the reason, bad amount, malformed code; request text is compared as bytes or Unicode scalars, so a digit followed by a combining mark is not a digit), or a request carrying Authorization more than once.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "NotFound": {"description": "Unknown route, currency or book.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "Unauthorized": {"description": "Missing or wrong bearer token.", "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}}, "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "AdminOff": {"description": "The admin API is off (no server.adminToken).", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "BadGateway": {"description": "Every upstream failed, sent garbage or answered with a redirect (upstream API calls never follow redirects), or the provider listed a requested currency with a value that is not a positive finite number (the rest of the table is still served). The detail names each provider, the cause class and the request id, e.g. \"coinbase: HTTP 503 (request id …)\", \"coinbase: redirected\", \"open-library: malformed answer (field …)\"; never an upstream URL, host or port (those are in the warn log line with the same request id).", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "GatewayTimeout": {"description": "Every upstream asked timed out; the detail names them and the request id, e.g. \"google-books: timed out after 5000 ms (request id …)\".", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
      "Unavailable": {"description": "Overloaded or draining; or upstream-paused: no provider answered and one was held back (cooling down after a 429, breaker open, budget spent).", "headers": {"Retry-After": {"description": "Seconds until trying again makes sense (always on upstream-paused).", "schema": {"type": "integer", "minimum": 0}}}, "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    },
    "schemas": {
      "ServiceIndex": {
        "type": "object", "required": ["service", "version", "commit", "description", "links", "groups"],
        "properties": {
          "service": {"type": "string", "const": "almanac"}, "version": {"type": "string"},
          "commit": {"type": "string", "description": "The git commit of the build, or unknown."},
          "description": {"type": "string"},
          "links": {"type": "object", "required": ["openapi", "docs"], "additionalProperties": {"type": "string"}},
          "groups": {"type": "array", "items": {"type": "object", "required": ["name", "description", "endpoints"], "properties": {
            "name": {"type": "string"}, "description": {"type": "string"},
            "endpoints": {"type": "array", "items": {"type": "object", "required": ["method", "path", "summary"], "properties": {
              "method": {"type": "string"}, "path": {"type": "string"}, "summary": {"type": "string"}}}}}}}
        }
      },
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
      "Date": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "example": "2024-01-01"},
      "RatesHistory": {
        "type": "object", "required": ["base", "start", "end", "source", "rates"],
        "properties": {
          "base": {"type": "string"}, "start": {"type": "string", "format": "date"}, "end": {"type": "string", "format": "date", "description": "Cut to yesterday."},
          "source": {"type": "string", "example": "bitstamp+frankfurter"},
          "rates": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": {"type": "number"}}}
        }
      },
      "BPIHistorical": {
        "type": "object", "required": ["bpi", "disclaimer", "time"],
        "properties": {
          "bpi": {"type": "object", "additionalProperties": {"type": "number"}, "example": {"2024-01-01": 42280.2345}},
          "disclaimer": {"type": "string"},
          "time": {"type": "object", "required": ["updated", "updatedISO"], "properties": {
            "updated": {"type": "string", "example": "Jan 2, 2024 00:03:00 UTC"},
            "updatedISO": {"type": "string", "example": "2024-01-02T00:03:00+00:00"}}}
        }
      },
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
        "type": "object", "required": ["code", "symbol", "rate", "description", "rate_float"], "additionalProperties": false,
        "properties": {
          "code": {"type": "string"}, "symbol": {"type": "string", "description": "HTML entity, e.g. &#36;"},
          "rate": {"type": "string", "example": "91,234.5600"}, "description": {"type": "string"}, "rate_float": {"type": "number"}
        }
      },
      "BPITime": {
        "type": "object", "required": ["updated", "updatedISO", "updateduk"], "additionalProperties": false,
        "properties": {
          "updated": {"type": "string", "example": "Sep 28, 2015 01:23:00 UTC"},
          "updatedISO": {"type": "string", "format": "date-time"},
          "updateduk": {"type": "string", "example": "Sep 28, 2015 at 02:23 BST"}
        }
      },
      "BPI": {
        "type": "object", "required": ["time", "disclaimer", "chartName", "bpi"], "additionalProperties": false,
        "description": "Keys in this order: time, disclaimer, chartName, bpi; bpi holds USD, GBP, EUR in that order.",
        "properties": {
          "time": {"$ref": "#/components/schemas/BPITime"},
          "disclaimer": {"type": "string"},
          "chartName": {"type": "string", "const": "Bitcoin"},
          "bpi": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/BPIEntry"}}
        }
      },
      "BPICurrencyEntry": {
        "type": "object", "required": ["code", "rate", "description", "rate_float"], "additionalProperties": false,
        "description": "Keys in this order: code, rate, description, rate_float (no symbol).",
        "properties": {
          "code": {"type": "string"}, "rate": {"type": "string", "example": "4,952,883.9836"},
          "description": {"type": "string"}, "rate_float": {"type": "number"}
        }
      },
      "BPICurrency": {
        "type": "object", "required": ["time", "disclaimer", "bpi"], "additionalProperties": false,
        "description": "Keys in this order: time, disclaimer, bpi (no chartName); bpi holds USD, then the code asked for.",
        "properties": {
          "time": {"$ref": "#/components/schemas/BPITime"},
          "disclaimer": {"type": "string"},
          "bpi": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/BPICurrencyEntry"}}
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
              "imageLinks": {"type": "object", "description": "Absolute links to almanac's own cover endpoint, never an upstream URL; absent when there is no cover.", "properties": {"smallThumbnail": {"type": "string", "format": "uri", "example": "https://books.example.com/v1/books/9780132350884/cover"}, "thumbnail": {"type": "string", "format": "uri", "example": "https://books.example.com/v1/books/9780132350884/cover"}}}
            }}
          }}}
        }
      },
      "Status": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string", "enum": ["ok", "ready"]}, "l2": {"type": "string", "enum": ["up", "down"], "description": "Readiness only, and only with a shared cache (cache.redis.url): whether Redis answers. Down is still ready: the instance serves from memory and upstream."}}},
      "CacheStats": {
        "type": "object", "required": ["namespaces"],
        "properties": {"namespaces": {"type": "object", "additionalProperties": {"type": "object", "properties": {
          "entries": {"type": "integer"}, "bytes": {"type": "integer"}, "hits": {"type": "integer"}, "misses": {"type": "integer"},
          "stale": {"type": "integer"}, "evictions": {"type": "integer"}, "loadsInFlight": {"type": "integer"}}}}}
      },
      "Purged": {"type": "object", "required": ["purged"], "properties": {"purged": {"type": "array", "items": {"type": "string"}}, "l2": {"type": "string", "enum": ["purged", "unavailable"], "description": "Only with a shared cache: purged there and announced to every replica, or Redis unreachable (this replica only)."}, "deletedKeys": {"type": "integer", "description": "Shared-cache keys deleted (with l2 purged)."}}}
    }
  }
}
"""#
}
