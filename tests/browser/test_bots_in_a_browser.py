"""A host alone with a bot: the whole game in a real browser, the bot played by the server."""

import random
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.test_game_in_a_browser import enter

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_a_host_starts_a_two_seat_table_with_one_bot_and_plays_it_to_the_end(new_page):
    page = new_page()
    enter(page, "Hal")
    page.get_by_role("link", name="Open a table").click()
    page.get_by_label("Name").fill("Me and the machine")
    page.get_by_label("Bot pace").fill("50")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    page.locator("#seat-1").get_by_role("button", name="Give to a bot").click()
    expect(page.locator("#seat-1")).to_contain_text("Bot (random)")
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("button", name="Confirm my hero").click()
    board = page.locator("#game-board")
    expect(board).to_be_visible()

    rng = random.Random(5)
    deadline = time.monotonic() + 240
    clicks = 0
    while time.monotonic() < deadline:
        if page.get_by_role("heading", name="Play again?").count():
            break
        version = board.get_attribute("data-version")
        choices = page.locator(f'#game-board[data-version="{version}"] form.choice button')
        count = choices.count()
        if count == 0:
            page.wait_for_timeout(50)  # the bot is thinking
            continue
        try:
            choices.nth(rng.randrange(count)).click(timeout=2000)
        except PlaywrightTimeout:
            continue  # the board moved on under the pointer (the bot acted): look again
        expect(board).not_to_have_attribute("data-version", version)
        clicks += 1
    expect(page.get_by_role("heading", name="Play again?")).to_be_visible()
    assert clicks > 5
    # The bot's decisions are in the log like anyone's.
    expect(page.locator("#game-board")).to_contain_text("Bot (random)")
