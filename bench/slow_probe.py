#!/usr/bin/env python3
"""Time-to-close of individual slow connections (stdlib only).

  slow_probe.py --port P [-n 5] [--header-timeout 5] [--idle-timeout 10]

Runs n connections of each mode at once, reusing soak_driver.slow_client:
  slow_headers   request line, then one header line per second, forever
  slow_body      POST with Content-Length: 500, then one body byte per second
  idle_keepalive one complete request and response, then silence
and prints JSON: per mode, seconds until the server closed each connection, and how
(e.g. "closed after 408"). Configured limits: header timeout for the first two, the
idle timeout for the last.
"""
import argparse
import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak_driver as sd  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("-n", type=int, default=5)
ap.add_argument("--header-timeout", type=float, default=5)
ap.add_argument("--idle-timeout", type=float, default=10)
a = ap.parse_args()
threads = [threading.Thread(target=sd.slow_client, args=(a, m)) for m in ("slow_headers", "slow_body", "idle_keepalive")
           for _ in range(a.n)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(sd.summary(a, 1.0)["slow_clients"]))
