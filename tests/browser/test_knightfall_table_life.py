"""Knight Fall's table life in a real browser, beside the tests that play Kilforth: the end of a
game in numbers with its charts; undo allowed once and refused once a card was drawn; chat
between players and a spectator, each team and the spectators in their own channels; the
connection indicator through a server restart and a close with 1001, the page resynced after.

Games are seeded through the services in the server's own database (see
test_clocks_in_a_browser.seed), so each test goes straight to the moment it is about.
"""

import random

import pytest
from playwright.sync_api import expect

from tests.browser.test_clocks_in_a_browser import page_as, seed, server  # noqa: F401
from tests.browser.test_game_in_a_browser import enter, human_pace
from tests.browser.test_knightfall_in_a_browser import _click_a_choice
from tests.conftest import DaphneServer

pytestmark = [pytest.mark.server, pytest.mark.slow]

SOLO = {"game": "knightfall", "players": ["Sol"], "options": {"mode": "coop"}}
DUO = ["Kay", "Dee"]
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
        # A link to this site is clickable (to its path); another site's address stays text.
        base = f"http://{server.address}"
        _say(kay, f"Replay so far: {base}/t/{slug}/replay/ (not https://elsewhere.example/)")
        line = kit.locator(".chat-line", has_text="Replay so far")
        expect(line.get_by_role("link")).to_have_count(1)
        expect(line.get_by_role("link")).to_have_attribute("href", f"/t/{slug}/replay/")
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
        # What the spectators said before comes with it, as a reload would show it.
        for page in (dee, kay, kit):
            expect(page.locator(".chat-line.is-spectator")).to_contain_text("bluffing")
        _say(wes, "Hello, players")
        for page in (dee, kay, kit):
            expect(
                page.locator(".chat-line.is-spectator", has_text="Hello, players")
            ).to_be_visible()
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

        # The host mutes Wes (from his line they read while the chat was shown): all are told,
        # and what Wes writes now is refused with the reason.
        human_pace()
        dee.locator(".chat-line", has_text="Hello, players").get_by_role(
            "button", name="mute"
        ).click()
        for page in everyone:
            expect(page.locator("#chat-log")).to_contain_text("The host muted Wes.")
        expect(
            dee.locator(".chat-line", has_text="Hello, players").get_by_role(
                "button", name="unmute"
            )
        ).to_be_visible()
        wes.get_by_placeholder("Say something").fill("Let me speak")
        human_pace()
        wes.get_by_role("button", name="Send").click()
        expect(wes.locator("#flash")).to_contain_text("The host has muted you at this table.")
        expect(wes.locator("#chat-log")).not_to_contain_text("Let me speak")

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


# Run in the server's database (`manage.py shell`) while the server is down: the player the game
# waits on makes a sensible decision, as from another browser. Prints the game's new version.
DECIDE = """
import random
from games.tables import kits, services
from games.tables.models import Game, Seat, Table
table = Table.objects.get(slug=SLUG)
kit, game = kits.kit_for(table), Game.objects.get(table=table)
state = kit.load(game.state)
seat = kit.waiting_for(state)[0]
player = Seat.objects.get(table=table, number=seat).player
key = kit.bot_choice(state, seat, "heuristic", random.Random(7))
print(services.do_act(table, player, key, game.version))
"""


def _decide_offline(daphne: DaphneServer, slug: str) -> int:
    script = f"SLUG = {slug!r}\n{DECIDE}"
    return int(daphne.manage("shell", "--no-imports", "-c", script).splitlines()[-1])


def _same_board_as_a_fresh_load(page, seeded: dict, name: str, page_as) -> None:  # noqa: F811
    """The live page shows what a page loaded now shows that person: nothing stale is left."""
    fresh = page_as(seeded, name)
    fresh.goto(page.url)
    version = fresh.locator("#game-board").get_attribute("data-version")
    expect(page.locator("#game-board")).to_have_attribute("data-version", version)
    for part in ("#kf-decision", ".kf-grid"):
        expect(page.locator(part)).to_have_text(
            fresh.locator(part).inner_text(), use_inner_text=True
        )
    fresh.context.close()


