"""A host alone with a bot: the whole game in a real browser, the bot played by the server."""

import random
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
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


def test_the_host_is_told_the_game_waits_on_a_player_who_is_away(
    server,  # noqa: F811
    page_as,  # noqa: F811
    screenshot,
):
    """Bob never opened the table: while the game waits on him, his host is told so and offered
    a bot for him, in a part of its own (a spectator is not); once Bob is back, it goes."""
    seeded = seed(
        server,
        {"game": "kilforth", "name": "Waiting on Bob", "players": ["Ann", "Bob"], "until": "Bob"},
    )
    slug = seeded["slugs"][0]
    host = page_as(seeded, "Ann")
    host.goto(f"/t/{slug}/")
    away = host.locator("#table-absent")
    expect(away).to_be_visible()
    expect(away).to_contain_text("The game waits on Bob, who is offline")
    expect(away.get_by_role("button", name="Let a bot play for Bob")).to_be_visible()
    screenshot(host, "table-player-away-host-desktop")
    host.set_viewport_size({"width": 390, "height": 844})
    screenshot(host, "table-player-away-host-phone")

    bob = page_as(seeded, "Bob")
    bob.goto(f"/t/{slug}/")
    expect(bob.locator("#table-absent")).to_be_hidden()  # nobody is away for Bob
    expect(away).to_be_hidden()  # Bob is back: the host's part goes, live
