"""The end of a Kilforth game in numbers, in a real browser: a player and a spectator see the
scores and what made them, the points by day, the dice luck and the key moments, drawn by the
server (Knight Fall's is in test_knightfall_table_life.py)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
from tests.browser.test_game_in_a_browser import enter

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_a_finished_kilforth_game_shows_players_and_spectators_its_numbers_and_charts(
    server,  # noqa: F811
    page_as,  # noqa: F811
    screenshot,
):
    seeded = seed(
        server,
        {"game": "kilforth", "name": "The long road", "players": ["Ann", "Bob"], "decisions": 5000},
    )
    slug = seeded["slugs"][0]
    assert seeded["seats"] == [None], "the seeded game did not end"
    player = page_as(seeded, "Ann")
    player.goto(f"/t/{slug}/")
    watcher = page_as(seeded, "Ann")  # a second person: a guest who picks a name
    watcher.context.clear_cookies()
    enter(watcher, "Wes")
    watcher.goto(f"/t/{slug}/")
    for page in (player, watcher):
        summary = page.locator(".game-summary")
        expect(summary).to_contain_text("The game in numbers")
        # Each hero's points and what made them, the winner marked.
        rows = summary.locator(".summary-scores tbody tr")
        expect(rows).to_have_count(2)
        expect(summary.locator(".summary-scores tr.won")).to_have_count(1)
        expect(summary.locator(".summary-scores tr.won")).to_contain_text("(won)")
        # Points at the end of each day, dice luck per hero, the key moments: inline SVG.
        expect(summary.locator("svg.chart").first).to_have_attribute(
            "aria-label", re.compile(r"by day$")
        )
        expect(summary).to_contain_text("at the end of each day")
        luck = summary.locator('svg.chart[aria-label="Successes rolled against expected"]')
        expect(luck).to_be_visible()
        key = summary.locator("figure", has_text="Dice luck").locator(".chart-key")
        expect(key).to_contain_text(re.compile(r"Ann: \d+ rolled, [\d.]+ expected"))
        expect(key).to_contain_text(re.compile(r"Bob: \d+ rolled, [\d.]+ expected"))
        # The chat names the winner (or says nobody won), in the log's own sentence.
        expect(page.locator("#chat-log")).to_contain_text(
            re.compile(r"The game is over: .+\. (Ann|Bob|Ann and Bob|Nobody) (wins|share)")
        )
    moments = player.locator(".summary-moments li")
    if moments.count():
        expect(player.locator('svg.chart[aria-label="Key moments"]')).to_be_visible()
        expect(moments.first).to_contain_text(re.compile(r"^Day \d+: "))
    player.locator(".game-summary").scroll_into_view_if_needed()
    screenshot(player, "summary-kilforth-desktop")
    watcher.set_viewport_size({"width": 390, "height": 844})
    expect(
        watcher.locator('svg.chart[aria-label="Successes rolled against expected"]')
    ).to_be_visible()
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 392
    screenshot(watcher, "summary-kilforth-phone")
