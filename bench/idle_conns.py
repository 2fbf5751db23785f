#!/usr/bin/env python3
"""Memory cost of idle keep-alive connections (stdlib only, asyncio).

Opens N TCP connections to HOST:PORT (in batches), sends one HTTP/1.1 request on each,
reads the whole response (Content-Length), then holds the connections idle. Measures
VmRSS (sum over --pid, e.g. nginx master + workers) from /proc/PID/status before
opening and after all connections are idle, and checks how many are still open after
--hold seconds. Prints one JSON object.

With --silent the N connections send nothing at all (connect and hold). With --probes K,
once the N connections are held (and RSS measured), K new connections are made one after the
other, each sending one request: when the server's connection limit equals N, every slot is
held, and the probes show what a newcomer gets at the limit (status, time to the whole
answer; a probe that gets no answer within --probe-timeout counts as an error). Answered
probes stay open (idle) until the end, so each probe finds every slot held again. The
liveness check afterwards counts how many held connections the server closed to make room.

  idle_conns.py --port 8080 --pid 1234 -n 5000 [--path /v1/rates] [--hold 5] [--probes 20] [--silent]

The client needs N+ fds: run with `ulimit -n 20000`.
"""

import argparse
import asyncio
import json
import os
import resource
import sys
import time


def rss_kib(pids):
    total = 0
    for pid in pids:
        with open("/proc/%d/status" % pid) as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def expand_pids(pids, children):
    out = list(pids)
    if children:
        for pid in pids:
            try:
                with open("/proc/%d/task/%d/children" % (pid, pid)) as fh:
                    out += [int(x) for x in fh.read().split()]
            except OSError:
                pass
    return out


async def read_response(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    if length:
        await reader.readexactly(length)
    return status


async def open_one(host, port, request, conns, errors, statuses):
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(request)
        status = await asyncio.wait_for(read_response(reader), 30)
        statuses[status] = statuses.get(status, 0) + 1
        conns.append((reader, writer))
    except Exception as e:  # noqa: BLE001 — counted and reported
        key = type(e).__name__
        errors[key] = errors.get(key, 0) + 1


async def probe(host, port, request, timeout, kept):
    """One newcomer: connect, one request, the whole answer; the connection is appended to
    `kept` (closed by the caller at the end). Returns (status or error name, ms)."""
    t0 = time.perf_counter()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        kept.append(writer)
        writer.write(request)
        status = await asyncio.wait_for(read_response(reader), timeout)
        return str(status), (time.perf_counter() - t0) * 1000
    except Exception as e:  # noqa: BLE001 — reported as the probe's outcome
        return type(e).__name__, (time.perf_counter() - t0) * 1000


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 2)


async def open_silent(host, port, _request, conns, errors, _statuses):
    """A connection that never sends a byte."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
        conns.append((reader, writer))
    except Exception as e:  # noqa: BLE001 — counted and reported
        key = type(e).__name__
        errors[key] = errors.get(key, 0) + 1


async def main_async(a):
    pids = expand_pids(a.pid, a.children)
    request = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: idle_conns\r\n\r\n" % (a.path, a.host, a.port)).encode()
    await asyncio.sleep(0.5)
    before = rss_kib(pids)
    conns, errors, statuses = [], {}, {}
    t0 = time.time()
    opener = open_silent if a.silent else open_one
    for i in range(0, a.n, a.batch):
        await asyncio.gather(*(opener(a.host, a.port, request, conns, errors, statuses)
                               for _ in range(min(a.batch, a.n - i))))
    opened_s = time.time() - t0
    await asyncio.sleep(a.settle)
    after = rss_kib(pids)
    probe_outcomes, probe_ms, probe_conns = {}, [], []
    for _ in range(a.probes):
        outcome, ms = await probe(a.host, a.port, request, a.probe_timeout, probe_conns)
        probe_outcomes[outcome] = probe_outcomes.get(outcome, 0) + 1
        probe_ms.append(ms)
    # Still open? A closed connection reads EOF immediately; an open one times out.
    await asyncio.sleep(a.hold)

    async def alive(reader):
        try:
            data = await asyncio.wait_for(reader.read(1), 0.05)
            return False if data == b"" else True
        except asyncio.TimeoutError:
            return True
        except Exception:  # noqa: BLE001
            return False
    alive_flags = []
    for i in range(0, len(conns), 2000):
        alive_flags += await asyncio.gather(*(alive(r) for r, _ in conns[i:i + 2000]))
    still_open = sum(1 for x in alive_flags if x)
    for _, w in conns:
        w.close()
    for w in probe_conns:
        w.close()
    n_ok = len(conns)
    return {"target": "%s:%d" % (a.host, a.port), "pids": pids, "requested": a.n, "opened": n_ok,
            "errors": errors, "statuses": statuses, "open_seconds": round(opened_s, 2),
            "rss_before_kib": before, "rss_after_kib": after,
            "rss_delta_kib": after - before,
            "bytes_per_conn": round((after - before) * 1024 / n_ok, 1) if n_ok else None,
            "still_open_after_hold": still_open, "hold_seconds": a.settle + a.hold,
            "mode": "silent" if a.silent else "idle",
            "probes": a.probes, "probe_outcomes": probe_outcomes,
            "probes_ok": probe_outcomes.get("200", 0),
            "probe_p50_ms": percentile(probe_ms, 50), "probe_max_ms": round(max(probe_ms), 2) if probe_ms else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, action="append", required=True, help="server PID(s); repeatable")
    ap.add_argument("--children", action="store_true", help="also count the PIDs' children (nginx workers)")
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--path", default="/v1/rates")
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--settle", type=float, default=2.0, help="seconds idle before measuring RSS")
    ap.add_argument("--hold", type=float, default=3.0, help="further seconds idle before the liveness check")
    ap.add_argument("--silent", action="store_true", help="hold connections that never send a byte")
    ap.add_argument("--probes", type=int, default=0, help="new connections tried one by one while the N are held")
    ap.add_argument("--probe-timeout", type=float, default=2.0, help="seconds a probe may take for its whole answer")
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < a.n + 100:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, a.n + 1000), hard))
        except (ValueError, OSError):
            print("warning: fd limit %d < %d" % (soft, a.n + 100), file=sys.stderr)
    print(json.dumps(asyncio.run(main_async(a))))


if __name__ == "__main__":
    main()
