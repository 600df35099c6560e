"""Engine log events -> short English sentences, in our own words.

Every event kind is declared once, with its sentence template and tone, beside the engine step
that emits it (see games/kilforth/engine/events.py); this module only looks the kind up and fills
in names. `describe(event, names, viewer)` never raises: an undeclared kind (an old saved game) or
a missing field falls back to a generic sentence, flagged `fallback=True` as a safety net that
tests assert never happens for what the engine emits today.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from threading import Lock

import orjson
from xxhash import xxh3_128_digest

from games.kilforth.engine.events import EVENTS, Ctx

from .card_facts import card, card_name
from .rules_help import deciding

Names = Callable[[int | None], str]

# Bookkeeping events: shown only when "Show every detail" is ticked (some only to their own seat).
MINOR = frozenset(k for k, ev in EVENTS.items() if ev.minor)
# Events that start a new stretch of play (for grouping dice and battles).
MARKERS = frozenset(k for k, ev in EVENTS.items() if ev.marker)


@dataclass
class LogLine:
    kind: str
    text: str
    day: int = 0
    seats: frozenset[int] = field(default_factory=frozenset)
    minor: bool = False
    # A public echo of a seat's private event (its seat sees the private line): minor for that
    # seat only, which board.css tells by the board's viewer, so the line is every viewer's.
    minor_for: int | None = None
    tone: str = ""  # "", "good", "bad", "dice", "night", "battle", "turn", "big"
    dice: list[dict] = field(default_factory=list)
    fallback: bool = False


@dataclass(frozen=True)
class LogRow:
    """One row of the board's log: a line and the day heading above it when a new day starts
    there. The row names the seats its line is about (`data-seats`), and the board's CSS marks
    those about the viewer (`data-viewer` on the board): the same row, and so the same group of
    rows, for every viewer who reads the same line. A viewer's own row (its private event,
    kept apart from everyone's groups: parts.log_groups) says where log.js places it among
    them (`place`: its group, and how many of everyone's rows in that group are older)."""

    line: LogLine
    new_day: bool
    day: int
    place: tuple[int, int] | None = None


def faces(event: dict, success_min: int = 5) -> list[dict]:
    return [
        {"face": f, "hit": isinstance(f, int) and f >= success_min}
        for f in event.get("faces") or []
    ]


def _seats(e: dict) -> frozenset[int]:
    out: set[int] = set()
    if isinstance(e.get("vis"), int):
        out.add(e["vis"])
    for key in ("seat", "target"):
        if isinstance(e.get(key), int):
            out.add(e[key])
    for key in ("members", "team"):
        for m in e.get(key) or []:
            if isinstance(m, int):
                out.add(m)
    for pair in e.get("taken") or []:
        if isinstance(pair, list | tuple) and pair and isinstance(pair[0], int):
            out.add(pair[0])
    return frozenset(out)


def _generic(e: dict, names: Names) -> str:
    words = str(e.get("e", "event")).replace("_", " ").capitalize()
    bits = []
    for key, value in e.items():
        if key in ("e", "vis", "day"):
            continue
        if key in ("seat", "target") and isinstance(value, int):
            shown = names(value)
        elif isinstance(value, str) and card(value):
            shown = card_name(value)
        else:
            shown = str(value)
        bits.append(f"{key.replace('_', ' ')} {shown}")
    return words + (": " + ", ".join(bits) if bits else "") + "."


def event_day(e: dict) -> int:
    """The day an event's line is under (0 when it does not say)."""
    day = e.get("day")
    return day if isinstance(day, int) else 0


def describe(e: dict, names: Names, viewer: int | None = None, success_min: int = 5) -> LogLine:
    """One log event as a readable line; never raises."""
    return _described(e, names, viewer, success_min)[0]


def _described(e: dict, names: Names, viewer: int | None, success_min: int) -> tuple[LogLine, bool]:
    """`describe`, and whether the line depends on whose view it is: its sentence read the
    viewer (`Ctx.viewer`). (A bookkeeping line for its own seat only names that seat,
    `minor_for`: the same line for every viewer.)"""
    kind = str(e.get("e", "?"))
    ev = EVENTS.get(kind)
    line = LogLine(kind=kind, text="", day=event_day(e), seats=_seats(e))
    if "faces" in e:
        line.dice = faces(e, success_min)
    ctx = Ctx(names, viewer, deciding, card_name)
    try:
        if ev is None:
            raise KeyError(kind)
        line.text = ev.render(e, ctx)
        line.tone = ev.tone
        if ev.minor == "own":
            seat = e.get("seat")
            line.minor_for = seat if isinstance(seat, int) else None
        else:
            line.minor = bool(ev.minor)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        line.text, line.fallback = _generic(e, names), True
        return line, False
    return line, ctx.viewer_read


# Sentences already made, by the event's content, the names it may use, the viewer (or any
# viewer, for a line that does not depend on it: most) and the success threshold: an event is
# described once per process (and viewer, where its line is the viewer's own), not once per
# version (the board shows up to 60 of them, and a decision adds one or two). Bounded; lines
# are shared, so nothing may change a LogLine after `describe` made it.
LINES_KEPT = 20_000
_lines: OrderedDict[tuple, LogLine] = OrderedDict()
_lines_lock = Lock()
_KEY_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def json_key(
    value: object, option: int, default: Callable[[object], object] | None = None
) -> bytes:
    """`value` as orjson writes it, for a key a memo keeps: its 128-bit XXH3 digest, 16 bytes
    whatever the size of the value. A memo keyed by the text itself held it twice over (a
    cell's or a hero's facts run to 0.5-2 KiB: a board's memoized parts and log lines were
    more key than HTML), and orjson's own result keeps the 4 KiB or more it wrote into,
    however short the text. XXH3 is no defence against a chosen collision, and needs none
    here: the values are the server's own facts of a game, and two of them share a digest with
    odds of about 2^-128 a pair. Cheaper than copying the text (0.2 us for 1.6 KiB, where
    hashlib's BLAKE2b took 3.7 us). TypeError for what orjson cannot write."""
    return xxh3_128_digest(orjson.dumps(value, default=default, option=option))


def event_key(e: dict) -> bytes | None:
    """An event's content as the key `describe_kept` remembers its sentence by; None when it is
    not plain JSON data (then it is described afresh each time)."""
    try:
        return json_key(e, _KEY_OPTIONS)
    except TypeError:
        return None


class _Unset:
    """`describe_kept` was given no key (None is a key: "not plain JSON data")."""


_UNSET = _Unset()


@dataclass(frozen=True)
class LogTail:
    """The newest events one view shows, as the board's log reads them: each one's number in
    the game's log (`numbers`) and its line, made when asked for (`line`: kept by the state's
    public layer or by `describe_kept`). `view` names what every viewer of the table shares:
    (table, names, success threshold); `viewer` whose view it is, and `own` where among the
    events its own are (those it alone sees), in order."""

    view: tuple
    events: list[dict]
    numbers: list[int]
    line: Callable[[dict], LogLine]
    viewer: int | None = None
    own: list[int] = field(default_factory=list)

    def lines(self) -> list[LogLine]:
        """Every event's line, oldest first."""
        return [self.line(e) for e in self.events]


def describe_kept(
    e: dict,
    names: Names,
    names_key: tuple,
    viewer: int | None = None,
    success_min: int = 5,
    key: bytes | None | _Unset = _UNSET,
) -> LogLine:
    """`describe`, remembered: `names_key` must stand for everything `names` answers (`key`:
    the event's `event_key`, when the caller has it already)."""
    return describe_scoped(e, names, names_key, viewer, success_min, key)[0]


def describe_scoped(
    e: dict,
    names: Names,
    names_key: tuple,
    viewer: int | None,
    success_min: int,
    key: bytes | None | _Unset,
) -> tuple[LogLine, bool]:
    """`describe_kept` (`key`: the event's `event_key`, or `_UNSET`), and whether the line is
    every viewer's (it does not depend on whose view it is): a caller that keeps lines for
    several viewers keeps such a line once."""
    content = event_key(e) if isinstance(key, _Unset) else key
    if content is None:  # not plain JSON data: describe it afresh
        line, viewers_own = _described(e, names, viewer, success_min)
        return line, not viewers_own
    # A line that does not depend on whose view it is is kept once for every viewer.
    anyone = (content, names_key, _ANY_VIEWER, success_min)
    own = (content, names_key, viewer, success_min)
    with _lines_lock:
        for key in (anyone, own):
            line = _lines.get(key)
            if line is not None:
                _lines.move_to_end(key)
                return line, key is anyone
    line, viewers_own = _described(e, names, viewer, success_min)
    with _lines_lock:
        line = _shared(line)
        key = own if viewers_own else anyone
        _lines[key] = line
        while len(_lines) > LINES_KEPT:
            _lines.popitem(last=False)
    return line, not viewers_own


# The viewer in the key of a line that is the same for every viewer (viewers are ints or None).
_ANY_VIEWER = "any viewer"


# Lines by everything they say: the viewers of one event mostly read the same line (a spectator
# and the three seats it is not about), so they share one object, and with it the row's HTML
# that the board keeps on it (parts.log_groups): made once, not once per viewer.
_same: OrderedDict[tuple, LogLine] = OrderedDict()


def _shared(line: LogLine) -> LogLine:
    """The kept line saying exactly what `line` says, else `line`, kept (under _lines_lock)."""
    dice = tuple((d.get("face"), d.get("hit")) for d in line.dice)
    key = (
        line.kind,
        line.text,
        line.day,
        line.seats,
        line.minor,
        line.minor_for,
        line.tone,
        dice,
        line.fallback,
    )
    found = _same.get(key)
    if found is not None:
        _same.move_to_end(key)
        return found
    _same[key] = line
    while len(_same) > LINES_KEPT:
        _same.popitem(last=False)
    return line
