"""ISBN helpers shared by the evidence drivers (stdlib only)."""


def check13(first12):
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(first12))
    return str((10 - s % 10) % 10)


def isbn13(n, prefix="9781"):
    """A valid ISBN-13 built from a prefix and a counter (distinct n -> distinct ISBN)."""
    body = prefix + ("%0*d" % (12 - len(prefix), n % 10 ** (12 - len(prefix))))
    return body + check13(body)


def unknown_isbn13(n):
    """Valid ISBN-13 the stub upstream knows nowhere (digits 4..6 are 999)."""
    return isbn13(n, prefix="978999")


def isbn979(n):
    """Valid 979 ISBN-13: unknown to the stub's google-books, known to open-library."""
    return isbn13(n, prefix="9798")
