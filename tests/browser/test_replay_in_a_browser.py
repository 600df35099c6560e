"""A replay in a real browser: stepped with the buttons and the arrow keys, on desktop and phone."""

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game_in_a_browser import enter
from tests.browser.test_knightfall_in_a_browser import _click_a_choice

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_a_game_so_far_is_stepped_through_with_buttons_and_arrow_keys(new_page, screenshot):
    page = new_page(1366, 900)
    enter(page, "Rae")
    page.goto("/tables/new/?game=knightfall")
    page.get_by_label("Co-op (all knights)").check()
    page.locator("#id_seat_count").fill("1")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#seat-0").get_by_role("button", name="Take seat").click()
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#game-board .kf-grid")).to_be_visible()
    rng = random.Random(5)
    made = 0
    while made < 6:
        if _click_a_choice(page, rng) is not None:
            made += 1
    version = page.locator("#game-board").get_attribute("data-version")

    page.goto(page.url + "replay/")
    where = page.locator(".replay-where")
    expect(where).to_contain_text(re.compile(r"Decision (\d+) of \1"))
    expect(where).to_contain_text("still on")
    expect(page.locator("#game-board")).to_have_attribute("data-version", version)
    assert page.locator(".replay-board button:enabled").count() == 0  # nothing can be played
    last = int(re.search(r"of (\d+)", where.inner_text()).group(1))
    page.locator('.replay-controls a[rel="prev"]').click()
    expect(where).to_contain_text(f"Decision {last - 1} of {last}")
    # The keys work once the page's script has run (it is deferred): wait for each load.
    page.wait_for_load_state("load")
    page.keyboard.press("ArrowLeft")
    expect(where).to_contain_text(f"Decision {last - 2} of {last}")
    page.wait_for_load_state("load")
    page.keyboard.press("Home")
    expect(where).to_contain_text("The game as it began")
    page.wait_for_load_state("load")
    page.keyboard.press("ArrowRight")
    expect(where).to_contain_text(f"Decision 1 of {last}")
    screenshot(page, "replay-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "replay-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
