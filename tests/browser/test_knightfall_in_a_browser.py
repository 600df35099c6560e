"""Knight Fall in a real browser: a table opened from the lobby, bots in two seats, clicks."""

import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.test_game_in_a_browser import enter, human_pace

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_a_knight_fall_table_with_two_bots_is_played_by_clicks_and_watched(new_page, screenshot):
    page = new_page(1280, 1000)
    enter(page, "Hal")
    page.get_by_role("link", name="Open a table").click()
    page.get_by_role("link", name="Knight Fall").click()
    page.get_by_label("Name").fill("Night watch")
    page.locator("#id_seat_count").fill("3")
    page.get_by_label("Bot pace").fill("100")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    for number in (1, 2):
        page.locator(f"#seat-{number}").get_by_role("button", name="Give to a bot").click()
        expect(page.locator(f"#seat-{number}")).to_contain_text("Bot (sensible)")
    watch = page.locator("#watch-link").input_value()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("heading", name="Ready for the night?")).to_be_visible()
    page.get_by_role("button", name="Ready").click()
    board = page.locator("#game-board")
    expect(board.locator(".kf-grid")).to_be_visible()

    watcher = new_page(390, 844)
    watcher.goto(watch)
    expect(watcher.locator("#game-board .kf-grid")).to_be_visible()

    rng = random.Random(3)
    clicks = 0
    for _ in range(400):
        if clicks >= 8 or page.get_by_role("heading", name="Play again?").count():
            break
        version = board.get_attribute("data-version")
        choices = page.locator(f'#game-board[data-version="{version}"] form.kf-choice button')
        count = choices.count()
        if count == 0:
            page.wait_for_timeout(100)  # a bot is deciding
            continue
        try:
            choices.nth(rng.randrange(count)).click(timeout=2000)
        except PlaywrightTimeout:
            continue  # the board moved on under the pointer: look again
        expect(board).not_to_have_attribute("data-version", version)
        clicks += 1
    assert clicks >= 5
    expect(board.locator(".kf-log-list li").first).to_be_visible()
    # The spectator follows live and never gets a decision to make.
    expect(watcher.locator("#game-board .kf-tile").first).to_be_visible()
    assert watcher.locator("#game-board form.kf-choice").count() == 0
    screenshot(page, "knightfall-player-desktop")
    screenshot(watcher, "knightfall-spectator-phone")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "knightfall-player-phone")
    # Nothing on the phone is wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width


