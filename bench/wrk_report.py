#!/usr/bin/env python3
"""Parse wrk output and summarise runs (stdlib only).

  wrk_report.py parse WRK_OUTPUT_FILE key=value ...   -> one JSON line
  wrk_report.py summary RUNS.jsonl                    -> markdown table (medians)
"""

import json
import re
import statistics
import sys

UNIT = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def to_ms(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text.strip())
    return float(m.group(1)) * UNIT[m.group(2)] if m else None


def parse(path, labels):
    out = dict(kv.split("=", 1) for kv in labels)
    txt = open(path, errors="replace").read()
    m = re.search(r"Requests/sec:\s+([\d.]+)", txt)
    out["rps"] = float(m.group(1)) if m else None
    for p in ("50", "75", "90", "99"):
        m = re.search(r"^\s+%s%%\s+(\S+)" % p, txt, re.M)
        out["p%s_ms" % p] = to_ms(m.group(1)) if m else None
    m = re.search(r"(\d+) requests in", txt)
    out["requests"] = int(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", txt)
    out["non2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", txt)
    out["socket_errors"] = sum(int(x) for x in m.groups()) if m else 0
    # Server CPU per hit, when the bench measured the server's CPU ticks over the run.
    if out.get("cpu_ticks") and out.get("clk_tck") and out["requests"]:
        out["cpu_us_per_hit"] = int(out["cpu_ticks"]) * 1e6 / int(out["clk_tck"]) / out["requests"]
    return out


def fmt(x, nd=2):
    return "—" if x is None else ("%.*f" % (nd, x))


def summary(path):
    runs = [json.loads(l) for l in open(path) if l.strip()]
    groups = {}
    for r in runs:
        groups.setdefault((r.get("conns"), r.get("server")), []).append(r)
    med = {}
    for k, rs in groups.items():
        def m(f):
            vals = [r[f] for r in rs if r.get(f) is not None]
            return statistics.median(vals) if vals else None
        med[k] = {"rps": m("rps"), "p50": m("p50_ms"), "p99": m("p99_ms"), "n": len(rs),
                  "non2xx": sum(r.get("non2xx") or 0 for r in rs),
                  "errs": sum(r.get("socket_errors") or 0 for r in rs),
                  "all_rps": [r.get("rps") for r in rs], "cpu": m("cpu_us_per_hit"),
                  "all_cpu": [r.get("cpu_us_per_hit") for r in rs]}
    lines = ["| connections | server | runs | req/s (median) | p50 ms | p99 ms | non-2xx | socket errors | req/s of each run |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (c, s) in sorted(med, key=lambda k: (int(k[0]), k[1])):
        v = med[(c, s)]
        lines.append("| %s | %s | %d | %s | %s | %s | %d | %d | %s |" % (
            c, s, v["n"], fmt(v["rps"], 0), fmt(v["p50"], 3), fmt(v["p99"], 3), v["non2xx"], v["errs"],
            ", ".join(fmt(x, 0) for x in v["all_rps"])))
    lines += ["", "| connections | almanac/nginx req/s (target ≥ 0.80) | almanac/nginx p99 (target ≤ 1.25) |",
              "| --- | --- | --- |"]
    for c in sorted({k[0] for k in med}, key=int):
        a, n = med.get((c, "almanac")), med.get((c, "nginx"))
        if not a or not n:
            continue
        r = a["rps"] / n["rps"] if a["rps"] and n["rps"] else None
        p = a["p99"] / n["p99"] if a["p99"] and n["p99"] else None
        lines.append("| %s | %s %s | %s %s |" % (
            c, fmt(r), "" if r is None else ("✅" if r >= 0.8 else "❌"),
            fmt(p), "" if p is None else ("✅" if p <= 1.25 else "❌")))
    lines += cpu_lines(med)
    return "\n".join(lines)


def cpu_lines(med):
    """Server CPU per hit (µs, median of the runs) and its ratios to nginx and the floor."""
    if not any(v["cpu"] for v in med.values()):
        return []
    lines = ["", "| connections | server | CPU µs per hit (median) | CPU µs per hit of each run |", "| --- | --- | --- | --- |"]
    for (c, s) in sorted(med, key=lambda k: (int(k[0]), k[1])):
        v = med[(c, s)]
        lines.append("| %s | %s | %s | %s |" % (c, s, fmt(v["cpu"]), ", ".join(fmt(x) for x in v["all_cpu"])))
    lines += ["", "| connections | almanac/nginx CPU per hit (target ≤ 0.80) | almanac/floor CPU per hit (target ≤ 1.30) | nginx/floor |",
              "| --- | --- | --- | --- |"]
    for c in sorted({k[0] for k in med}, key=int):
        cpu = {s: (med.get((c, s)) or {}).get("cpu") for s in ("almanac", "nginx", "floor")}
        def ratio(a, b, target=None):
            if not cpu[a] or not cpu[b]:
                return "—"
            r = cpu[a] / cpu[b]
            return fmt(r) + ("" if target is None else (" ✅" if r <= target else " ❌"))
        lines.append("| %s | %s | %s | %s |" % (c, ratio("almanac", "nginx", 0.8), ratio("almanac", "floor", 1.3), ratio("nginx", "floor")))
    lines += index_lines(med)
    return lines


def index_lines(med):
    """The price index's cost on a hit: almanac (index on) against the same binary with it off."""
    conns = sorted({k[0] for k in med if k[1] == "almanac-index-off"}, key=int)
    if not conns:
        return []
    lines = ["", "| connections | almanac / almanac-index-off CPU per hit (same cost: ≈ 1.00) | almanac / almanac-index-off req/s |", "| --- | --- | --- |"]
    for c in conns:
        on, off = med.get((c, "almanac")) or {}, med.get((c, "almanac-index-off")) or {}
        cpu = on["cpu"] / off["cpu"] if on.get("cpu") and off.get("cpu") else None
        rps = on["rps"] / off["rps"] if on.get("rps") and off.get("rps") else None
        lines.append("| %s | %s | %s |" % (c, fmt(cpu), fmt(rps)))
    return lines


if __name__ == "__main__":
    if sys.argv[1] == "parse":
        print(json.dumps(parse(sys.argv[2], sys.argv[3:])))
    else:
        print(summary(sys.argv[2]))
