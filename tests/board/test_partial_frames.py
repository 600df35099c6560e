"""Partial frames: a page patched with only the changed parts reads exactly like a fresh render."""

from __future__ import annotations

import re

import pytest

from games.kilforth.board import board_context, render_board
from games.kilforth.board.log_text import LogRow
from games.kilforth.board.parts import LOG_GROUP, LOG_GROUPS, render
from games.kilforth.engine import view
from games.tables.frames import AS_PART, Rendering, apply_frame, as_part, board_frame

from .games import CONFIGS, players, playout

PART = re.compile(r"<!--\[([\w-]+)-->")


def board(state, viewer) -> str:
    """The board as the platform sends it: the kit's board in the platform's frame."""
    html = render_board(
        view(state, viewer),
        viewer=viewer,
        players=players(len(state.heroes)),
        online=set(range(len(state.heroes))),
        table_slug="t",
    )
    return board_frame(html, state.version, "kilforth")


@pytest.mark.parametrize("config", CONFIGS[::3], ids=lambda c: "-".join(map(str, c)))
def test_every_step_of_a_game_patched_part_by_part_equals_the_board_rendered_whole(config):
    states = playout(*config)[:120]
    partial = whole = 0
    for viewer in (None, 0):
        page = board(states[0], viewer)
        before = Rendering.of(page, 0)
        for state in states[1:]:
            html = board(state, viewer)
            after = Rendering.of(html, 0)
            frame = after.changed_since(before)
            if frame is None:
                whole += 1
                page = html
            else:
                partial += 1
                assert len(frame) < len(html)
                page = apply_frame(page, frame)
            assert page == html, f"version {state.version} as seen by {viewer}"
            before = after
    # The skeleton holds nothing a decision changes (the phase, the turn): each frame after the
    # first is its parts (a whole board resent also loses what the page had open or scrolled).
    assert partial and not whole


