#!/usr/bin/env python3
"""Stub upstream for almanac's evidence harness (python3 stdlib only).

Speaks the real upstream formats (docs/rates.md, docs/books.md) on 127.0.0.1:
  GET /v2/exchange-rates?currency=BTC                        coinbase
  GET /api/v3/simple/price?ids=bitcoin&vs_currencies=usd,... coingecko
  GET /v1/bpi/currentprice.json                              coindesk (BPI v1)
  GET /books/v1/volumes?q=isbn:{isbn13}                      google-books
  GET /books/v1/volumes?q=…&startIndex=N&maxResults=M         google-books search (any other q)
  GET /books/v1/volumes/{id}                                  google-books volume by id
  GET /api/books?bibkeys=ISBN:{isbn13}&format=json&jscmd=data open-library
  GET /search.json?q=…&fields=…&offset=N&limit=M              open-library search (q=key:/works/OL…W: that work)
  GET /covers/...  /b/...  /books/content?...                a small real PNG
  GET /api/v2/ohlc/btc{usd,eur,gbp}/?step=86400&limit=N&start=UNIX&end=UNIX   bitstamp (daily candles)
  GET /products/BTC-{USD,EUR,GBP}/candles?granularity=86400&start=ISO&end=ISO coinbase-exchange (≤ 300)
  GET /v1/{start}..{end}?base=USD&symbols=JPY,...             frankfurter (ECB, business days)
  GET /products/BTC-{USD,EUR,GBP}/ticker                      coinbase-exchange ticker (index)
  GET /api/v2/ticker/btc{usd,eur,gbp}/                        bitstamp ticker (index)
  GET /0/public/Ticker?pair=XBT{USD,EUR,GBP}                  kraken ticker (index)
  GET /v1/pubticker/btc{usd,eur,gbp}                          gemini ticker (index)
  GET /v2/ticker/tBTC{USD,EUR,GBP}                            bitfinex ticker (index)
  The five tickers quote coinbase's table price plus a few cents per exchange, so the index
  agrees with the chain unless an exchange is told to misbehave.

Which books exist (deterministic, so runs are reproducible):
  * ISBN-13 whose digits 4..6 are "999" (e.g. 9789990000005): unknown everywhere
    (google-books totalItems 0, open-library {}), so almanac caches a 404;
  * ISBN-13 starting 979: unknown to google-books, known to open-library (fall-through);
  * anything else: known to both, title "Stub Book <isbn13>"; 9780306406157 has real-ish data.
Searches answer from a fixed catalogue of SEARCH_SIZE books whatever the query (the query only
shows in the request log): item 0 is 9780306406157, Google ids are stubvol00000…, Open Library
works /works/OL100W…, odd works without an ISBN.

Control (never counted, never faulted, never delayed):
  GET  /__stats                         JSON since the last reset: requests_total;
                                        connections_opened (new TCP connections),
                                        connections_used (distinct connections that
                                        carried a request, reused ones included);
                                        connections_open now; per path {requests,
                                        connections}; cover paths grouped
  POST /__reset                         zero the counters
  POST /__fault?mode=none|error503|hang|garbage|slow|reset|ratelimit429[&path=PREFIX][&delay_ms=N][&retry_after=N]
       error503: 503 with a JSON error body; hang: accept the request, never answer
       (connection closed after --hang-seconds or when the peer goes away);
       garbage: 200 application/json whose body is not JSON; slow: answer trickled
       in 16-byte chunks every 100 ms; reset: close the connection without answering.
       ratelimit429: 429 Too Many Requests with `Retry-After: N` (retry_after=N, default 1),
       as Google Books answers when its quota is spent.
       path=PREFIX limits the fault to request paths starting with PREFIX.
       delay_ms=N (also --delay-ms) delays every answer by N ms (default 0).
       One exchange of the index fails, stalls or answers 429 with path=its ticker prefix
       (e.g. mode=error503&path=/0/public/Ticker for kraken, mode=hang&path=/v1/pubticker/).
  POST /__index?provider=NAME&factor=F   that exchange's ticker answers its price × F (a misprint)
  POST /__index?provider=NAME&age=S      that exchange's ticker time is S seconds old (a frozen feed)
  POST /__index?reset=1                  every exchange honest and current again

Usage: stub_upstream.py --port 0 [--host 127.0.0.1] [--delay-ms 300] [--port-file F] [--fixed-rates]
"""

