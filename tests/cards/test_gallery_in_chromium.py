"""The card gallery in a real Chromium (Debian's /usr/bin/chromium) served by a real daphne.

Desktop and phone: screenshots in artifacts/screenshots/, no sideways scrolling on the phone, no
card overlapping another or spilling out of its own frame, every card named, no console errors.
"""

from __future__ import annotations

import pytest

from games.kilforth.gallery.faces import all_ids
from tests.browser.conftest import SCREENSHOTS

VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}

LAYOUT = """() => {
  const cards = [...document.querySelectorAll('.kc')];
  const boxes = cards.map(c => c.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const across = a.left < b.right - 1 && b.left < a.right - 1;
      if (across && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
        overlaps.push([cards[i].dataset.card, cards[j].dataset.card]);
      }
    }
  }
  const unnamed = cards.filter(c => !(c.querySelector('.kc-name')?.innerText || '').trim())
    .map(c => c.dataset.card);
  const hidden = cards.filter((c, i) => boxes[i].width < 100 || boxes[i].height < 60)
    .map(c => c.dataset.card);
  const spilling = cards.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.dataset.card);
  const root = document.documentElement;
  return {count: cards.length, overlaps, unnamed, hidden, spilling,
          overflow: root.scrollWidth - root.clientWidth};
}"""


def watch_console(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@pytest.mark.server
@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_the_gallery_draws_every_card_without_layout_errors(new_page, screenshot, device):
    page = new_page(*VIEWPORTS[device])
    errors = watch_console(page)
    page.goto("/cards/")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(SCREENSHOTS / f"cards-{device}-top.png"))
    screenshot(page, f"cards-{device}")
    found = page.evaluate(LAYOUT)
    assert found["count"] == len(all_ids())
    assert found["overflow"] <= 0, "the page scrolls sideways"
    assert found["overlaps"] == []
    assert found["unnamed"] == []
    assert found["hidden"] == []
    assert found["spilling"] == [], "content spills out of these cards"
    assert errors == []


@pytest.mark.server
def test_filtering_swaps_the_gallery_in_place_and_keeps_the_address(new_page, screenshot):
    page = new_page(390, 844)
    errors = watch_console(page)
    page.goto("/cards/")
    page.focus("#kg-f-kind")
    page.select_option("#kg-f-kind", "encounter")
    page.wait_for_url("**/cards/?*kind=encounter*")
    page.focus("#kg-f-terrain")
    page.select_option("#kg-f-terrain", "forest")
    page.wait_for_url("**terrain=forest*")
    page.wait_for_function("document.querySelectorAll('.kc-encounter.t-forest').length > 0")
    cards = page.locator(".kc")
    assert cards.count() == page.locator(".kc-encounter.t-forest").count()
    assert page.evaluate("document.activeElement.id") == "kg-f-terrain", "focus stays on the filter"
    announced = page.inner_text("#kg-announce")
    assert announced == f"Showing {cards.count()} of {len(all_ids())} cards."
    page.screenshot(path=str(SCREENSHOTS / "cards-phone-filtered.png"))
    found = page.evaluate(LAYOUT)
    assert found["overflow"] <= 0 and found["overlaps"] == []
    page.go_back()
    page.wait_for_url("**kind=encounter")
    assert errors == []


@pytest.mark.server
@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_a_card_page_fits_the_screen(new_page, device):
    page = new_page(*VIEWPORTS[device])
    errors = watch_console(page)
    for cid in ("s.dark_pinnacle", "saga.capture_lawbreaker", "anc.mother_of_ash"):
        if cid not in all_ids():
            continue
        page.goto(f"/cards/{cid}/")
        page.screenshot(
            path=str(SCREENSHOTS / f"card-{device}-{cid}.png"), full_page=True, timeout=60_000
        )
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, cid
        assert page.locator("h1").inner_text().strip()
    assert errors == []


@pytest.mark.server
def test_the_cards_are_reachable_by_keyboard(new_page):
    page = new_page(1280, 900)
    page.goto("/cards/")
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.closest('.kc')?.dataset.card || ''"))
    assert any(seen), "Tab reaches the cards' links"


@pytest.mark.server
def test_without_javascript_the_filter_form_still_filters(browser, daphne_server):
    context = browser.new_context(
        base_url=f"http://{daphne_server}",
        java_script_enabled=False,
        viewport={"width": 390, "height": 844},
    )
    try:
        page = context.new_page()
        page.goto("/cards/")
        page.select_option("#kg-f-kind", "night")
        page.select_option("#kg-f-edition", "shadows")
        page.click("button[type=submit]")
        page.wait_for_url("**kind=night**")
        assert "edition=shadows" in page.url
        cards = page.locator(".kc")
        assert cards.count() > 0
        assert cards.count() == page.locator(".kc-night").count()
        assert page.locator("#kg-f-kind").input_value() == "night"
    finally:
        context.close()
