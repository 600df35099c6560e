"""The board in a real Chromium: CSS-only log filters survive an htmx swap, tips open on focus,
choices are keyboard reachable, and a swap keeps what the person had open. The layout facts
(the table fits one desktop screen, the map fits a phone) are in test_board_layout.py.
"""

from __future__ import annotations

from pathlib import Path

import django_htmx
import pytest

from games.kilforth.board import page_parts, render_board
from games.kilforth.engine import view
from games.tables.frames import board_frame
from tests.browser.conftest import browser  # noqa: F401 - the shared module-scoped fixture
from tests.conftest import ROOT

from .games import players, sample
from .test_render import render

HTMX = Path(django_htmx.__file__).parent / "static" / "django_htmx" / "htmx-2.min.js"
CSS = [ROOT / "static" / "css" / "kilforth.css", ROOT / "static" / "css" / "board.css"]
BOARD_JS = ROOT / "static" / "js" / "board.js"
LOG_JS = ROOT / "static" / "js" / "log.js"


def framed(state, seat) -> str:
    """The kit's board in the platform's frame (#game-board, #game-flash), as a page holds it."""
    return board_frame(render(state, seat), state.version, "kilforth")


def page_html(board: str) -> str:
    style = "\n".join(p.read_text() for p in CSS)
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Board</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{style}</style><script>{HTMX.read_text()}</script>"
        f"<script>{BOARD_JS.read_text()}</script><script>{LOG_JS.read_text()}</script></head>"
        f'<body><main class="page">{board}<div class="kb kb-page-parts">{page_parts()}</div>'
        "</main></body></html>"
    )


@pytest.fixture
def states():
    picked = [s for s in sample("gloom", "competitive", 2, n=20) if s.result is None]
    return picked[5], picked[6]


def test_only_mine_filter_hides_other_lines_and_survives_a_board_swap(browser, states):  # noqa: F811
    first, second = states
    seat = first.waiting_for[0]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_content(page_html(framed(first, seat)))
    rows = page.locator(".log-row:not(.minor)")
    assert rows.count() > 0
    mine = f'.log-row[data-seats~="{seat}"]'
    others = f'.log-row:not(.minor):not([data-seats~="{seat}"])'
    assert page.locator(others).count() > 0
    # The seat's own rows are marked (a gold edge), the others' not: by the board's viewer.
    edge = "el => getComputedStyle(el).borderLeftColor"
    assert page.locator(mine).first.evaluate(edge) != page.locator(others).first.evaluate(edge)
    page.check("#kb-log-mine")
    assert page.locator(f"{others}:visible").count() == 0
    assert page.locator(f"{mine}:visible").count() > 0
    new_board = framed(second, seat)
    page.evaluate("html => htmx.swap('#game-board', html, {swapStyle: 'outerHTML'})", new_board)
    assert page.get_attribute("#game-board", "data-version") == str(view(second, seat)["version"])
    assert page.is_checked("#kb-log-mine"), "hx-preserve keeps the ticked filter"
    assert page.locator(f"{others}:visible").count() == 0
    page.uncheck("#kb-log-mine")
    assert page.locator(".log-row.minor:visible").count() == 0
    page.check("#kb-log-all")
    assert page.locator(".log-row.minor:visible").count() > 0
    page.close()


def test_help_tips_open_on_focus_and_choices_are_reachable_by_keyboard(browser, states):  # noqa: F811
    state = states[0]
    seat = state.waiting_for[0]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_content(page_html(render(state, seat)))
    tip = page.locator(".tip-btn").first
    text = page.locator(".tip-text").first
    assert not text.is_visible()
    tip.focus()
    assert text.is_visible()
    page.locator("body").click(position={"x": 5, "y": 5})
    reached = set()
    for _ in range(80):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.closest('form.choice') ? 1 : 0"))
        if 1 in reached:
            break
    assert 1 in reached, "a choice button is reachable with Tab"
    page.close()


