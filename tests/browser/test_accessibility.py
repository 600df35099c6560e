"""Accessibility in a real Chromium (issue 17): axe-core (bundled by axe-playwright-python, no
network) finds no serious or critical violation on the lobby, a table page, the boards of both
games at several points on a desktop and a phone, the card gallery, the log and the replay.
Lesser findings are printed (pytest -s shows them) so a person can read them.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.kilforth import adapter
from games.kilforth.engine import view
from tests.board.games import playout
from tests.board.test_board_in_chromium import framed, page_html
from tests.board.test_board_layout import POINTS, deciding
from tests.browser.conftest import browser  # noqa: F401 - the shared module-scoped fixture
from tests.browser.test_game_in_a_browser import (
    RANDOM_HERO,
    TABLE_DEFAULTS,
    board_version,
    contexts,
    enter,
    events,
    first_day_policy,
    human_pace,
    saved_state,
    served,  # noqa: F401 - the fixture that starts a server on a known seed
)
from tests.browser.test_knightfall_in_a_browser import _click_a_choice

DESKTOP, PHONE = (1366, 900), (390, 844)
SERIOUS = {"serious", "critical"}
AXE = Axe()


def axe_findings(page, where: str) -> list[str]:
    """axe's serious and critical violations on the page, as `rule: target` lines; every finding
    (lesser ones too) is printed with its count of nodes."""
    results = AXE.run(page).response
    serious = []
    for violation in results["violations"]:
        print(f"axe {where}: {violation['id']} ({violation['impact']}) x{len(violation['nodes'])}")
        if violation["impact"] in SERIOUS:
            serious += [f"{violation['id']}: {n['target']}" for n in violation["nodes"]]
            for node in violation["nodes"]:
                print(f"    {node['target']} {node.get('failureSummary', '')[:200]!r}")
    return serious


def summary(findings: dict[str, list[str]]) -> Counter:
    return Counter(line.split(":")[0] for lines in findings.values() for line in lines)


DECIDING = "the seat deciding"


def seeded_board(browser, state, size, viewer) -> tuple:  # noqa: F811
    """A page holding the board of `state` as `viewer` sees it (a seat, None for a spectator)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    seat = deciding(state) if viewer == DECIDING else viewer
    page.set_content(page_html(framed(state, seat)))
    return context, page


def game_over():
    return playout("gloom", "competitive", 2)[-1]


# Points of seeded games and who looks at each.
KILFORTH_POINTS = {
    "start": (lambda: playout("gloom", "competitive", 2)[0], DECIDING),
    "middle": (lambda: POINTS["middle"], DECIDING),
    "middle, a spectator": (lambda: POINTS["middle"], None),
    "after-a-battle": (lambda: POINTS["battle"], DECIDING),
    "late, four heroes": (lambda: POINTS["late-4-heroes"], DECIDING),
    "game-over": (game_over, 0),
}


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1366x900", "390x844"])
def test_the_kilforth_board_has_no_serious_violation_at_any_point_of_a_game(browser, size):  # noqa: F811
    findings = {}
    for point, (state, viewer) in KILFORTH_POINTS.items():
        context, page = seeded_board(browser, state(), size, viewer)
        findings[point] = axe_findings(page, f"board {point} {size[0]}x{size[1]}")
        # With a location's card open too: a popover is part of the page a person reads.
        page.locator("#kb-loc-12 .loc-open").click()
        findings[f"{point} card open"] = axe_findings(page, f"board {point} with a card open")
        context.close()
    assert not any(findings.values()), (summary(findings), findings)