import argparse
import http.server
import json
import math
import os
import select
import socket
import socketserver
import struct
import sys
import threading
import time
import zlib
from email.utils import formatdate
from urllib.parse import parse_qs, urlsplit

# ---------------------------------------------------------------- data

# code -> (name, units per BTC). Roughly realistic; a real coinbase table has ~300 codes
# (fiat and crypto) and almanac must cope with codes it does not know.
FIAT = {
    "USD": ("US Dollar", 91234.56), "EUR": ("Euro", 78650.12), "GBP": ("British Pound", 69210.40),
    "JPY": ("Japanese Yen", 14123456.0), "CHF": ("Swiss Franc", 80510.77), "CAD": ("Canadian Dollar", 126012.3),
    "AUD": ("Australian Dollar", 139870.5), "NZD": ("New Zealand Dollar", 152340.8), "CNY": ("Chinese Yuan", 648234.1),
    "HKD": ("Hong Kong Dollar", 710245.9), "SGD": ("Singapore Dollar", 122345.6), "SEK": ("Swedish Krona", 987654.3),
    "NOK": ("Norwegian Krone", 1004567.2), "DKK": ("Danish Krone", 586543.2), "PLN": ("Polish Zloty", 365432.1),
    "CZK": ("Czech Koruna", 2065432.0), "HUF": ("Hungarian Forint", 33456789.0), "RON": ("Romanian Leu", 391234.5),
    "BGN": ("Bulgarian Lev", 153876.4), "TRY": ("Turkish Lira", 3123456.0), "RUB": ("Russian Ruble", 7234567.0),
    "INR": ("Indian Rupee", 7654321.0), "IDR": ("Indonesian Rupiah", 1432109876.0), "KRW": ("South Korean Won", 126543210.0),
    "THB": ("Thai Baht", 3154321.0), "MYR": ("Malaysian Ringgit", 412345.6), "PHP": ("Philippine Peso", 5234567.0),
    "VND": ("Vietnamese Dong", 2312345678.0), "BRL": ("Brazilian Real", 498765.4), "MXN": ("Mexican Peso", 1654321.0),
    "ARS": ("Argentine Peso", 89012345.0), "CLP": ("Chilean Peso", 86543210.0), "COP": ("Colombian Peso", 365432109.0),
    "PEN": ("Peruvian Sol", 342109.8), "ZAR": ("South African Rand", 1665432.0), "NGN": ("Nigerian Naira", 140123456.0),
    "EGP": ("Egyptian Pound", 4456789.0), "KES": ("Kenyan Shilling", 11789012.0), "MAD": ("Moroccan Dirham", 912345.6),
    "ILS": ("Israeli New Shekel", 339876.5), "AED": ("UAE Dirham", 335086.7), "SAR": ("Saudi Riyal", 342129.6),
    "QAR": ("Qatari Riyal", 332094.8), "KWD": ("Kuwaiti Dinar", 28012.345), "BHD": ("Bahraini Dinar", 34389.12),
    "OMR": ("Omani Rial", 35123.45), "JOD": ("Jordanian Dinar", 64685.4), "PKR": ("Pakistani Rupee", 25432109.0),
    "BDT": ("Bangladeshi Taka", 10912345.0), "LKR": ("Sri Lankan Rupee", 27123456.0), "TWD": ("New Taiwan Dollar", 2934567.0),
    "UAH": ("Ukrainian Hryvnia", 3765432.0), "ISK": ("Icelandic Krona", 12654321.0), "XAU": ("Gold (troy ounce)", 34.5678),
    "XAG": ("Silver (troy ounce)", 2876.54), "XDR": ("Special Drawing Rights", 68765.43), "BTC": ("Bitcoin", 1.0),
}
CRYPTO = {"ETH": 28.123456, "SOL": 432.10987, "USDC": 91250.1, "DOGE": 512345.6, "LTC": 987.6543}
COINGECKO_VS = {c.lower() for c in FIAT if c not in ("XAU", "XAG", "XDR", "BTC")} | {"xau", "xag", "btc", "eth"}
COINDESK = {"USD": ("&#36;", "United States Dollar"), "GBP": ("&pound;", "British Pound Sterling"),
            "EUR": ("&euro;", "Euro")}
KNOWN_ISBN = "9780306406157"


FIXED_RATES = False


def drift(t=None):
    """A slow, deterministic wobble so refreshed tables differ (ETag changes); none with
    --fixed-rates (make demo: the tours' outputs stay reproducible)."""
    if FIXED_RATES:
        return 1.0
    t = time.time() if t is None else t
    return 1.0 + 0.002 * math.sin(t / 97.0)


