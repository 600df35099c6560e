"""Knight Fall's table life in a real browser, beside the tests that play Kilforth: the end of a
game in numbers with its charts, and undo allowed once and refused once a card was drawn.

Games are seeded through the services in the server's own database (see
test_clocks_in_a_browser.seed), so each test goes straight to the moment it is about.
"""

import random

import pytest
from playwright.sync_api import expect

from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
from tests.browser.test_game_in_a_browser import enter, human_pace
from tests.browser.test_knightfall_in_a_browser import _click_a_choice

pytestmark = [pytest.mark.server, pytest.mark.slow]

SOLO = {"game": "knightfall", "players": ["Sol"], "options": {"mode": "coop"}}
TRIO = ["Dee", "Kay", "Kit"]  # three players: the first (the host) plays the demons alone


def test_a_finished_knight_fall_game_shows_players_and_spectators_its_numbers_and_charts(
    server,  # noqa: F811
    page_as,  # noqa: F811
    browser,
    screenshot,
):
    seeded = seed(server, SOLO | {"name": "The last night", "decisions": 5000})
    slug = seeded["slugs"][0]
    player = page_as(seeded, "Sol")
    player.goto(f"/t/{slug}/")
    watcher = page_as(seeded, "Sol")  # a second person: a guest who picks a name
    watcher.context.clear_cookies()
    enter(watcher, "Wes")
    watcher.goto(f"/t/{slug}/")
    for page in (player, watcher):
        summary = page.locator(".game-summary")
        expect(summary).to_contain_text("The game in numbers")
        # Both teams' points and what made them; points by round, drawn by the server.
        expect(summary.locator(".summary-scores tbody tr")).to_have_count(2)
        expect(summary.locator(".summary-scores")).to_contain_text("Knights")
        expect(summary.locator(".summary-scores")).to_contain_text("Demons")
        expect(summary.locator('svg.chart[aria-label="Points by round"]')).to_be_visible()
        expect(summary).to_contain_text("Points at the end of each round")
        # Knight Fall rolls no dice: no luck chart.
        expect(summary).not_to_contain_text("Dice luck")
    screenshot(player, "summary-knightfall-desktop")
    player.set_viewport_size({"width": 390, "height": 844})
    expect(player.locator('svg.chart[aria-label="Points by round"]')).to_be_visible()
    assert player.evaluate("document.documentElement.scrollWidth") <= 392
    screenshot(player, "summary-knightfall-phone")


def test_an_undo_is_allowed_and_one_is_refused_once_a_card_was_drawn(
    server,  # noqa: F811
    page_as,  # noqa: F811
):
    seeded = seed(server, SOLO | {"name": "Take it back"})
    page = page_as(seeded, "Sol")
    page.goto(f"/t/{seeded['slugs'][0]}/")
    board = page.locator("#game-board")
    expect(board.locator(".kf-grid")).to_be_visible()
    undo = page.get_by_role("button", name="Take back my last decision")
    rng = random.Random(2)
    for _ in range(200):
        if undo.count():
            break
        _click_a_choice(page, rng)
    # Allowed: nothing random or hidden came of the last decision.
    version = int(board.get_attribute("data-version"))
    undo.click()
    expect(board).to_have_attribute("data-version", str(version + 1))
    expect(page.locator("#chat-log")).to_contain_text("took back their last decision")
    # Decide on until a decision shows no Undo: a card was drawn, or the turn moved on.
    for _ in range(200):
        if _click_a_choice(page, rng) is not None and not undo.count():
            break
    expect(undo).to_have_count(0)
    # Refused: an undo sent anyway (as a stale page would) is answered with the reason.
    version = board.get_attribute("data-version")
    page.evaluate(
        """version => {
            const form = document.createElement("form");
            form.setAttribute("ws-send", "");
            form.innerHTML = '<input type="hidden" name="action" value="undo">'
                + '<input type="hidden" name="version" value="' + version + '">'
                + '<button type="submit" id="sneaky-undo">Undo anyway</button>';
            document.getElementById("table-undo").appendChild(form);
            htmx.process(form);
        }""",
        version,
    )
    page.locator("#sneaky-undo").click()
    expect(page.locator("#game-flash")).to_contain_text("Nothing of yours can be taken back now")
    expect(board).to_have_attribute("data-version", version)


