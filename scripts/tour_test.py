#!/usr/bin/env python3
"""Runs every command of the two tours, the README's short one and docs/tour.md, against
`make demo` and checks that each prints what its document shows.

The tours are the README section "## Quick tour" and the whole of docs/tour.md: each
```console block holds `$ command` lines, each followed by the output the document promises.
For each tour this script starts its own scripts/demo.sh on a free port (stub upstream with
fixed rates, the admin token in $TOKEN; a fresh cache, so each tour starts as a reader who ran
only it), runs the commands in document order with bash in a scratch directory
(`localhost:8080` pointed at the demo's port), and compares each output with the document's:

  * `…` in a tour stands for text left out (any characters, across lines);
  * values that differ on every run are compared by shape, not value: HTTP dates, ISO 8601
    and CoinDesk-style times, `X-Request-ID`, `ETag`, `Age`, `max-age=N`, `ttl=N`.

Everything else must match exactly. Exit 0 when every command matched; the last line is
"N passed, M failed" (both tours together).

  scripts/tour_test.py                 run and compare (what `make test` does)
  scripts/tour_test.py --record        print each command with what it printed now, to
                                       update the tours after a change of output
  DEMO_SKIP_BUILD=1                    reuse .build/release/almanac
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from default_signals import default_signals
from free_port import free_port

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


# Each tour: the document, and the heading of its section (None: the whole document).
TOURS = [("README.md", "## Quick tour"), (os.path.join("docs", "tour.md"), None)]


def tour_commands(path, heading):
    """(command, expected output) pairs of one tour, in order."""
    text = open(path, encoding="utf-8").read()
    section = text
    if heading is not None:
        start = text.index("\n" + heading)
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


def run_tour(document, heading, record):
    """Runs one tour against a demo of its own; returns (passed, failed)."""
    port = free_port()
    token = "demo-admin-token"
    env = dict(os.environ, DEMO_PORT=str(port), TOKEN=token)
    demo = subprocess.Popen([os.path.join(ROOT, "scripts", "demo.sh")], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            preexec_fn=default_signals)
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
                    print(f"tour: make demo did not come up for {document}", file=sys.stderr)
                    return 0, 1
                time.sleep(0.1)
        scratch = tempfile.mkdtemp(prefix="almanac-tour.")
        commands = tour_commands(os.path.join(ROOT, document), heading)
        if not commands:
            print(f"tour: {document} has no console commands", file=sys.stderr)
            return 0, 1
        if record:
            print(f"## {document}\n")
        for command, expected in commands:
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
                print(f"tour: MISMATCH in {document} for: $ {command}\n--- {document} shows:\n{expected}\n"
                      f"--- printed:\n{actual}\n--- stderr:\n{result.stderr}", file=sys.stderr)
    finally:
        try:
            os.killpg(demo.pid, signal.SIGTERM)
            demo.wait(timeout=20)
        except ProcessLookupError:
            pass  # the demo already ended (it printed why)
        except subprocess.TimeoutExpired:
            os.killpg(demo.pid, signal.SIGKILL)
    return passed, failed


def main():
    record = "--record" in sys.argv[1:]
    passed, failed = 0, 0
    for document, heading in TOURS:
        tour_passed, tour_failed = run_tour(document, heading, record)
        passed, failed = passed + tour_passed, failed + tour_failed
    if not record:
        print(f"tour: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
