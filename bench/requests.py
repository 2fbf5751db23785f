#!/usr/bin/env python3
"""Request patterns for bench.sh (stdlib only).

  requests.py burst --port P [--port P2 ...] --path /v1/books/9780306406157 -n 1000
      open N connections first (spread over the ports in turn: one per replica of a
      cluster), then send one GET on each at the same instant;
      prints JSON: status and X-Cache histograms, how many Cache-Status values say
      `collapsed` (RFC 9211: answered by a load another request started), latency
      p50/p99/max, errors.
  requests.py seq --port P -n 100 [--start K] [--prefix 9781]
      N sequential GETs of /v1/books/{distinct valid ISBN} on one keep-alive
      connection (each a cache miss); prints JSON histograms, p50/p99/p999, and how
      many answers came from a cluster's shared cache (`Cache-Status: …; detail=redis`).
      The same --start and --prefix ask for the same N ISBNs again.
"""

import argparse
import asyncio
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isbn  # noqa: E402


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    hdrs = {}
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        if k:
            hdrs[k.strip().lower().decode()] = v.strip().decode("latin-1")
    n = int(hdrs.get("content-length", "0"))
    body = await reader.readexactly(n) if n else b""
    return status, hdrs, body


def pct(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


async def burst(a):
    req = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" % a.path).encode()
    conns, errors = [], {}

    async def connect(port):
        try:
            conns.append(await asyncio.open_connection("127.0.0.1", port))
        except Exception as e:  # noqa: BLE001
            errors["connect:" + type(e).__name__] = errors.get("connect:" + type(e).__name__, 0) + 1
    for i in range(0, a.n, 250):
        await asyncio.gather(*(connect(a.port[(i + k) % len(a.port)]) for k in range(min(250, a.n - i))))
    statuses, xcache, lat = {}, {}, []
    collapsed = [0]
    go = asyncio.Event()

    async def one(reader, writer):
        await go.wait()
        t0 = time.perf_counter()
        try:
            writer.write(req)
            st, h, _ = await asyncio.wait_for(read_response(reader), a.timeout)
            lat.append((time.perf_counter() - t0) * 1000)
            statuses[st] = statuses.get(st, 0) + 1
            xc = h.get("x-cache", "-")
            xcache[xc] = xcache.get(xc, 0) + 1
            if "collapsed" in [p.strip() for p in h.get("cache-status", "").split(";")]:
                collapsed[0] += 1
        except Exception as e:  # noqa: BLE001
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
        finally:
            writer.close()
    tasks = [asyncio.create_task(one(r, w)) for r, w in conns]
    await asyncio.sleep(0.2)
    go.set()
    await asyncio.gather(*tasks)
    return {"pattern": "burst", "path": a.path, "ports": a.port, "n": a.n, "connected": len(conns), "statuses": statuses,
            "x_cache": xcache, "collapsed": collapsed[0], "errors": errors, "p50_ms": round(pct(lat, 50) or 0, 2),
            "p99_ms": round(pct(lat, 99) or 0, 2), "max_ms": round(max(lat) if lat else 0, 2)}


async def seq(a):
    statuses, xcache, lat, errors = {}, {}, [], {}
    from_redis = [0]
    reader = writer = None
    for i in range(a.n):
        code = isbn.isbn13(a.start + i, prefix=a.prefix)
        req = ("GET /v1/books/%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % code).encode()
        t0 = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", a.port[0])
            writer.write(req)
            st, h, _ = await asyncio.wait_for(read_response(reader), a.timeout)
            lat.append((time.perf_counter() - t0) * 1000)
            statuses[st] = statuses.get(st, 0) + 1
            xc = h.get("x-cache", "-")
            xcache[xc] = xcache.get(xc, 0) + 1
            if "detail=redis" in h.get("cache-status", ""):
                from_redis[0] += 1
            if h.get("connection", "").lower() == "close":
                writer.close()
                writer = None
        except Exception as e:  # noqa: BLE001
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
            if writer is not None:
                writer.close()
            writer = None
    if writer is not None:
        writer.close()
    return {"pattern": "seq", "n": a.n, "statuses": statuses, "x_cache": xcache, "from_redis": from_redis[0], "errors": errors,
            "p50_ms": round(pct(lat, 50) or 0, 3), "p99_ms": round(pct(lat, 99) or 0, 3),
            "p999_ms": round(pct(lat, 99.9) or 0, 3)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pattern", choices=["burst", "seq"])
    ap.add_argument("--port", type=int, action="append", required=True,
                    help="repeat for several servers (burst spreads its connections over them)")
    ap.add_argument("--path", default="/v1/books/9780306406157")
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--start", type=int, default=int(time.time()) % 10 ** 6 * 1000)
    ap.add_argument("--prefix", default="9781")
    ap.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    fn = burst if a.pattern == "burst" else seq
    print(json.dumps(asyncio.run(fn(a))))


if __name__ == "__main__":
    main()
