"""The new-table form in a real browser: only the options that apply, and no table of 0 seats."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_game_in_a_browser import enter

pytestmark = [pytest.mark.server]


def test_the_new_table_form_shows_a_co_op_variant_only_for_a_co_op_table(new_page):
    page = new_page(1280, 900)
    enter(page, "Fay")
    page.goto("/tables/new/?game=kilforth")
    open_hands = page.get_by_label("Open hands (co-op: everyone sees every rumour)")
    expect(open_hands).to_be_hidden()  # competitive is the default mode
    page.get_by_label("Cooperative", exact=True).check()
    expect(open_hands).to_be_visible()
    open_hands.check()
    page.get_by_label("Competitive", exact=True).check()
    expect(open_hands).to_be_hidden()
    # Hidden means not sent: the competitive table opens without the co-op variant's refusal.
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("button", name="Start game")).to_be_visible()
    expect(page.locator(".table-head")).not_to_contain_text("Open hands")


def test_the_new_table_form_refuses_zero_seats_before_posting(new_page):
    page = new_page(390, 844)
    enter(page, "Gus")
    page.goto("/tables/new/?game=knightfall")
    page.locator("#id_seat_count").fill("0")
    page.get_by_role("button", name="Open the table").click()
    assert page.url.endswith("/tables/new/?game=knightfall")  # the browser did not post
    assert page.locator("#id_seat_count").evaluate("e => e.validity.rangeUnderflow")
    lone = page.locator("[data-show-when]").filter(has_text="the lone player")
    expect(lone).to_be_visible()  # standard is the default mode
    page.get_by_label("Co-op (all knights)").check()
    expect(lone).to_be_hidden()