def rates_table():
    d = drift()
    out = {code: rate * d if code != "BTC" else 1.0 for code, (_, rate) in FIAT.items()}
    for code, rate in CRYPTO.items():
        out[code] = rate * d
    return out


def fmt_dec(x):
    s = ("%.10f" % x).rstrip("0").rstrip(".")
    return s if s else "0"


# The index's exchanges: cents apart around coinbase's price (gemini < coinbase-exchange <
# bitfinex < kraken < bitstamp); bitfinex quotes coinbase's own price, the median while all five
# agree, so the index equals the chain's numbers (the tours' outputs).
INDEX_OFFSETS = {"coinbase-exchange": -0.12, "bitstamp": 1.0, "kraken": 0.9, "gemini": -0.5, "bitfinex": 0.0}


def index_price(provider, cur):
    return round((rates_table()[cur] + INDEX_OFFSETS[provider]) * STATE.index_factor.get(provider, 1.0), 2)


def index_ticker(path, q):
    """The ticker answer for an index exchange's path, in its exact shape; None otherwise."""
    def when(provider):
        return int(time.time()) - STATE.index_age.get(provider, 0)
    cur = None
    if path.startswith("/products/BTC-") and path.endswith("/ticker"):
        cur, provider = path[len("/products/BTC-"):-len("/ticker")], "coinbase-exchange"
    elif path.startswith("/api/v2/ticker/btc"):
        cur, provider = path[len("/api/v2/ticker/btc"):].strip("/").upper(), "bitstamp"
    elif path == "/0/public/Ticker":
        cur, provider = (q.get("pair") or [""])[0][len("XBT"):], "kraken"
    elif path.startswith("/v1/pubticker/btc"):
        cur, provider = path[len("/v1/pubticker/btc"):].upper(), "gemini"
    elif path.startswith("/v2/ticker/tBTC"):
        cur, provider = path[len("/v2/ticker/tBTC"):], "bitfinex"
    if cur is None:
        return None
    if cur not in ("USD", "EUR", "GBP"):
        return {"error": ["EQuery:Unknown asset pair"]} if provider == "kraken" else {"error": "unknown pair"}
    p = index_price(provider, cur)
    t = when(provider)
    if provider == "coinbase-exchange":
        iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".123456Z"
        return {"ask": fmt_dec(p + 0.01), "bid": fmt_dec(p - 0.01), "volume": "1234.5", "trade_id": 86326522,
                "price": fmt_dec(p), "size": "0.0015", "time": iso}
    if provider == "bitstamp":
        return {"timestamp": str(t), "open": fmt_dec(p), "high": fmt_dec(p + 100), "low": fmt_dec(p - 100),
                "last": fmt_dec(p), "volume": "1500.1", "vwap": fmt_dec(p), "bid": fmt_dec(p - 1), "ask": fmt_dec(p + 1)}
    if provider == "kraken":
        return {"error": [], "result": {"XXBTZ" + cur: {"a": [fmt_dec(p + 1), "1", "1.000"], "b": [fmt_dec(p - 1), "2", "2.000"],
                                                        "c": [fmt_dec(p), "0.00100000"], "v": ["100.1", "2000.2"],
                                                        "p": [fmt_dec(p), fmt_dec(p)], "t": [1000, 20000],
                                                        "l": [fmt_dec(p - 100), fmt_dec(p - 200)],
                                                        "h": [fmt_dec(p + 100), fmt_dec(p + 200)], "o": fmt_dec(p)}}}
    if provider == "gemini":
        return {"bid": fmt_dec(p - 1), "ask": fmt_dec(p + 1), "volume": {"BTC": "1000.5", cur: "43250000.5", "timestamp": t * 1000},
                "last": fmt_dec(p)}
    return [round(p - 1, 2), 12.5, round(p + 1, 2), 10.1, 120, 0.0028, p, 5000.7, round(p + 200, 2), round(p - 200, 2)]


def isbn13_to_10(isbn13):
    if not isbn13.startswith("978"):
        return None
    core = isbn13[3:12]
    s = sum((10 - i) * int(c) for i, c in enumerate(core))
    check = (11 - s % 11) % 11
    return core + ("X" if check == 10 else str(check))


