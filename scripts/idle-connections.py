#!/usr/bin/env python3
"""Opens N keep-alive connections to 127.0.0.1:PORT, makes one request on each, then holds
them idle until killed. Prints "ready <n>" once every connection got its answer.
Used by scripts/bench-server.sh to measure memory per idle connection.

  idle-connections.py PORT N [PROBES GO_FILE]

With PROBES and GO_FILE: once GO_FILE exists (the caller creates it after measuring memory),
PROBES new connections are made one after the other, each sending one request and staying
open once answered (so, at a connection limit of N, each finds every slot held), and one
line "probes <answered 200> <tried> <p50 ms> <max ms>" is printed."""
import asyncio, os, resource, sys, time

async def request(port, conns):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /rates HTTP/1.1\r\nHost: bench\r\n\r\n")
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)
    conns.append((reader, writer))
    return int(head.split(b" ", 2)[1])

async def one(port, sem, conns):
    async with sem:
        await request(port, conns)

async def probe(port, conns):
    t0 = time.perf_counter()
    try:
        status = await asyncio.wait_for(request(port, conns), 2)
    except Exception:  # noqa: BLE001 — a failed probe is what this reports
        status = None
    return status, (time.perf_counter() - t0) * 1000

async def main():
    port, n = int(sys.argv[1]), int(sys.argv[2])
    probes = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    go_file = sys.argv[4] if len(sys.argv) > 4 else None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sem, conns = asyncio.Semaphore(200), []
    await asyncio.gather(*(one(port, sem, conns) for _ in range(n)))
    print(f"ready {len(conns)}", flush=True)
    if probes and go_file:
        while not os.path.exists(go_file):
            await asyncio.sleep(0.05)
        results = [await probe(port, conns) for _ in range(probes)]
        times = sorted(ms for _, ms in results)
        ok = sum(1 for status, _ in results if status == 200)
        print(f"probes {ok} {probes} {times[len(times) // 2]:.2f} {times[-1]:.2f}", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
