"""People at the lobby in real browsers: every change reaches every open page without a reload."""

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.server


def enter_with_name(page, name: str) -> None:
    page.goto("/")
    page.get_by_placeholder("Your display name").fill(name)
    page.get_by_role("button", name="Save my name").click()
    expect(page.get_by_text(f"Playing as {name}")).to_be_visible()


def test_a_table_opened_and_joined_shows_live_on_every_browser(new_page, screenshot):
    guest = new_page()
    enter_with_name(guest, "Bea")
    expect(guest.get_by_text("No open tables")).to_be_visible()
    # The socket is open, so htmx has processed the page (its first pass cleans up the forms
    # marked hx-disable, which a busy machine could leave until after the count began).
    expect(guest.locator("#connection")).to_have_attribute("data-state", "online")
    guest.evaluate(
        "window.cleanups = 0; document.body.addEventListener("
        "'htmx:beforeCleanupElement', () => { window.cleanups += 1; })"
    )

    host = new_page()
    enter_with_name(host, "Hal")
    host.get_by_role("link", name="Open a table").click()
    host.get_by_label("Name").fill("Midnight in Kilforth")
    host.get_by_role("button", name="Open the table").click()
    expect(host.get_by_role("heading", name="Midnight in Kilforth")).to_be_visible()

    # The guest's lobby learns of the new table over its websocket, with no reload.
    row = guest.locator("tr", has_text="Midnight in Kilforth")
    expect(row).to_be_visible()
    expect(row.locator(".seats-count")).to_have_text("0/2")
    # The new list took the old one's place whole (static/js/parts.js): htmx walked none of it.
    assert guest.evaluate("window.cleanups") == 0
    assert guest.locator("#lobby-tables").count() == 1
    screenshot(guest, "lobby-desktop")

    row.get_by_role("link", name="Midnight in Kilforth").click()
    guest.locator("#seat-1").get_by_role("button", name="Take seat").click()
    expect(guest.locator("#seat-1")).to_contain_text("Bea (you)")

    # The host sees Bea sit down, online, and can remove her.
    expect(host.locator("#seat-1")).to_contain_text("Bea")
    expect(host.locator("#seat-1")).to_contain_text("online")
    screenshot(host, "table-host-desktop")
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#seat-1").get_by_role("button", name="Remove").click()
    expect(guest.locator("#seat-1")).to_contain_text("Free")


def test_a_refused_action_shows_its_reason_in_the_page(new_page):
    host = new_page()
    enter_with_name(host, "Hal")
    host.get_by_role("link", name="Open a table").click()
    host.get_by_role("button", name="Open the table").click()
    table_url = host.url

    first = new_page()
    enter_with_name(first, "Ann")
    first.goto(table_url)
    second = new_page()
    enter_with_name(second, "Bob")
    # Bob's table socket hears nothing (as on a flaky train), so his page keeps offering the
    # seat that Ann is about to take.
    second.route_web_socket(re.compile(r"/ws/t/"), lambda ws: None)
    second.goto(table_url)
    expect(second.locator("#seat-0").get_by_role("button", name="Take seat")).to_be_visible()
    first.locator("#seat-0").get_by_role("button", name="Take seat").click()
    expect(first.locator("#seat-0")).to_contain_text("Ann (you)")
    second.locator("#seat-0").get_by_role("button", name="Take seat").click()
    expect(second.locator("#flash")).to_contain_text("Seat 1 is already taken")


def test_the_lobby_reads_well_on_a_phone(new_page, screenshot):
    phone = new_page(width=390, height=844)
    enter_with_name(phone, "Pip")
    phone.get_by_role("link", name="Open a table").click()
    phone.get_by_role("button", name="Open the table").click()
    expect(phone.get_by_role("heading", name="Hero seats")).to_be_visible()
    overflow = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    screenshot(phone, "table-phone")


def test_an_answer_that_comes_after_the_socket_moved_the_page_on_still_lands_in_place(new_page):
    host = new_page()
    enter_with_name(host, "Hal")
    host.get_by_role("link", name="Open a table").click()
    host.get_by_role("button", name="Open the table").click()
    expect(host.locator("#connection")).to_have_attribute("data-state", "online")

    # The seat's answer is held back until the websocket has brought the taken seat, which
    # replaces the form that asked (as on a slow line, or a busy server answering late).
    def late(route):
        response = route.fetch()
        time.sleep(0.5)  # the browser runs on: its socket's frame comes in meanwhile
        route.fulfill(response=response)

    host.route(re.compile(r"/seats/0/take/$"), late)
    seat = host.locator("#seat-0")
    with host.expect_response(re.compile(r"/seats/0/take/$")):
        seat.get_by_role("button", name="Take seat").click()
        expect(seat).to_contain_text("Leave seat")
    expect(host.locator("#flash")).to_have_count(1)
    assert host.evaluate("document.querySelector('#flash').parentElement.tagName") == "MAIN"