def book_facts(isbn13):
    """None when nobody knows the book; else a dict of facts."""
    if len(isbn13) != 13 or not isbn13.isdigit() or isbn13[3:6] == "999":
        return None
    if isbn13 == KNOWN_ISBN:
        return {"title": "The Art of Computer Programming", "subtitle": "Fundamental Algorithms",
                "authors": ["Donald E. Knuth"], "publisher": "Addison-Wesley",
                "date": "1997", "pages": 650, "subjects": ["Computers", "Algorithms"],
                "description": "The classic work on algorithms & data structures — \"volume one\"."}
    n = int(isbn13[-4:])
    return {"title": "Stub Book %s" % isbn13, "subtitle": None if n % 3 else "A Subtitle",
            "authors": ["Author %d" % (n % 97), "Co-Author %d" % (n % 13)][: 1 + n % 2],
            "publisher": "Stub Press", "date": "20%02d-%02d-01" % (n % 25, 1 + n % 12),
            "pages": 100 + n % 900, "subjects": ["Fiction"] if n % 2 else ["Science", "History"],
            "description": "Deterministic stub description for %s." % isbn13}


SEARCH_SIZE = 30


def search_isbn(n):
    """The ISBN-13 of search catalogue item n: 9780306406157 first, then 978100000nnn + check."""
    if n == 0:
        return KNOWN_ISBN
    twelve = "978100000%03d" % n
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(twelve))
    return twelve + str((10 - s % 10) % 10)


def search_item(volume_id):
    """The catalogue index of a Google id stubvol00000…, or None."""
    if len(volume_id) == 12 and volume_id.startswith("stubvol") and volume_id[7:].isdigit():
        n = int(volume_id[7:])
        return n if n < SEARCH_SIZE else None
    return None


def is_isbn_query(qq):
    """What google-books is asked for a lookup: isbn:X or a bare ISBN."""
    rest = qq[5:] if qq.startswith("isbn:") else qq
    return rest.strip() != "" and all(ch.isdigit() or ch in "-xX " for ch in rest)


def openlibrary_doc(n):
    """Open Library's search.json doc of catalogue item n (odd works have no ISBN or cover)."""
    isbn = search_isbn(n)
    f = book_facts(isbn)
    doc = {"key": "/works/OL%dW" % (100 + n), "title": f["title"], "author_name": f["authors"],
           "publisher": [f["publisher"]], "first_publish_year": int(f["date"][:4]),
           "number_of_pages_median": f["pages"], "language": ["eng"], "subject": f["subjects"]}
    if f["subtitle"]:
        doc["subtitle"] = f["subtitle"]
    if n % 2 == 0:
        doc["isbn"] = [isbn]
        doc["cover_i"] = 8000000 + n
    return doc


