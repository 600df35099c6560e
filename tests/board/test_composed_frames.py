"""Parts as data: a board composed from its skeleton and its parts' bodies (frames.compose) is the
same HTML, and reads as the same rendering, as the text searched for its markers."""

from __future__ import annotations

import pytest

from games.kilforth.board import render_board
from games.kilforth.engine import view
from games.tables.frames import Marked, Rendering, Unjoined, board_frame, compose, slot, wrapped

from .games import players, playout
from .test_partial_frames import board


def test_compose_fills_each_named_empty_part_and_keeps_the_others():
    skeleton = (
        f'<div id="a"><p>{slot("x")}</p><!--[y--><b id="y">own</b><!--]-->{slot("z")}'
        f"{slot('unnamed')}</div>"
    )
    made = compose(skeleton, {"x": '<i id="x">1</i>', "z": '<u id="z">2</u>'})
    assert made == (
        '<div id="a"><p><!--[x--><i id="x">1</i><!--]--></p><!--[y--><b id="y">own</b><!--]-->'
        '<!--[z--><u id="z">2</u><!--]--><!--[unnamed--><!--]--></div>'
    )
    assert isinstance(made, Marked)
    assert made.texts == (
        '<div id="a"><p>',
        "<!--]--></p>",
        "<!--]-->",
        "<!--]-->",
        "<!--]--></div>",
    )
    assert made.parts == [
        ("x", '<i id="x">1</i>'),
        ("y", '<b id="y">own</b>'),
        ("z", '<u id="z">2</u>'),
        ("unnamed", ""),
    ]


def test_a_framed_composed_board_stays_composed_and_a_page_around_it_keeps_its_own_parts():
    inner = compose(f'<div class="b">{slot("p")}</div>', {"p": '<span id="p">x</span>'})
    framed = board_frame(inner, 7, "kilforth")
    assert isinstance(framed, Marked)
    assert framed == board_frame(str(inner), 7, "kilforth")
    assert framed.parts == [("p", '<span id="p">x</span>')]
    page = framed.wrap('<div id="t"><!--[c--><i id="c">3</i><!--]-->', "</div>")
    assert page.parts == [("c", '<i id="c">3</i>'), ("p", '<span id="p">x</span>')]
    assert Rendering.of(page, 0).parts == Rendering.of(str(page), 0).parts
    # The texts around the parts, with the parts between them, are the page again.
    assert page.texts == (
        '<div id="t">',
        '<!--]--><div id="game-board" class="game-board game-board-kilforth" data-version="7">'
        '<div id="game-flash" class="game-flash" role="alert"></div><div class="b">',
        "<!--]--></div></div></div>",
    )
    assert Rendering.of(page, 0).html == Rendering.of(str(page), 0).html


def test_a_rendering_holds_the_parts_bodies_it_was_given_and_only_the_text_around_them():
    states = playout("gloom", "competitive", 2)[20:22]
    first, second = (Rendering.of(board(state, None), 0) for state in states)
    html = board(states[1], None)
    assert second.html.replace(' hx-swap-oob="part"', "", 1) == str(html)
    # The kit's own strings, not copies: a part that did not change is the same object in both.
    assert list(second.bodies) == [body for _, body in html.parts]
    assert second.part_ids == tuple(part_id for part_id, _ in html.parts)
    before = dict(zip(first.part_ids, first.bodies, strict=True))
    pairs = zip(second.part_ids, second.bodies, strict=True)
    same = [pid for pid, body in pairs if before[pid] is body]
    assert same, "an unchanged part's body is shared by the renderings of two versions"
    held = sum(map(len, second.texts))
    assert held < len(second.html) - sum(map(len, second.bodies)) + 100


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_a_composed_board_reads_as_the_same_rendering_as_its_text(viewer):
    states = playout("shadows", "competitive", 3)[30:45]
    before_composed = before_text = None
    for state in states:
        html = board(state, viewer)
        assert isinstance(html, Marked), "the Kilforth board comes composed"
        composed, searched = Rendering.of(html, 0), Rendering.of(str(html), 0)
        assert composed.html == searched.html
        assert composed.skeleton == searched.skeleton
        assert composed.parts == searched.parts
        assert composed.tail == searched.tail
        assert composed.bodies == searched.bodies
        if before_composed is not None:
            assert composed.changed_since(before_composed) == searched.changed_since(before_text)
        before_composed, before_text = composed, searched


def test_a_part_that_did_not_change_keeps_its_body_object_from_one_version_to_the_next():
    # The public parts come from the parts' memo: a rendering's digest of an unchanged part is
    # the string's own kept hash, not a new hash of a copy.
    a, b = playout("gloom", "competitive", 2)[50:52]
    names = players(2)
    first, second = (
        render_board(view(s, None), viewer=None, players=names, online={0, 1}, table_slug="t")
        for s in (a, b)
    )
    before, after = dict(first.parts), dict(second.parts)
    same = [p for p in before if before[p] == after.get(p)]
    assert same, "a decision leaves most parts as they were"
    assert all(before[p] is after[p] for p in same)


