"""The table page shows its socket's state and comes back by itself: after the server restarts,
and after a close with 1001 ("going away"), which the htmx extension does not retry on its own."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_lobby_in_a_browser import enter_with_name
from tests.conftest import DaphneServer

pytestmark = pytest.mark.server


def open_table(page, name: str) -> str:
    enter_with_name(page, "Hal")
    page.get_by_role("link", name="Open a table").click()
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#connection")).to_have_attribute("data-state", "online")
    return page.url


def test_the_connection_survives_a_server_restart_and_shows_it(browser, tmp_path, screenshot):
    server = DaphneServer(tmp_path)
    try:
        context = browser.new_context(base_url=f"http://{server.address}")
        context.set_default_timeout(15_000)
        page = context.new_page()
        open_table(page, "Restart table")
        expect(page.locator("#connection")).to_contain_text("Live")

        server.stop()
        expect(page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
        expect(page.locator("#connection")).to_contain_text("Reconnecting")
        screenshot(page, "connection-reconnecting-desktop")
        server.start()
        # The page retries with a backoff of up to 5 s; a loaded machine starts daphne slowly.
        expect(page.locator("#connection")).to_have_attribute(
            "data-state", "online", timeout=30_000
        )
        # The new socket works: a seat taken now shows at once, without a reload.
        page.locator("#seat-0").get_by_role("button", name="Take seat").click()
        expect(page.locator("#seat-0")).to_contain_text("Leave seat")
        context.close()
    finally:
        server.stop()


def test_a_close_with_1001_is_reconnected_and_the_page_resyncs(new_page, screenshot):
    page = new_page(390, 844)
    closes = []

    def route(ws):
        upstream = ws.connect_to_server()
        closes.append(lambda: ws.close(code=1001, reason="going away"))
        del upstream  # messages flow both ways unchanged

    page.route_web_socket("**/ws/t/**", route)
    url = open_table(page, "Going-away table")
    assert len(closes) == 1
    other = new_page()
    enter_with_name(other, "Bo")
    other.goto(url)
    closes[0]()  # the server side "goes away" with 1001
    expect(page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    screenshot(page, "connection-reconnecting-phone")
    # While this page was cut off, Bo sits down; the new socket brings the page up to date.
    other.locator("#seat-1").get_by_role("button", name="Take seat").click()
    expect(page.locator("#connection")).to_have_attribute("data-state", "online", timeout=30_000)
    expect(page.locator("#seat-1")).to_contain_text("Bo")
    assert len(closes) == 2, "the page opened a second socket"
    page.screenshot(path=str(screenshot(page, "connection-live-phone")), full_page=False)