def make_png(w=16, h=16):
    """A valid w×h RGB PNG (a small gradient), built with zlib."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + b"".join(bytes((x * 16 % 256, y * 16 % 256, 128)) for x in range(w))
                   for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


PNG = make_png()

# ---------------------------------------------------------------- state


class State:
    def __init__(self, delay_ms, hang_seconds):
        self.lock = threading.Lock()
        self.delay_ms = delay_ms
        self.hang_seconds = hang_seconds
        self.fault = "none"
        self.fault_path = ""
        self.retry_after = 1
        self.fault_changed = threading.Event()
        self.index_factor = {}
        self.index_age = {}
        self.started = time.time()
        self.reset()

    def reset(self):
        with self.lock:
            self.epoch = getattr(self, "epoch", 0) + 1
            self.requests_total = 0
            self.connections_opened = 0
            self.connections_used = 0
            self.connections_open = getattr(self, "connections_open", 0)
            self.paths = {}
            self.faulted = {}
            self.since = time.time()

    def on_connect(self):
        with self.lock:
            self.connections_opened += 1
            self.connections_open += 1

    def on_close(self):
        with self.lock:
            self.connections_open -= 1

    def on_request(self, path, first_on_conn):
        with self.lock:
            self.requests_total += 1
            p = self.paths.setdefault(path, {"requests": 0, "connections": 0})
            p["requests"] += 1
            if first_on_conn:
                p["connections"] += 1

    def snapshot(self):
        with self.lock:
            return {"requests_total": self.requests_total, "connections_opened": self.connections_opened,
                    "connections_used": self.connections_used,
                    "connections_open": self.connections_open, "paths": json.loads(json.dumps(self.paths)),
                    "faulted": dict(self.faulted), "fault": self.fault, "fault_path": self.fault_path,
                    "delay_ms": self.delay_ms, "since": self.since, "uptime_s": round(time.time() - self.started, 3)}


STATE = None

# ---------------------------------------------------------------- handler


def stats_key(path):
    """Covers are counted per kind, not per image, and frankfurter ranges as one path, so
    /__stats stays small."""
    for prefix in ("/covers/", "/b/"):
        if path.startswith(prefix):
            return prefix + "*"
    if path.startswith("/v1/") and ".." in path:
        return "/v1/{start}..{end}"
    return path


# ---------------------------------------------------------------- history (daily closes)
BITSTAMP_FIRST = 15204          # 2011-08-18, days since 1970-01-01
COINBASE_EXCHANGE_FIRST = 16636  # 2015-07-20


def close_cents(provider, currency, day):
    offset = {"EUR": 1300, "GBP": 2700}.get(currency, 0) + (50 if provider == "coinbase-exchange" else 0)
    return 1000000 + (day * 7919) % 4000000 + offset


def cents_text(c):
    return "%d.%02d" % (c // 100, c % 100)


def iso_day(text):
    """Days since 1970-01-01 of YYYY-MM-DD[T...]."""
    import datetime
    return (datetime.date.fromisoformat(text[:10]) - datetime.date(1970, 1, 1)).days


def history_route(path, q):
    """bitstamp, coinbase-exchange and frankfurter in their exact shapes; None if not one."""
    import datetime
    if path.startswith("/api/v2/ohlc/btc"):
        cur = path[len("/api/v2/ohlc/btc"):].strip("/").upper()
        limit = int((q.get("limit") or ["0"])[0])
        if (q.get("step") or [""])[0] != "86400" or not 1 <= limit <= 1000:
            return 400, {"errors": [{"message": "bad step or limit"}]}
        first = max(int(q["start"][0]) // 86400, BITSTAMP_FIRST)
        last = int(q["end"][0]) // 86400
        days = list(range(first, last + 1))[:limit]
        return 200, {"data": {"pair": "BTC/" + cur, "ohlc": [
            {"timestamp": str(d * 86400), "open": cents_text(close_cents("bitstamp", cur, d)),
             "high": cents_text(close_cents("bitstamp", cur, d)), "low": cents_text(close_cents("bitstamp", cur, d)),
             "close": cents_text(close_cents("bitstamp", cur, d)), "volume": "12.5"} for d in days]}}
    if path.startswith("/products/BTC-") and path.endswith("/candles"):
        cur = path[len("/products/BTC-"):-len("/candles")]
        first, last = iso_day(q["start"][0]), iso_day(q["end"][0])
        if last - first + 1 > 300:
            return 400, {"message": "granularity too small for the requested time range"}
        return 200, [[d * 86400, 1, 1, 1, float(cents_text(close_cents("coinbase-exchange", cur, d))), 3.25]
                     for d in range(last, max(first, COINBASE_EXCHANGE_FIRST) - 1, -1)]
    if path.startswith("/v1/") and ".." in path:
        a, b = path[len("/v1/"):].split("..", 1)
        first, last = iso_day(a), iso_day(b)
        symbols = [s for s in (q.get("symbols") or [""])[0].split(",") if s]
        rates = {}
        for d in range(first, last + 1):
            if (d + 4) % 7 in (0, 6):   # Sunday, Saturday
                continue
            rates[(datetime.date(1970, 1, 1) + datetime.timedelta(days=d)).isoformat()] = {
                s: round(0.8 + i * 0.3517 + (d % 17) * 0.0013, 4) for i, s in enumerate(symbols)}
        return 200, {"amount": 1.0, "base": "USD", "start_date": a, "end_date": b, "rates": rates}
    return None



class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "stub-upstream/1"
    sys_version = ""

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.seen_paths = set()
        self.epoch = -1
        self.counted = False  # counted once it carries a non-control request

    def finish(self):
        try:
            super().finish()
        finally:
            if self.counted:
                STATE.on_close()

    def log_message(self, fmt, *args):  # quiet
        pass

    # -- helpers
    def send_bytes(self, status, body, ctype="application/json; charset=utf-8", extra=None):
        # Head and body in ONE write (and TCP_NODELAY): two small writes would meet Nagle
        # and the client's delayed ACK and add 40 ms to every answer.
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self._headers_buffer.append(b"\r\n")
        head = b"".join(self._headers_buffer)
        self._headers_buffer = []
        self.wfile.write(head + (body if self.command != "HEAD" else b""))

    def send_json(self, status, obj, extra=None):
        self.send_bytes(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"), extra=extra)

    def do_POST(self):
        self.dispatch()

    def do_HEAD(self):
        self.dispatch()

    def do_GET(self):
        self.dispatch()

    def dispatch(self):
        u = urlsplit(self.path)
        q = parse_qs(u.query, keep_blank_values=True)
        path = u.path
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(min(n, 1 << 20))
        if path.startswith("/__"):
            return self.control(path, q)
        if not self.counted:
            self.counted = True
            STATE.on_connect()
        if self.epoch != STATE.epoch:      # first upstream request on this connection since /__reset
            self.epoch = STATE.epoch
            self.seen_paths = set()
            with STATE.lock:
                STATE.connections_used += 1
        key = stats_key(path)
        first = key not in self.seen_paths
        self.seen_paths.add(key)
        STATE.on_request(key, first)
        if STATE.delay_ms > 0:
            time.sleep(STATE.delay_ms / 1000.0)
        fault = STATE.fault
        if fault != "none" and path.startswith(STATE.fault_path):
            with STATE.lock:
                STATE.faulted[fault] = STATE.faulted.get(fault, 0) + 1
            return self.apply_fault(fault, path, q)
        status, body, ctype = self.route(path, q)
        self.send_bytes(status, body, ctype, {"Cache-Control": "max-age=30"})

    def apply_fault(self, fault, path, q):
        if fault == "ratelimit429":
            return self.send_json(429, {"error": {"code": 429, "message": "stub: rate limit exceeded"}},
                                  extra={"Retry-After": str(STATE.retry_after)})
        if fault == "error503":
            return self.send_json(503, {"error": {"code": 503, "message": "stub: service unavailable"}},
                                  extra={"Retry-After": "1"})
        if fault == "garbage":
            return self.send_bytes(200, b"<html>\x00\xff{not json at all,,, \"data\": [", "application/json")
        if fault == "reset":
            self.close_connection = True
            try:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass
            return
        if fault == "hang":
            deadline = time.time() + STATE.hang_seconds
            sock = self.connection
            while time.time() < deadline and STATE.fault == "hang":
                r, _, _ = select.select([sock], [], [], 0.25)
                if r:
                    try:
                        if not sock.recv(1, socket.MSG_PEEK):
                            break  # peer went away
                    except OSError:
                        break
            self.close_connection = True
            return
        if fault == "slow":
            status, body, ctype = self.route(path, q)
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.flush()
            for i in range(0, len(body), 16):
                try:
                    self.wfile.write(body[i:i + 16])
                    self.wfile.flush()
                except OSError:
                    break
                time.sleep(0.1)
                if STATE.fault != "slow":
                    try:
                        self.wfile.write(body[i + 16:])
                    except OSError:
                        pass
                    break
            return
        return self.send_json(500, {"error": "unknown fault " + fault})

    def control(self, path, q):
        if path == "/__index" and self.command == "POST":
            if "reset" in q:
                STATE.index_factor.clear()
                STATE.index_age.clear()
            provider = (q.get("provider") or [""])[0]
            if provider and provider not in INDEX_OFFSETS:
                return self.send_json(400, {"error": "provider must be one of " + ", ".join(INDEX_OFFSETS)})
            try:
                if provider and "factor" in q:
                    STATE.index_factor[provider] = float(q["factor"][0])
                if provider and "age" in q:
                    STATE.index_age[provider] = int(q["age"][0])
            except ValueError:
                return self.send_json(400, {"error": "factor must be a number, age whole seconds"})
            return self.send_json(200, {"factor": STATE.index_factor, "age": STATE.index_age})
        if path == "/__stats":
            return self.send_json(200, STATE.snapshot(), extra={"Cache-Control": "no-store"})
        if path == "/__reset" and self.command == "POST":
            STATE.reset()
            return self.send_json(200, {"ok": True})
        if path == "/__fault" and self.command == "POST":
            mode = (q.get("mode") or [STATE.fault])[0]
            if mode not in ("none", "error503", "hang", "garbage", "slow", "reset", "ratelimit429"):
                return self.send_json(400, {"error": "mode must be none|error503|hang|garbage|slow|reset|ratelimit429"})
            STATE.fault = mode
            STATE.retry_after = int((q.get("retry_after") or ["1"])[0])
            STATE.fault_path = (q.get("path") or [""])[0]
            if "delay_ms" in q:
                STATE.delay_ms = int(q["delay_ms"][0])
            return self.send_json(200, {"fault": STATE.fault, "path": STATE.fault_path, "delay_ms": STATE.delay_ms})
        return self.send_json(404, {"error": "no such control endpoint"})

    # -- upstream emulation
    def route(self, path, q):
        j = lambda obj: (200, json.dumps(obj, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")
        ticker = index_ticker(path, q)
        if ticker is not None:
            return j(ticker)
        if path == "/v2/exchange-rates":
            cur = (q.get("currency") or ["USD"])[0].upper()
            table = rates_table()
            if cur not in table:
                return (400, b'{"errors":[{"id":"invalid_request","message":"Invalid currency"}]}',
                        "application/json; charset=utf-8")
            base = table[cur]
            return j({"data": {"currency": cur, "rates": {c: fmt_dec(v / base) for c, v in table.items()}}})
        if path == "/api/v3/simple/price":
            ids = (q.get("ids") or [""])[0].split(",")
            vs = [v.strip().lower() for v in (q.get("vs_currencies") or [""])[0].split(",") if v.strip()]
            table = rates_table()
            out = {}
            if "bitcoin" in ids:
                out["bitcoin"] = {v: round(table[v.upper()], 2 if table[v.upper()] > 1 else 8)
                                  for v in vs if v in COINGECKO_VS and v.upper() in table}
            return j(out)
        if path == "/v1/bpi/currentprice.json" or path.startswith("/v1/bpi/currentprice/"):
            now = time.gmtime()
            table = rates_table()
            codes = ["USD", "GBP", "EUR"]
            if path.startswith("/v1/bpi/currentprice/"):
                c = path.rsplit("/", 1)[1].split(".")[0].upper()
                codes = ["USD"] + ([c] if c != "USD" and c in table else [])
            bpi = {}
            for c in codes:
                sym, desc = COINDESK.get(c, ("&#36;" if c == "USD" else c, FIAT.get(c, (c,))[0]))
                r = table[c]
                bpi[c] = {"code": c, "symbol": sym, "rate": "{:,.4f}".format(r), "description": desc,
                          "rate_float": round(r, 4)}
            return j({"time": {"updated": time.strftime("%b %d, %Y %H:%M:%S UTC", now),
                               "updatedISO": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", now),
                               "updateduk": time.strftime("%b %d, %Y at %H:%M GMT", now)},
                      "disclaimer": "This data was produced from the CoinDesk Bitcoin Price Index (USD). "
                                    "Non-USD currency data converted using hourly conversion rate from openexchangerates.org",
                      "chartName": "Bitcoin", "bpi": bpi})
        if path.startswith("/books/v1/volumes/"):
            n = search_item(path[len("/books/v1/volumes/"):])
            if n is None:
                msg = "The volume ID could not be found."
                return (404, json.dumps({"error": {"code": 404, "message": msg, "errors": [
                    {"message": msg, "domain": "global", "reason": "notFound"}], "status": "NOT_FOUND"}}).encode("utf-8"),
                        "application/json; charset=utf-8")
            return j(self.google_search_item(n))
        if path == "/books/v1/volumes" and not is_isbn_query((q.get("q") or [""])[0]):
            start = int((q.get("startIndex") or ["0"])[0])
            count = int((q.get("maxResults") or ["10"])[0])
            page = list(range(SEARCH_SIZE))[start:start + count]
            out = {"kind": "books#volumes", "totalItems": SEARCH_SIZE}
            if page:
                out["items"] = [self.google_search_item(n) for n in page]
            return j(out)
        if path == "/search.json":
            start = int((q.get("offset") or ["0"])[0])
            count = int((q.get("limit") or ["100"])[0])
            docs = list(range(SEARCH_SIZE))
            qq = (q.get("q") or [""])[0]
            if qq.startswith("key:/works/OL"):
                docs = [n for n in docs if qq == "key:/works/OL%dW" % (100 + n)]
            return j({"numFound": len(docs), "start": start, "numFoundExact": True,
                      "docs": [openlibrary_doc(n) for n in docs[start:start + count]]})
        if path == "/books/v1/volumes":
            qq = (q.get("q") or [""])[0]
            isbn = qq.split("isbn:", 1)[1].strip() if qq.startswith("isbn:") else qq.strip()
            f = book_facts(isbn) if not isbn.startswith("979") else None
            if f is None:
                return j({"kind": "books#volumes", "totalItems": 0})
            return j(self.google_volumes(isbn, f))
        if path == "/api/books":
            keys = [k for k in (q.get("bibkeys") or [""])[0].split(",") if k]
            out = {}
            for k in keys:
                isbn = k.split(":", 1)[1] if ":" in k else k
                f = book_facts(isbn)
                if f is not None:
                    out[k] = self.openlibrary_book(isbn, f)
            return j(out)
        history = history_route(path, q)
        if history is not None:
            status, obj = history
            return (status, json.dumps(obj).encode("utf-8"), "application/json; charset=utf-8")
        if path.startswith("/covers/") or path.startswith("/b/") or path == "/books/content":
            name = path.rsplit("/", 1)[-1]
            isbn = "".join(ch for ch in name.split("-")[0] if ch.isdigit())
            if len(isbn) == 13 and book_facts(isbn) is None:
                return (404, b"not found", "text/plain")
            return (200, PNG, "image/png")
        return (404, b'{"error":"stub: unknown path"}', "application/json")

    def google_search_item(self, n):
        isbn = search_isbn(n)
        f = book_facts(isbn)
        item = self.google_volumes(isbn, f)["items"][1]
        item["id"] = "stubvol%05d" % n
        item["etag"] = "stubetag%d" % n
        item["selfLink"] = "https://www.googleapis.com/books/v1/volumes/" + item["id"]
        item["volumeInfo"]["infoLink"] = "https://books.google.com/books?id=" + item["id"]
        return item

    def google_volumes(self, isbn, f):
        ids = [{"type": "ISBN_13", "identifier": isbn}]
        i10 = isbn13_to_10(isbn)
        if i10:
            ids.insert(0, {"type": "ISBN_10", "identifier": i10})
        host = "http://%s" % self.headers.get("Host", "127.0.0.1")
        decoy = {"kind": "books#volume", "id": "decoy" + isbn[-4:],
                 "volumeInfo": {"title": "Decoy (must not be picked)",
                                "industryIdentifiers": [{"type": "ISBN_13", "identifier": "9780000000002"}]}}
        vi = {"title": f["title"], "authors": f["authors"], "publisher": f["publisher"],
              "publishedDate": f["date"], "description": f["description"], "industryIdentifiers": ids,
              "pageCount": f["pages"], "categories": f["subjects"], "language": "en",
              "imageLinks": {"smallThumbnail": "%s/books/content?id=%s&zoom=5" % (host, isbn),
                             "thumbnail": "%s/books/content?id=%s&zoom=1" % (host, isbn)}}
        if f["subtitle"]:
            vi["subtitle"] = f["subtitle"]
        return {"kind": "books#volumes", "totalItems": 2,
                "items": [decoy, {"kind": "books#volume", "id": "stub" + isbn, "volumeInfo": vi}]}

    def openlibrary_book(self, isbn, f):
        # The real shape: https://covers.openlibrary.org/b/id/<id>-L.jpg (almanac keeps only the
        # /b/… path and re-bases it onto books.openLibrary.coversBaseUrl, here <stub>).
        host = "http://%s" % self.headers.get("Host", "127.0.0.1")
        b = {"url": "https://openlibrary.org/books/OL%sM/stub" % isbn[-7:], "key": "/books/OL%sM" % isbn[-7:],
             "title": f["title"], "authors": [{"url": "https://openlibrary.org/authors/OL1A", "name": a}
                                              for a in f["authors"]],
             "publishers": [{"name": f["publisher"]}], "publish_date": f["date"],
             "number_of_pages": f["pages"], "subjects": [{"name": s, "url": "https://openlibrary.org/subjects/x"}
                                                         for s in f["subjects"]],
             "identifiers": {"isbn_13": [isbn]},
             "cover": {s: "%s/b/id/%s-%s.jpg" % (host, isbn, s[0].upper()) for s in ("small", "medium", "large")}}
        if f["subtitle"]:
            b["subtitle"] = f["subtitle"]
        return b


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024
    allow_reuse_address = True


def main():
    global STATE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--delay-ms", type=int, default=0)
    ap.add_argument("--hang-seconds", type=float, default=30.0)
    ap.add_argument("--port-file")
    ap.add_argument("--fixed-rates", action="store_true", help="no drift: every table is the same")
    a = ap.parse_args()
    global FIXED_RATES
    FIXED_RATES = a.fixed_rates
    STATE = State(a.delay_ms, a.hang_seconds)
    srv = Server((a.host, a.port), Handler)
    port = srv.server_address[1]
    if a.port_file:
        with open(a.port_file + ".tmp", "w") as fh:
            fh.write(str(port))
        os.replace(a.port_file + ".tmp", a.port_file)
    print("stub upstream listening on http://%s:%d (pid %d)" % (a.host, port, os.getpid()), flush=True)
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()


if __name__ == "__main__":
    import signal

    def _term(*_):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, _term)
    main()
