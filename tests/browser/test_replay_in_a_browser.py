"""A replay in a real browser: stepped with the buttons, the arrow keys, the slider and by day or
round, with every hand revealed once the game is over (Kilforth and Knight Fall), on desktop and
phone."""

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_findings
from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
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
    # While the game runs there is no way to see a hand: no switch, no seat to see it as.
    expect(page.get_by_role("switch")).to_have_count(0)
    expect(page.locator("#replay-seat")).to_have_count(0)
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


FINISHED = {
    "kilforth": {"players": ["Ann", "Bob"], "decisions": 40, "word": "Day"},
    "knightfall": {"players": ["Kay", "Dee"], "decisions": 160, "word": "Round"},
}


@pytest.mark.parametrize("game", ["kilforth", "knightfall"])
def test_a_finished_game_is_stepped_by_day_or_round_and_with_every_hand_revealed(
    server,  # noqa: F811
    page_as,  # noqa: F811
    screenshot,
    game,
):
    spec = FINISHED[game]
    seeded = seed(
        server,
        {"game": game, "name": "Over and done", "players": spec["players"]}
        | {"decisions": spec["decisions"], "finished": True},
    )
    page = page_as(seeded, spec["players"][0])
    page.goto(f"/t/{seeded['slugs'][0]}/replay/?step=0")
    where = page.locator(".replay-where")
    marks = page.locator(".replay-marks li")
    expect(where).to_contain_text("The game as it began")
    steps = [int(v) for v in page.locator("#replay-marks option").evaluate_all(
        "options => options.map(o => o.value)"
    )]  # fmt: skip
    labels = marks.all_inner_texts()
    assert len(steps) >= 3 and labels[1] == f"{spec['word']} {int(labels[0].split()[-1]) + 1}"
    word = spec["word"]

    # Page Down: to the start of the next day (round); the slider's mark for it is the current.
    page.wait_for_load_state("load")
    page.keyboard.press("PageDown")
    first = steps[0] if steps[0] > 0 else steps[1]
    expect(where).to_contain_text(f"Decision {first} of")
    here = page.locator(".replay-marks li.current")
    expect(here).to_have_count(1)
    expect(where).to_contain_text(here.inner_text())
    # A mark on the slider goes to its day (round); the buttons name the ones around it.
    page.get_by_role("link", name=labels[2], exact=True).click()
    expect(where).to_contain_text(f"Decision {steps[2]} of")
    expect(where).to_contain_text(labels[2])
    expect(page.locator('a[rel="prev-phase"]')).to_contain_text(labels[1])
    # The slider: where it points is shown as it moves, and letting go goes there (once the
    # page the link opened has run its script: replay.js is deferred).
    page.wait_for_load_state("load")
    page.locator("#replay-step").fill(str(steps[1] + 1))
    expect(where).to_contain_text(f"Decision {steps[1] + 1} of")
    expect(page.locator("output.replay-output")).to_have_text(f"{steps[1] + 1} · {labels[1]}")

    # Reveal hands: every seat's hand at this step, kept while stepping, hidden again with H.
    switch = page.get_by_role("switch", name="Reveal hands")
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(page.locator(".replay-hands")).to_have_count(0)
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    hands = page.locator(".replay-hand")
    expect(hands).to_have_count(2)
    for number, name in enumerate(spec["players"]):
        expect(hands.nth(number)).to_contain_text(f"{name} Seat {number + 1}")
    page.wait_for_load_state("load")
    page.keyboard.press("Home")
    expect(where).to_contain_text("The game as it began")
    expect(hands).to_have_count(2)
    page.wait_for_load_state("load")
    page.keyboard.press("ArrowRight")
    expect(where).to_contain_text("Decision 1 of")
    page.wait_for_load_state("load")
    page.keyboard.press("Shift+ArrowRight")  # by day (round), the hands still shown
    expect(where).to_contain_text(f"Decision {first} of")
    expect(hands).to_have_count(2)
    # By then the seats hold cards (each drew its first), named under their seat.
    expect(page.locator(".replay-cards li").first).to_be_visible()
    screenshot(page, f"replay-hands-{game}-desktop")
    # The marks, the switch and the hands pass axe (no serious or critical violation).
    assert axe_findings(page, f"replay with hands, {game}") == []
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, f"replay-hands-{game}-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    page.wait_for_load_state("load")
    page.keyboard.press("h")
    expect(page.get_by_role("switch", name="Reveal hands")).to_have_attribute(
        "aria-checked", "false"
    )
    expect(page.locator(".replay-hands")).to_have_count(0)
    assert word in labels[0]
    if game == "kilforth":
        # As a seat saw it: its own rows (what it was asked and chose) read among everyone's
        # (static/js/log.js places them, as on the table's page).
        page.goto(f"/t/{seeded['slugs'][0]}/replay/?step={steps[2]}&seat=0")
        board = page.locator("#game-board")
        own = board.locator("#kb-log-own .log-row")
        assert own.count() > 0
        expect(board.locator(".log-list .log-row.from-own")).to_have_count(own.count())
        screenshot(page, "replay-as-a-seat-kilforth-phone")
        page.set_viewport_size({"width": 1366, "height": 900})
        screenshot(page, "replay-as-a-seat-kilforth-desktop")
