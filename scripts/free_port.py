#!/usr/bin/env python3
"""A 127.0.0.1 TCP port for a server a script is about to start, chosen by the same rule as the
Swift tests' `freeLoopbackPort()` (Sources/TestSupport/LoopbackPort.swift).

Binding port 0 and handing the number out races on a busy machine: that number comes from the
kernel's ephemeral range, and another process's outgoing connection can take it as its local
port before the server binds it. So ports come from OUTSIDE the ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range, default 32768-60999), from a counter with a random
start (parallel runs rarely meet), each checked by binding it on 127.0.0.1 (ports in use are
skipped).

    from free_port import free_port          (scripts/*.py: the script's directory is on sys.path)
    python3 scripts/free_port.py [COUNT]     (shell: prints COUNT distinct ports, one a line)
"""
import random
import socket
import sys

EPHEMERAL_DEFAULT = (32768, 60999)


def ephemeral_range(path="/proc/sys/net/ipv4/ip_local_port_range"):
    """The kernel's ephemeral range, or Linux's default when it cannot be read or parsed."""
    try:
        with open(path, encoding="ascii") as f:
            fields = f.read().split()
        low, high = int(fields[0]), int(fields[1])
        if len(fields) == 2 and 1 <= low <= high <= 65535:
            return low, high
    except (OSError, ValueError, IndexError):
        pass
    return EPHEMERAL_DEFAULT


def outside_range(ephemeral):
    """The wider unprivileged stretch beside `ephemeral`, kept above 10000 where there is room
    (well-known services live lower); 10000-32767 when neither side has 1000 ports."""
    low, high = ephemeral
    sides = [(1024, low - 1), (high + 1, 65535)]
    sides = [s for s in sides if s[1] - s[0] + 1 >= 1000]
    if not sides:
        return 10000, 32767
    first, last = max(sides, key=lambda s: s[1] - s[0])
    if first < 10000 and last - 10000 >= 1000:
        first = 10000
    return first, last


def binds_on_loopback(port):
    """True when a plain socket (no SO_REUSEADDR: TIME_WAIT or any listener counts as taken)
    binds 127.0.0.1:port."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


_FIRST, _LAST = outside_range(ephemeral_range())
_cursor = random.randint(_FIRST, _LAST)


def free_port():
    """The next port of the range that binds on 127.0.0.1 now; raises after 4096 candidates."""
    global _cursor
    for _ in range(min(4096, _LAST - _FIRST + 1)):
        port = _cursor
        _cursor = _FIRST if _cursor >= _LAST else _cursor + 1
        if binds_on_loopback(port):
            return port
    raise OSError("no free 127.0.0.1 port in %d-%d" % (_FIRST, _LAST))


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for _ in range(count):
        print(free_port())
