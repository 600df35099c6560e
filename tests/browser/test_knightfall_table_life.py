"""Knight Fall's table life in a real browser, beside the tests that play Kilforth: the end of a
game in numbers with its charts, and undo allowed once and refused once a card was drawn.

Games are seeded through the services in the server's own database (see
test_clocks_in_a_browser.seed), so each test goes straight to the moment it is about.
"""

import random

import pytest
from playwright.sync_api import expect

from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
from tests.browser.test_game_in_a_browser import enter
from tests.browser.test_knightfall_in_a_browser import _click_a_choice

pytestmark = [pytest.mark.server, pytest.mark.slow]

SOLO = {"game": "knightfall", "players": ["Sol"], "options": {"mode": "coop"}}


def test_a_finished_knight_fall_game_shows_players_and_spectators_its_numbers_and_charts(
    server,  # noqa: F811
    page_as,  # noqa: F811
    browser,
    screenshot,
):
    seeded = seed(server, SOLO | {"name": "The last night", "decisions": 5000})
    slug = seeded["slugs"][0]
    player = page_as(seeded, "Sol")
    player.goto(f"/t/{slug}/")
    watcher = page_as(seeded, "Sol")  # a second person: a guest who picks a name
    watcher.context.clear_cookies()
    enter(watcher, "Wes")
    watcher.goto(f"/t/{slug}/")
    for page in (player, watcher):
        summary = page.locator(".game-summary")
        expect(summary).to_contain_text("The game in numbers")
        # Both teams' points and what made them; points by round, drawn by the server.
        expect(summary.locator(".summary-scores tbody tr")).to_have_count(2)
        expect(summary.locator(".summary-scores")).to_contain_text("Knights")
        expect(summary.locator(".summary-scores")).to_contain_text("Demons")
        expect(summary.locator('svg.chart[aria-label="Points by round"]')).to_be_visible()
        expect(summary).to_contain_text("Points at the end of each round")
        # Knight Fall rolls no dice: no luck chart.
        expect(summary).not_to_contain_text("Dice luck")
    screenshot(player, "summary-knightfall-desktop")
    player.set_viewport_size({"width": 390, "height": 844})
    expect(player.locator('svg.chart[aria-label="Points by round"]')).to_be_visible()
    assert player.evaluate("document.documentElement.scrollWidth") <= 392
    screenshot(player, "summary-knightfall-phone")


def test_an_undo_is_allowed_and_one_is_refused_once_a_card_was_drawn(
    server,  # noqa: F811
    page_as,  # noqa: F811
):
    seeded = seed(server, SOLO | {"name": "Take it back"})
    page = page_as(seeded, "Sol")
    page.goto(f"/t/{seeded['slugs'][0]}/")
    board = page.locator("#game-board")
    expect(board.locator(".kf-grid")).to_be_visible()
    undo = page.get_by_role("button", name="Take back my last decision")
    rng = random.Random(2)
    for _ in range(200):
        if undo.count():
            break
        _click_a_choice(page, rng)
    # Allowed: nothing random or hidden came of the last decision.
    version = int(board.get_attribute("data-version"))
    undo.click()
    expect(board).to_have_attribute("data-version", str(version + 1))
    expect(page.locator("#chat-log")).to_contain_text("took back their last decision")
    # Decide on until a decision shows no Undo: a card was drawn, or the turn moved on.
    for _ in range(200):
        if _click_a_choice(page, rng) is not None and not undo.count():
            break
    expect(undo).to_have_count(0)
    # Refused: an undo sent anyway (as a stale page would) is answered with the reason.
    version = board.get_attribute("data-version")
    page.evaluate(
        """version => {
            const form = document.createElement("form");
            form.setAttribute("ws-send", "");
            form.innerHTML = '<input type="hidden" name="action" value="undo">'
                + '<input type="hidden" name="version" value="' + version + '">'
                + '<button type="submit" id="sneaky-undo">Undo anyway</button>';
            document.getElementById("table-undo").appendChild(form);
            htmx.process(form);
        }""",
        version,
    )
    page.locator("#sneaky-undo").click()
    expect(page.locator("#game-flash")).to_contain_text("Nothing of yours can be taken back now")
    expect(board).to_have_attribute("data-version", version)
