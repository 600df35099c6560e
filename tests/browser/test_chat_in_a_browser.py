"""Chat in real browsers: a player's line reaches a spectator live, spectators talk among
themselves, refusals are shown, and a person's lines can be hidden for oneself."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_lobby_in_a_browser import enter_with_name

pytestmark = pytest.mark.server


def test_players_and_spectators_chat_live_in_their_own_channels(new_page, screenshot):
    host = new_page()
    # The Content-Security-Policy must not break htmx or its websocket: no violation reported.
    violations = []
    host.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    enter_with_name(host, "Hal")
    host.get_by_role("link", name="Open a table").click()
    host.get_by_label("Name").fill("Chatty table")
    host.get_by_role("button", name="Open the table").click()
    host.locator("#seat-0").get_by_role("button", name="Take seat").click()
    expect(host.locator("#seat-0")).to_contain_text("Leave seat")
    watch_link = host.locator("#watch-link").input_value()

    wes = new_page()
    enter_with_name(wes, "Wes")
    wes.goto(watch_link)
    expect(wes.locator("#chat")).to_contain_text("spectators talk among themselves")
    wes.wait_for_function("document.querySelector('#chat-log') && window.htmx")
    # The system line of Hal sitting down was kept with the table.
    expect(wes.locator("#chat-log")).to_contain_text("Hal sat down in seat 1.")

    host.get_by_placeholder("Say something").fill("Welcome, all!")
    host.get_by_role("button", name="Send").click()
    expect(wes.locator("#chat-log")).to_contain_text("Welcome, all!")
    expect(host.get_by_placeholder("Say something")).to_have_value("")

    wes.get_by_placeholder("Say something").fill("Hal looks confident")
    wes.get_by_role("button", name="Send").click()
    expect(wes.locator("#chat-log")).to_contain_text("Hal looks confident")
    host.wait_for_timeout(500)
    expect(host.locator("#chat-log")).not_to_contain_text("Hal looks confident")

    # A spectator hides the host's lines for themselves only.
    wes.locator(".chat-line", has_text="Welcome, all!").get_by_role("button", name="hide").click()
    expect(wes.locator(".chat-line", has_text="Welcome, all!")).to_be_hidden()
    expect(host.locator(".chat-line", has_text="Welcome, all!")).to_be_visible()
    screenshot(host, "chat-host-desktop")
    assert violations == []
    screenshot(wes, "chat-spectator-desktop")

    # Too long: refused with the reason shown, and nothing posted.
    wes.get_by_placeholder("Say something").evaluate(
        "el => { el.removeAttribute('maxlength'); el.value = 'z'.repeat(600); }"
    )
    wes.get_by_role("button", name="Send").click()
    expect(wes.locator("#flash")).to_contain_text("at most 500 characters")


def test_the_chat_reads_well_on_a_phone(new_page, screenshot):
    phone = new_page(390, 844)
    enter_with_name(phone, "Pia")
    phone.get_by_role("link", name="Open a table").click()
    phone.get_by_label("Name").fill("Pocket table")
    phone.get_by_role("button", name="Open the table").click()
    phone.locator("#seat-0").get_by_role("button", name="Take seat").click()
    phone.get_by_placeholder("Say something").fill("Typed with one thumb")
    phone.get_by_role("button", name="Send").click()
    expect(phone.locator("#chat-log")).to_contain_text("Typed with one thumb")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(phone, "chat-phone")
