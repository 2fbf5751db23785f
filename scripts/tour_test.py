#!/usr/bin/env python3
"""Runs every command of the README's quick tour against `make demo` and checks that it prints
what the README shows.

The tour is the README section "## Quick tour": each ```console block holds `$ command` lines,
each followed by the output the README promises. This script starts scripts/demo.sh on a free
port (stub upstream with fixed rates, the admin token in $TOKEN), runs the commands in README
order with bash in a scratch directory (`localhost:8080` pointed at the demo's port), and
compares each output with the README's:

  * `…` in the README stands for text left out (any characters, across lines);
  * values that differ on every run are compared by shape, not value: HTTP dates, ISO 8601
    and CoinDesk-style times, `X-Request-ID`, `ETag`, `Age`, `max-age=N`, `ttl=N`.

Everything else must match exactly. Exit 0 when every command matched; the last line is
"N passed, M failed".

  scripts/tour_test.py                 run and compare (what `make test` does)
  scripts/tour_test.py --record        print each command with what it printed now, to
                                       update the README after a change of output
  DEMO_SKIP_BUILD=1                    reuse .build/release/almanac
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MASKS = [
    (re.compile(r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT"), "<http-date>"),
    (re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})"), "<iso-time>"),
    (re.compile(r"[A-Z][a-z]{2} \d{1,2}, \d{4} (?:at )?\d{2}:\d{2}(?::\d{2})? (?:UTC|GMT|BST)"), "<time>"),
    (re.compile(r"(?im)^(X-Request-ID: ).*$"), r"\1<request-id>"),
    (re.compile(r"(?im)^(ETag: ).*$"), r"\1<etag>"),
    (re.compile(r"(?im)^(Age: )\d+$"), r"\1<n>"),
    (re.compile(r"max-age=\d+"), "max-age=<n>"),
    (re.compile(r"ttl=\d+"), "ttl=<n>"),
]


def tour_commands(readme):
    """(command, expected output) pairs of the quick tour, in order."""
    text = open(readme, encoding="utf-8").read()
    start = text.index("\n## Quick tour")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end > 0 else len(text)]
    pairs = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        command, output, continued = None, [], False
        for line in block.split("\n"):
            if continued:
                # A command continued with a trailing backslash, as a shell reads it.
                command = command[:-1] + " " + line.strip()
                continued = command.endswith("\\")
            elif line.startswith("$ "):
                if command is not None:
                    pairs.append((command, "\n".join(output).rstrip("\n")))
                command, output = line[2:], []
                continued = command.endswith("\\")
            elif command is not None:
                output.append(line)
        if command is not None:
            pairs.append((command, "\n".join(output).rstrip("\n")))
    return pairs


def mask(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def matches(expected, actual):
    pattern = "".join(".*?" if part == "…" else re.escape(part)
                      for part in re.split("(…)", mask(expected)))
    return re.fullmatch(pattern, mask(actual), re.S) is not None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    record = "--record" in sys.argv[1:]
    port = free_port()
    token = "demo-admin-token"
    env = dict(os.environ, DEMO_PORT=str(port), TOKEN=token)
    demo = subprocess.Popen([os.path.join(ROOT, "scripts", "demo.sh")], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    passed, failed = 0, 0
    try:
        deadline = time.time() + 600
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
                break
            except OSError:
                if demo.poll() is not None or time.time() > deadline:
                    print(demo.stdout.read() if demo.stdout else "", file=sys.stderr)
                    print("tour: make demo did not come up", file=sys.stderr)
                    print("0 passed, 1 failed")
                    return 1
                time.sleep(0.1)
        scratch = tempfile.mkdtemp(prefix="almanac-tour.")
        for command, expected in tour_commands(os.path.join(ROOT, "README.md")):
            run = command.replace("localhost:8080", f"localhost:{port}")
            result = subprocess.run(["bash", "-c", run], cwd=scratch, env=dict(os.environ, TOKEN=token),
                                    capture_output=True, text=True, timeout=60)
            actual = result.stdout.replace("\r\n", "\n").rstrip("\n")
            if record:
                print(f"$ {command}\n{actual}\n")
                continue
            if matches(expected.replace("localhost:8080", f"localhost:{port}"), actual):
                passed += 1
            else:
                failed += 1
                print(f"tour: MISMATCH for: $ {command}\n--- README shows:\n{expected}\n--- printed:\n{actual}\n"
                      f"--- stderr:\n{result.stderr}", file=sys.stderr)
    finally:
        try:
            os.killpg(demo.pid, signal.SIGTERM)
            demo.wait(timeout=20)
        except ProcessLookupError:
            pass  # the demo already ended (it printed why)
        except subprocess.TimeoutExpired:
            os.killpg(demo.pid, signal.SIGKILL)
    if not record:
        print(f"tour: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
