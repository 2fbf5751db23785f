#!/usr/bin/env python3
"""RSS per cached book: loads N distinct books into a running almanac and reports what each costs.

bench/bench-book-memory.sh starts the binary against the stub upstream and runs this. It
asks `GET /v1/books/{isbn}` for WARM distinct books (allocator and code paths warmed, not
counted), reads VmRSS from /proc/PID/status, asks for N more distinct books (each a MISS: one
load, one stored entry), waits SETTLE seconds, reads VmRSS again, then asks one book again
REPEAT times before and after the N were loaded and compares the server's CPU for the two
(a hit must not get slower as the cache fills). Prints one JSON object: rss before/after, bytes per entry, the answers' mean body
bytes and the ratio of the two. Keep-alive connections, CONNECTIONS threads; stdlib only.
"""
import argparse, http.client, json, os, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from isbn import isbn13  # noqa: E402


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS for pid %d" % pid)


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def load(port, numbers, connections, expect):
    """GET /v1/books/{isbn13(n)} for every n, over keep-alive connections; returns body bytes and problems."""
    sizes, problems, lock = [], [], threading.Lock()
    chunks = [numbers[i::connections] for i in range(connections)]

    def worker(chunk):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for n in chunk:
            conn.request("GET", "/v1/books/" + isbn13(n))
            resp = conn.getresponse()
            body = resp.read()
            cache = resp.getheader("X-Cache")
            with lock:
                if resp.status != 200 or (expect and cache != expect):
                    problems.append("%s: %d %s" % (isbn13(n), resp.status, cache))
                sizes.append(len(body))
        conn.close()

    threads = [threading.Thread(target=worker, args=(c,)) for c in chunks if c]
    for t in threads: t.start()
    for t in threads: t.join()
    return sizes, problems


def hit_cpu(a):
    """CPU ticks (1/100 s) the server spends on REPEAT hits of the first book."""
    t0 = cpu_ticks(a.pid)
    _, problems = load(a.port, [1] * a.repeat, a.connections, "HIT")
    if problems:
        raise SystemExit("hits that were not: %s" % problems[:3])
    return cpu_ticks(a.pid) - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--entries", type=int, default=20000)
    ap.add_argument("--warm", type=int, default=200)
    ap.add_argument("--connections", type=int, default=4)
    ap.add_argument("--settle", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=0, help="hits of one book afterwards, for CPU per hit")
    a = ap.parse_args()

    _, warm_problems = load(a.port, list(range(1, a.warm + 1)), a.connections, "MISS")
    few = hit_cpu(a) if a.repeat else None
    time.sleep(a.settle)
    before = rss_kib(a.pid)
    numbers = list(range(a.warm + 1, a.warm + a.entries + 1))
    started = time.time()
    sizes, problems = load(a.port, numbers, a.connections, "MISS")
    seconds = time.time() - started
    time.sleep(a.settle)
    after = rss_kib(a.pid)
    out = {"entries": a.entries, "warm": a.warm, "rss_before_kib": before, "rss_after_kib": after,
           "bytes_per_entry": round((after - before) * 1024 / a.entries),
           "mean_answer_bytes": round(sum(sizes) / len(sizes)) if sizes else None,
           "load_seconds": round(seconds, 1), "problems": len(problems) + len(warm_problems),
           "first_problems": (warm_problems + problems)[:5]}
    out["ratio"] = round(out["bytes_per_entry"] / out["mean_answer_bytes"], 2) if out["mean_answer_bytes"] else None
    if a.repeat:
        many = hit_cpu(a)
        out["hit_cpu_ticks_warm_keys"], out["hit_cpu_ticks_all_keys"] = few, many
        out["hit_cpu_ratio"] = round(many / few, 2) if few else None
    print(json.dumps(out))


if __name__ == "__main__":
    main()