@pytest.mark.server
@pytest.mark.slow
def test_the_lobby_a_table_the_boards_the_log_the_replay_and_the_gallery_pass_axe(new_page):
    findings = {}
    page = new_page(*DESKTOP)
    page.goto("/")
    findings["welcome"] = axe_findings(page, "welcome")
    enter(page, "Ada")
    findings["lobby"] = axe_findings(page, "lobby")
    page.get_by_role("link", name="Open a table").click()
    findings["table form"] = axe_findings(page, "table form")
    page.get_by_label("Solo").check()
    page.get_by_label("Hero seats").fill("1")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    expect(page.get_by_role("button", name="Start game")).to_be_visible()
    findings["table gathering"] = axe_findings(page, "table gathering")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("button", name="Confirm my hero")).to_be_visible()
    findings["hero choice"] = axe_findings(page, "hero choice")
    page.get_by_role("button", name="Confirm my hero").click()
    board = page.locator("#game-board")
    expect(board.locator(".kb-map")).to_be_visible()
    table = page.url
    findings["kilforth board"] = axe_findings(page, "kilforth board (served)")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    findings["kilforth board phone"] = axe_findings(page, "kilforth board (served) phone")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.goto(table + "log/")
    findings["whole log"] = axe_findings(page, "whole log")
    page.goto(table + "replay/")
    findings["replay"] = axe_findings(page, "replay")
    page.goto("/cards/")
    findings["gallery"] = axe_findings(page, "gallery")

    # A Knight Fall night, solo co-op: the board on a desktop and a phone, its log and replay.
    page.goto("/tables/new/?game=knightfall")
    page.get_by_label("Co-op (all knights)").check()
    page.locator("#id_seat_count").fill("1")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("heading", name="Ready for the night?")).to_be_visible()
    findings["knight fall ready"] = axe_findings(page, "knight fall ready")
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#game-board .kf-grid")).to_be_visible()
    findings["knight fall start"] = axe_findings(page, "knight fall start")
    # A tile's text is read by keyboard: its name is a button opening it; Escape closes it.
    page.goto(page.url)
    expect(page.locator("#game-board .kf-grid")).to_be_visible()
    tile = page.locator(".kf-tile-open").first
    tab_to(page, ".kf-tile-open")
    page.keyboard.press("Enter")
    text = page.locator(f"#{tile.get_attribute('popovertarget')}")
    expect(text).to_be_visible()
    findings["knight fall tile open"] = axe_findings(page, "knight fall with a tile's text open")
    page.keyboard.press("Escape")
    expect(text).to_be_hidden()
    rng = random.Random(5)
    made = 0
    while made < 6:
        if _click_a_choice(page, rng) is not None:
            made += 1
    findings["knight fall later"] = axe_findings(page, "knight fall after six decisions")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    findings["knight fall phone"] = axe_findings(page, "knight fall phone")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    knight_fall = page.url
    page.goto(knight_fall + "log/")
    findings["knight fall log"] = axe_findings(page, "knight fall log")
    page.goto(knight_fall + "replay/")
    findings["knight fall replay"] = axe_findings(page, "knight fall replay")
    assert not any(findings.values()), (summary(findings), findings)


# -- Keyboard only ---------------------------------------------------------------------------

FOCUSED = "document.activeElement"


def focus_is_visible(page) -> bool:
    """The focused element draws a focus ring: an outline of 2px or more, or a box shadow
    (looked at for up to a second: the first Tab into a fresh page can settle a moment late;
    a swap of the table that takes the focused element away is no failure)."""
    ring = f"""() => {{ const a = {FOCUSED};
        if (a === document.body) return true;  // a swap took the focused element away
        const s = getComputedStyle(a);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2)
            || s.boxShadow !== 'none'; }}"""
    try:
        page.wait_for_function(ring, timeout=1_000)
    except PlaywrightTimeout:
        return False
    return True


def tab_to(page, selector: str, limit: int = 400) -> int:
    """Press Tab until the element `selector` names has the focus; how many presses it took.
    Every element passed on the way must show where the focus is."""
    for presses in range(limit):
        if page.evaluate(f"s => {FOCUSED} === document.querySelector(s)", selector):
            return presses
        page.keyboard.press("Tab")
        if page.evaluate(f"{FOCUSED} !== document.body"):
            what = page.evaluate(f"{FOCUSED}.outerHTML.slice(0, 120)")
            assert focus_is_visible(page), f"no visible focus on {what}"
    raise AssertionError(f"{selector} is not reached with {limit} presses of Tab")


