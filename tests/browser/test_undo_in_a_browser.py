"""Undo in a real browser: the button appears after a decision that revealed nothing, and takes
it back for everyone."""

import random

import pytest
from playwright.sync_api import expect

from tests.browser.test_game_in_a_browser import enter
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
