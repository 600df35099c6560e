"""Knight Fall plays through the real platform: lobby, seats, Ready, bots, sockets, rematch."""

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.knightfall.engine import api
from games.knightfall.engine.board import name as unit_name
from games.knightfall.kit import KIT
from games.tables import bots, kits, services
from games.tables.models import Game, Player, Table, TableStatus
from tests.tables.helpers import page, receive_until, session_for, socket

db = database_sync_to_async


def knightfall_post(**changes):
    data = {
        "name": "Night watch",
        "game": "knightfall",
        "seat_count": 4,
        "mode": "standard",
        "lone_team": "demons",
        "locations": "on",
        "visibility": "public",
        "bot_delay_ms": 0,
        "grace_seconds": 60,
    }
    return {k: v for k, v in {**data, **changes}.items() if v is not None}


def hidden_cards(state: dict, viewer: int | None) -> list[str]:
    """Every card id in a hand other than the viewer's."""
    return [c for p in state["players"] if p["seat"] != viewer for c in p["hand"]]


def assert_no_other_hand(html: str, state: dict, viewer: int | None) -> None:
    for card in hidden_cards(state, viewer):
        assert f'"{card}"' not in html and f":{card}" not in html, (viewer, card)


def test_the_kit_is_registered_and_implements_the_protocol():
    assert isinstance(KIT, kits.GameKit)
    assert kits.get("knightfall") is KIT
    assert (KIT.name, KIT.max_seats) == ("Knight Fall", 6)
    assert list(KIT.bot_levels) == ["heuristic", "random"]


def test_every_viewers_board_shows_no_other_hand_through_a_whole_bot_game():
    players = {n: f"P{n}" for n in range(4)}
    options = {"mode": "standard", "lone_team": "demons", "locations": True}
    state = KIT.setup(options, [{}] * 4, 11)
    rng = random.Random(2)
    steps = 0
    engine = api.new_game(state["settings"], 11)  # the same game, its whole log kept
    history = KIT.events(None, state)
    while KIT.result(state) is None:
        if steps % 7 == 0:
            for viewer in (None, 0, 1, 2, 3):
                html = KIT.render(state, viewer, players, {0}, "slug")
                assert_no_other_hand(html, state, viewer)
                assert 'id="game-board"' not in html and 'id="game-flash"' not in html
                if viewer is not None and viewer in KIT.waiting_for(state):
                    for option in api.legal(state, viewer):
                        assert f'value="{option["key"]}"' in html
                else:
                    assert "ws-send" not in html
        seat = KIT.waiting_for(state)[0]
        before = state
        key = KIT.bot_choice(state, seat, "heuristic", rng)
        state = KIT.act(state, seat, key)
        engine = api.act(engine, seat, key)
        history += KIT.events(before, state)
        assert len(state["log"]) <= 200
        steps += 1
    assert history == engine["log"] and len(history) > 400
    html = KIT.render(state, None, players, set(), "slug")
    assert "win" in html and "ws-send" not in html


UNIT_NAME = re.compile(r'<span class="kf-unit-name">(.*?)</span>(?=\s*<span class="kf-stats")')


def test_the_board_names_minions_and_elders_as_the_log_and_the_choices_do():
    players = {n: f"P{n}" for n in range(4)}
    state = KIT.setup({"mode": "standard", "lone_team": "demons"}, [{}] * 4, 5)
    rng = random.Random(5)
    for _ in range(40):
        html = KIT.render(state, None, players, set(), "slug")
        shown = {
            " ".join(re.sub(r"<[^>]+>", " ", text).split()).lower()
            for text in UNIT_NAME.findall(html)
        }
        on_board = [u for u in state["units"].values() if u["tile"] is not None]
        for u in on_board:
            if u["type"] not in ("knight", "demon"):
                assert unit_name(state, u) in shown, (unit_name(state, u), sorted(shown))
        assert not re.search(r'class="kf-uid">[a-z]', html)  # never an internal id ("m42")
        seat = KIT.waiting_for(state)[0]
        state = KIT.act(state, seat, KIT.bot_choice(state, seat, "random", rng))
        if KIT.result(state) is not None:
            break


def test_each_seats_presence_dot_is_said_in_words_for_screen_readers():
    players = {n: f"P{n}" for n in range(4)}
    state = KIT.setup({"mode": "standard", "lone_team": "demons"}, [{}] * 4, 5)
    html = KIT.render(state, None, players, {0, 2}, "slug")
    said = re.findall(r'<span class="sr-only">(Online|Offline):</span> <bdi>(P\d)</bdi>', html)
    assert sorted(said, key=lambda s: s[1]) == [
        ("Online", "P0"),
        ("Offline", "P1"),
        ("Online", "P2"),
        ("Offline", "P3"),
    ]