def test_knight_fall_comes_back_after_a_server_restart_showing_the_game_as_it_is_now(
    server,  # noqa: F811
    page_as,  # noqa: F811
    screenshot,
):
    seeded = seed(server, {"game": "knightfall", "name": "Restart night", "players": DUO})
    slug = seeded["slugs"][0]
    waiting = DUO[seeded["seats"][0]]
    other = next(name for name in DUO if name != waiting)
    page = page_as(seeded, other)  # watching the other player decide
    page.goto(f"/t/{slug}/")
    connection = page.locator("#connection")
    expect(connection).to_have_attribute("data-state", "online")
    expect(connection).to_contain_text("Live")
    board = page.locator("#game-board")
    before = int(board.get_attribute("data-version"))
    expect(page.locator(".kf-waiting")).to_contain_text(f"Waiting for {waiting}")

    server.stop()
    expect(connection).to_have_attribute("data-state", "reconnecting")
    expect(connection).to_contain_text("Reconnecting")
    screenshot(page, "connection-knightfall-reconnecting-desktop")
    # While the page is cut off, the game moves on (the other player decides).
    version = _decide_offline(server, slug)
    assert version > before
    server.start()
    # The page retries with a backoff of up to 5 s; a loaded machine starts daphne slowly.
    expect(connection).to_have_attribute("data-state", "online", timeout=30_000)
    expect(board).to_have_attribute("data-version", str(version), timeout=15_000)
    _same_board_as_a_fresh_load(page, seeded, other, page_as)


def test_knight_fall_reconnects_after_a_close_with_1001_and_resyncs_the_board(
    server,  # noqa: F811
    page_as,  # noqa: F811
    screenshot,
):
    seeded = seed(server, {"game": "knightfall", "name": "Going-away night", "players": DUO})
    slug = seeded["slugs"][0]
    waiting = DUO[seeded["seats"][0]]
    other = next(name for name in DUO if name != waiting)
    page = page_as(seeded, other, 390, 844)
    closes = []

    def route(ws):
        upstream = ws.connect_to_server()
        closes.append(lambda: ws.close(code=1001, reason="going away"))
        del upstream  # messages flow both ways unchanged

    page.route_web_socket("**/ws/t/**", route)
    page.goto(f"/t/{slug}/")
    connection = page.locator("#connection")
    expect(connection).to_have_attribute("data-state", "online")
    assert len(closes) == 1
    decider = page_as(seeded, waiting)
    decider.goto(f"/t/{slug}/")
    closes[0]()  # the server side "goes away" with 1001
    expect(connection).to_have_attribute("data-state", "reconnecting")
    screenshot(page, "connection-knightfall-reconnecting-phone")
    # While this page was cut off, the player it waited on decides, by clicks.
    rng = random.Random(4)
    for _ in range(20):
        if _click_a_choice(decider, rng) is not None:
            break
    version = decider.locator("#game-board").get_attribute("data-version")
    expect(connection).to_have_attribute("data-state", "online", timeout=30_000)
    expect(page.locator("#game-board")).to_have_attribute("data-version", version)
    assert len(closes) == 2, "the page opened a second socket"
    _same_board_as_a_fresh_load(page, seeded, other, page_as)
    screenshot(page, "connection-knightfall-live-phone")
    # The other player closes their page: shown away, and for how long (counted in the browser).
    expect(page.locator("#table-away")).to_be_hidden()
    decider.context.close()
    away = page.locator("#table-away")
    expect(away).to_contain_text(f"{waiting} is away for less than a minute")
    assert away.locator("time").get_attribute("title").startswith("since ")
    screenshot(page, "away-knightfall-phone")
    page.set_viewport_size({"width": 1366, "height": 900})
    screenshot(page, "away-knightfall-desktop")
