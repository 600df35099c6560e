"""Whole games in real browsers: two players and a spectator, and a solo game to its end.

The server deals from a known seed (KILFORTH_TEST_SEED, honoured only in DEBUG), so the test
plays the same game in-process with the engine, click for click, and checks the server's saved
state and the spectator's board against it after every step.
"""

import json
import random
import re
import sqlite3
import time

import pytest
from playwright.sync_api import expect

from games.kilforth import adapter
from games.kilforth.engine import new_events
from tests.browser.conftest import CHROMIUM, SCREENSHOTS  # noqa: F401  (folder for artifacts)
from tests.conftest import DaphneServer

pytestmark = [pytest.mark.server, pytest.mark.slow]

TABLE_DEFAULTS = {
    "edition": "shadows",
    "mode": "competitive",
    "difficulty": "standard",
    "saga_allocation": "matched",
    "auto_evasion": False,
    "chapter_cost_2x": False,
    "open_hands": False,
}
RANDOM_HERO = {"race": None, "class": None, "female": False}


def first_day_policy(state, seat, moves: dict) -> str:
    """Move twice a day, then camp; in every other decision take the first option."""
    choices = adapter.legal(state, seat)
    keys = [c.key for c in choices]
    if state.prompt and state.prompt["kind"] == "turn":
        if moves.get((state.day, seat), 0) < 2 and any(k.startswith("move:") for k in keys):
            moves[(state.day, seat)] = moves.get((state.day, seat), 0) + 1
            return next(k for k in keys if k.startswith("move:"))
        if "camp" in keys:
            return "camp"
    return keys[0]


def events(before, after) -> set[str]:
    """The kinds of event `after` logged since `before`."""
    return {e["e"] for e in new_events(before, after)}


def seed_with_a_full_first_day(settings: dict, heroes: int) -> int:
    """The first seed whose first day, played by the policy, has a move, a battle and a night."""
    for seed in range(1, 400):
        state = adapter.setup(settings, [RANDOM_HERO] * heroes, seed)
        moves: dict = {}
        seen = events(None, state)
        while state.result is None and state.day == 1:
            seat = state.waiting_for[0]
            before = state
            state = adapter.act(state, seat, first_day_policy(state, seat, moves))
            seen |= events(before, state)
        if {"moved", "engage", "roll", "camp", "night_card"} <= seen:
            return seed
    raise AssertionError("no seed in 1..399 gives a first day with a battle")


def saved_state(server: DaphneServer):
    with sqlite3.connect(server.database) as db:
        (document,) = db.execute("SELECT state FROM tables_game").fetchone()
    return adapter.load(document)


def board_version(page) -> int:
    return int(page.locator("#game-board").get_attribute("data-version"))


_last_click = [0.0]


def human_pace(gap: float = 0.12) -> None:
    """Wait until `gap` seconds have passed since the last click: a person's pace. The socket's
    flood limit (10 messages a second, bursts of 30) closes a client that clicks faster for
    long, and its click is lost; a test clicking as fast as the machine allows would trip it."""
    time.sleep(max(0.0, _last_click[0] + gap - time.monotonic()))
    _last_click[0] = time.monotonic()


def click_choice(page, key: str, version: int) -> None:
    human_pace()
    form = page.locator(f'#game-board form.choice:has(input[name="key"][value="{key}"])')
    form.get_by_role("button").click()
    expect(page.locator("#game-board")).not_to_have_attribute("data-version", str(version))


def spectator_matches(page, state) -> None:
    public = adapter.view(state, None)
    expect(page.locator("#game-board")).to_have_attribute("data-version", str(state.version))
    expect(page.locator(".st-day")).to_contain_text(re.compile(rf"\bDay {public['day']}\b"))
    panels = page.locator("article.hero")
    for hero in public["heroes"]:
        panel = panels.nth(hero["seat"])
        expect(panel.locator(".stat-hp dd")).to_have_text(f"{hero['hp']}/{hero['max_hp']}")
        expect(panel.locator(".stat-gold dd")).to_have_text(str(hero["gold"]))
        expect(panel.locator(".stat-ap dd")).to_have_text(str(hero["ap"]))


