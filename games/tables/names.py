"""Names people write (display names, table names): visible, without direction tricks.

Refused: names with no visible letter or digit (only spaces, zero-width characters, Hangul
fillers, braille blanks...) and names holding bidirectional controls (`abc\\u202edlrow` shows as
"abcworld" reversed). Invisible formatting characters are dropped, runs of spaces collapse.
Every name is shown isolated (`<bdi>`) in the pages, so a right-to-left name cannot reorder
the text around it.
"""

from __future__ import annotations

import unicodedata

# Characters that reorder text around them.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Letters that draw nothing (category Lo, so they pass a "letter" test): Hangul fillers, and
# the braille blank (So).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


class BadName(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def clean(raw: object, what: str, max_length: int) -> str:
    """The name to keep, or BadName saying what is wrong (`what`: "A display name")."""
    text = unicodedata.normalize("NFC", raw if isinstance(raw, str) else "")
    if any(c in BIDI_CONTROLS for c in text):
        raise BadName(f"{what} cannot hold text-direction control characters.")
    kept = "".join(
        c for c in text if unicodedata.category(c) not in {"Cf", "Cc", "Co", "Cn"} or c.isspace()
    )
    name = " ".join(kept.split())
    if not name:
        raise BadName(f"{what} cannot be empty.")
    if not any(unicodedata.category(c)[0] in "LN" and c not in BLANK_LETTERS for c in name):
        raise BadName(f"{what} needs at least one visible letter or digit.")
    if len(name) > max_length:
        raise BadName(f"{what} has at most {max_length} characters.")
    return name


def same(a: str, b: str) -> bool:
    """Do two names look the same to a person at the table?"""

    def key(name: str) -> str:
        return unicodedata.normalize("NFKC", name).casefold()

    return key(a) == key(b)