def test_an_illegal_decision_is_a_kit_refusal():
    state = KIT.setup({"mode": "coop", "lone_team": "demons"}, [{}, {}], 3)
    with pytest.raises(kits.KitRefusal):
        KIT.act(state, 1, "keep:nobody")
    with pytest.raises(kits.KitRefusal):
        KIT.act(state, 0, "keep:nobody")


@pytest.mark.django_db
def test_a_knight_fall_table_is_opened_readied_played_to_the_end_by_bots_and_rematched(person):
    host, ann = person("Ann")
    watcher, _ = person("Wes")
    response = host.post("/tables/new/", knightfall_post())
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get()
    assert table.game == "knightfall" and table.options["mode"] == "standard"
    lobby = host.get("/").content.decode()
    assert "Knight Fall" in lobby and "Knights against demons" in lobby

    assert host.post(f"/t/{table.slug}/seats/0/take/").status_code in (204, 302)
    for number in (1, 2, 3):
        response = host.post(f"/t/{table.slug}/seats/{number}/bot/", {"level": "heuristic"})
        assert response.status_code in (204, 302)
    assert host.post(f"/t/{table.slug}/start/").status_code in (204, 302)
    table.refresh_from_db()
    assert table.status == TableStatus.CHOOSING
    prompt = host.get(f"/t/{table.slug}/").content.decode()
    assert "Ready for the night?" in prompt and "You play the" in prompt
    host.post(f"/t/{table.slug}/setup/", {"ready": "1"})
    table.refresh_from_db()
    assert table.status == TableStatus.STARTED

    rng = random.Random(5)
    decisions = 0
    while table.status == TableStatus.STARTED:
        game = Game.objects.get(table=table)
        state = KIT.load(game.state)
        if decisions % 60 == 0:
            mine = host.get(f"/t/{table.slug}/").content.decode()
            assert "knightfall.css" in mine and 'class="kf"' in mine
            assert_no_other_hand(mine, state, 0)
            theirs = watcher.get(f"/t/{table.slug}/").content.decode()
            assert_no_other_hand(theirs, state, None)
            assert 'value="act"' not in theirs
            # A visitor with no name holds no seat (a bot's seat has no player either).
            nameless = Client().get(f"/t/{table.slug}/").content.decode()
            assert_no_other_hand(nameless, state, None)
            assert "Your hand" not in nameless and "Take my seat back" not in nameless
        if KIT.waiting_for(state) == [0]:
            key = KIT.bot_choice(state, 0, "random", rng)
            services.do_act(table, ann, key, game.version)
        else:
            move = bots.plan_move(table.pk, rng)
            assert move is not None and bots.play_move(move)
        decisions += 1
        table.refresh_from_db()
        assert decisions < 3000
    final = host.get(f"/t/{table.slug}/").content.decode()
    assert "Your team" in final and "Play again?" in final
    full_log = host.get(f"/t/{table.slug}/log/").content.decode()
    assert "Every event" in full_log and "Round 1 begins." in full_log

    assert host.post(f"/t/{table.slug}/rematch/").status_code in (204, 302)
    rematch = Table.objects.get(pk=Table.objects.get(pk=table.pk).rematch_id)
    assert (rematch.game, rematch.options, rematch.seat_count) == ("knightfall", table.options, 4)
    seats = [(s.player_id, s.bot) for s in rematch.seats.order_by("number")]
    assert seats == [(ann.pk, ""), (None, "heuristic"), (None, "heuristic"), (None, "heuristic")]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"mode": "coop", "seat_count": 4}, "A co-op game is for 1 to 3 players."),
        ({"seat_count": 1}, "Knights against demons needs 2 to 6 players."),
        ({"lone_team": "knights", "seat_count": 4}, "Only a 3-player standard game"),
        ({"seat_count": 7}, "1 to 6 seats"),
        ({"mode": "chess"}, "valid choice"),
        ({"lone_team": None}, "This field is required"),
    ],
)
def test_impossible_knight_fall_options_are_form_errors(person, changes, message):
    host, _ = person("Ann")
    response = host.post("/tables/new/", knightfall_post(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_lone_knight_at_three_and_a_solo_co_op_table_are_accepted(person):
    host, _ = person("Ann")
    response = host.post("/tables/new/", knightfall_post(lone_team="knights", seat_count=3))
    assert response.status_code == 302
    response = host.post("/tables/new/", knightfall_post(mode="coop", seat_count=1))
    assert response.status_code == 302
    assert Table.objects.count() == 2


def started_duel() -> tuple[Table, list[Player]]:
    ann, bob = Player.objects.create(name="Ann"), Player.objects.create(name="Bob")
    options = {"mode": "standard", "lone_team": "demons", "locations": True}
    table = services.do_create_table(
        ann, {"name": "Duel", "game": "knightfall", "options": options, "seat_count": 2}
    )
    services.do_take_seat(table, ann, 0, "player")
    services.do_take_seat(table, bob, 1, "player")
    services.do_start_game(table, ann)
    services.do_setup_seat(table, ann, {"ready": "1"})
    services.do_setup_seat(table, bob, {})
    return Table.objects.get(pk=table.pk), [ann, bob]


def first_choice() -> tuple[str, int, dict]:
    game = Game.objects.get()
    state = KIT.load(game.state)
    hidden = {"bob": hidden_cards(state, 1), "watcher": hidden_cards(state, None)}
    return api.legal(state, 0)[0]["key"], game.version, hidden


@pytest.mark.django_db(transaction=True)
async def test_a_seats_decision_over_the_socket_reaches_the_other_seat_and_a_spectator():
    table, (ann, bob) = await db(started_duel)()
    key, version, hands = await db(first_choice)()
    sockets = {}
    for name, player in (("ann", ann), ("bob", bob), ("watcher", None)):
        sockets[name] = socket(f"/ws/t/{table.slug}/", await db(session_for)(player))
        assert (await sockets[name].connect())[0]
        await receive_until(sockets[name], 'id="game-board"')
    assert f'value="{key}"' in page(sockets["ann"])
    for name in ("bob", "watcher"):
        assert "Waiting for Ann" in page(sockets[name])
    await sockets["ann"].send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": version})
    )
    await receive_until(sockets["bob"], "Your decision")
    await receive_until(sockets["watcher"], "Waiting for Bob")
    await receive_until(sockets["ann"], "Waiting for Bob")
    assert 'value="act"' not in page(sockets["watcher"])
    for name in ("bob", "watcher"):
        assert not any(f'"{card}"' in page(sockets[name]) for card in hands[name])
    assert (await db(lambda: Game.objects.get().version)()) == version + 1
    for communicator in sockets.values():
        await communicator.disconnect()


@pytest.mark.django_db
def test_the_new_table_page_offers_knight_falls_options_by_its_link(person):
    host, _ = person("Ann")
    kilforth = host.get("/tables/new/").content.decode()
    assert 'href="?game=knightfall"' in kilforth and "Co-op (all knights)" not in kilforth
    knightfall = host.get("/tables/new/?game=knightfall").content.decode()
    assert "Co-op (all knights)" in knightfall and 'value="knightfall" selected' in knightfall


def test_a_decision_sends_only_the_boards_changed_parts():
    from games.tables.frames import Rendering, apply_frame, board_frame

    players = {0: "Ann", 1: "Bob", 2: "Cy"}
    state = KIT.setup({"mode": "standard", "lone_team": "demons"}, [{}] * 3, 4)
    rng = random.Random(1)
    for _ in range(40):
        seat = KIT.waiting_for(state)[0]
        state = KIT.act(state, seat, KIT.bot_choice(state, seat, "heuristic", rng))
    seat = KIT.waiting_for(state)[0]
    after = KIT.act(state, seat, KIT.bot_choice(state, seat, "heuristic", rng))
    for viewer in (None, 0, 1, 2):
        old, new = (
            board_frame(KIT.render(s, viewer, players, set(), "x"), KIT.version(s), KIT.key)
            for s in (state, after)
        )
        frame = Rendering.of(new, 0).changed_since(Rendering.of(old, 0))
        assert frame is not None and len(frame) < len(new)
        assert apply_frame(old, frame) == new


@pytest.mark.rule("KSET-5")
def test_a_player_may_let_the_dice_decide_their_characters():
    state = api.new_game({"mode": "standard", "players": 2}, 17)
    seat = api.waiting_for(state)[0]
    options = {o["key"]: o for o in api.legal(state, seat)}
    assert options["keep:dice"]["label"] == "Let the dice decide"
    drawn = state["prompt"]["options"][0]["then"][0]["drawn"]
    after = api.act(state, seat, "keep:dice")
    kept = after["fx"]["kept"][str(seat)]
    assert len(kept) == 2 and set(kept) <= set(drawn)  # 2 players: each keeps two of three
    again = api.act(state, seat, "keep:dice")
    assert again["fx"]["kept"] == after["fx"]["kept"]  # drawn by the game's own seeded dice


@pytest.mark.django_db
@pytest.mark.rule("KPC-1")
def test_the_seat_list_names_each_seats_team_so_taking_a_seat_is_choosing_a_team(person):
    host, ann = person("Ann")
    assert host.post("/tables/new/", knightfall_post()).status_code == 302
    table = Table.objects.get()
    page = host.get(f"/t/{table.slug}/").content.decode()
    labels = re.findall(r'id="seat-(\d)".*?class="seat-team">(\w+)<', page, flags=re.S)
    assert labels == [("0", "Demons"), ("1", "Knights"), ("2", "Demons"), ("3", "Knights")]