def test_a_solo_co_op_night_is_played_to_its_end_by_clicks_and_rematched(new_page, screenshot):
    page = new_page(1280, 1000)
    enter(page, "Sol")
    page.goto("/tables/new/?game=knightfall")
    page.get_by_label("Co-op (all knights)").check()
    page.locator("#id_seat_count").fill("1")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    page.get_by_role("button", name="Start game").click()
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_role("heading", name="Ready for the night?")).to_be_visible()
    screenshot(page, "knightfall-ready-phone")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.get_by_role("button", name="Ready").click()
    board = page.locator("#game-board")
    expect(board.locator(".kf-grid")).to_be_visible()
    expect(page).to_have_title(re.compile(r"^\(your turn\) "))  # static/js/turn.js

    rng = random.Random(7)
    clicks = 0
    while clicks < 1500 and not page.get_by_role("heading", name="Play again?").count():
        version = board.get_attribute("data-version")
        choices = page.locator(f'#game-board[data-version="{version}"] form.kf-choice button')
        count = choices.count()
        if count == 0:
            page.wait_for_timeout(50)
            continue
        human_pace()
        try:
            # The board may move on between counting and clicking (a swap replaces the forms):
            # then the locator, tied to the version counted, finds nothing; look again.
            choices.nth(rng.randrange(count)).click(timeout=5_000)
        except PlaywrightTimeout:
            continue
        expect(board).not_to_have_attribute("data-version", version)
        clicks += 1
    expect(page.get_by_role("heading", name="Play again?")).to_be_visible()
    expect(board.locator("#kf-result")).to_contain_text(re.compile("win|lost"))
    screenshot(page, "knightfall-end-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "knightfall-end-phone")
    page.get_by_role("button", name="Rematch with the same settings and players").click()
    expect(page.get_by_role("button", name="Start game")).to_be_visible()  # the new table
    expect(page.locator("#seat-0")).to_contain_text("Sol")
    expect(page.locator(".table-head")).to_contain_text("Co-op")


def _click_a_choice(page, rng: random.Random) -> str | None:
    """Click one of the page's choices at the board's version; the prompt it answered, or None."""
    board = page.locator("#game-board")
    version = board.get_attribute("data-version")
    choices = page.locator(f'#game-board[data-version="{version}"] form.kf-choice button')
    count = choices.count()
    if count == 0:
        return None
    prompt = page.locator("#kf-decision .kf-prompt")
    text = prompt.inner_text() if prompt.count() else ""
    human_pace()
    try:
        choices.nth(rng.randrange(count)).click(timeout=2_000)
    except PlaywrightTimeout:
        return None  # the board moved on under the pointer
    expect(board).not_to_have_attribute("data-version", version)
    return text


@pytest.mark.rule("KPC-1", "KPC-4", "KDEF-2")
def test_two_against_two_with_bots_is_played_to_its_end_with_a_defence_answered_off_turn(
    new_page, screenshot
):
    hal, ivy = new_page(1280, 1000), new_page(1280, 1000)
    enter(hal, "Hal")
    hal.goto("/tables/new/?game=knightfall")
    hal.get_by_label("Name").fill("Two and two")
    hal.locator("#id_seat_count").fill("4")
    hal.get_by_label("Bot pace").fill("100")
    hal.get_by_role("button", name="Open the table").click()
    hal.locator("#seat-0").get_by_role("button", name="Take seat").click()
    invite = hal.locator("#invite-link").input_value()
    watch = hal.locator("#watch-link").input_value()
    enter(ivy, "Ivy")
    ivy.goto(invite)
    ivy.locator("#seat-1").get_by_role("button", name="Take seat").click()
    for number in (2, 3):
        hal.locator(f"#seat-{number}").get_by_role("button", name="Give to a bot").click()
        expect(hal.locator(f"#seat-{number}")).to_contain_text("Bot (sensible)")
    hal.get_by_role("button", name="Start game").click()
    for page in (hal, ivy):
        page.get_by_role("button", name="Ready").click()
    watcher = new_page(390, 844)
    watcher.goto(watch)
    for page in (hal, ivy, watcher):
        expect(page.locator("#game-board .kf-grid")).to_be_visible()
    # KPC-1, KPC-4: four players are two against two, seats alternating, a demon first.
    expect(hal.locator("#kf-hand")).to_contain_text("Demons")
    expect(ivy.locator("#kf-hand")).to_contain_text("Knights")

    rng = random.Random(11)
    defended_off_turn = False
    for _ in range(20_000):
        if hal.get_by_role("heading", name="Play again?").count():
            break
        answered = False
        for page in (hal, ivy):
            prompt = _click_a_choice(page, rng)
            answered = answered or prompt is not None
            if page is ivy and prompt and "Defend?" in prompt:
                defended_off_turn = True  # a knight's reaction, asked during a demon's turn
        if not answered:
            hal.wait_for_timeout(50)  # a bot is deciding
    for page in (hal, ivy):
        expect(page.get_by_role("heading", name="Play again?")).to_be_visible()
    for page in (hal, ivy, watcher):
        expect(page.locator("#kf-result")).to_contain_text(re.compile("win|lost"))
    assert defended_off_turn, "Ivy's knight was never asked to defend an ally"
    assert watcher.locator("#game-board form.kf-choice").count() == 0
    screenshot(ivy, "knightfall-2v2-end-desktop")
    screenshot(watcher, "knightfall-2v2-end-spectator-phone")


def test_the_knight_fall_card_gallery_reads_on_desktop_and_phone(new_page, screenshot):
    page = new_page(1366, 900)
    page.goto("/cards/knightfall/")
    expect(page.get_by_role("heading", name="Knight Fall: every card")).to_be_visible()
    screenshot(page, "knightfall-gallery-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    screenshot(page, "knightfall-gallery-phone")
