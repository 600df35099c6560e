"""What a table socket is sent: the whole live fragment, or only the parts that changed.

A rendered fragment marks its changing parts `<!--[id-->...<!--]-->`, each one element carrying
that id (games/kilforth/board/parts.py). Everything outside the parts is the skeleton. When a
socket already shows an earlier rendering of the same view and the skeleton is the same (apart
from version attributes), the parts that differ are all it needs: htmx's websocket extension
swaps every top-level element of a frame into the element with its id. A decision then costs a
few KiB per socket instead of the whole board (60-90 KiB), and the browser swaps little.

The page's `#kb-version` element receives the new versions in every partial frame; board.js
copies them onto `#game-board` and `#table-live`, so the page reads the same as after a whole one.

Each part, and the whole fragment, is sent marked `hx-swap-oob="part"`: the page's `parts` htmx
extension (static/js/parts.js) puts the new element in the old one's place. htmx's own outerHTML
swap first walks every element it removes, firing two events on each and looking up the
extensions of its ancestors for each, which took about half of the browser's time per frame.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, TypeVar

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

OPEN = "<!--["
CLOSE = "<!--]-->"
# What a frame's element carries to be swapped by static/js/parts.js (htmx drops it on arrival).
AS_PART = ' hx-swap-oob="part"'
START_TAG = re.compile(r"\s*<[A-Za-z][\w-]*")
# Attributes a partial frame's tail carries (board.js copies them): not part of the skeleton.
VERSION_ATTR = re.compile(r' data-(?:version|my-turn)="\d+"')
BOARD_VERSION = re.compile(r'id="game-board"[^>]*?data-version="(\d+)"')
BOARD_VERSION_ATTR = re.compile(r'(id="game-board"[^>]*?data-version=")\d+(")')
KB_VERSION = re.compile(r'id="kb-version"[^>]*data-version="(\d+)"')
GAME_FLASH = re.compile(r'<div id="game-flash"[^>]*></div>')
TABLE_VERSION = re.compile(r'id="table-live"[^>]*?data-version="(\d+)"')
MY_TURN = re.compile(r'id="table-live"[^>]*?data-my-turn="(\d)"')
# Per (table, view): the renderings a socket can still be showing. Only the newest keeps its HTML.
KEPT_PER_VIEW = 3
VIEWS_KEPT = 1200


class Marked(SafeString):
    """Marked HTML whose parts are known as data: the same HTML as a plain string, and also its
    `parts` ((id, body) in page order) and its `texts` (the HTML around the parts: before the
    first part's marker, then after each part's body, from its closing marker on; `_joined`
    puts them back together). `Rendering.of` reads them instead of searching the text; a
    part's body is the kit's own string object, whose hash is kept from one version to the
    next while the part does not change.

    Made by `compose` (a skeleton's slots filled) and by `wrap` (between HTML whose own parts
    are searched: a page around a composed board)."""

    parts: list[tuple[str, str]]
    texts: tuple[str, ...]

    @classmethod
    def made(cls, html: str, parts: list[tuple[str, str]], texts: tuple[str, ...]) -> Marked:
        marked = cls(html)
        marked.parts, marked.texts = parts, texts
        return marked

    def wrap(self, before: str, after: str) -> Marked:
        """This HTML between `before` and `after` (their own parts, if any, searched), still
        composed."""
        return wrapped(self, before, after).joined()


class Unjoined(NamedTuple):
    """Composed HTML not yet joined into one string: its parts and the texts around them, as
    `Marked` holds them. A socket's rendering needs only these (`Rendering.of`), so the
    platform wraps a kit's board in its frame and its live fragment (`wrapped`) without
    copying the whole page (60-110 KiB) once per wrap; a page asks for the string
    (`joined`)."""

    parts: list[tuple[str, str]]
    texts: tuple[str, ...]

    def joined(self) -> Marked:
        return Marked.made(_joined(self.texts, self.parts), self.parts, self.texts)


def wrapped(inner: Marked | Unjoined, before: str, after: str) -> Unjoined:
    """`inner` between `before` and `after` (their own parts, if any, searched), unjoined."""
    head_parts, head_texts = _read(before)
    tail_parts, tail_texts = _read(after)
    texts = list(inner.texts)
    texts[0] = head_texts[-1] + texts[0]
    texts[-1] = texts[-1] + tail_texts[0]
    return Unjoined(
        head_parts + inner.parts + tail_parts, (*head_texts[:-1], *texts, *tail_texts[1:])
    )


def _read(html: str) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """(parts, texts) of a marked fragment, as `Marked` holds them."""
    spans = _spans(html)
    texts = []
    pos = 0
    for part_id, start, end in spans:
        texts.append(html[pos : start - len(OPEN) - len(part_id) - 3])
        pos = end
    texts.append(html[pos:])
    return [(part_id, html[start:end]) for part_id, start, end in spans], tuple(texts)


def _joined(texts: tuple[str, ...], parts: list[tuple[str, str]]) -> str:
    """The HTML of `texts` with `parts` between them (the inverse of `_read`)."""
    pieces = [texts[0]]
    for (part_id, body), text in zip(parts, texts[1:], strict=True):
        pieces.append(f"{OPEN}{part_id}-->")
        pieces.append(body)
        pieces.append(text)
    return "".join(pieces)


@lru_cache(maxsize=4096)
def slot(part_id: str) -> SafeString:
    """An empty part, for a skeleton: `compose` puts the part's body in it. One string per
    part id (a kit's skeletons, kept per view, are kept by their slots)."""
    return SafeString(f"{OPEN}{part_id}-->{CLOSE}")


def compose(
    skeleton: str | Skeleton, bodies: dict[str, str], joined: bool = True
) -> Marked | Unjoined:
    """The HTML of `skeleton` with each of its parts' bodies given by `bodies` (by part id; a
    part `bodies` does not name keeps the body the skeleton gives it, often an empty `slot`),
    its parts known (`Marked`). Bodies are safe HTML (the caller's own templates, escaped
    there). A skeleton is read once (`read_skeleton`, kept by its text; a kit may keep it read):
    a kit's board has the same skeleton for a viewer at every version. `joined=False`: left
    `Unjoined`, for a socket's rendering, which never reads the whole string."""
    if not isinstance(skeleton, Skeleton):
        skeleton = read_skeleton(skeleton)
    texts, ids, kept = skeleton
    parts = [(part_id, bodies.get(part_id, own)) for part_id, own in zip(ids, kept, strict=True)]
    if not joined:
        return Unjoined(parts, texts)
    return Marked.made(_joined(texts, parts), parts, texts)


class Skeleton(NamedTuple):
    """A skeleton read for `compose`: the texts around its parts (`Marked.texts`), the part
    ids, and the bodies it gives them itself."""

    texts: tuple[str, ...]
    ids: tuple[str, ...]
    kept: tuple[str, ...]

    @classmethod
    def read(cls, skeleton: str) -> Skeleton:
        """`skeleton` read. Its texts are interned: the skeletons of a kit's views differ in a
        few places (whose view, which table), so the views kept in a process share most of
        their texts (a Kilforth board's skeleton is about 12 KiB). A kit that keeps its
        skeletons keeps them read, not as their text. Its ids and its own bodies are one tuple
        for every skeleton that has the same (`same_tuple`): every view of a table has."""
        parts, texts = _read(skeleton)
        interned = tuple(sys.intern(text) for text in texts)
        _know_plain(interned)
        return cls(
            interned,
            same_tuple(tuple(sys.intern(part_id) for part_id, _ in parts)),
            same_tuple(tuple(body for _, body in parts)),
        )


# The tuples of part ids (and of a skeleton's own bodies) kept, one object for each: every view
# of a table has the same part ids at every version, so its renderings and skeletons share one
# tuple (a Kilforth board's 60 ids take 0.4 KiB a tuple). Emptied when full.
TUPLES_KEPT = 4096
_tuples: dict[tuple, tuple] = {}
T = TypeVar("T", bound=tuple)


def same_tuple(items: T) -> T:
    """The tuple kept equal to `items` (`items` itself, kept, if there is none). A kit may keep
    its own keys so (they must be hashable)."""
    found = _tuples.get(items)
    if found is None:
        if len(_tuples) >= TUPLES_KEPT:
            _tuples.clear()
        found = _tuples.setdefault(items, items)
    return found


@lru_cache(maxsize=1024)
def read_skeleton(skeleton: str) -> Skeleton:
    """`Skeleton.read`, kept by the skeleton's text."""
    return Skeleton.read(skeleton)


def board_frame(
    board: str | Unjoined, version: int, game: str, joined: bool = True
) -> str | Unjoined:
    """The platform's frame around a kit's board: `#game-board` carries the game version (which
    the page sends back with each decision) and `#game-flash` the newest error. A kit's board
    holds neither; these two ids and `#table-live` are the only ones the platform reads. A
    composed board (`Marked`, or `Unjoined`) stays composed; `joined=False`: left `Unjoined`."""
    before = (
        f'<div id="game-board" class="game-board game-board-{escape(game)}"'
        f' data-version="{int(version)}"><div id="game-flash" class="game-flash" role="alert">'
        "</div>"
    )
    if isinstance(board, Marked | Unjoined):
        framed = wrapped(board, before, "</div>")
        return framed.joined() if joined else framed
    return mark_safe(f"{before}{board}</div>")


def ascii_html(html: str) -> str:
    """`html` with every character beyond ASCII written as a character reference (`&#183;`).

    A frame is encoded to UTF-8 once per socket it goes to. CPython marks a string of ASCII
    characters as such and encodes it by copying; one `·` in 100 KiB makes the whole string
    Latin-1 (one emoji, four bytes per character), which every socket's send then has to convert
    (about 120 us per 100 KiB, against 2 us), as every join and slice of it works on the wider
    form before.
    The templates of a frame write such characters as references, and the printed values come
    escaped to them (games/tables/jinja.py), so this is only a safety net: a name typed with an
    accent in a Django-rendered part. O(1) when there is nothing to do."""
    if html.isascii():
        return html
    return html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _spans(html: str) -> list[tuple[str, int, int]]:
    """[(part id, start, end of its body in `html`)] of a marked fragment; parts never nest."""
    spans: list[tuple[str, int, int]] = []
    pos = 0
    while (start := html.find(OPEN, pos)) >= 0:
        head = html.find("-->", start)
        end = html.find(CLOSE, head)
        if head < 0 or end < 0:
            break
        spans.append((html[start + len(OPEN) : head], head + 3, end))
        pos = end + len(CLOSE)
    return spans


def _parts(html: str) -> list[tuple[str, str]]:
    """[(part id, part html)] of a marked fragment."""
    return [(part_id, html[start:end]) for part_id, start, end in _spans(html)]


def mark(part_id: str, body: str) -> str:
    """A part between its markers (htmx ignores the comments; `apply_frame` reads them)."""
    return f"{OPEN}{part_id}-->{body}{CLOSE}"


def as_part(element: str) -> str:
    """One element's HTML, marked for the page's `parts` swap (after its tag name)."""
    found = START_TAG.match(element)
    if found is None:
        raise ValueError("a part must start with an element")
    return element[: found.end()] + AS_PART + element[found.end() :]


def apply_frame(page: str, frame: str) -> str:
    """The page after `frame`, as htmx and board.js make it: for tests and load clients.

    A whole live fragment replaces the page; a partial one replaces each marked part it brings
    and moves the board's version to the one in its `#kb-version`.
    """
    frame = frame.replace(AS_PART, "")  # htmx removes it from each element it swaps
    if 'id="table-live"' in frame:
        return frame
    for part_id, body in _parts(frame):
        start = page.find(f"{OPEN}{part_id}-->")
        end = page.find(CLOSE, start)
        if start >= 0 and end >= 0:
            page = page[:start] + mark(part_id, body) + page[end + len(CLOSE) :]
    found = KB_VERSION.search(frame)
    if found:
        page = BOARD_VERSION_ATTR.sub(rf"\g<1>{found.group(1)}\g<2>", page, count=1)
    return page


# A part's fingerprint, to tell whether it changed between two renderings of one view in this
# process: Python's own string hash (64 bits, about 5x faster than a blake2b of the encoded
# text; both renderings are hashed by the same process, so its salt is the same). The builtin
# itself, called without a frame of ours: a rendering hashes some 60 parts.
_digest: Callable[[str | tuple[str, ...]], int] = hash


@dataclass
class Rendering:
    """One view of one table state, as sent to sockets. It keeps its HTML as the texts around
    its parts and the parts' bodies (the kits' own strings, shared by the views that show the
    same part), not as one string: a whole frame is joined when a socket needs one (`html`),
    which is rare (a socket that joins or falls behind), while a view's whole HTML would be
    60-110 KiB held per view, most of it the same as its neighbours'. The texts and bodies
    are dropped once superseded."""

    # The texts around the parts (`Marked.texts`), the first marked for the page's `parts`
    # swap; None once superseded.
    texts: tuple[str, ...] | None
    spectators: int
    skeleton: int
    # The parts' ids in the order of the page, and their digests in the same order: a machine
    # word each (an array, not a dict of Python ints: 0.4 KiB a view where the dict took 3 KiB,
    # and every view keeps KEPT_PER_VIEW renderings).
    part_ids: tuple[str, ...]
    digests: array
    # Ends every partial frame: the new versions (#kb-version) and the emptied #game-flash.
    tail: str
    version: int = -1
    # Partial frames from older renderings of this view to this one, computed once each.
    diffs: dict[tuple, str | None] = field(default_factory=dict)
    # Each part's body, in the order of `part_ids` (read once, by `of`), dropped with `texts`.
    bodies: tuple[str, ...] = ()

    @property
    def parts(self) -> dict[str, int]:
        """Each part's digest by its id."""
        return dict(zip(self.part_ids, self.digests, strict=True))

    @property
    def html(self) -> str | None:
        """The whole frame (joined each time it is asked for); None once superseded."""
        if self.texts is None:
            return None
        return _joined(self.texts, list(zip(self.part_ids, self.bodies, strict=True)))

    @classmethod
    def of(cls, html: str | Unjoined, spectators: int) -> Rendering:
        """The rendering of one live fragment; its `html` is the whole frame sent for it.

        A composed fragment (`Marked`, or `Unjoined`) is read from its texts and its parts'
        bodies; any other is searched for its markers. Both read the same HTML the same way."""
        if isinstance(html, Marked | Unjoined):
            parts = html.parts
            texts = tuple(text if text.isascii() else ascii_html(text) for text in html.texts)
        else:
            parts, texts = _read(ascii_html(html))
        part_ids = same_tuple(tuple([part_id for part_id, _ in parts]))
        # Nearly always ASCII already (ascii_html): asked of the string itself, not by a call.
        bodies = tuple([body if body.isascii() else ascii_html(body) for _, body in parts])
        texts = (as_part(texts[0]), *texts[1:])
        # The page without its parts' bodies: what stays from one version to the next.
        outline = "".join(texts)
        board = BOARD_VERSION.search(outline)
        table = TABLE_VERSION.search(outline)
        my_turn = MY_TURN.search(outline)
        tail = (
            f'<span{AS_PART} id="kb-version" hidden'
            f' data-version="{board.group(1) if board else ""}"'
            f' data-table-version="{table.group(1) if table else ""}"'
            f' data-my-turn="{my_turn.group(1) if my_turn else ""}"></span>'
        )
        # A whole board brings an empty #game-flash, clearing the last error; so does a part.
        flash = GAME_FLASH.search(outline)
        if flash:
            tail += as_part(flash.group(0))
        return cls(
            texts=texts,
            spectators=spectators,
            skeleton=_digest((*_unversioned(texts), *part_ids)),
            part_ids=part_ids,
            digests=array("q", map(_digest, bodies)),
            tail=tail,
            bodies=bodies,
        )

    def changed_since(self, old: Rendering) -> str | None:
        """The frame turning a page showing `old` into this one; None when it takes all of it."""
        if self.texts is None or not self.part_ids or old.skeleton != self.skeleton:
            return None
        # The same skeleton holds the same part ids in the same order.
        changed = [
            mark(part_id, as_part(body))
            for part_id, body, theirs, ours in zip(
                self.part_ids, self.bodies, old.digests, self.digests, strict=True
            )
            if theirs != ours
        ]
        return "".join(changed) + self.tail


def _unversioned(texts: tuple[str, ...]) -> tuple[str, ...]:
    """The texts around a rendering's parts without their version attributes: what its
    skeleton's fingerprint is made of. Most are a kit's skeleton's own (interned) texts, known
    to carry none (`_plain`: by the object, not searched again) and whose hashes Python keeps,
    so only the few others are searched, and those that carry a version made again."""
    plain = _plain.get
    return tuple(
        text
        if plain(id(text)) is text
        else VERSION_ATTR.sub("", text)
        if ' data-version="' in text or ' data-my-turn="' in text
        else text
        for text in texts
    )


# The skeletons' texts that carry no version attribute, by the object (each kept with its id,
# which no other string can take while it is held). Skeletons are kept read (`read_skeleton`,
# a kit's own); this only grows with them, and is emptied when full.
PLAIN_KEPT = 1 << 16
_plain: dict[int, str] = {}


def _know_plain(texts: tuple[str, ...]) -> None:
    """Record the texts of a skeleton just read that carry no version attribute."""
    if len(_plain) + len(texts) > PLAIN_KEPT:
        _plain.clear()
    for text in texts:
        if ' data-version="' not in text and ' data-my-turn="' not in text:
            _plain[id(text)] = text


_UNMADE = object()


class Renderings:
    """Per process: the newest renderings of each (table, view), and the frames between them."""

    def __init__(self) -> None:
        self.views: OrderedDict[tuple, OrderedDict[tuple, Rendering]] = OrderedDict()

    def get(self, view: tuple, key: tuple) -> Rendering | None:
        kept = self.views.get(view)
        if kept is None:
            return None
        self.views.move_to_end(view)
        return kept.get(key)

    def put(self, view: tuple, key: tuple, rendering: Rendering, version: int) -> None:
        """Keep `rendering` as the newest of its view, unless a newer table version is kept."""
        kept = self.views.setdefault(view, OrderedDict())
        self.views.move_to_end(view)
        if any(r.version > version for r in kept.values()):
            return  # a socket that lags behind: its frame is rendered once, for it alone
        rendering.version = version
        for older in kept.values():
            older.texts = None  # no socket is ever sent an older state again
            older.bodies = ()
            older.diffs.clear()
        kept[key] = rendering
        while len(kept) > KEPT_PER_VIEW:
            kept.popitem(last=False)
        while len(self.views) > VIEWS_KEPT:
            self.views.popitem(last=False)

    def forget(self, table_id: int) -> None:
        """Drop every view of one table (its first element is the table id)."""
        for view in [v for v in self.views if v[0] == table_id]:
            del self.views[view]

    def tables(self) -> set[int]:
        return {v[0] for v in self.views}

    def frame(self, view: tuple, key: tuple, shown: tuple | None, extra: str = "") -> str | None:
        """The partial frame from the rendering `shown` to `key`, if both are known and it fits,
        followed by `extra`; made once for every socket that asks for the same."""
        new = self.get(view, key)
        old = self.get(view, shown) if shown is not None else None
        if new is None or old is None or old is new:
            return None
        made = new.diffs.get((shown, extra), _UNMADE)
        if made is _UNMADE:
            changed = new.changed_since(old)
            made = new.diffs[(shown, extra)] = None if changed is None else changed + extra
        return made
