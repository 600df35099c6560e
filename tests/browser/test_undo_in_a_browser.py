"""Undo in a real browser: the button appears after a decision that revealed nothing, and takes
it back for everyone; once dice were rolled it is gone, and an undo sent anyway is refused with
the reason (Kilforth and Knight Fall; Knight Fall's card-drawn refusal is in
test_knightfall_table_life.py)."""

import random

import pytest
from playwright.sync_api import expect

from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
from tests.browser.test_game_in_a_browser import enter, human_pace
from tests.browser.test_knightfall_in_a_browser import _click_a_choice

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_a_decision_that_revealed_nothing_is_taken_back_with_one_click(new_page, screenshot):
    page = new_page(1366, 900)
    enter(page, "Uma")
    page.goto("/tables/new/?game=knightfall")
    page.get_by_label("Co-op (all knights)").check()
    page.locator("#id_seat_count").fill("1")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("button", name="Ready").click()
    board = page.locator("#game-board")
    expect(board.locator(".kf-grid")).to_be_visible()
    undo = page.get_by_role("button", name="Take back my last decision")
    rng = random.Random(2)
    for _ in range(200):
        if undo.count():
            break
        _click_a_choice(page, rng)
    expect(undo).to_be_visible()
    screenshot(page, "undo-offered-desktop")
    version = int(board.get_attribute("data-version"))
    undo.click()
    expect(board).to_have_attribute("data-version", str(version + 1))
    expect(page.locator("#chat-log")).to_contain_text("took back their last decision")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "undo-after-phone")


# A solo Kilforth game (the server's seed is fixed: KILFORTH_TEST_SEED=4242) played by the
# seeding bot for 58 decisions, to a turn where the hero may walk to the Wayfarer's Bazaar: the
# walk reveals nothing (no card is drawn there, no die rolled), and fighting the enemy waiting
# there alone rolls a die.
KILFORTH_SOLO = {
    "game": "kilforth",
    "name": "Second thoughts",
    "players": ["Ann"],
    "options": {"mode": "solo"},
    "decisions": 58,
}
WALK = "move:s.wayfarer_bazaar"
FIGHT = "alone"


def _choose(page, key: str) -> int:
    """Click the Kilforth choice with this key; the board's version before the click."""
    board = page.locator("#game-board")
    version = int(board.get_attribute("data-version"))
    form = page.locator(f'#game-board form.choice:has(input[name="key"][value="{key}"])')
    human_pace()
    form.get_by_role("button").click()
    expect(board).not_to_have_attribute("data-version", str(version))
    return version


def _undo_anyway(page) -> None:
    """Send an undo as a page that still showed the button would (the button is gone)."""
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
        page.locator("#game-board").get_attribute("data-version"),
    )
    human_pace()
    page.locator("#sneaky-undo").click()


def test_kilforth_an_undo_is_allowed_and_one_is_refused_after_a_die_roll(
    server,  # noqa: F811
    page_as,  # noqa: F811
    screenshot,
):
    seeded = seed(server, KILFORTH_SOLO)
    page = page_as(seeded, "Ann")
    page.goto(f"/t/{seeded['slugs'][0]}/")
    board = page.locator("#game-board")
    undo = page.get_by_role("button", name="Take back my last decision")
    walk = board.locator(f'form.choice:has(input[name="key"][value="{WALK}"])')
    expect(walk).to_have_count(1)
    expect(undo).to_have_count(0)  # the seeding bot's decisions are not Ann's to take back

    # Allowed: the walk revealed nothing, so the button is offered, and one click takes it back.
    _choose(page, WALK)
    expect(undo).to_be_visible()
    expect(page.locator("#table-undo")).to_contain_text("Nothing random or hidden came of it")
    screenshot(page, "undo-kilforth-offered-desktop")
    version = int(board.get_attribute("data-version"))
    human_pace()
    undo.click()
    expect(board).to_have_attribute("data-version", str(version + 1))
    expect(page.locator("#chat-log")).to_contain_text("Ann took back their last decision.")
    expect(walk).to_have_count(1)  # back where the hero stood, the same choice on offer
    expect(undo).to_have_count(0)  # an undo is not itself taken back

    # Refused: the walk again, then the fight: a die is rolled, and the button is gone.
    _choose(page, WALK)
    expect(undo).to_be_visible()
    rolls = board.locator('.log-row[data-kind="roll"]')
    before = rolls.count()
    _choose(page, FIGHT)
    expect(rolls).to_have_count(before + 1)  # the die, in the log for all to see
    expect(rolls.last.locator(".dice")).to_be_visible()
    expect(undo).to_have_count(0)
    # Where the button was, the page says why there is none.
    expect(page.locator("#table-undo")).to_contain_text("Your last decision stands")
    version = board.get_attribute("data-version")
    _undo_anyway(page)
    expect(page.locator("#game-flash")).to_contain_text("Nothing of yours can be taken back now")
    expect(page.locator("#game-flash")).to_contain_text("dice were rolled")
    expect(board).to_have_attribute("data-version", version)
    screenshot(page, "undo-kilforth-refused-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "undo-kilforth-refused-phone")