def enter(page, name: str) -> None:
    page.goto("/")
    page.get_by_placeholder("Your display name").fill(name)
    page.get_by_role("button", name="Save my name").click()
    expect(page.get_by_text(f"Playing as {name}")).to_be_visible()


@pytest.fixture
def served(tmp_path, request):
    servers = []

    def start(seed: int) -> DaphneServer:
        server = DaphneServer(tmp_path, KILFORTH_TEST_SEED=str(seed))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def contexts(browser, server, sizes):
    pages = []
    for width, height in sizes:
        context = browser.new_context(
            base_url=f"http://{server.address}", viewport={"width": width, "height": height}
        )
        context.set_default_timeout(10_000)
        pages.append(context.new_page())
    return pages


def test_two_players_and_a_spectator_play_the_first_day_and_night(browser, served, screenshot):
    seed = seed_with_a_full_first_day(TABLE_DEFAULTS, 2)
    server = served(seed)
    host, guest, watcher = contexts(browser, server, [(1366, 900), (1280, 1000), (390, 844)])
    enter(host, "Hal")
    host.get_by_role("link", name="Open a table").click()
    host.get_by_label("Name").fill("First night")
    host.get_by_role("button", name="Open the table").click()
    host.locator("#seat-0").get_by_role("button", name="Take seat").click()
    invite = host.locator("#invite-link").input_value()
    watch = host.locator("#watch-link").input_value()

    enter(guest, "Gil")
    guest.goto(invite)
    guest.locator("#seat-1").get_by_role("button", name="Take seat").click()
    watcher.goto(watch)
    expect(watcher.locator("#seat-1")).to_contain_text("Gil")

    host.get_by_role("button", name="Start game").click()
    for page in (host, guest):
        page.get_by_role("button", name="Confirm my hero").click()
    for page in (host, guest, watcher):
        expect(page.locator("#game-board")).to_be_visible()

    state = adapter.setup(TABLE_DEFAULTS, [RANDOM_HERO] * 2, seed)
    assert saved_state(server) == state
    pages = {0: host, 1: guest}
    moves: dict = {}
    seen = events(None, state)
    while state.day == 1 and state.result is None:
        seat = state.waiting_for[0]
        key = first_day_policy(state, seat, moves)
        click_choice(pages[seat], key, state.version)
        before = state
        state = adapter.act(state, seat, key)
        seen |= events(before, state)
        assert saved_state(server) == state
        spectator_matches(watcher, state)
    assert {"moved", "engage", "roll", "camp", "night_card"} <= seen
    # The battle's dice and the night card are on the spectator's board and log.
    expect(watcher.locator("#game-board")).to_contain_text("Day 2")
    # On the real page too, a desktop screen holds the map, the decision and the own hero without
    # scrolling, and a phone shows the whole map with nothing to scroll sideways.
    host.evaluate("window.scrollTo(0, 0)")
    for selector in (".kb-map", "#kb-decision", "#kb-hero-card-0 .stats"):  # the host's hero
        b = host.locator(selector).bounding_box()
        assert b and b["y"] >= 0 and b["y"] + b["height"] <= 900, (selector, b)
        assert b["x"] + b["width"] <= 1366, (selector, b)
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 390
    assert watcher.locator(".loc").nth(4).bounding_box()["x"] + 10 < 390
    host.screenshot(path=str(SCREENSHOTS / "game-host-1366x900.png"))
    screenshot(host, "game-host-desktop")
    screenshot(watcher, "game-spectator-phone")


SOLO = {**TABLE_DEFAULTS, "mode": "solo"}
SOLO_SEED = 2026


