"""The signal state every child a harness script starts gets: every signal at its default
action and none blocked, exactly as when started from a terminal.

`make test` started from a background job (`make test &`) inherits SIGINT and SIGQUIT
ignored, and a shell started with a signal ignored can never trap it: a Ctrl-C sent to
`make cluster` or `make demo` would never arrive. Swift tests get the same from TestSupport's
`ChildProcess`.

    from default_signals import default_signals   (scripts/*.py: the script's directory is on sys.path)
    subprocess.Popen([...], preexec_fn=default_signals)
"""
import signal


def default_signals():
    """Run in the child before exec (`preexec_fn`)."""
    for number in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
