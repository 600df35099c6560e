"""What every viewer of one state sees alike is made once (games/kilforth/board/render.py,
`Public`): the map's cells, the heroes' panels and the log's sentences. A view given the state
(`source`) must come out byte for byte as one made without it, for every seat and a spectator,
in every mode (co-op's open hands show other heroes' hands to a seat)."""

import gc

import pytest

from games.kilforth.board import render as board_render
from games.kilforth.board import render_board
from games.kilforth.board.parts import LOG_GROUP, LOG_GROUPS, Kept, board_parts, forget
from games.kilforth.engine import view

from .games import CONFIGS, players, playout, sample


@pytest.mark.parametrize(("edition", "mode", "heroes"), CONFIGS)
def test_every_view_made_with_the_shared_layer_is_the_view_made_without_it(edition, mode, heroes):
    names = players(heroes)
    for state in sample(edition, mode, heroes, n=12):
        for online in (set(range(heroes)), {0}):
            for viewer in [*range(heroes), None]:
                assert_shared_is_plain(state, viewer, names, online, "t")


def assert_shared_is_plain(state, viewer, names, online, slug, facts=None) -> None:
    """The view made with the shared layer (`source`) is the view made without it. `facts`:
    the state's public facts, shared by the pictures as the kit's adapter shares them."""
    plain = render_board(
        view(state, viewer), viewer=viewer, players=names, online=online, table_slug=slug
    )
    shared = render_board(
        view(state, viewer, facts),
        viewer=viewer,
        players=names,
        online=online,
        table_slug=slug,
        source=state,
    )
    assert shared == plain, (state.version, viewer, sorted(online))


def test_the_views_of_one_state_share_the_cells_that_hold_nothing_of_their_own():
    state = playout("gloom", "competitive", 4, seed=5)[120]
    names = players(4)
    seen = {}
    for viewer in (None, 0, 1):
        context = board_render.board_context(
            view(state, viewer),
            viewer=viewer,
            players=names,
            online=set(),
            table_slug="t",
            source=state,
        )
        seen[viewer] = context
    spectator, seat = seen[None], seen[0]
    assert spectator["public"] is seat["public"] is seen[1]["public"]
    # The seat's hero, foes and progress are marked by the board's CSS (data-viewer): only a
    # cell it has a way to is its own.
    assert any(0 in _seats_here(c) for c in spectator["cells"])
    for c, s in zip(seat["cells"], spectator["cells"], strict=True):
        assert (c is not s) == c["reachable"], c["index"]
    # Every hero's panel is shared with everyone, its own seat included; the hand the seat sees
    # is its own (competitive: its hero's alone), the spectators' none.
    assert seat["heroes"] is spectator["heroes"] is spectator["public"].heroes
    assert [(h["seat"], h["me"]) for h in seat["hands"]] == [(0, True)]
    assert spectator["hands"] == []


def test_a_state_gone_takes_its_shared_layer_with_it():
    forget()
    states = list(playout("shadows", "competitive", 2, seed=3)[10:14])
    names = players(2)
    for n, state in enumerate(states):  # four tables: a table keeps its newest two layers
        render_board(
            view(state, 0), viewer=0, players=names, online=set(), table_slug=f"t{n}", source=state
        )
    assert sum(p.source() is not None for p in board_render._publics.values()) >= 4
    del state, states
    playout.cache_clear()
    gc.collect()
    render_board(
        view(playout("shadows", "competitive", 2, seed=4)[3], 0),
        viewer=0,
        players=names,
        online=set(),
        table_slug="t",
        source=playout("shadows", "competitive", 2, seed=4)[3],
    )
    assert all(p.source() is not None for p in board_render._publics.values())


@pytest.mark.parametrize(("edition", "mode", "heroes"), CONFIGS[::2])
def test_views_made_state_after_state_of_one_game_are_the_views_made_without_the_layer(
    edition, mode, heroes
):
    # A state's layer takes unchanged cells and panels from the layer of the state before
    # (`Earlier`): what it takes must be what it would have made.
    names = players(heroes)
    for n, state in enumerate(playout(edition, mode, heroes)[:160]):
        online = set(range(heroes)) if n % 40 < 30 else {0}
        for viewer in (None, heroes - 1):
            assert_shared_is_plain(state, viewer, names, online, "g")


