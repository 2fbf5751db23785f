#!/usr/bin/env python3
"""The harness scripts `make test` does not run (soak, slow clients, REDbot, Schemathesis, the
benches) must still parse: every shell script passes `bash -n`, every Python file compiles,
and so does every Python program embedded in a shell script as a here-document
(`python3 - <<'PY' … PY`), whose syntax no other check sees. A broken quote in the soak's
report once went unnoticed until a ten-minute run ended in a SyntaxError.

    python3 scripts/check_scripts.py        (part of `make test`; exit 1 on any failure)
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMBEDDED = re.compile(
    r"""(?:python3|\$PYTHON"?|\$\{PYTHON\}"?)\s+-[^\n]*<<-?\s*['"]?(\w+)['"]?\n(.*?)\n\s*\1\s*\n""", re.S)


def main():
    os.chdir(ROOT)
    shell = sorted(glob.glob("scripts/*.sh") + glob.glob("bench/**/*.sh", recursive=True) + glob.glob(".ci/*"))
    python = sorted(glob.glob("scripts/*.py") + glob.glob("bench/**/*.py", recursive=True))
    failures, embedded = [], 0
    for path in shell:
        with open(path, "rb") as f:
            first = f.readline()
        if not first.startswith(b"#!") or b"sh" not in first:
            continue
        result = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
        if result.returncode != 0:
            failures.append("%s: bash -n: %s" % (path, result.stderr.strip()))
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for match in EMBEDDED.finditer(text):
            embedded += 1
            line = text.count("\n", 0, match.start(2)) + 1
            try:
                compile(match.group(2), "%s (embedded at line %d)" % (path, line), "exec")
            except SyntaxError as e:
                failures.append("%s: embedded Python from line %d: %s (its line %s)" % (path, line, e.msg, e.lineno))
    for path in python:
        with open(path, encoding="utf-8") as f:
            try:
                compile(f.read(), path, "exec")
            except SyntaxError as e:
                failures.append("%s: %s (line %s)" % (path, e.msg, e.lineno))
    for failure in failures:
        print("check_scripts: " + failure, file=sys.stderr)
    print("check_scripts: %d shell scripts, %d embedded Python programs, %d Python files: %s"
          % (len(shell), embedded, len(python), "%d failure(s)" % len(failures) if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
