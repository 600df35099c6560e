"""The board's parts are memoized by their context slice (games/kilforth/board/parts.py): equal
slices share one rendering, and anything a template tells apart keeps slices apart."""

import tracemalloc

from django.utils.safestring import mark_safe

from games.kilforth.board.log_text import LogLine, LogRow, describe_kept, event_key
from games.kilforth.board.parts import _key, snippet


def test_equal_slices_have_equal_keys_and_different_ones_do_not():
    cell = {"index": 3, "name": "Ruins", "plots": [{"id": "p1"}], "seats": frozenset({1, 0})}
    same = {"index": 3, "name": "Ruins", "plots": [{"id": "p1"}], "seats": frozenset({0, 1})}
    assert _key(cell) == _key(same)
    assert _key(cell) != _key(dict(cell, name="Ruin"))
    assert _key(cell) != _key(dict(cell, seats=frozenset({1})))
    assert _key({"n": 1}) != _key({"n": "1"}) != _key({"n": True})


def test_a_safe_string_and_the_same_text_unsafe_are_different_slices():
    # The template escapes the one and not the other, so they must not share a rendering.
    assert _key({"label": "<b>x</b>"}) != _key({"label": mark_safe("<b>x</b>")})  # noqa: S308
    plain = snippet("kilforth/_log_row.html", r=LogRow(LogLine("k", "a < b"), False, 1))
    safe = snippet(
        "kilforth/_log_row.html",
        r=LogRow(LogLine("k", mark_safe("a <i>b</i>")), False, 1),  # noqa: S308
    )
    assert "a &lt; b" in plain
    assert "<i>b</i>" in safe


def test_an_events_sentence_is_kept_per_viewer_and_names():
    event = {"e": "move", "vis": "all", "day": 1, "seat": 0, "to": 3}

    def ann(seat):
        return "Ann" if seat == 0 else "Someone"

    def bea(seat):
        return "Bea" if seat == 0 else "Someone"

    first = describe_kept(event, ann, (("0", "Ann"),), None)
    assert describe_kept(dict(event), ann, (("0", "Ann"),), None) is first
    renamed = describe_kept(event, bea, (("0", "Bea"),), None)
    assert renamed is not first and "Bea" in renamed.text and "Ann" in first.text


def test_a_log_row_is_keyed_by_what_it_shows():
    line = LogLine("move", "Ann moves.", day=2, seats=frozenset({0}))
    same = LogLine("move", "Ann moves.", day=2, seats=frozenset({0}))
    assert _key(LogRow(line, False, 2)) == _key(LogRow(same, False, 2))
    assert _key(LogRow(line, False, 2)) != _key(LogRow(line, True, 2))
    assert _key(LogRow(line, False, 2)) != _key(
        LogRow(LogLine("move", "Bea moves.", day=2), False, 2)
    )
    assert _key(LogRow(line, False, 2)) != _key(
        LogRow(LogLine("move", "Ann moves.", day=2, seats=frozenset({1})), False, 2)
    )


def test_a_kept_key_holds_sixteen_bytes_however_large_the_value_it_stands_for():
    # orjson hands back its whole working buffer (4 KiB for a few bytes), and a cell's facts
    # run to kilobytes; a memo keeps thousands of keys, so each is the value's digest.
    cell = {"index": 3, "name": "Ruins", "seats": frozenset({1, 0}), "text": "x" * 2000}
    event = {"e": "move", "vis": "all", "day": 1, "seat": 0, "to": 3}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keys = [_key(cell) for _ in range(50)] + [event_key(event) for _ in range(50)]
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert all(isinstance(k, bytes) and len(k) == 16 for k in keys)
    assert held < 100 * 100, f"{held / 100:.0f} bytes per key"
    assert _key(dict(cell, index=4)) != keys[0] and event_key(dict(event, to=4)) != keys[-1]


def test_a_sentence_that_does_not_depend_on_the_viewer_is_made_once_for_every_viewer(monkeypatch):
    from games.kilforth.board import log_text

    made = []
    real = log_text._described
    monkeypatch.setattr(log_text, "_described", lambda *args: made.append(args[2]) or real(*args))
    names = (("0", "Ann"),)

    def ann(seat):
        return "Ann" if seat == 0 else "Someone"

    moved = {"e": "move", "vis": "all", "day": 1, "seat": 0, "to": 3, "n": 71}
    lines = [describe_kept(moved, ann, names, viewer) for viewer in (None, 0, 1, 2)]
    assert made == [None] and all(line is lines[0] for line in lines)
    # A sentence that reads the viewer (a prompt without its seat names whoever reads it) is
    # made for each viewer; a bookkeeping line for its own seat only names that seat, once.
    made.clear()
    asked = {"e": "prompt", "vis": "all", "day": 1, "kind": "turn", "n": 72}
    texts = [describe_kept(asked, ann, names, viewer).text for viewer in (0, 1)]
    assert made == [0, 1] and texts[0] != texts[1]
    made.clear()
    rumour = {"e": "rumour_gained_public", "vis": "all", "day": 1, "seat": 0, "n": 73}
    lines = [describe_kept(rumour, ann, names, viewer) for viewer in (0, 1)]
    assert made == [0] and lines[0] is lines[1] and lines[0].minor_for == 0
