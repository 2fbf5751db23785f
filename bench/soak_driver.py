#!/usr/bin/env python3
"""Mixed-traffic soak driver for almanac (stdlib only, threads, bounded rate).

  soak_driver.py --port P --stub http://127.0.0.1:S --duration 600 [--rate 150]
                 [--workers 8] [--slow 20] [--fault-interval 30]
                 [--header-timeout 5] [--idle-timeout 10] [--out result.json]

Traffic (weights in KINDS): cache hits on every cached endpoint, conditional GETs,
HEAD, ops endpoints, misses on rotating ISBNs (found, not found, 979 fall-through),
batch lookups, covers, bad requests (malformed ISBN, bad currency, bad amount,
unknown route, wrong method), raw malformed HTTP on a fresh socket (each with the
status docs/server.md "Limits and HTTP behaviour" promises), pipelined requests, Connection: close. Slow clients run
beside it (slowloris headers, slow body, idle keep-alive) and their time-to-close is
measured. Every --fault-interval seconds the stub upstream's fault is switched on
(error503, hang, garbage, slow, reset in turn) or back off.

Prints progress to stderr every 10 s and one JSON summary to stdout (and --out).
"""

import argparse
import collections
import http.client
import json
import os
import random
import socket
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isbn  # noqa: E402

KNOWN = "9780306406157"
FAULTS = ["error503", "hang", "garbage", "slow", "reset"]

# kind -> weight
KINDS = {
    "hit_rates": 14, "hit_rate_one": 8, "hit_convert": 5, "hit_currencies": 4, "hit_bpi": 5,
    "hit_book": 10, "hit_gbooks_compat": 3, "conditional": 4, "head": 3, "ops": 4,
    "miss_book": 10, "miss_notfound": 3, "miss_979": 2, "batch": 3, "cover": 3,
    "bad_isbn": 4, "bad_currency": 4, "bad_route": 2, "raw_malformed": 5, "pipelined": 2,
    "conn_close": 2,
}
# What each kind may answer when all is well. During (and shortly after) an upstream
# fault, upstream-dependent kinds may also answer 502/504, and 503 `upstream-paused` while the steward
# skips a provider that failed ("fault_ok").
EXPECT = {
    "hit_rates": {200}, "hit_rate_one": {200}, "hit_convert": {200}, "hit_currencies": {200},
    "hit_bpi": {200}, "hit_book": {200}, "hit_gbooks_compat": {200}, "conditional": {200, 304},
    "head": {200}, "ops": {200}, "miss_book": {200}, "miss_notfound": {404}, "miss_979": {200},
    "batch": {200}, "cover": {200}, "bad_isbn": {400}, "bad_currency": {400, 404},
    "bad_route": {404, 405}, "pipelined": {200}, "conn_close": {200},
}
UPSTREAM_KINDS = {"miss_book", "miss_notfound", "miss_979", "cover", "batch"}