def test_the_board_fits_players_of_every_table_size(browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    for heroes in (1, 4):
        mode = "solo" if heroes == 1 else "competitive"
        state = sample("shadows", mode, heroes, n=3)[1]
        page.set_content(page_html(render(state, 0)))
        assert page.locator(".hero").count() == heroes
        assert page.locator(".loc").count() == 25
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert players(4)[3] == "Dov"
    page.close()


def test_a_websocket_swap_keeps_focus_an_open_card_and_what_was_folded(browser, states):  # noqa: F811
    state = states[0]
    seat = state.waiting_for[0]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_content(page_html(framed(state, seat)))
    page.evaluate("document.getElementById('kb-log').open = false")
    page.locator("#kb-loc-12 .loc-open").click()
    assert page.locator("#kb-loc-12-card").is_visible()
    button = page.locator("form.choice button").first
    button_id = button.get_attribute("id")
    button.focus()
    # What htmx's ws extension does with a frame: an out-of-band swap by id.
    frame = framed(state, seat).replace('id="game-board"', 'id="game-board" hx-swap-oob="true"', 1)
    page.evaluate("html => htmx.swap(document.body, html, {swapStyle: 'none'})", frame)
    assert page.locator("#kb-loc-12-card").is_visible(), "the open card is open again"
    assert page.evaluate("document.getElementById('kb-log').open") is False
    assert page.evaluate("document.activeElement.id") == button_id
    assert page.locator("#game-board").count() == 1
    page.keyboard.press("Escape")
    page.locator(".act-fold").click()
    page.evaluate("html => htmx.swap(document.body, html, {swapStyle: 'none'})", frame)
    assert page.is_checked("#kb-act-fold"), "hx-preserve keeps the folded bar folded"
    assert not page.locator("form.choice button").first.is_visible()
    page.close()


def test_the_night_darkens_the_map_and_the_day_lifts_it_through_the_status_part(browser):  # noqa: F811
    """The phase is said by the status part alone (a partial frame brings it), and the map
    follows it: darker at night, back to day colours once the status says daylight."""
    from tests.browser.conftest import SCREENSHOTS

    from .games import playout

    states = playout("gloom", "solo", 1)
    night = next(s for s in states if s.phase == "night")
    day = next(s for s in states if s.phase == "daylight" and s.day > night.day)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_content(page_html(framed(night, 0)))
    wrap = page.locator(".kb-map-wrap")

    def shade() -> str:
        return wrap.evaluate("el => getComputedStyle(el).backgroundColor")

    dark = shade()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "board-night-desktop.png"))
    # Only the status part is swapped in, as a partial frame would: the map lightens.
    status = framed(day, 0).split("<!--[kb-status-->", 1)[1].split("<!--]-->", 1)[0]
    page.evaluate("html => { document.getElementById('kb-status').outerHTML = html; }", status)
    assert shade() != dark
    assert dark == "rgb(42, 47, 69)"  # the night's own colour (#2a2f45)
    page.close()


def test_the_turn_and_the_decider_move_between_heroes_through_the_status_part(browser):  # noqa: F811
    """Whose turn it is and who decides are said by the status part alone: each hero's panel
    shows its badges (and the turn's ring) by it, so a partial frame bringing only the status
    moves them from one hero to the next."""
    from tests.browser.conftest import SCREENSHOTS

    from .games import playout

    states = [s for s in playout("gloom", "competitive", 2) if s.result is None]
    first = next(s for s in states if s.turn is not None and s.waiting_for == [s.turn])
    later = next(
        s
        for s in states
        if s.version > first.version and s.turn is not None and s.turn != first.turn
    )
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_content(page_html(framed(first, None)))

    def shown(seat: int, badge: str) -> bool:
        return page.locator(f"#kb-hero-card-{seat} .{badge}").is_visible()

    def ringed(seat: int) -> bool:
        shadow = page.locator(f"#kb-hero-card-{seat}").evaluate(
            "el => getComputedStyle(el).boxShadow"
        )
        return "2px 0px 0px" in shadow or " 0px 0px 0px 2px" in shadow

    now, other = first.turn, 1 - first.turn
    assert shown(now, "hb-turn") and shown(now, "hb-wait") and ringed(now)
    assert not shown(other, "hb-turn") and not shown(other, "hb-wait") and not ringed(other)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "board-turn-badges-desktop.png"))
    # Only the status part is swapped in, as a partial frame would: the badges follow it.
    status = framed(later, None).split("<!--[kb-status-->", 1)[1].split("<!--]-->", 1)[0]
    page.evaluate("html => { document.getElementById('kb-status').outerHTML = html; }", status)
    assert shown(later.turn, "hb-turn") and ringed(later.turn)
    assert not shown(1 - later.turn, "hb-turn") and not ringed(1 - later.turn)
    page.close()


