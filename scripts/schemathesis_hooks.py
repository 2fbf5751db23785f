"""Schemathesis hooks for almanac: strategies for the custom string formats in /openapi.json.

almanac's OpenAPI document marks ISBN parameters with `format: isbn` (and the Google-Books
drop-in's `q` with `format: isbn-query`). JSON Schema treats an unknown format as an
annotation, so other tools still see only the `pattern`; but a pattern cannot express an
ISBN's check digit (ISO 2108: mod 11 for ISBN-10, mod 10 with weights 1,3 for ISBN-13), and
almanac answers 400 with the expected digit when it is wrong, as docs/problems.md#invalid-isbn documents.
Registering the formats here makes Schemathesis' *positive* cases real ISBNs, so its
"schema-valid request rejected" check tests what the contract promises instead of flagging
the checksum. Negative cases (pattern violations) are generated as before.

Loaded by scripts/schemathesis.sh through SCHEMATHESIS_HOOKS=schemathesis_hooks.
"""

import schemathesis
from hypothesis import strategies as st


def _check10(body: list[int]) -> str:
    total = sum((10 - i) * d for i, d in enumerate(body))
    digit = (11 - total % 11) % 11
    return "X" if digit == 10 else str(digit)


def _check13(body: list[int]) -> str:
    total = sum(d * (1 if i % 2 == 0 else 3) for i, d in enumerate(body))
    return str((10 - total % 10) % 10)


@st.composite
def _isbn13(draw) -> str:
    prefix = draw(st.sampled_from([[9, 7, 8], [9, 7, 9]]))
    body = prefix + draw(st.lists(st.integers(0, 9), min_size=9, max_size=9))
    return "".join(map(str, body)) + _check13(body)


@st.composite
def _isbn10(draw) -> str:
    body = draw(st.lists(st.integers(0, 9), min_size=9, max_size=9))
    check = _check10(body)
    if check == "X":
        check = draw(st.sampled_from(["X", "x"]))
    return "".join(map(str, body)) + check


@st.composite
def _written(draw, plain) -> str:
    """An ISBN as people write it: bare, or split into four or five groups by hyphens or
    spaces (978-0-306-40615-7, 0 306 40615 2), which is the written form the schema's
    pattern describes: a digit at both ends, 13 to 17 characters in all."""
    text = draw(plain)
    style = draw(st.sampled_from(["bare", "hyphens", "spaces"]))
    if style == "bare":
        return text
    separator = "-" if style == "hyphens" else " "
    cuts = sorted(draw(st.sets(st.integers(1, len(text) - 1), min_size=3, max_size=4)))
    parts, start = [], 0
    for cut in cuts:
        parts.append(text[start:cut])
        start = cut
    parts.append(text[start:])
    return separator.join(parts)


ISBN = _written(st.one_of(_isbn10(), _isbn13()))

schemathesis.openapi.format("isbn", ISBN)
schemathesis.openapi.format("isbn-query", st.one_of(ISBN, ISBN.map(lambda isbn: "isbn:" + isbn)))
