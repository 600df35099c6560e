"""Reading what a browser sends over a table socket, strictly: a small JSON object or an error.

Every way a frame can be wrong ends in `BadFrame` with a sentence for the person, never in an
exception that would kill the socket (and skip its clean-up): invalid UTF-8 or JSON, `NaN` and
`Infinity` (not JSON, though Python's parser takes them), numbers too large for a float or an
int, nesting deeper than any form sends, anything but an object at the top.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 4  # htmx's ws-send sends a flat object of form fields; a little room for more


class BadFrame(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _no_constants(name: str) -> float:
    raise BadFrame(f"{name} is not a number a message can carry.")


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise BadFrame("That number is too large.")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise BadFrame("That number is too large.")
    return int(text)


def _depth(value: Any, limit: int) -> None:
    if limit < 0:
        raise BadFrame("That message is nested too deeply.")
    if isinstance(value, dict):
        for item in value.values():
            _depth(item, limit - 1)
    elif isinstance(value, list):
        for item in value:
            _depth(item, limit - 1)


def parse(raw: str | bytes) -> dict[str, Any]:
    """The message as a dict, or BadFrame saying what is wrong with it."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadFrame("That message was not valid text (UTF-8).") from None
    # A deeply nested frame is refused before parsing (the parser would recurse to a crash).
    if raw.count("[") + raw.count("{") > 64 and _too_deep(raw):
        raise BadFrame("That message is nested too deeply.")
    try:
        message = json.loads(raw, parse_constant=_no_constants, parse_float=_float, parse_int=_int)
    except BadFrame:
        raise
    except (ValueError, RecursionError):
        raise BadFrame("That message was not valid JSON.") from None
    if not isinstance(message, dict):
        raise BadFrame("A message must be a JSON object.")
    _depth(message, MAX_DEPTH)
    return message


def _too_deep(raw: str) -> bool:
    depth = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH + 1:
                return True
        elif char in "]}":
            depth -= 1
    return False


def integer(message: dict[str, Any], field: str, what: str) -> int:
    """An integer field (a JSON number or a form's digit string); BadFrame names `what`."""
    value = message.get(field)
    if isinstance(value, bool) or value is None:
        raise BadFrame(f"The message named no {what}.")
    if isinstance(value, float):
        if not value.is_integer():
            raise BadFrame(f"That {what} is not a whole number.")
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit() or len(text) > 18:
            raise BadFrame(f"That {what} is not a whole number.")
        value = int(text)
    if not isinstance(value, int):
        raise BadFrame(f"That {what} is not a whole number.")
    return value