def test_each_heros_panel_says_online_or_offline_by_the_presence_part(browser):  # noqa: F811
    """Who is online is said by the presence part alone: a socket joining or leaving the table
    sends that part, and every hero's panel shows "online" or "offline" by it."""
    from .games import playout

    state = next(s for s in playout("gloom", "competitive", 4) if s.result is None)
    names = players(4)

    def board(online: set[int]) -> str:
        html = render_board(
            view(state, None), viewer=None, players=names, online=online, table_slug="t"
        )
        return board_frame(html, state.version, "kilforth")

    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_content(page_html(board({0, 2})))

    def says(seat: int) -> str:
        card = page.locator(f"#kb-hero-card-{seat}")
        on, off = card.locator(".presence.on"), card.locator(".presence.off")
        assert on.is_visible() != off.is_visible(), seat
        return (on if on.is_visible() else off).inner_text().strip()

    assert [says(seat) for seat in range(4)] == ["online", "offline", "online", "offline"]
    # Only the presence part is swapped in, as a partial frame would: the panels follow it.
    part = board({1}).split("<!--[kb-presence-->", 1)[1].split("<!--]-->", 1)[0]
    page.evaluate("html => { document.getElementById('kb-presence').outerHTML = html; }", part)
    assert [says(seat) for seat in range(4)] == ["offline", "online", "offline", "offline"]
    page.close()


def test_the_map_marks_the_viewers_hero_standee_and_progress_by_the_boards_viewer(browser):  # noqa: F811
    """Every viewer is sent the same cell (one they have no way to): the cell names the seats
    standing there and a progress line its seat, and board.css marks the viewer's own by the
    board's data-viewer (the ring, "(you)", "you are here" said to a screen reader, the
    progress in bold)."""
    import re

    from .games import playout

    state = next(
        s
        for s in playout("gloom", "competitive", 2)
        if s.result is None
        and any(e["progress"] for loc in view(s, None)["map"] for e in loc["encounters"])
    )
    where = {h["seat"]: h["loc"] for h in view(state, None)["heroes"]}
    progress = {
        int(seat)
        for loc in view(state, None)["map"]
        for e in loc["encounters"]
        for seat in e["progress"]
    }
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    for viewer in (0, 1, None):
        page.set_content(page_html(framed(state, viewer)))
        for seat in (0, 1):
            cell = page.locator(f"#kb-loc-{where[seat]}")
            standee = cell.locator(f'.standee[data-seat="{seat}"]')
            assert standee.locator(".you").is_visible() == (seat == viewer), (viewer, seat)
            if where[0] != where[1]:
                ring = cell.evaluate("el => getComputedStyle(el).boxShadow")
                assert ("0px 0px 0px 3px" in ring) == (seat == viewer), (viewer, seat, ring)
        here = page.get_by_role("button", name=re.compile("you are here"))
        if viewer is None:
            assert here.count() == 0
        else:
            assert here.count() == 1
            assert here.get_attribute("id") == f"kb-loc-{where[viewer]}-open"
        for seat in progress:
            line = page.locator(f'.enc-prog[data-seat="{seat}"]').first
            bold = line.evaluate("el => getComputedStyle(el).fontWeight") == "700"
            assert bold == (seat == viewer), (viewer, seat)
    page.close()


def test_the_viewers_own_hero_comes_first_in_gold_with_its_hand_below_by_the_boards_viewer(
    browser,  # noqa: F811
):
    """Every hero's panel is the same for every viewer: board.css puts the viewer's own first,
    in gold, with "(you)" and "Your turn", and right below it the hand (a part of the viewer's
    own); board.js opens that panel's fold. A spectator's board marks no hero and has no hand."""
    from .games import playout

    state = next(
        s
        for s in playout("gloom", "competitive", 2)
        if s.result is None and s.turn is not None and view(s, s.turn)["heroes"][s.turn]["hand"]
    )
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    gold = "el => getComputedStyle(el).backgroundImage"
    for viewer in (state.turn, 1 - state.turn, None):
        page.set_content(page_html(framed(state, viewer)))
        for seat in (0, 1):
            card = page.locator(f"#kb-hero-card-{seat}")
            mine = seat == viewer
            assert card.locator(".you").is_visible() == mine, (viewer, seat)
            assert ("gradient" in card.evaluate(gold)) == mine, (viewer, seat)
            assert card.locator("details.hero-more").evaluate("d => d.open") == mine
            if seat == state.turn:
                said = card.locator(".hb-turn").inner_text().strip()
                assert said == ("Your turn" if mine else "Their turn"), (viewer, seat)
        hand = page.locator("#kb-hand")
        if viewer is None:
            assert not hand.is_visible()
            continue
        top = {
            name: page.locator(selector).bounding_box()["y"]
            for name, selector in (
                ("own", f"#kb-hero-card-{viewer}"),
                ("hand", "#kb-hand"),
                ("other", f"#kb-hero-card-{1 - viewer}"),
            )
        }
        assert top["own"] < top["hand"] < top["other"], top
        assert hand.locator(".hand-title").inner_text().strip().startswith("Your hand: ")
        cards = view(state, viewer)["heroes"][viewer]["hand"]
        assert hand.locator(".minicard.rumour").count() == len(cards)
    page.close()