def solo_game_started(browser, served):
    """(the server, Sol's page) once Sol has opened a solo table, sat and confirmed a hero; the
    server deals from SOLO_SEED."""
    server = served(SOLO_SEED)
    (player,) = contexts(browser, server, [(1280, 1000)])
    enter(player, "Sol")
    player.get_by_role("link", name="Open a table").click()
    player.get_by_label("Solo").check()
    player.get_by_label("Hero seats").fill("1")
    player.get_by_role("button", name="Open the table").click()
    player.locator("#seat-0").get_by_role("button", name="Take seat").click()
    player.get_by_role("button", name="Start game").click()
    player.get_by_role("button", name="Confirm my hero").click()
    expect(player.locator("#game-board")).to_be_visible()
    return server, player


def test_a_solo_game_is_played_to_its_end_by_clicks(browser, served, screenshot):
    server, player = solo_game_started(browser, served)

    state = adapter.setup(SOLO, [RANDOM_HERO], SOLO_SEED)
    rng = random.Random(SOLO_SEED)
    for _ in range(2000):
        if state.result is not None:
            break
        key = rng.choice(adapter.legal(state, 0)).key
        click_choice(player, key, state.version)
        state = adapter.act(state, 0, key)
    assert state.result is not None
    assert saved_state(server) == state
    result = player.locator("#game-board")
    expect(result).to_contain_text(re.compile(r"won|lost|over", re.I))
    expect(player.get_by_role("heading", name="Play again?")).to_be_visible()
    screenshot(player, "game-solo-end")
    assert json.dumps(adapter.view(state, None)["result"])  # the result is public


# Counts, in the page, what the frames bring and what htmx's own swap would do to the old board.
WATCH_SWAPS = """() => {
  window.__frames = {whole: 0, partial: 0, cleanups: 0};
  document.body.addEventListener("htmx:wsBeforeMessage", (e) => {
    const m = e.detail.message;
    if (m.includes('id="table-live"')) window.__frames.whole += 1;
    else if (m.includes('id="kb-version"')) window.__frames.partial += 1;
  });
  document.body.addEventListener("htmx:beforeCleanupElement", () => {
    window.__frames.cleanups += 1;
  });
}"""


def resync(page) -> None:
    """Ask over the page's own socket for the whole current page (as a reconnected page does)."""
    page.evaluate(
        """() => {
            const form = document.createElement("form");
            form.setAttribute("ws-send", "");
            form.innerHTML = '<input type="hidden" name="action" value="resync">'
                + '<button type="submit" id="ask-resync">Resync</button>';
            document.getElementById("table-undo").appendChild(form);
            htmx.process(form);
        }"""
    )
    whole = page.evaluate("window.__frames.whole")
    page.locator("#ask-resync").click()
    page.wait_for_function("n => window.__frames.whole > n", arg=whole)


def test_frames_replace_each_part_whole_without_htmx_walking_the_old_board(browser, served):
    server, player = solo_game_started(browser, served)
    player.evaluate(WATCH_SWAPS)

    state = adapter.setup(SOLO, [RANDOM_HERO], SOLO_SEED)
    rng = random.Random(SOLO_SEED)
    frames = {}
    for turn in range(120):
        key = rng.choice(adapter.legal(state, 0)).key
        click_choice(player, key, state.version)
        state = adapter.act(state, 0, key)
        spectator_matches(player, state)
        if turn == 5:
            # No decision changes the page outside its parts (test_whole_frames.py): the whole
            # page comes when a socket asks for it, as a reconnected one does.
            resync(player)
        frames = player.evaluate("window.__frames")
        if frames["whole"] and frames["partial"] >= 10:
            break
    assert frames["whole"] and frames["partial"] >= 10, frames
    # The old elements were dropped, not walked one by one (two events each, in htmx's swap).
    assert frames["cleanups"] == 0, frames
    # Every element was put in its place once: no id twice, no swap mark left on the page.
    assert player.evaluate("document.querySelectorAll('[hx-swap-oob]').length") == 0
    twice = player.evaluate(
        "(() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
        " return ids.filter((id, i) => ids.indexOf(id) !== i); })()"
    )
    assert twice == []
    # The decision swapped in last still sends: one more click is applied.
    key = rng.choice(adapter.legal(state, 0)).key
    click_choice(player, key, state.version)
    state = adapter.act(state, 0, key)
    assert saved_state(server) == state