def test_a_state_s_layer_takes_the_unchanged_cells_and_panels_from_the_state_before():
    names = players(4)
    layers = [
        board_render.board_context(
            view(s, None), viewer=None, players=names, online=set(), table_slug="u", source=s
        )["public"]
        for s in playout("gloom", "competitive", 4, seed=5)[100:130]
    ]
    cells = panels = 0
    for before, after in zip(layers, layers[1:], strict=False):
        cells += sum(x is y for x, y in zip(before.cells, after.cells, strict=True))
        panels += sum(x is y for x, y in zip(before.heroes, after.heroes, strict=True))
    assert cells >= 20 * 29, "a decision changes a cell or two of 25"
    assert panels >= 29, (panels, "a decision leaves most heroes panels as they were")


def test_a_state_s_layer_describes_only_the_log_events_its_decision_added(monkeypatch):
    # A new state shares its log's events with the state before (State.clone): their sentences
    # (and the keys they were found by) come from the layer before, so only the decision's own
    # events are keyed and described anew. The log's groups are compared by their events.
    names = players(4)
    states = playout("gloom", "competitive", 4, seed=7)[100:130]
    keyed = []
    real = board_render.event_key
    monkeypatch.setattr(board_render, "event_key", lambda e: keyed.append(e) or real(e))
    before: list = []
    for state in states:
        keyed.clear()
        picture = view(state, None)
        render_board(
            picture, viewer=None, players=names, online=set(), table_slug="k", source=state
        )
        known = {id(e) for e in before}
        added = {id(e) for e in picture["log"] if id(e) not in known}
        logged = [e for e in keyed if any(e is x for x in picture["log"])]
        # (A panel's events that are not the log's own objects, such as the recent tests,
        # are keyed as before.)
        if before:
            assert {id(e) for e in logged} == added, state.version
        else:
            # The first layer describes every event the board shows: the newest, in whole
            # groups of ten by their numbers in the game's log (some are not the spectators').
            shown = [
                e
                for e, n in zip(picture["log"], picture["log_numbers"], strict=True)
                if n // LOG_GROUP > picture["log_numbers"][-1] // LOG_GROUP - LOG_GROUPS
            ]
            assert sorted(id(e) for e in logged) == sorted(id(e) for e in shown)
        before = picture["log"]


@pytest.mark.parametrize(("edition", "mode", "heroes"), [CONFIGS[2], CONFIGS[7]])
def test_every_seat_s_views_made_state_after_state_are_the_views_made_without_the_layers(
    edition, mode, heroes
):
    # A view takes its own cells and panels, and its dice and night panels, from its view of
    # the state before (`render.Own`) when they are made from the same: what it takes must be
    # what it would have made, for every seat (co-op: the hands a seat sees of the others are
    # its own too) and the spectators, through moves, fights, nights and presence changing.
    names = players(heroes)
    for n, state in enumerate(playout(edition, mode, heroes, seed=11)[:120]):
        online = set(range(heroes)) if n % 30 < 20 else {0}
        for viewer in [*range(heroes), None]:
            assert_shared_is_plain(state, viewer, names, online, "own")


def test_a_seat_s_view_takes_its_own_unchanged_cells_and_hand_from_its_view_before():
    names = players(4)
    states = playout("gloom", "competitive", 4, seed=5)[100:140]
    hands_kept = hands_made = ways = 0
    for n, state in enumerate(states):
        for again in (False, True):  # the same state again: every own item is the one before
            context = board_render.board_context(
                view(state, 2),
                viewer=2,
                players=names,
                online={again},
                table_slug="o",
                source=state,
            )
            public = context["public"]
            # Its own: the cells it has a way to (on its turn only) and its hand.
            cells = [c for c, p in zip(context["cells"], public.cells, strict=True) if c is not p]
            assert not cells or state.waiting_for == [2], state.version
            mine = [*cells, context["hands"]]
            if again:
                assert all(isinstance(x, Kept) for x in mine), state.version
                ways += len(cells)
            elif n == 0:
                assert not any(isinstance(x, Kept) for x in mine), "nothing to keep from"
            elif isinstance(context["hands"], Kept):
                hands_kept += 1
            else:
                hands_made += 1
            board_parts(context)  # the view made: its parts are what the next one keeps
    # Seat 2 decides about a quarter of the time: its hand mostly stays as it was.
    assert hands_kept > hands_made > 0, (hands_kept, hands_made)
    assert ways > 0


