"""Learn to play, in a real Chromium: from the lobby's entry through the first day and night.

The newcomer clicks only what the guide marks (or its Next), step by step, until the guide says
its last word; the marked choice is always in view and never under the coach, on a desktop and on
a phone. Screenshots of a few steps land in artifacts/screenshots/tutorial-*.png.
"""

import re

import pytest
from playwright.sync_api import expect

from games.kilforth.tutorial import TUTORIAL
from tests.browser.conftest import browser  # noqa: F401 - the shared module-scoped fixture
from tests.browser.test_accessibility import DESKTOP, PHONE
from tests.browser.test_game_in_a_browser import board_version, enter, human_pace

pytestmark = [pytest.mark.server, pytest.mark.slow]

SHOTS = {"Daylight", "Moving", "A test, and fate", "An engagement", "The night"}


def step_of(page) -> str:
    return page.locator("#table-coach .coach-kicker").text_content()


def uncovered_and_in_view(page, selector: str, height: int) -> None:
    """The element is inside the viewport and is what a tap at its centre reaches (waited for:
    a resize reaches the page's script a moment after the viewport changed)."""
    page.wait_for_function(
        """([sel, h]) => { const r = document.querySelector(sel).getBoundingClientRect();
            return r.top >= 0 && r.bottom <= h; }""",
        arg=[selector, height],
        timeout=5_000,
    )
    box = page.locator(selector).bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (selector, box)
    reached = page.evaluate(
        """([sel, x, y]) => { const el = document.querySelector(sel);
            const hit = document.elementFromPoint(x, y); return !!hit && el.contains(hit); }""",
        [selector, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert reached, f"{selector} is covered"


def test_a_newcomer_learns_kilforth_through_a_day_and_a_night(new_page):
    page = new_page(*DESKTOP)
    enter(page, "Nell")
    entry = page.get_by_role("button", name="Learn to play Kilforth")
    expect(entry).to_be_visible()
    page.screenshot(path=str(_shot("lobby", DESKTOP)))
    entry.click()
    coach = page.get_by_role("region", name=re.compile("Welcome"))
    expect(coach).to_be_visible()
    board = page.locator("#game-board")
    titles = []
    while page.locator("#table-coach:not([hidden])").count():
        title = page.locator("#coach-title").text_content()
        assert not page.locator("#table-coach.is-strayed").count(), title
        titles.append(title)
        key = page.locator("#table-coach").get_attribute("data-highlight")
        shown = step_of(page)
        if key:
            target = page.locator("#game-board .coach-target")
            expect(target).to_have_count(1)
            assert target.locator("xpath=..").locator(f'input[name="key"][value="{key}"]').count()
            expect(target).to_contain_text("Guide")
            uncovered_and_in_view(page, "#game-board .coach-target", DESKTOP[1])
        if title in SHOTS:
            name = re.sub(r"\W+", "-", title.lower()).strip("-")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(_shot(name, DESKTOP)))
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            page.evaluate("window.scrollTo(0, 0)")
            if key:  # the docked decision bar holds the marked choice, in reach and uncovered
                uncovered_and_in_view(page, "#game-board .coach-target", PHONE[1])
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
            page.screenshot(path=str(_shot(name, PHONE)))
            page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        human_pace()
        if key:
            version = board_version(page)
            page.locator("#game-board .coach-target").click()
            expect(board).not_to_have_attribute("data-version", str(version))
        else:
            page.locator("#table-coach .coach-next").click()
        # The guide moves on (or, after its last word, goes away) with the same frame.
        page.wait_for_function(
            "s => { const k = document.querySelector('#table-coach .coach-kicker');"
            " return !k || k.textContent !== s; }",
            arg=shown,
        )
    assert titles == [step.title for step in TUTORIAL.script]
    # A screen reader heard each new step in a few words (the last one, before it went away).
    last = len(TUTORIAL.script)
    expect(page.locator("#coach-announce")).to_have_text(
        f"Guide · step {last} of {last}: {TUTORIAL.script[-1].title}."
    )
    # The guide has finished; the game goes on as any other, on its second day.
    expect(page.locator(".st-day")).to_contain_text(re.compile(r"\bDay 2\b"))
    expect(page.locator("#kb-decision")).to_contain_text("Your decision")


def test_leaving_the_guide_keeps_the_game(new_page):
    page = new_page(*DESKTOP)
    enter(page, "Lea")
    page.get_by_role("button", name="Learn to play Kilforth").click()
    expect(page.locator("#coach-title")).to_have_text("Welcome")
    human_pace()
    page.get_by_role("button", name="Leave the tutorial").click()
    expect(page.locator("#table-coach")).to_be_hidden()
    expect(page.locator("#game-board .coach-target")).to_have_count(0)
    version = board_version(page)
    human_pace()
    page.locator("#game-board form.choice button").first.click()
    expect(page.locator("#game-board")).not_to_have_attribute("data-version", str(version))
    expect(page.locator("#table-coach")).to_be_hidden()


def _shot(name: str, size: tuple[int, int]):
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"tutorial-{name}-{size[0]}x{size[1]}.png"
