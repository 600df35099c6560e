"""Clocks and turn-based play in a real browser, for Kilforth and Knight Fall: a live clock runs
out and the table's bot decides for the late seat; "My games" lists the tables waiting for the
viewer first.

Games are seeded through the services in the server's own database (`seed`), the way a table
reaches that point in play, so each test goes straight to the moment it is about.
"""

import json
import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_game_in_a_browser import human_pace
from tests.browser.test_knightfall_in_a_browser import _click_a_choice
from tests.conftest import DaphneServer

pytestmark = [pytest.mark.server, pytest.mark.slow]

# Run in the server's database (`manage.py shell`): tables in play for named people, seeded from
# a list of specs, and a signed-in session for each person. Prints {slugs, sessions, seats}.
SEED = """
import json, random
from datetime import timedelta
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from django.utils import timezone
from games.tables import kits, services
from games.tables.identity import PLAYER_KEY
from games.tables.models import Game, Player, Seat, Table, TableStatus
OPTIONS = {
    "kilforth": {"edition": "shadows", "mode": "competitive", "difficulty": "standard",
                 "auto_evasion": False, "chapter_cost_2x": False, "open_hands": False,
                 "saga_allocation": "matched"},
    "knightfall": {"mode": "standard", "lone_team": "demons", "locations": True},
}
SETUP = {"kilforth": {"race": "", "class": "", "female": False}, "knightfall": {}}
people = {}
def person(name):
    if name not in people:
        people[name] = Player.objects.create(name=name)
    return people[name]
out = {"slugs": [], "seats": [], "sessions": {}}
for spec in json.loads(SPECS):
    sitting = [person(n) for n in spec["players"]]
    table = services.do_create_table(sitting[0], {
        "name": spec["name"], "game": spec["game"], "seat_count": len(sitting),
        "visibility": "public", "pace": spec.get("pace", "untimed"),
        "options": OPTIONS[spec["game"]] | spec.get("options", {}), "bot_delay_ms": 0,
        "grace_seconds": 120})
    for number, player in enumerate(sitting):
        services.do_take_seat(table, player, number, "player")
    services.do_start_game(table, sitting[0])
    for player in sitting:
        services.do_setup_seat(table, player, SETUP[spec["game"]])
    kit, rng = kits.kit_for(table), random.Random(spec.get("seed", 1))
    decisions, until = spec.get("decisions", 0), spec.get("until")
    # One commit for the lot (each decision's own transaction is a savepoint inside it).
    # The state is followed here as the services move it (not read back each time).
    game = Game.objects.get(table=table)
    state, version = kit.load(game.state), game.version
    with transaction.atomic():
        for _ in range(5000):
            if kit.result(state) is not None:
                break
            seat = kit.waiting_for(state)[0]
            if decisions <= 0 and (until is None or sitting[seat].name == until):
                break
            key = kit.bot_choice(state, seat, "heuristic", rng)
            version = services.do_act(table, sitting[seat], key, version)
            state = kit.act(state, seat, key)
            decisions -= 1
    if spec.get("due_in") is not None:
        Seat.objects.filter(table=table, deadline__isnull=False).update(
            deadline=timezone.now() + timedelta(seconds=spec["due_in"]))
    if spec.get("finished"):
        Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    out["slugs"].append(table.slug)
    state = kit.load(Game.objects.get(table=table).state)
    out["seats"].append(kit.waiting_for(state)[0] if kit.result(state) is None else None)
for name, player in people.items():
    session = SessionStore()
    session[PLAYER_KEY] = player.pk
    session.create()
    out["sessions"][name] = session.session_key
print(json.dumps(out))
"""


def seed(server: DaphneServer, *specs: dict) -> dict:
    """Tables in play in the server's database, one per spec: {"game", "name", "players",
    "options" (over the defaults), "pace", "decisions" (made by sensible bot choices for the
    players; a great many plays the game to its end), "until" (then on until that person is
    waited on), "due_in" (seconds to the running clock's deadline), "finished" (marked so
    without an end: enough for a replay)}."""
    script = f"SPECS = {json.dumps(json.dumps(specs))}\n{SEED}"
    return json.loads(server.manage("shell", "--no-imports", "-c", script).splitlines()[-1])