def test_the_dice_and_night_panels_are_taken_from_the_view_before_while_they_stand():
    names = players(4)
    states = playout("gloom", "competitive", 4, seed=5)[60:160]
    counts = {"kb-dice": [0, 0], "kb-night": [0, 0]}  # taken, made
    before = None
    for state in states:
        picture = view(state, None)
        context = board_render.board_context(
            picture, viewer=None, players=names, online=set(), table_slug="p", source=state
        )
        if before is not None:
            for part_id, name, facts in (
                ("kb-dice", "tests", ("recent_tests", "test")),  # the test awaiting its fate
                ("kb-night", "night", ("night",)),
            ):
                same = all(picture.get(f) == before.get(f) for f in facts)
                assert isinstance(context[name], Kept) == same, (state.version, part_id)
                counts[part_id][not same] += 1
        board_parts(context)
        before = picture
    assert all(taken > made > 0 for taken, made in counts.values()), counts


def test_the_dice_panel_is_made_again_when_a_fate_decision_closes_on_the_same_dice():
    # The dice panel says whether the newest test awaits a fate decision (the engine's `test`):
    # with the same dice shown, a view must not take the panel of a view before that awaited.
    names = players(4)
    state = playout("gloom", "competitive", 4, seed=7)[370]
    awaiting = view(state, None)
    assert awaiting["test"] and awaiting["recent_tests"]["events"]
    decided = dict(awaiting, test=None)
    for picture, pending in ((awaiting, True), (decided, False), (awaiting, True)):
        context = board_render.board_context(
            picture, viewer=None, players=names, online=set(), table_slug="fate", source=state
        )
        assert context["tests"]["pending"] is pending
        shared = render_board(
            picture, viewer=None, players=names, online=set(), table_slug="fate", source=state
        )
        plain = render_board(picture, viewer=None, players=names, online=set(), table_slug="fate")
        assert shared == plain


def test_a_view_s_record_holds_only_its_own_parts_and_lets_the_one_before_go():
    # Per viewer, the record keeps what its own parts were made from and the parts (the
    # renderings hold the same strings): not the cells and panels, nor the record before.
    names = players(4)
    for state in playout("gloom", "competitive", 4, seed=5)[100:103]:
        render_board(
            view(state, 1), viewer=1, players=names, online=set(), table_slug="r", source=state
        )
    [own] = [o for key, o in board_render._owns.items() if key[0] == "r"]
    assert own.before is None
    assert set(own.parts) == set(own.facts) >= {"kb-hand", "kb-dice", "kb-night"}
    assert all(isinstance(part, str) for part in own.parts.values())


def test_a_view_made_without_its_state_keeps_no_own_record():
    state = playout("gloom", "competitive", 2)[30]
    plain = board_render.board_context(
        view(state, 0), viewer=0, players=players(2), online=set(), table_slug="s"
    )
    assert plain["own"] is None


@pytest.mark.parametrize(("edition", "mode", "heroes"), [CONFIGS[0], CONFIGS[5], CONFIGS[-1]])
def test_views_sharing_the_states_public_facts_are_the_views_made_without_the_layer(
    edition, mode, heroes
):
    # As a server makes them (the kit's adapter): every picture of the state shares its public
    # facts, whose map the layer reads once for which cells hold each seat's own.
    from games.kilforth.engine import public_facts

    # Names of their own, so that the layers are made here, of these facts (not kept from
    # another test's views of the same states).
    names = {seat: f"Shared {seat}" for seat in range(heroes)}
    for state in sample(edition, mode, heroes, n=12):
        facts = public_facts(state)
        for viewer in [*range(heroes), None]:
            assert_shared_is_plain(state, viewer, names, set(), "f", facts)