def test_the_log_reads_newest_first_when_a_new_group_takes_the_oldest_groups_part(browser):  # noqa: F811
    """The log's groups are a ring of parts: the CSS shows them newest first at once, and
    log.js puts them in that order in the page after the frame (what a screen reader reads)."""
    from games.kilforth.board.parts import LOG_GROUP, LOG_GROUPS

    from .games import playout

    def newest(state) -> int:
        return view(state, None)["log_numbers"][-1] // LOG_GROUP

    states = playout("gloom", "competitive", 2)
    old = next(s for s in states if newest(s) >= LOG_GROUPS and newest(s) % LOG_GROUPS == 0)
    new = next(s for s in states if newest(s) == newest(old) + 1)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_content(page_html(framed(old, None)))

    def groups(by: str) -> list[int]:
        order = (
            ""
            if by == "page"
            else ".sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)"
        )
        return page.evaluate(
            f"[...document.querySelectorAll('.log-group')]{order}.map(g => +g.dataset.group)"
        )

    assert groups("page") == groups("screen") == sorted(groups("page"), reverse=True)
    # The frame: the newest group's part (kb-log-{newest % 6}) changed, and the new group took
    # the place of the oldest (kb-log-0 held it), which now reads first but sits first no more.
    board = framed(new, None)
    changed = [f"kb-log-{newest(old) % LOG_GROUPS}", f"kb-log-{newest(new) % LOG_GROUPS}"]
    for part_id in changed:
        body = board.split(f"<!--[{part_id}-->", 1)[1].split("<!--]-->", 1)[0]
        page.evaluate(
            "([id, html]) => { document.getElementById(id).outerHTML = html; }", [part_id, body]
        )
    on_screen = groups("screen")
    assert on_screen == sorted(on_screen, reverse=True) and on_screen[0] == newest(new)
    assert groups("page") != on_screen  # the ring's order, until log.js puts them in order
    page.evaluate("document.dispatchEvent(new Event('htmx:wsAfterMessage'))")
    assert groups("page") == on_screen
    first_row = page.locator(".log-row").first.inner_text()
    assert first_row and first_row in framed(new, None)
    page.close()