def _guest(browser, server, name: str):  # noqa: F811
    """A page for a guest who picks a name (nobody seeded): a spectator."""
    context = browser.new_context(
        base_url=f"http://{server.address}", viewport={"width": 1366, "height": 900}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    enter(page, name)
    return page


def _say(page, text: str, to_team: bool = False) -> None:
    if to_team:
        page.locator("#chat-to").select_option("team")
    page.get_by_placeholder("Say something").fill(text)
    human_pace()
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-log")).to_contain_text(text)  # the writer reads their own line


def test_knight_fall_chat_keeps_the_spectators_and_each_team_to_their_own_channel(
    server,  # noqa: F811
    page_as,  # noqa: F811
    browser,
    screenshot,
):
    # Three players: Dee (the host) plays the demons alone, Kay and Kit the knights; Wes watches.
    seeded = seed(server, {"game": "knightfall", "name": "Night talk", "players": TRIO})
    slug = seeded["slugs"][0]
    dee, kay, kit = (page_as(seeded, name) for name in TRIO)
    wes = _guest(browser, server, "Wes")
    everyone = (dee, kay, kit, wes)
    try:
        for page in everyone:
            page.goto(f"/t/{slug}/")
            expect(page.locator("#connection")).to_have_attribute("data-state", "online")
            # The system lines of the seats taken were kept with the table.
            expect(page.locator("#chat-log")).to_contain_text("Kit sat down in seat 3.")
        # Each player may write to their own team; a spectator has no team to write to.
        expect(kay.locator("#chat-to")).to_contain_text("My team (Knights)")
        expect(dee.locator("#chat-to")).to_contain_text("My team (Demons)")
        expect(wes.locator("#chat-to")).to_have_count(0)

        # The knights' plan reaches the knights only.
        _say(kay, "Kit, take the library", to_team=True)
        expect(kit.locator(".chat-line.is-team")).to_contain_text("Kit, take the library")
        expect(kit.locator(".chat-line.is-team")).to_contain_text("(to Knights)")
        # A line for everyone written after it: whoever reads that one was sent the team's first.
        _say(dee, "Good luck, knights")
        for page in (kay, kit, wes):
            expect(page.locator("#chat-log")).to_contain_text("Good luck, knights")
        for page in (dee, wes):
            expect(page.locator("#chat-log")).not_to_contain_text("take the library")

        # The spectators talk among themselves: no player reads them.
        _say(wes, "The demon is bluffing")
        expect(wes.locator(".chat-line.is-spectator")).to_contain_text("(watching)")
        _say(kit, "On my way")
        for page in (dee, kay, wes):
            expect(page.locator("#chat-log")).to_contain_text("On my way")
        for page in (dee, kay, kit):
            expect(page.locator("#chat-log")).not_to_contain_text("bluffing")
        screenshot(kit, "chat-knightfall-knight-desktop")
        screenshot(wes, "chat-knightfall-spectator-desktop")

        # The host opens the spectators' chat: everyone is told, and the players read it now.
        human_pace()
        dee.get_by_role("button", name="Show the spectators' chat to the players").click()
        for page in everyone:
            expect(page.locator("#chat-log")).to_contain_text(
                "The host showed the spectators' chat to the players."
            )
            expect(page.locator("#chat-title .chat-open-note")).to_be_visible()
        _say(wes, "Hello, players")
        for page in (dee, kay, kit):
            expect(page.locator(".chat-line.is-spectator")).to_contain_text("Hello, players")
        screenshot(dee, "chat-knightfall-host-shown-desktop")
        dee.set_viewport_size({"width": 390, "height": 844})
        screenshot(dee, "chat-knightfall-host-shown-phone")
        # ... and closes it again with the same button: the spectators are on their own again.
        human_pace()
        dee.get_by_role("button", name="Hide the spectators' chat from the players").click()
        for page in everyone:
            expect(page.locator("#chat-log")).to_contain_text(
                "The host hid the spectators' chat from the players."
            )
            expect(page.locator("#chat-title .chat-open-note")).to_be_hidden()
        expect(
            dee.get_by_role("button", name="Show the spectators' chat to the players")
        ).to_be_visible()
        _say(wes, "Back among ourselves")
        _say(kay, "Ready")
        for page in (dee, kay, kit):
            expect(page.locator("#chat-log")).to_contain_text("Ready")
            expect(page.locator("#chat-log")).not_to_contain_text("Back among ourselves")

        # All of it was kept with the table: a reload shows each reader what they may read.
        for page in (dee, wes):
            page.reload()
            expect(page.locator("#chat-log")).to_contain_text("Good luck, knights")
            expect(page.locator("#chat-log")).not_to_contain_text("take the library")
        expect(dee.locator("#chat-log")).not_to_contain_text("bluffing")
        expect(wes.locator("#chat-log")).to_contain_text("bluffing")
        kit.reload()
        expect(kit.locator("#chat-log")).to_contain_text("Kit, take the library")
        kit.set_viewport_size({"width": 390, "height": 844})
        screenshot(kit, "chat-knightfall-knight-phone")
        assert kit.evaluate("document.documentElement.scrollWidth") <= 392
    finally:
        wes.context.close()
