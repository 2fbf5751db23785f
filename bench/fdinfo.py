#!/usr/bin/env python3
"""Classify a process's open fds (stdlib only, Linux /proc).

  fdinfo.py PID --server-port P [--upstream-port U]  -> JSON
    total, sockets, listen, client_conns (TCP sockets whose local port is P, not
    LISTEN), upstream_conns (remote port U), other_sockets, files, pipes, other,
    rss_kib, threads, client_states (TCP state histogram of client conns).
"""

import argparse
import json
import os

STATES = {"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
          "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN",
          "0B": "CLOSING"}


def tcp_table():
    table = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as fh:
                next(fh)
                for line in fh:
                    f = line.split()
                    lport = int(f[1].rsplit(":", 1)[1], 16)
                    rport = int(f[2].rsplit(":", 1)[1], 16)
                    table[f[9]] = (lport, rport, STATES.get(f[3], f[3]))
        except OSError:
            pass
    return table


def info(pid, server_port, upstream_port):
    out = {"pid": pid, "total": 0, "sockets": 0, "listen": 0, "client_conns": 0, "upstream_conns": 0,
           "other_sockets": 0, "files": 0, "pipes": 0, "other": 0, "client_states": {}}
    table = tcp_table()
    fddir = "/proc/%d/fd" % pid
    for fd in os.listdir(fddir):
        try:
            target = os.readlink(os.path.join(fddir, fd))
        except OSError:
            continue
        out["total"] += 1
        if target.startswith("socket:["):
            out["sockets"] += 1
            t = table.get(target[8:-1])
            if t is None:
                out["other_sockets"] += 1
            elif t[2] == "LISTEN":
                out["listen"] += 1
            elif t[0] == server_port:
                out["client_conns"] += 1
                out["client_states"][t[2]] = out["client_states"].get(t[2], 0) + 1
            elif upstream_port and t[1] == upstream_port:
                out["upstream_conns"] += 1
            else:
                out["other_sockets"] += 1
        elif target.startswith("pipe:"):
            out["pipes"] += 1
        elif target.startswith("/"):
            out["files"] += 1
        else:
            out["other"] += 1
    with open("/proc/%d/status" % pid) as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:", "Threads:")):
                k, v = line.split(":", 1)
                out[{"VmRSS": "rss_kib", "VmHWM": "hwm_kib", "Threads": "threads"}[k]] = int(v.split()[0])
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("pid", type=int)
    ap.add_argument("--server-port", type=int, required=True)
    ap.add_argument("--upstream-port", type=int, default=0)
    a = ap.parse_args()
    print(json.dumps(info(a.pid, a.server_port, a.upstream_port)))