def test_a_seats_own_log_rows_read_among_everyones_in_order_under_their_days(browser):  # noqa: F811
    """A seat's own events (what it was asked and chose, the cards it drew) come in a hidden
    part of their own, so that every viewer shares the log's groups: log.js places a copy of
    each row among the groups' rows, in the order of the game's log, under its day, in the
    page's order (what a screen reader reads) as on the screen, and again after a frame."""
    from games.kilforth.board.parts import LOG_GROUP, LOG_GROUPS

    from .games import playout

    seat = 1
    states = playout("gloom", "competitive", 2)

    def window(state) -> list[tuple[str, int, bool]]:
        """The seat's events the log shows, newest first: (kind, day, the seat's own)."""
        picture = view(state, seat)
        pairs = list(zip(picture["log"], picture["log_numbers"], strict=True))
        newest = max(n for e, n in pairs if e["vis"] == "all") // LOG_GROUP
        oldest = (newest - LOG_GROUPS + 1) * LOG_GROUP
        return [(e["e"], e["day"], e["vis"] != "all") for e, n in reversed(pairs) if n >= oldest]

    def check(page, state) -> None:
        items = page.evaluate(
            "[...document.querySelectorAll('.log-list li')].map(li => [li.className,"
            " li.dataset.kind || '', li.dataset.day || ''])"
        )
        shown, day = [], None
        for cls, kind, item_day in items:
            if "log-day" in cls:
                day = int(item_day)  # every row sits under the heading of its day
            else:
                shown.append((kind, day, "from-own" in cls))
        assert shown == window(state), state.version
        tops = page.evaluate(
            "[...document.querySelectorAll('.log-list .log-row')].filter(r => r.offsetParent)"
            ".map(r => r.getBoundingClientRect().top)"
        )
        assert len(tops) > 1 and tops == sorted(tops), "on the screen in the page's order"

    def own(state) -> list:
        return [row for row in window(state) if row[2]]

    page = browser.new_page(viewport={"width": 1366, "height": 900})
    for state in states[20::9]:
        page.set_content(page_html(framed(state, seat)))
        page.check("#kb-log-all")
        check(page, state)
        assert page.locator(".log-list .from-own.log-row:visible").count() == len(own(state))
    # An own row of a day no row of everyone's has reached yet goes on top, under a heading of
    # its own (the newest own row, moved to a group and a day past the ring's).
    first = page.evaluate(
        """() => {
        const row = document.querySelector('#kb-log-own .log-row');
        const groups = [...document.querySelectorAll('.log-group')].map(g => +g.dataset.group);
        row.dataset.group = String(Math.max(...groups) + 1);
        row.dataset.day = String(+document.querySelector('.log-list .log-day').dataset.day + 1);
        document.dispatchEvent(new Event('htmx:wsAfterMessage'));
        return [...document.querySelectorAll('.log-list li')].slice(0, 2)
            .map(li => [li.className, li.dataset.day, li.textContent.slice(0, 12)]);
        }"""
    )
    assert "log-day from-own" in first[0][0] and first[0][1] == first[1][1], first
    assert "from-own" in first[1][0] and first[0][2] == f"Day {first[0][1]}"
    before = next(s for s in states[30:] if len(own(s)) >= 3)
    after = next(s for s in states[states.index(before) + 1 :] if own(s) != own(before))
    page.set_content(page_html(framed(before, seat)))
    page.check("#kb-log-all")
    check(page, before)
    # A frame: every log part swapped in (the groups come without the copies), then log.js.
    board = framed(after, seat)
    for part_id in [f"kb-log-{g}" for g in range(LOG_GROUPS)] + ["kb-log-own"]:
        body = board.split(f"<!--[{part_id}-->", 1)[1].split("<!--]-->", 1)[0]
        page.evaluate(
            "([id, html]) => { document.getElementById(id).outerHTML = html; }", [part_id, body]
        )
    page.evaluate("document.dispatchEvent(new Event('htmx:wsAfterMessage'))")
    check(page, after)
    # A spectator's board has no row of anyone's own, and the same groups.
    page.set_content(page_html(framed(after, None)))
    assert page.locator(".from-own").count() == 0
    assert page.locator(".log-list .log-row").count() == len(window(after)) - len(own(after))
    page.close()


def test_the_public_echo_of_a_seats_draw_is_bookkeeping_on_that_seats_board_only(browser):  # noqa: F811
    from .games import playout

    state = next(
        s
        for s in playout("gloom", "competitive", 2)[20:]
        if any(e["e"] == "rumour_gained_public" for e in view(s, None)["log"][-30:])
    )
    seat = next(e for e in reversed(view(state, None)["log"]) if e["e"] == "rumour_gained_public")[
        "seat"
    ]
    echo = f'.log-list .log-row[data-kind="rumour_gained_public"][data-minor-for="{seat}"]'
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    for viewer, hidden in ((seat, True), (1 - seat, False), (None, False)):
        page.set_content(page_html(framed(state, viewer)))
        assert page.locator(echo).count() > 0
        assert (page.locator(f"{echo}:visible").count() == 0) == hidden, viewer
        page.check("#kb-log-all")
        assert page.locator(f"{echo}:visible").count() > 0
    page.close()


def test_no_rule_of_the_board_styles_its_parts_from_an_ancestor_has():
    """`.kb:has(...)` rules made Chromium restyle much of the board after every swapped part
    (docs/benchmarks.md, tenth pass: 21-25 -> 12-14 ms of style and layout per frame): what the
    status part or the log's filters say reaches the board by sibling selectors instead."""
    css = (ROOT / "static" / "css" / "board.css").read_text()
    assert ".kb:has(" not in css
    assert '#kb-status[data-turn="0"] ~ .kb-table #kb-hero-card-0' in css