def test_the_kept_board_skeleton_is_the_board_template_rendered_with_the_whole_context():
    # The skeleton is kept per viewer (`_skeletons`): the board template may show nothing else
    # of the context but the edition and whose view it is.
    from games.kilforth.board import render as board_render
    from games.kilforth.board.parts import board_parts, render
    from games.tables.frames import Skeleton

    names = players(3)
    for state in playout("gloom", "cooperative", 3)[5:120:25]:
        for viewer in (None, 0, 2):
            context = board_render.board_context(
                view(state, viewer),
                viewer=viewer,
                players=names,
                online={0, 1},
                table_slug="t",
                source=state,
            )
            parts, _ = board_parts(context)
            whole = render("kilforth/board.html", {**context, "parts": parts})
            assert board_render._skeleton(context, parts) == Skeleton.read(whole)


def test_a_board_framed_unjoined_is_the_framed_board_without_its_string():
    inner = compose(f'<div class="b">{slot("p")}</div>', {"p": '<span id="p">x</span>'})
    framed = board_frame(inner, 7, "kilforth")
    unjoined = board_frame(inner, 7, "kilforth", joined=False)
    assert isinstance(unjoined, Unjoined) and not isinstance(unjoined, str)
    assert unjoined.joined() == framed
    page = wrapped(unjoined, '<div id="t"><!--[c--><i id="c">3</i><!--]-->', "</div>")
    whole = framed.wrap('<div id="t"><!--[c--><i id="c">3</i><!--]-->', "</div>")
    assert page.parts == whole.parts and page.texts == whole.texts
    assert page.joined() == whole
    assert Rendering.of(page, 0).html == Rendering.of(whole, 0).html


@pytest.mark.django_db
def test_a_socket_s_rendering_of_the_unjoined_fragment_is_that_of_the_fragment():
    from games.tables import services
    from games.tables.frames import apply_frame
    from games.tables.identity import PLAYER_ACCESS, SPECTATOR_ACCESS
    from games.tables.rendering import load_snapshot, render_table_live
    from tests.tables.test_game_flow import current_state, deciding, started_table

    table, people = started_table(names=("Ann", "Bob", "Cid"))
    shown: dict = {}
    for _ in range(12):
        snapshot = load_snapshot(table.pk)
        for player_id, access in [(p.pk, PLAYER_ACCESS) for p in people] + [
            (None, SPECTATOR_ACCESS)
        ]:
            whole = render_table_live(snapshot, player_id, access)
            unjoined = render_table_live(snapshot, player_id, access, joined=False)
            assert isinstance(unjoined, Unjoined)
            assert unjoined.joined() == whole
            ours, theirs = Rendering.of(unjoined, 0), Rendering.of(whole, 0)
            assert ours.html == theirs.html and ours.parts == theirs.parts
            if player_id in shown:
                frame = ours.changed_since(shown[player_id])
                assert frame == theirs.changed_since(shown[player_id])
                if frame is not None:
                    patched = apply_frame(shown[player_id].html, frame)
                    assert "data-version" in patched
            shown[player_id] = ours
        state = current_state(table)
        seat, options = deciding(state)
        services.do_act(table, people[seat], options[0].key, state.version)
        table.refresh_from_db()


def test_a_skeletons_versioned_text_still_leaves_the_fingerprint_the_same_from_version_to_version():
    # A skeleton's texts are read once, and those without a version attribute are not searched
    # again (frames._plain); one that carries a version is, whichever version it shows.
    def fragment(version: int) -> Unjoined:
        skeleton = (
            f'<div id="table-live" data-version="{version}" data-my-turn="0"><p>fixed</p>'
            f'{slot("x")}<span id="game-board" data-version="{version}"></span>{slot("y")}</div>'
        )
        return compose(skeleton, {"x": f'<i id="x">{version}</i>', "y": '<b id="y">y</b>'}, False)

    one, two = Rendering.of(fragment(1), 0), Rendering.of(fragment(2), 0)
    assert one.skeleton == two.skeleton
    assert two.changed_since(one) == (
        '<!--[x--><i hx-swap-oob="part" id="x">2</i><!--]-->' + two.tail
    )
    assert 'data-version="2"' in two.tail
    other = compose(
        f'<div id="table-live" data-version="2" data-my-turn="0"><p>moved</p>{slot("x")}'
        f'<span id="game-board" data-version="2"></span>{slot("y")}</div>',
        {"x": '<i id="x">2</i>', "y": '<b id="y">y</b>'},
        False,
    )
    assert Rendering.of(other, 0).skeleton != two.skeleton