def _seats_here(cell: dict) -> set[int]:
    return {int(seat) for seat in cell["here"].split()}


def test_every_seat_is_sent_the_public_cell_unless_it_has_a_way_there():
    from games.kilforth.engine import public_facts

    names = players(4)
    mine = 0
    for state in playout("gloom", "competitive", 4, seed=5)[20:160:7]:
        facts = public_facts(state)
        layer = None
        for seat in [None, *range(4)]:
            context = board_render.board_context(
                view(state, seat, facts),
                viewer=seat,
                players=names,
                online=set(),
                table_slug="c",
                source=state,
            )
            layer = layer or context["public"]
            assert context["public"] is layer
            for c, public in zip(context["cells"], layer.cells, strict=True):
                assert (c is not public) == c["reachable"], (state.version, seat, c["index"])
                mine += seat in _seats_here(public)
    assert mine >= 4 * 20, "every seat's hero stands somewhere on the map"


def test_a_table_whose_presence_changes_keeps_one_layer_and_one_record_per_viewer():
    # A table's sockets connecting one by one change its presence at each. Who is online is
    # said by the presence part alone: every presence shares the state's one layer and each
    # viewer's one record, and the views made as presence comes and goes are still the views
    # made without any layer.
    forget()
    names = players(4)
    states = playout("gloom", "competitive", 4, seed=7)[40:43]
    for state in states:
        for online in (set(), {0}, {0, 1}, {0, 1, 2, 3}, {1}, {0}):
            for viewer in (0, 1, None):
                assert_shared_is_plain(state, viewer, names, online, "presence")
        layers = [p for p in board_render._publics.values() if p.source() is not None]
        assert [p.source() for p in layers].count(state) == 1
        assert len([key for key in board_render._earlier if key[0] == "presence"]) == 1
        records = [key for key in board_render._owns if key[0] == "presence"]
        assert sorted((key[-1] for key in records), key=str) == sorted([0, 1, None], key=str)


def test_a_presence_change_changes_the_presence_part_and_no_other():
    from games.tables.frames import Rendering

    forget()
    names = players(4)
    state = playout("gloom", "competitive", 4, seed=7)[60]
    for viewer in (0, None):
        boards = [
            Rendering.of(
                render_board(
                    view(state, viewer),
                    viewer=viewer,
                    players=names,
                    online=online,
                    table_slug="presence",
                    source=state,
                    joined=False,
                ),
                0,
            )
            for online in ({0}, {0, 1, 3})
        ]
        before, after = (dict(zip(b.part_ids, b.bodies, strict=True)) for b in boards)
        assert [pid for pid in after if after[pid] != before[pid]] == ["kb-presence"]
        assert 'data-online="0 1 3"' in after["kb-presence"]
        assert 'data-online="0"' in before["kb-presence"]


def test_a_sentence_every_viewer_reads_is_kept_once_per_event_in_the_state_s_layer():
    # The five views of a state look each event's sentence up in the state's layer. A sentence
    # that does not read whose view it is is kept once for all of them, by the event; only one
    # that does (a bookkeeping line shown as such to its own seat) is kept per viewer.
    forget()
    names = players(4)
    state = playout("gloom", "competitive", 4, seed=7)[60]
    for viewer in (0, 1, 2, 3, None):
        picture = view(state, viewer)
        render_board(
            picture, viewer=viewer, players=names, online=set(), table_slug="once", source=state
        )
    layer = next(p for p in board_render._publics.values() if p.source() is state)
    assert layer.lines and all(event is not None for event, _ in layer.lines.values())
    picture = view(state, None)
    newest = picture["log_numbers"][-1] // LOG_GROUP
    shown = [
        e
        for e, n in zip(picture["log"], picture["log_numbers"], strict=True)
        if n // LOG_GROUP > newest - LOG_GROUPS
    ]
    for event in shown:  # every viewer sees it: kept once, or once for each of the five
        own = [(id(event), v) in layer.own_lines for v in (0, 1, 2, 3, None)]
        assert id(event) in layer.lines or all(own), event
        assert not (id(event) in layer.lines and any(own)), event
    assert sum(id(e) in layer.lines for e in shown) > len(shown) // 2
