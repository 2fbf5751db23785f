#!/usr/bin/env python3
"""Opens N keep-alive connections to 127.0.0.1:PORT, makes one request on each, then holds
them idle until killed. Prints "ready <n>" once every connection got its answer.
Used by scripts/bench-server.sh to measure memory per idle connection."""
import asyncio, resource, sys

async def one(port, sem, conns):
    async with sem:
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

async def main():
    port, n = int(sys.argv[1]), int(sys.argv[2])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sem, conns = asyncio.Semaphore(200), []
    await asyncio.gather(*(one(port, sem, conns) for _ in range(n)))
    print(f"ready {len(conns)}", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