# Raw malformed requests and the status docs/server.md "Limits and HTTP behaviour" promises (any 4xx/5xx is "answered").
RAW = [
    ("garbage line", b"GARBAGE\r\n\r\n", {400}),
    ("HTTP/2.0 version", b"GET /v1/rates HTTP/2.0\r\nHost: x\r\n\r\n", {505}),
    ("HTTP/1.1 without Host", b"GET /v1/rates HTTP/1.1\r\n\r\n", {400}),
    ("CL and TE", b"GET /v1/rates HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", {400}),
    ("conflicting CL", b"GET /v1/rates HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", {400}),
    ("obs-fold", b"GET /v1/rates HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", {400}),
    ("space before colon", b"GET /v1/rates HTTP/1.1\r\nHost : x\r\n\r\n", {400}),
    ("TE gzip", b"POST /v1/rates HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", {501}),
    ("header section too big", b"GET /v1/rates HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n", {431}),
    ("101 header fields", b"GET /v1/rates HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(101)) + b"\r\n", {431}),
    ("request line > 8 KiB", b"GET /v1/" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", {414}),
    ("body too large", b"POST /v1/rates HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + b"x" * 1000, {413}),
    # No CR/LF in it: a server may reject at once (400) or wait for the line (408 at the header timeout).
    ("TLS ClientHello", bytes.fromhex("16030100a5010000a10303") + bytes(range(0x20, 0x60)), {400, 408}),
    ("bare LF and NUL", b"GET /v1/rates\x00 HTTP/1.1\nHost: x\n\n", {400}),
]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.status = collections.defaultdict(collections.Counter)   # kind -> status -> n
        self.errors = collections.defaultdict(collections.Counter)   # kind -> cause -> n
        self.unexpected = collections.Counter()                     # (kind, status) -> n
        self.fault_ok = collections.Counter()
        self.examples = []
        self.raw = collections.defaultdict(collections.Counter)      # raw case -> status/cause -> n
        self.raw_deviation = collections.Counter()
        self.slow = collections.defaultdict(list)                   # mode -> [(seconds, outcome)]
        self.lat = collections.defaultdict(list)
        self.total = 0

    def add(self, kind, status, req, recent, body=b"", seconds=None):
        with self.lock:
            self.total += 1
            self.status[kind][status] += 1
            if seconds is not None and len(self.lat[kind]) < 200000:
                self.lat[kind].append(seconds)
            if status in EXPECT.get(kind, ()):
                return
            # During a fault and shortly after it: 502/504 from a failing provider.
            if recent and kind in UPSTREAM_KINDS and status in (502, 504):
                self.fault_ok[(kind, status)] += 1
                return
            # The steward skipping a provider that failed (breaker open, cooldown after its 503s):
            # 503 `upstream-paused`, for at most the breaker's longest opening after the fault.
            if (kind in UPSTREAM_KINDS and status == 503 and b"upstream-paused" in body
                    and fault_recent(SKIP_GRACE["seconds"])):
                self.fault_ok[(kind, status)] += 1
                return
            self.unexpected[(kind, status)] += 1
            if len(self.examples) < 40:
                self.examples.append({"t": round(time.time() - START, 1), "kind": kind, "request": req,
                                      "status": status, "fault_recent": recent,
                                      "body": body[:300].decode("utf-8", "replace")})

    def err(self, kind, cause, req, history=None):
        with self.lock:
            self.total += 1
            self.errors[kind][cause] += 1
            if len(self.examples) < 40:
                example = {"t": round(time.time() - START, 1), "kind": kind, "request": req, "error": cause}
                if history:
                    example["connection"] = history
                self.examples.append(example)


STATS = Stats()
START = time.time()
STOP = threading.Event()
FAULT = {"mode": "none", "last_change": 0.0, "schedule": []}
ETAGS = {}


def fault_recent(grace):
    """True while a fault is on or was switched off less than `grace` seconds ago."""
    return FAULT["mode"] != "none" or time.time() - FAULT["last_change"] < grace


# How long after a fault a steward skip is still the fault's doing (--skip-grace).
SKIP_GRACE = {"seconds": 65.0}


class Client:
    """One keep-alive connection, reopened on demand. Like HTTP clients that know the server's
    keep-alive timeout (Go's IdleConnTimeout, curl's maxage), it does not send on a connection
    that has been idle for nearly that long: the server closes such a connection at its idle
    timeout, and a request sent as it does meets a reset (RFC 9112 §9.8's keep-alive race)."""

    def __init__(self, port, timeout, idle_timeout=None):
        self.port, self.timeout, self.conn = port, timeout, None
        self.reuse_limit = None if idle_timeout is None else max(0.0, idle_timeout - 1.0)
        # What this connection last answered and when, and how many it answered: named in the
        # report when a request on it fails, so a reset can be told from a keep-alive race.
        self.previous, self.previous_at, self.served = None, None, 0

    def request(self, method, path, headers=None):
        if (self.conn is not None and self.reuse_limit is not None and self.previous_at is not None
                and time.time() - self.previous_at > self.reuse_limit):
            self.close()
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            self.previous, self.previous_at, self.served = None, None, 0
        try:
            self.conn.request(method, path, headers=headers or {})
            r = self.conn.getresponse()
            body = r.read()
            self.previous, self.previous_at = "%s %s → %d" % (method, path, r.status), time.time()
            self.served += 1
            if r.will_close:
                self.close()
            return r.status, dict((k.lower(), v) for k, v in r.getheaders()), body
        except Exception as e:
            e.connection_history = self.history()
            self.close()
            raise

    def history(self):
        """The failed connection's past: requests it answered, the last one, and the idle time before."""
        if self.previous is None:
            return "a new connection"
        return "request %d on its connection; the previous one %s, %.3f s before" % (
            self.served + 1, self.previous, time.time() - self.previous_at)

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001
                pass
            self.conn = None


def cause_of(e):
    if isinstance(e, socket.timeout) or isinstance(e, TimeoutError):
        return "timeout"
    if isinstance(e, ConnectionResetError):
        return "connection reset"
    if isinstance(e, ConnectionRefusedError):
        return "connection refused"
    if isinstance(e, http.client.RemoteDisconnected):
        return "closed without response"
    if isinstance(e, BrokenPipeError):
        return "broken pipe"
    return type(e).__name__


def raw_exchange(port, payload, timeout):
    """Send bytes on a fresh socket; return (status or None, cause)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            s.sendall(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before reading everything
        data = b""
        while b"\r\n" not in data and len(data) < 65536:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        if data.startswith(b"HTTP/1."):
            return int(data.split(b" ", 2)[1]), "answered"
        return None, "closed without response" if not data else "not HTTP: %r" % data[:40]
    finally:
        s.close()


class Worker(threading.Thread):
    def __init__(self, a, seed, counter):
        super().__init__(daemon=True)
        self.a, self.rng, self.counter = a, random.Random(seed), counter
        self.client = Client(a.port, a.timeout, a.idle_timeout)
        kinds, weights = zip(*KINDS.items())
        self.kinds, self.weights = kinds, weights

    def next_isbn(self, fn):
        with self.counter["lock"]:
            self.counter["n"] += 1
            n = self.counter["n"]
        return fn(self.counter["base"] + n)

    def run(self):
        interval = self.a.workers / float(self.a.rate)
        next_t = time.time() + self.rng.random() * interval
        while not STOP.is_set():
            now = time.time()
            if now < next_t:
                time.sleep(min(next_t - now, 0.5))
                continue
            next_t += interval
            if next_t < now - 1:   # fell behind (slow answers): do not burst to catch up
                next_t = now
            kind = self.rng.choices(self.kinds, self.weights)[0]
            try:
                self.one(kind)
            except Exception as e:  # noqa: BLE001
                STATS.err(kind, cause_of(e), kind)
        self.client.close()

    def get(self, kind, path, method="GET", headers=None):
        recent = fault_recent(self.a.fault_grace)
        t0 = time.time()
        try:
            st, h, body = self.client.request(method, path, headers)
        except Exception as e:  # noqa: BLE001
            STATS.err(kind, cause_of(e), "%s %s" % (method, path), getattr(e, "connection_history", None))
            return None, {}, b""
        STATS.add(kind, st, "%s %s" % (method, path), recent or fault_recent(self.a.fault_grace), body,
                  time.time() - t0)
        return st, h, body

    def one(self, kind):
        r = self.rng
        if kind == "hit_rates":
            self.get(kind, r.choice(["/v1/rates", "/v1/rates?base=EUR", "/v1/rates?symbols=USD,GBP",
                                     "/v1/rates?base=USD&symbols=EUR,JPY"]))
        elif kind == "hit_rate_one":
            self.get(kind, r.choice(["/v1/rates/USD", "/v1/rates/EUR?base=USD", "/v1/rates/jpy", "/v1/rates/GBP"]))
        elif kind == "hit_convert":
            self.get(kind, r.choice(["/v1/convert?from=EUR&to=USD", "/v1/convert?from=USD&to=BTC&amount=1000",
                                     "/v1/convert?from=GBP&to=JPY&amount=2.5"]))
        elif kind == "hit_currencies":
            self.get(kind, "/v1/currencies")
        elif kind == "hit_bpi":
            self.get(kind, r.choice(["/v1/bpi/currentprice.json", "/v1/bpi/currentprice/EUR.json",
                                     "/v1/bpi/supported-currencies.json"]))
        elif kind == "hit_book":
            self.get(kind, r.choice(["/v1/books/" + KNOWN, "/v1/books/978-0-306-40615-7", "/v1/books/0306406152"]))
        elif kind == "hit_gbooks_compat":
            self.get(kind, "/books/v1/volumes?q=isbn:" + KNOWN)
        elif kind == "conditional":
            path = r.choice(["/v1/rates", "/v1/books/" + KNOWN, "/v1/currencies"])
            tag = ETAGS.get(path)
            st, h, _ = self.get(kind, path, headers={"If-None-Match": tag} if tag else None)
            if st == 200 and h.get("etag"):
                ETAGS[path] = h["etag"]
        elif kind == "head":
            self.get(kind, r.choice(["/v1/rates", "/v1/books/" + KNOWN, "/healthz"]), method="HEAD")
        elif kind == "ops":
            self.get(kind, r.choice(["/healthz", "/readyz", "/metrics", "/openapi.json"]))
        elif kind == "miss_book":
            self.get(kind, "/v1/books/" + self.next_isbn(isbn.isbn13))
        elif kind == "miss_notfound":
            self.get(kind, "/v1/books/" + self.next_isbn(isbn.unknown_isbn13))
        elif kind == "miss_979":
            self.get(kind, "/v1/books/" + self.next_isbn(isbn.isbn979))
        elif kind == "batch":
            codes = [self.next_isbn(isbn.isbn13), KNOWN, self.next_isbn(isbn.unknown_isbn13), "12345"]
            self.get(kind, "/v1/books?isbn=" + ",".join(codes))
        elif kind == "cover":
            self.get(kind, "/v1/books/%s/cover" % r.choice([KNOWN, self.next_isbn(isbn.isbn13)]))
        elif kind == "bad_isbn":
            self.get(kind, r.choice(["/v1/books/12345", "/v1/books/9780306406158", "/v1/books/97803064061X7",
                                     "/v1/books/abcdefghij", "/v1/books/%20"]))
        elif kind == "bad_currency":
            self.get(kind, r.choice(["/v1/rates/XX1", "/v1/rates/ZZZ", "/v1/rates?base=1234",
                                     "/v1/convert?from=EUR&to=USD&amount=abc", "/v1/convert?from=EUR",
                                     "/v1/bpi/currentprice/QQQ.json"]))
        elif kind == "bad_route":
            if r.random() < 0.5:
                self.get(kind, r.choice(["/nope", "/v1/ratesx", "/v2/rates"]))
            else:
                self.get(kind, "/v1/rates", method=r.choice(["POST", "PUT", "DELETE"]))
        elif kind == "raw_malformed":
            name, payload, want = r.choice(RAW)
            try:
                st, cause = raw_exchange(self.a.port, payload, self.a.timeout)
            except Exception as e:  # noqa: BLE001
                st, cause = None, cause_of(e)
            with STATS.lock:
                STATS.total += 1
                STATS.raw[name][str(st) if st else cause] += 1
                if st not in want:
                    STATS.raw_deviation[(name, str(st) if st else cause)] += 1
                if st is not None and st >= 500 and st not in (501, 505):
                    STATS.unexpected[("raw_malformed", st)] += 1
        elif kind == "pipelined":
            req = b"".join(b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % p.encode()
                           for p in ("/v1/rates/USD", "/healthz", "/v1/currencies"))
            req = req[:-4] + b"\r\nConnection: close\r\n\r\n"
            try:
                s = socket.create_connection(("127.0.0.1", self.a.port), timeout=self.a.timeout)
                s.sendall(req)
                data = b""
                while True:
                    c = s.recv(65536)
                    if not c:
                        break
                    data += c
                s.close()
                statuses = parse_responses(data)
                ok = statuses == [200, 200, 200]
                STATS.add(kind, 200 if ok else (statuses[0] if statuses and statuses[0] != 200 else 0),
                          "3 pipelined GETs; got %s" % statuses, False)
            except Exception as e:  # noqa: BLE001
                STATS.err(kind, cause_of(e), "pipelined")
        elif kind == "conn_close":
            c = Client(self.a.port, self.a.timeout)
            recent = fault_recent(self.a.fault_grace)
            try:
                st, _, body = c.request("GET", "/v1/rates/EUR", {"Connection": "close"})
                STATS.add(kind, st, "GET /v1/rates/EUR (Connection: close)", recent, body)
            except Exception as e:  # noqa: BLE001
                STATS.err(kind, cause_of(e), "Connection: close")
            c.close()


def parse_responses(data):
    """Statuses of consecutive HTTP/1.1 responses framed by Content-Length."""
    statuses = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep or not head.startswith(b"HTTP/1."):
            statuses.append(-1)  # trailing bytes that are not a response
            break
        lines = head.split(b"\r\n")
        statuses.append(int(lines[0].split(b" ", 2)[1]))
        n = 0
        for line in lines[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                n = int(v.strip())
        data = rest[n:]
    return statuses


def slow_client(a, mode):
    """One slow connection; records seconds until the server closed it and how."""
    t0 = time.time()
    outcome = "?"
    try:
        s = socket.create_connection(("127.0.0.1", a.port), timeout=2)
        s.settimeout(1.0)
        if mode == "idle_keepalive":
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            _drain_one_response(s)
            t0 = time.time()
            parts = []
        elif mode == "slow_headers":
            parts = [b"GET /v1/rates HTTP/1.1\r\n", b"Host: x\r\n"] + [b"X-Slow-%d: y\r\n" % i for i in range(200)]
        else:  # slow_body
            parts = [b"POST /v1/rates HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n"] + [b"z"] * 500
        i = 0
        limit = a.idle_timeout * 4 + 30
        data = b""
        while time.time() - t0 < limit and not STOP.is_set():
            if i < len(parts):
                try:
                    s.sendall(parts[i])
                except (BrokenPipeError, ConnectionResetError):
                    outcome = "reset/closed while sending"
                    break
                i += 1
            try:
                c = s.recv(4096)
                if not c:
                    outcome = ("closed after %s" % data.split(b" ", 2)[1].decode()) if data.startswith(b"HTTP/") else "closed silently"
                    break
                data += c
            except socket.timeout:
                continue
            except ConnectionResetError:
                outcome = ("reset after %s" % data.split(b" ", 2)[1].decode()) if data.startswith(b"HTTP/") else "reset"
                break
        else:
            limit_s = a.idle_timeout if mode == "idle_keepalive" else a.header_timeout
            if not STOP.is_set():
                outcome = "still open at limit"
            elif time.time() - t0 > limit_s + 2:
                outcome = "still open when the soak ended"
            else:
                outcome = "stopped"
        s.close()
    except Exception as e:  # noqa: BLE001
        outcome = "error " + cause_of(e)
    if outcome != "stopped":
        with STATS.lock:
            STATS.slow[mode].append((round(time.time() - t0, 2), outcome))


def _drain_one_response(s):
    data = b""
    while b"\r\n\r\n" not in data:
        c = s.recv(4096)
        if not c:
            return
        data += c
    head, _, rest = data.partition(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    while len(rest) < n:
        c = s.recv(4096)
        if not c:
            return
        rest += c


def slow_manager(a):
    modes = ["slow_headers", "slow_body", "idle_keepalive"]
    active = []
    i = 0
    while not STOP.is_set():
        active = [t for t in active if t.is_alive()]
        while len(active) < a.slow and not STOP.is_set():
            t = threading.Thread(target=slow_client, args=(a, modes[i % 3]), daemon=True)
            i += 1
            t.start()
            active.append(t)
            time.sleep(0.05)
        time.sleep(0.5)


def set_fault(a, mode):
    try:
        urllib.request.urlopen(urllib.request.Request("%s/__fault?mode=%s" % (a.stub, mode), method="POST"),
                               timeout=5).read()
    except Exception as e:  # noqa: BLE001
        print("fault switch failed: %s" % e, file=sys.stderr)
    FAULT["mode"] = mode
    FAULT["last_change"] = time.time()
    FAULT["schedule"].append((round(time.time() - START, 1), mode))


def fault_cycler(a):
    k = 0
    on = False
    while not STOP.wait(a.fault_interval):
        on = not on
        if on:
            set_fault(a, FAULTS[k % len(FAULTS)])
            k += 1
        else:
            set_fault(a, "none")
    set_fault(a, "none")


def pct(v, p):
    if not v:
        return None
    v = sorted(v)
    return round(v[min(len(v) - 1, int(p / 100.0 * (len(v) - 1)))] * 1000, 2)


def summary(a, elapsed):
    s = STATS
    slow = {}
    for mode, rs in s.slow.items():
        times = sorted(t for t, _ in rs)
        limit = a.idle_timeout if mode == "idle_keepalive" else a.header_timeout
        slow[mode] = {"count": len(rs), "limit_s": limit,
                      "closed_within_limit_plus_2s": sum(1 for t, o in rs if t <= limit + 2 and "still open" not in o),
                      "max_s": times[-1] if times else None, "median_s": times[len(times) // 2] if times else None,
                      "outcomes": dict(collections.Counter(o for _, o in rs))}
    status_hist = collections.Counter()
    for k, c in s.status.items():
        status_hist.update({str(st): n for st, n in c.items()})
    errs = collections.Counter()
    for k, c in s.errors.items():
        errs.update(c)
    return {
        "duration_s": round(elapsed, 1), "requests": s.total, "rate_rps": round(s.total / elapsed, 1),
        "status_histogram": dict(status_hist),
        "client_errors": dict(errs),
        "client_errors_by_kind": {k: dict(v) for k, v in s.errors.items()},
        "by_kind": {k: {str(st): n for st, n in v.items()} for k, v in sorted(s.status.items())},
        "latency_ms": {k: {"p50": pct(v, 50), "p99": pct(v, 99), "max": pct(v, 100)} for k, v in sorted(s.lat.items())},
        "unexpected": {"%s %s" % k: n for k, n in s.unexpected.items()},
        "upstream_fault_502_504": {"%s %s" % k: n for k, n in s.fault_ok.items()},
        "raw_malformed": {k: dict(v) for k, v in s.raw.items()},
        "raw_deviation_from_contract": {"%s -> %s" % k: n for k, n in s.raw_deviation.items()},
        "slow_clients": slow,
        "fault_schedule": FAULT["schedule"],
        "examples": s.examples,
    }


def main():
    global START
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--stub", required=True)
    ap.add_argument("--duration", type=float, default=600)
    ap.add_argument("--rate", type=float, default=150, help="total requests per second (bounded)")
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--slow", type=int, default=20, help="concurrent slow clients")
    ap.add_argument("--fault-interval", type=float, default=30)
    ap.add_argument("--fault-grace", type=float, default=8, help="502/504 accepted this long after a fault")
    ap.add_argument("--skip-grace", type=float, default=65,
                    help="503 upstream-paused (the steward skipping a failed provider) accepted this long after "
                         "a fault: the breaker's longest opening (60 s) plus margin")
    ap.add_argument("--header-timeout", type=float, default=5)
    ap.add_argument("--idle-timeout", type=float, default=10)
    ap.add_argument("--timeout", type=float, default=15, help="client timeout per request")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-kinds", default="", help="comma-separated kinds to leave out (e.g. batch)")
    ap.add_argument("--out")
    a = ap.parse_args()
    SKIP_GRACE["seconds"] = a.skip_grace
    for k in filter(None, a.skip_kinds.split(",")):
        if k not in KINDS:
            ap.error("unknown kind %s (known: %s)" % (k, ", ".join(KINDS)))
        del KINDS[k]
    START = time.time()
    counter = {"lock": threading.Lock(), "n": 0, "base": int(time.time()) % 100000 * 10000}
    threads = [Worker(a, a.seed * 1000 + i, counter) for i in range(a.workers)]
    threads.append(threading.Thread(target=fault_cycler, args=(a,), daemon=True))
    threads.append(threading.Thread(target=slow_manager, args=(a,), daemon=True))
    for t in threads:
        t.start()
    end = START + a.duration
    last = 0
    while time.time() < end:
        time.sleep(min(1.0, max(0.0, end - time.time())))
        if time.time() - last >= 10:
            last = time.time()
            with STATS.lock:
                unexpected = sum(STATS.unexpected.values())
                errors = sum(sum(c.values()) for c in STATS.errors.values())
                total = STATS.total
            print("[soak %5.0fs] requests %d, unexpected %d, client errors %d, fault %s" % (
                time.time() - START, total, unexpected, errors, FAULT["mode"]), file=sys.stderr, flush=True)
    STOP.set()
    for t in threads:
        t.join(timeout=a.timeout + 5)
    out = summary(a, time.time() - START)
    text = json.dumps(out, indent=1)
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