@pytest.fixture
def server(tmp_path):
    server = DaphneServer(tmp_path, KILFORTH_TEST_SEED="4242")  # the same Kilforth game each run
    yield server
    server.stop()


@pytest.fixture
def page_as(browser, server):
    """A browser page signed in as one of the seeded people: page_as(seeded, "Ann")."""
    contexts = []

    def make(seeded: dict, name: str, width: int = 1366, height: int = 900):
        base = f"http://{server.address}"
        context = browser.new_context(base_url=base, viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        context.add_cookies([{"name": "sessionid", "value": seeded["sessions"][name], "url": base}])
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


GAMES = {
    "kilforth": {"game": "kilforth", "players": ["Ann", "Bob"]},
    "knightfall": {"game": "knightfall", "players": ["Kay", "Dee"]},
}


@pytest.mark.parametrize("game", ["kilforth", "knightfall"])
def test_a_live_clock_runs_out_and_the_table_bot_decides_for_the_late_seat(
    server, page_as, screenshot, game
):
    spec = GAMES[game] | {"name": "Against the clock", "pace": "fast", "due_in": 6}
    seeded = seed(server, spec)
    slug, late = seeded["slugs"][0], seeded["seats"][0]
    name = spec["players"][late]
    page = page_as(seeded, name)
    page.goto(f"/t/{slug}/")
    board = page.locator("#game-board")
    version = int(board.get_attribute("data-version"))
    clock = page.locator(f"#clock-{late}")
    # The browser counts the seconds down itself, from the deadline the server sent.
    expect(clock).to_have_class(re.compile(r"\bticking\b.*\bmine\b"))
    time = clock.locator(".clock-time")
    expect(time).to_have_text(re.compile(r"^0:0[1-6]$"))
    first = time.inner_text()
    expect(time).not_to_have_text(first)  # it counts down by itself
    expect(clock).to_have_class(re.compile(r"\blow\b"))  # under 30 seconds: shown as low
    screenshot(page, f"clock-running-out-{game}-desktop")
    # The server alone decides: its bot played that decision, everyone is told, the game moved.
    expect(page.locator("#chat-log")).to_contain_text(
        f"{name} ran out of time; a bot made that decision for them.", timeout=10_000
    )
    expect(board).not_to_have_attribute("data-version", str(version))
    assert int(board.get_attribute("data-version")) > version


def test_my_games_lists_the_turn_based_tables_waiting_for_me_first(server, page_as, screenshot):
    common = {"pace": "turn-24h"}
    seeded = seed(
        server,
        {"game": "kilforth", "name": "Kilforth, Bob to play", "players": ["Ann", "Bob"]}
        | common
        | {"until": "Bob"},
        {"game": "knightfall", "name": "Knight Fall, Dee to play", "players": ["Ann", "Dee"]}
        | common
        | {"until": "Dee"},
        {"game": "kilforth", "name": "Kilforth, my turn", "players": ["Bob", "Ann"]}
        | common
        | {"until": "Ann"},
        {"game": "knightfall", "name": "Knight Fall, my turn", "players": ["Dee", "Ann"]}
        | common
        | {"until": "Ann"},
    )
    page = page_as(seeded, "Ann")
    page.goto("/")
    page.get_by_role("link", name="My games").first.click()
    rows = page.locator(".my-games tbody tr")
    expect(rows).to_have_count(4)
    names = [rows.nth(i).get_by_role("link").inner_text() for i in range(4)]
    assert set(names[:2]) == {"Kilforth, my turn", "Knight Fall, my turn"}, names
    for i in (0, 1):
        expect(rows.nth(i)).to_contain_text("Waiting for you")
    for i in (2, 3):
        expect(rows.nth(i)).to_contain_text("Waiting for others")
    # A deadline a day away, counted down in the browser.
    expect(rows.first.locator(".clock-time")).to_contain_text(" h ")
    expect(rows.first.locator(".clock-time")).to_contain_text("left")
    rows.first.get_by_role("link").click()
    expect(page.locator("#game-board")).to_be_visible()
    expect(page).to_have_title(re.compile(r"^\(your turn\)"))
    page.goto("/my-games/")
    screenshot(page, "my-games-desktop")


def test_the_host_pauses_and_resumes_the_clocks_and_everyone_sees_it(server, page_as, screenshot):
    seeded = seed(server, GAMES["knightfall"] | {"name": "A pause for breath", "pace": "fast"})
    slug, late = seeded["slugs"][0], seeded["seats"][0]
    host, other = (page_as(seeded, name) for name in GAMES["knightfall"]["players"])
    clocks = []
    for page in (host, other):
        page.goto(f"/t/{slug}/")
        clock = page.locator(f"#clock-{late}")
        expect(clock).to_have_class(re.compile(r"\bticking\b"))
        clocks.append(clock)
    human_pace()
    host.get_by_role("button", name="Pause the clocks").click()
    for page, clock in zip((host, other), clocks, strict=True):
        expect(page.locator(".clocks-paused")).to_have_text("The host has paused the clocks.")
        expect(page.locator("#chat-log")).to_contain_text("The host paused the clocks.")
        # Stopped: no deadline to count down to, so the browser shows a still time.
        expect(clock).not_to_have_class(re.compile(r"\bticking\b"))
        expect(clock).not_to_have_attribute("data-deadline", re.compile("."))
    screenshot(other, "clocks-paused-desktop")
    other.set_viewport_size({"width": 390, "height": 844})
    screenshot(other, "clocks-paused-phone")
    human_pace()
    host.get_by_role("button", name="Resume the clocks").click()
    for page, clock in zip((host, other), clocks, strict=True):
        expect(page.locator("#chat-log")).to_contain_text("The clocks run again.")
        expect(page.locator(".clocks-paused")).to_have_count(0)
        expect(clock).to_have_class(re.compile(r"\bticking\b"))
    expect(host.get_by_role("button", name="Pause the clocks")).to_be_visible()


# Stand-ins for the browser's notifications, sound and tab visibility, recording what the page
# does with them (headless Chromium has no notification centre or speakers to look at).
ALERTS = """
window.__alerts = [];
class FakeNotification {
  constructor(title, options) { window.__alerts.push(["notification", title]); }
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = () => {
  FakeNotification.permission = "granted";
  window.__alerts.push(["asked"]);
  return Promise.resolve("granted");
};
window.Notification = FakeNotification;
window.AudioContext = function () {
  this.currentTime = 0;
  this.destination = {};
  this.createOscillator = () => ({
    frequency: {}, connect: (node) => node,
    start: () => window.__alerts.push(["chime"]), stop: () => {},
  });
  this.createGain = () => ({
    gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (node) => node,
  });
};
Object.defineProperty(document, "hidden", { get: () => true });
"""


def test_a_player_who_opted_in_is_told_with_a_notification_and_a_chime_when_it_is_their_turn(
    server, page_as
):
    players = GAMES["knightfall"]["players"]
    seeded = seed(server, GAMES["knightfall"] | {"name": "Wake me", "pace": "turn-24h"})
    slug, first = seeded["slugs"][0], seeded["seats"][0]
    deciding, waiting = page_as(seeded, players[first]), page_as(seeded, players[1 - first])
    waiting.add_init_script(ALERTS)
    waiting.goto(f"/t/{slug}/")
    expect(waiting).not_to_have_title(re.compile(r"your turn"))
    waiting.get_by_label("Tell me when it is my turn").check()
    waiting.wait_for_function("window.__alerts.some(a => a[0] === 'asked')")  # permission asked
    deciding.goto(f"/t/{slug}/")
    expect(deciding).to_have_title(re.compile(r"^\(your turn\)"))
    rng = random.Random(1)
    for _ in range(20):
        if _click_a_choice(deciding, rng) is not None:
            break
    expect(waiting).to_have_title(re.compile(r"^\(your turn\)"))
    waiting.wait_for_function("window.__alerts.some(a => a[0] === 'chime')")
    alerts = waiting.evaluate("window.__alerts")
    assert ["notification", "Your turn"] in alerts, alerts
    # The opt-in is kept on this device: a reload shows it ticked.
    waiting.reload()
    expect(waiting.get_by_label("Tell me when it is my turn")).to_be_checked()