KEYBOARD_SEED = 4  # a solo first day with a move, a battle's dice, a camp and a night card


def test_a_solo_day_is_played_with_the_keyboard_alone_and_a_screen_reader_hears_it(
    browser,  # noqa: F811
    served,  # noqa: F811
):
    settings = {**TABLE_DEFAULTS, "mode": "solo"}
    server = served(KEYBOARD_SEED)
    (page,) = contexts(browser, server, [DESKTOP])
    # The table is opened with the keyboard too: Tab, typing and Enter, from the page's start.
    page.goto("/")
    tab_to(page, "input[name=name]")
    page.keyboard.type("Kay")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Playing as Kay")).to_be_visible()
    tab_to(page, 'a[href$="/tables/new/"]')
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # A group of radio buttons is one stop for Tab; the arrow keys pick within it.
    tab_to(page, 'input[type=radio][value="competitive"]')
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.locator('input[type=radio][value="solo"]').is_checked()
    tab_to(page, "#id_seat_count")
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    tab_to(page, ".settings-form button[type=submit]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    tab_to(page, "#seat-0 button.primary")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Start game")).to_be_visible()
    tab_to(page, 'form[action$="/start/"] button')
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Confirm my hero")).to_be_visible()
    tab_to(page, ".hero-choice button.primary")
    page.keyboard.press("Enter")
    expect(page.locator("#game-board .kb-map")).to_be_visible()

    # From the board page's start: a location's card is read by keyboard and closed with Escape.
    page.goto(page.url)
    tab_to(page, "#kb-loc-12 .loc-open")
    page.keyboard.press("Enter")
    card = page.locator("#kb-loc-12-card")
    expect(card).to_be_visible()
    page.keyboard.press("Escape")
    expect(card).to_be_hidden()

    state = adapter.setup(settings, [RANDOM_HERO], KEYBOARD_SEED)
    assert saved_state(server) == state
    moves: dict = {}
    seen = events(None, state)
    heard = []
    announce = page.locator("#game-announce")
    while state.day == 1 and state.result is None:
        key = first_day_policy(state, 0, moves)
        version = board_version(page)
        button = f'#game-board form.choice:has(input[name="key"][value="{key}"]) button'
        presses = tab_to(page, button)
        print(f"{key}: reached with {presses} presses of Tab")
        if heard:  # after a choice, the focus waits at the next decision
            assert presses < 15, (key, presses)
        assert focus_is_visible(page)
        human_pace()
        page.keyboard.press("Enter" if len(heard) % 2 == 0 else "Space")
        expect(page.locator("#game-board")).not_to_have_attribute("data-version", str(version))
        before = state
        state = adapter.act(state, 0, key)
        seen |= events(before, state)
        assert saved_state(server) == state
        if state.waiting_for == [0] and state.day == 1:
            expect(announce).to_contain_text("Your decision:")
        heard.append(announce.text_content())
        print(f"heard: {heard[-1]!r}")
    assert {"moved", "engage", "roll", "camp", "night_card"} <= seen
    assert state.day == 2, "a whole day and its night were played"
    assert any("test:" in line for line in heard), heard  # a roll result was announced
    assert all(len(line) < 300 for line in heard), "announcements stay short"


# -- What a screen reader hears ----------------------------------------------------------------


def swapped_and_heard(browser, before, after, viewer) -> tuple[str, str]:  # noqa: F811
    """Open the board of `before` as `viewer` sees it, swap in `after` as a websocket frame does,
    and return what the live region said; then the same frame again, and what it said then."""
    context = browser.new_context(viewport={"width": DESKTOP[0], "height": DESKTOP[1]})
    page = context.new_page()
    html = page_html(framed(before, viewer)).replace(
        '<main class="page">',
        '<main class="page"><div id="game-announce" class="sr-only" aria-live="polite"></div>',
    )
    page.set_content(html)
    frame = framed(after, viewer).replace(
        'id="game-board"', 'id="game-board" hx-swap-oob="true"', 1
    )
    swap = (
        "html => { htmx.swap(document.body, html, {swapStyle: 'none'});"
        " document.dispatchEvent(new Event('htmx:wsAfterMessage')); }"
    )
    page.evaluate(swap, frame)
    page.wait_for_timeout(200)
    first = page.locator("#game-announce").text_content()
    page.evaluate("document.getElementById('game-announce').textContent = ''")
    page.evaluate(swap, frame)
    page.wait_for_timeout(200)
    again = page.locator("#game-announce").text_content()
    context.close()
    return first, again


def newest_dice(state) -> str:
    recent = view(state, None)["recent_tests"]
    return repr(recent["events"][-1]) if recent and recent["events"] else ""


def test_a_spectator_hears_new_dice_once_and_never_a_decision(browser):  # noqa: F811
    states = playout("gloom", "competitive", 2)
    before, after = next(
        (a, b)
        for a, b in zip(states, states[1:], strict=False)
        if newest_dice(b) != newest_dice(a)
        and view(b, None)["recent_tests"]["events"][-1]["e"] in ("roll", "test")
    )
    first, again = swapped_and_heard(browser, before, after, None)
    assert re.search(r"\w, \w+ test: (no|\d+) success", first), first
    assert "Your decision" not in first
    assert again == "", "the same frame again says nothing"


def test_a_player_hears_their_new_decision_in_one_short_sentence(browser):  # noqa: F811
    states = playout("gloom", "competitive", 2)
    before, after = next(
        (a, b)
        for a, b in zip(states, states[1:], strict=False)
        if a.waiting_for and b.waiting_for and a.waiting_for[0] == 0 and b.waiting_for[0] == 1
    )
    first, again = swapped_and_heard(browser, before, after, 1)
    assert first.count("Your decision:") == 1 and len(first) < 300, first
    assert again == "", "an unchanged decision is not said again"


# -- Learn to play ---------------------------------------------------------------------------


@pytest.mark.server
@pytest.mark.slow
def test_learn_to_play_and_its_guide_pass_axe_on_a_desktop_and_a_phone(new_page):
    findings = {}
    page = new_page(*DESKTOP)
    page.goto("/learn/kilforth/")
    page.get_by_label("Your name at the table").fill("Ida")
    page.get_by_role("button", name="Enter the lobby").click()
    expect(page.get_by_role("heading", name="Learn to play Kilforth")).to_be_visible()
    findings["learn page"] = axe_findings(page, "learn page")
    page.get_by_role("button", name="Start the guided game").click()
    coach = page.get_by_role("region", name="Welcome")
    expect(coach).to_be_visible()
    findings["guide, an explanation"] = axe_findings(page, "tutorial welcome")
    # On to the first step that marks a choice: the mark and its tag are checked too.
    while not page.locator("#game-board .coach-target").count():
        shown = page.locator("#table-coach .coach-kicker").text_content()
        human_pace()
        if page.locator("#table-coach .coach-next").count():
            page.locator("#table-coach .coach-next").click()
        else:
            page.locator("#game-board .coach-target").click()
        expect(page.locator("#table-coach .coach-kicker")).not_to_have_text(shown)
    findings["guide, a marked choice"] = axe_findings(page, "tutorial marked choice")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    findings["guide, phone"] = axe_findings(page, "tutorial phone")
    page.goto("/")
    expect(page.get_by_role("button", name="Learn to play Kilforth")).to_be_visible()
    findings["lobby with the entry, phone"] = axe_findings(page, "lobby with learn to play")
    assert not any(findings.values()), (summary(findings), findings)