def test_a_decision_sends_a_small_share_of_the_board():
    states = playout("shadows", "competitive", 4)[40:100]
    sizes = []
    for old, new in zip(states, states[1:], strict=False):
        html = board(new, 1)
        frame = Rendering.of(html, 0).changed_since(Rendering.of(board(old, 1), 0))
        if frame is not None:
            sizes.append(len(frame) / len(html))
    sizes.sort()
    assert sizes and sizes[len(sizes) // 2] < 0.4, sizes


def test_each_part_is_one_element_carrying_the_id_its_markers_name():
    html = board(playout("gloom", "competitive", 4)[60], 2)
    ids = PART.findall(html)
    assert len(ids) == len(set(ids)) > 30
    for part_id in ids:
        assert re.search(rf'<!--\[{part_id}--><[a-z]+ id="{part_id}"', html), part_id


def test_a_page_is_not_patched_from_a_rendering_with_another_skeleton():
    state = playout("gloom", "solo", 1)[10]
    seat = Rendering.of(board(state, 0), 0)
    # A spectator's board differs from the seat's outside every part: only the whole will do.
    assert Rendering.of(board(state, None), 0).changed_since(seat) is None


def test_the_night_darkens_the_board_from_the_status_part():
    states = playout("gloom", "solo", 1)
    night = next(s for s in states if s.phase == "night")
    html = board(night, 0)
    assert 'id="kb-status" class="kb-status" data-phase="night"' in html
    assert "kb-phase" not in html  # nothing outside the parts says it


def test_a_partial_frame_clears_the_last_error_as_a_whole_board_does():
    states = playout("shadows", "competitive", 2)
    frame = Rendering.of(board(states[11], 0), 0).changed_since(
        Rendering.of(board(states[10], 0), 0)
    )
    assert frame is not None
    assert f'<div{AS_PART} id="game-flash" class="game-flash" role="alert"></div>' in frame


def test_every_element_a_frame_brings_is_marked_for_the_pages_part_swap():
    states = playout("shadows", "competitive", 2)
    old, new = Rendering.of(board(states[20], 0), 0), Rendering.of(board(states[21], 0), 0)
    frame = new.changed_since(old)
    assert frame is not None
    parts = PART.findall(frame)
    assert parts
    for part_id in parts:
        assert re.search(rf'<!--\[{part_id}--><[a-z]+{AS_PART} id="{part_id}"', frame), part_id
    # So are the new versions and the emptied error line at its end: every element of it.
    assert frame.count("<!--[") + 2 == frame.count(AS_PART)
    assert f'<span{AS_PART} id="kb-version"' in frame
    assert f'<div{AS_PART} id="game-flash"' in frame
    # The whole frame is swapped the same way; the page as read after the frame has no mark.
    assert new.html.startswith(f'<div{AS_PART} id="game-board"')
    assert AS_PART not in apply_frame(board(states[20], 0), frame)
    assert apply_frame(board(states[20], 0), frame) == board(states[21], 0)


def test_a_part_that_is_not_an_element_is_refused():
    assert as_part(' <li id="x">a</li>') == f' <li{AS_PART} id="x">a</li>'
    with pytest.raises(ValueError):
        as_part("just words")


def newest_group(state) -> int:
    """The newest group of the log's ring: that of the newest event every viewer sees."""
    return view(state, None)["log_numbers"][-1] // LOG_GROUP


def own_numbers(state, viewer) -> list[int]:
    """The numbers of `viewer`'s own events (seen by it alone) in the ring's window."""
    picture = view(state, viewer)
    oldest = (newest_group(state) - LOG_GROUPS + 1) * LOG_GROUP
    return [
        n
        for e, n in zip(picture["log"], picture["log_numbers"], strict=True)
        if e["vis"] != "all" and n >= oldest
    ]


def test_a_decision_resends_the_newest_log_group_and_the_one_a_new_group_takes_the_place_of():
    states = playout("gloom", "competitive", 4)[:200]
    sent_per_decision = []
    for viewer in (None, 2):
        before = Rendering.of(board(states[0], viewer), 0)
        for old, new in zip(states, states[1:], strict=False):
            after = Rendering.of(board(new, viewer), 0)
            frame = after.changed_since(before)
            assert frame is not None
            sent = {p for p in PART.findall(frame) if re.fullmatch(r"kb-log-\d", p)}
            was, now = newest_group(old), newest_group(new)
            # The groups between keep their parts as sent; a new group takes the oldest's part.
            may = {f"kb-log-{g % LOG_GROUPS}" for g in range(was, now + 1)}
            assert sent <= may, (new.version, sorted(sent), was, now)
            sent_per_decision.append(len(sent))
            # The viewer's own rows are sent when they changed, and only then.
            own_changed = own_numbers(old, viewer) != own_numbers(new, viewer)
            assert ("kb-log-own" in PART.findall(frame)) == own_changed, new.version
            before = after
    # Of six parts, a decision sends one or two (two when its events start a new group).
    assert 1 <= sum(sent_per_decision) / len(sent_per_decision) <= 2.2


def shown_log(html: str) -> str:
    """The log's groups' rows as the page reads them once log.js has put them newest first."""
    groups = re.findall(
        r'<ol id="kb-log-\d" class="log-group" data-group="(-?\d+)"[^>]*>(.*?)</ol>', html
    )
    assert len(groups) == LOG_GROUPS
    return "".join(rows for _, rows in sorted(groups, key=lambda g: -int(g[0])))


def own_log(html: str) -> str:
    """The rows of the viewer's own part (log.js places a copy of each among the groups')."""
    found = re.findall(r'<ol id="kb-log-own" class="log-own" hidden>(.*?)</ol>', html)
    assert len(found) == 1
    return found[0]


def rows_of(
    picture: dict, viewer, events: list[tuple[dict, int]], everyones: list[int] | None = None
) -> str:
    """`events` (oldest first, with their numbers) as the board's rows, newest first: with the
    day headings one list of them would read, or, as a viewer's own rows, with no heading and
    each one's place among `everyones` numbers (its group, and how many of them in it are
    older)."""
    context = board_context(
        dict(picture, log=[e for e, _ in events], log_numbers=[n for _, n in events]),
        viewer=viewer,
        players=players(2),
        online=set(),
        table_slug="t",
    )
    rows = []
    numbers = [n for _, n in reversed(events)]
    for line, n in zip(reversed(context["log"].lines()), numbers, strict=True):
        if everyones is None:
            new_day = not rows or rows[-1].day != line.day
            rows.append(LogRow(line=line, new_day=new_day, day=line.day))
        else:
            group = n // LOG_GROUP
            older = sum(1 for m in everyones if group * LOG_GROUP <= m < n)
            rows.append(LogRow(line=line, new_day=False, day=line.day, place=(group, older)))
    return "".join(render("kilforth/_log_row.html", {"r": r}).strip() for r in rows)


@pytest.mark.parametrize("viewer", [None, 1])
def test_the_log_shows_its_newest_whole_groups_of_events_with_their_day_headings(viewer):
    for state in playout("shadows", "competitive", 2)[::23]:
        picture = view(state, viewer)
        html = board(state, viewer)
        shown = shown_log(html)
        # The newest whole groups: every viewer's events numbered from the start of the oldest
        # group the ring shows (LOG_GROUPS groups back from the newest), and apart from them
        # the viewer's own events of the same stretch (a spectator has none).
        oldest = (newest_group(state) - LOG_GROUPS + 1) * LOG_GROUP
        first = state.logged - len(state.log)
        window = [(e, first + i) for i, e in enumerate(state.log) if first + i >= oldest]
        everyones = [(e, n) for e, n in window if e["vis"] == "all"]
        own = [(e, n) for e, n in window if e["vis"] == viewer]
        assert shown.count('<li class="log-row') == len(everyones)
        # Row by row what the one list of these events would read, day headings included.
        assert shown == rows_of(picture, viewer, everyones), state.version
        assert everyones or "Nothing has happened yet." in shown
        # The viewer's own rows, newest first, without headings (log.js puts them under
        # their days); so every viewer's board shows the same groups.
        assert own_log(html) == rows_of(picture, viewer, own, [n for _, n in everyones])
        assert shown == shown_log(board(state, None))


@pytest.mark.parametrize("viewer", [None, 3])
def test_log_groups_kept_from_a_views_last_board_read_as_groups_made_afresh(viewer, monkeypatch):
    from games.kilforth.board import parts

    made = []
    group_rows = parts._group_rows
    monkeypatch.setattr(parts, "_group_rows", lambda *a: made.append(1) or group_rows(*a))
    states = playout("shadows", "competitive", 4)
    # Forward, then back (an undo shows an older version again), then forward again.
    order = list(states[40:110]) + [states[60], states[61], states[109]]
    for state in order:
        warm = board(state, viewer)
        parts.forget()
        made_warm = len(made)
        assert board(state, viewer) == warm, state.version
        assert len(made) - made_warm == LOG_GROUPS  # cold: every group made
    # Warm, a view makes the group its decision's events went to, and sometimes the next one.
    warm_made = len(made) - LOG_GROUPS * len(order)
    assert warm_made <= 2.5 * len(order)


@pytest.mark.parametrize("viewer", [None, 1])
def test_a_views_next_board_asks_only_the_new_events_lines_and_the_row_under_them(
    viewer, monkeypatch
):
    # A decision adds its events to the newest group: the rows shown before stay (the same
    # lines, the same day headings), but for the newest of them, whose day heading depends on
    # the row now above it. The group below the newest is made again when the day above it
    # changes: only its newest row can change then.
    import dataclasses

    from games.kilforth.board import parts

    asked = []
    group_rows = parts._group_rows

    def counting(log, *rest):
        def line(event):
            asked.append(id(event))
            return log.line(event)

        return group_rows(dataclasses.replace(log, line=line), *rest)

    monkeypatch.setattr(parts, "_group_rows", counting)
    states = playout("gloom", "competitive", 4, seed=3)[30:110]
    parts.forget()
    board(states[0], viewer)
    shown = {id(e) for e in view(states[0], viewer)["log"]}
    for state in states[1:]:
        asked.clear()
        board(state, viewer)
        events = view(state, viewer)["log"]
        new = [e for e in events if id(e) not in shown]
        # Each group made again asks for its new events' lines and for one row shown before.
        assert len(asked) <= len(new) + 2, (state.version, len(asked), len(new))
        shown = {id(e) for e in events}
