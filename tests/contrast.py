"""WCAG 2 contrast ratios read from the site's own CSS (static/css), for the contrast tests."""

from __future__ import annotations

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[1] / "static" / "css"
AA = 4.5  # WCAG 2 AA for normal-size text (every badge here is well under 18.66 px bold)


def declarations(sheet: str, selector: str) -> dict[str, str]:
    """The declarations of the first rule whose selector list holds `selector` exactly."""
    text = re.sub(r"/\*.*?\*/", "", (CSS / sheet).read_text(encoding="utf-8"), flags=re.S)
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        if selector in [s.strip() for s in selectors.split(",")]:
            pairs = (d.split(":", 1) for d in body.split(";") if ":" in d)
            return {k.strip(): v.strip() for k, v in pairs}
    raise LookupError(f"{selector} is not in {sheet}")


def colour(sheet: str, value: str) -> str:
    """A colour value ('#rgb', '#rrggbb' or one `var(--name)` of the sheet's :root) as '#rrggbb'."""
    found = re.fullmatch(r"var\((--[\w-]+)\)", value)
    if found:
        value = declarations(sheet, ":root")[found.group(1)]
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        value = "#" + "".join(c * 2 for c in value[1:])
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"not a #rgb or #rrggbb colour: {value}")
    return value.lower()


def _luminance(hex_colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def ratio(a: str, b: str) -> float:
    low, high = sorted((_luminance(a), _luminance(b)))
    return (high + 0.05) / (low + 0.05)
