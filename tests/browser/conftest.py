"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright; never a downloaded browser.

Screenshots land in artifacts/screenshots/ (named in the README) so a person can look at them.
"""

import shutil
from pathlib import Path

import pytest

from bench.browser import ARGS, CHROMIUM  # one list of Chromium flags for tests and benchmarks
from tests.conftest import ROOT, service_missing

SCREENSHOTS = ROOT / "artifacts" / "screenshots"


# Module scope, not session: Playwright's sync API keeps an event loop marked as running while it
# lives, and asyncio tests in other modules must not start inside it.
@pytest.fixture(scope="module")
def browser():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        service_missing(f"Chromium at {CHROMIUM}", "not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            # As root in a container: no sandbox; no background traffic to the closed network.
            args=ARGS,
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, daphne_server):
    contexts = []

    def make(width: int = 1280, height: int = 900):
        context = browser.new_context(
            base_url=f"http://{daphne_server}", viewport={"width": width, "height": height}
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        # A full page of every card is tall: give a busy machine time to paint it.
        page.screenshot(path=str(path), full_page=True, timeout=60_000)
        return path

    return take
