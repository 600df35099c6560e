"""Learn to play: a kit's guided first game, on an ordinary table through the ordinary services.

The script (games/kilforth/tutorial.py) is played on the real engine by following its pointers,
and every step must find what it points at; leaving the guide hides the coach and the game goes
on; the lobby offers the entry only for kits that have a tutorial.
"""

import re

import pytest

from games.kilforth import adapter
from games.kilforth.tutorial import TUTORIAL
from games.tables import caches, kits, services, tutorials
from games.tables.models import Game, Table, TableStatus, Visibility
from games.tables.rendering import load_snapshot, render_table_live
from games.tables.tutorials import Offer, Step
from tests.tables.toy_kit import KIT as TOY_KIT


@pytest.fixture(autouse=True)
def fresh_caches():
    # Replay checkpoints are kept by game id, and a test database hands ids out again: none
    # from another test may be found here, nor ours by a later test.
    caches.forget_all()
    yield
    caches.forget_all()


def state_of(table):
    return adapter.load(Game.objects.get(table=table).state)


def coaching(table):
    table.refresh_from_db()
    return tutorials.coaching_for(kits.kit_for(table), table.tutorial, state_of(table), 0)


def follow(table, player, coach):
    """Do what the coach says: Next on an explanation, else the choice it points at."""
    if coach.explains:
        services.do_tutorial_next(table, player, coach.index)
    else:
        services.do_act(table, player, coach.key, Game.objects.get(table=table).version)


def live_page(table, player) -> str:
    snapshot = load_snapshot(table.pk)
    return render_table_live(snapshot, player.pk, "player")


@pytest.mark.django_db
def test_the_lobby_offers_learn_to_play_for_a_kit_with_a_tutorial_and_none_for_one_without(
    person,
):
    kits.register(TOY_KIT)
    try:
        client, _ = person("Ann")
        lobby = client.get("/").content.decode()
    finally:
        kits.unregister(TOY_KIT.key)
    assert "Learn to play Kilforth" in lobby
    assert "Learn to play High card" not in lobby and kits.tutorial_of(TOY_KIT) is None
    assert [kit.key for kit in kits.kits_with_tutorials()] == ["kilforth"]
    assert "Learn to play Knight Fall" not in lobby  # Knight Fall offers no tutorial (yet)


@pytest.mark.django_db
def test_learn_to_play_opens_a_private_solo_table_begun_with_the_fixed_hero_and_seed(person):
    client, ann = person("Ann")
    response = client.post("/learn/kilforth/")
    assert response.status_code == 302
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert table.status == TableStatus.STARTED and table.visibility == Visibility.UNLISTED
    assert (table.seat_count, table.host, table.options["mode"]) == (1, ann, "solo")
    assert table.tutorial == {"seed": TUTORIAL.seed, "step": 0, "strayed": False, "left": False}
    seat = table.seats.get()
    assert seat.player == ann and seat.setup == {**TUTORIAL.setup}
    state = state_of(table)
    expected = adapter.setup(
        table.options | {"auto_evasion": False}, [TUTORIAL.setup], TUTORIAL.seed
    )
    assert state.seed == TUTORIAL.seed and state.to_dict() == expected.to_dict()
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="table-coach"' in page and "Leave the tutorial" in page
    assert 'role="region" aria-labelledby="coach-title"' in page


@pytest.mark.django_db
def test_a_visitor_without_a_name_is_asked_for_one_before_the_tutorial(client):
    response = client.get("/learn/kilforth/")
    assert response.status_code == 302 and "/welcome/" in response["Location"]
    assert client.get("/learn/nosuchgame/").status_code == 302  # a name first, then a 404
    assert Table.objects.count() == 0


@pytest.mark.django_db
def test_following_the_script_meets_every_step_through_the_first_day_and_night(person):
    _, ann = person("Ann")
    table = services.do_start_tutorial(ann, "kilforth")
    seen: list[int] = []
    verbs: list[str] = []
    while (coach := coaching(table)) is not None:
        # Never waiting, never strayed: the fixed game meets each step where the script says.
        assert coach.index == len(seen) and not coach.strayed, (coach, seen)
        step = TUTORIAL.script[coach.index]
        if not coach.explains:
            offered = TUTORIAL.offer(state_of(table), 0)
            data = next(d for k, _, d in offered.choices if k == coach.key)
            assert all(data[name] == value for name, value in step.point.items())
            assert coach.label and "{" not in coach.label
            verbs.append(data["verb"])
            assert f'data-highlight="{coach.key}"' in live_page(table, ann)
        seen.append(coach.index)
        follow(table, ann, coach)
    assert seen == list(range(len(TUTORIAL.script)))
    # Moving, an encounter confronted, a test decided by fate, an engagement fought, the night.
    for verb in ("move", "confront", "call_fate", "fight"):
        assert verb in verbs
    history = [e["e"] for e in Game.objects.get(table=table).history()]
    for event in ("moved", "confront", "fate_called", "battle", "night", "night_card", "dawn"):
        assert event in history, event
    state = state_of(table)
    assert state.day == 2 and state.result is None and not state.heroes[0]["defeated"]
    table.refresh_from_db()
    assert table.tutorial["step"] == len(TUTORIAL.script)
    assert 'id="table-coach" hidden' in live_page(table, ann)


@pytest.mark.django_db
def test_leaving_the_tutorial_hides_the_coach_and_the_game_goes_on(person):
    client, ann = person("Ann")
    table = services.do_start_tutorial(ann, "kilforth")
    follow(table, ann, coaching(table))  # Next on the welcome
    assert client.post(f"/t/{table.slug}/guide/leave/").status_code in (204, 302)
    table.refresh_from_db()
    assert table.tutorial["left"] is True and coaching(table) is None
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="table-coach" hidden' in page and "Leave the tutorial" not in page
    state = state_of(table)
    key = adapter.legal(state, 0)[-1].key
    version = services.do_act(table, ann, key, state.version)
    assert version == state.version + 1 and Table.objects.get(pk=table.pk).tutorial["left"]


@pytest.mark.django_db
def test_going_ones_own_way_never_blocks_and_the_guide_picks_up_what_fits(person):
    _, ann = person("Ann")
    table = services.do_start_tutorial(ann, "kilforth")
    while (coach := coaching(table)).key == "" or coach.title != "Moving":
        follow(table, ann, coach)
    # Not the quarry: another place; the guide steps aside and says so.
    state = state_of(table)
    other = next(
        c for c in adapter.legal(state, 0) if c.data["verb"] == "move" and c.data["loc"] != 17
    )
    services.do_act(table, ann, other.key, state.version)
    coach = coaching(table)
    assert coach is not None and coach.strayed
    assert coach.index is None or TUTORIAL.script[coach.index].title != "Moving"
    # Next on a step that is not the one shown changes nothing.
    before = Table.objects.get(pk=table.pk).tutorial
    services.do_tutorial_next(table, ann, 0)
    assert Table.objects.get(pk=table.pk).tutorial == before


@pytest.mark.django_db
def test_a_table_without_a_tutorial_has_no_guide_to_leave(person):
    _, ann = person("Ann")
    table = services.do_create_table(ann, {"name": "Plain", "seat_count": 1, "options": {}})
    with pytest.raises(services.ServiceError):
        services.do_leave_tutorial(table, ann)
    assert not re.search(r"table-coach", live_page(table, ann))


def test_the_guide_follows_the_facts_of_the_choices_not_their_labels():
    script = [
        Step("Hello", "Read this.", when={"verb": "go"}),
        Step("Go", "Go north.", point={"verb": "go", "to": "north"}),
        Step("Rest", "Rest now.", point={"verb": "rest"}),
    ]
    offer = Offer(
        1,
        [
            ("k1", "Walk south", {"verb": "go", "to": "south"}),
            ("k2", "x", {"verb": "go", "to": "north"}),
        ],
    )
    progress = tutorials.new_progress(1)
    shown = tutorials.coach(script, progress, offer)
    assert (shown.index, shown.explains, shown.key) == (0, True, "")
    # Clicking the pointed choice past an unread explanation moves on past both.
    assert tutorials.after_decision(script, progress, offer, "k2")["step"] == 2
    # Another choice: the guide stays at the step it pointed at, strayed.
    strayed = tutorials.after_decision(script, progress, offer, "k1")
    assert (strayed["step"], strayed["strayed"]) == (1, True)
    assert tutorials.coach(script, strayed, offer).key == "k2"
    # Nothing of the script offered: the guide says it waits, and highlights nothing.
    waiting = tutorials.coach(script, strayed, Offer(1, [("z", "Zap", {"verb": "zap"})]))
    assert waiting.index is None and waiting.key == "" and waiting.strayed
    assert tutorials.coach(script, {**progress, "left": True}, offer) is None


@pytest.mark.django_db
def test_taking_back_a_guided_decision_puts_the_guide_back_at_its_step(person):
    _, ann = person("Ann")
    table = services.do_start_tutorial(ann, "kilforth")
    while (coach := coaching(table)) is not None:
        follow(table, ann, coach)
        game = Game.objects.get(table=table)
        if not coach.explains and game.undoable_action() is not None:
            break
    else:
        pytest.fail("no decision of the script may be taken back")
    services.do_undo(table, ann, Game.objects.get(table=table).version)
    again = coaching(table)
    assert (again.index, again.key, again.strayed) == (coach.index, coach.key, False)


@pytest.mark.django_db
def test_starting_over_closes_the_earlier_guided_game_but_never_one_played_on_alone(person):
    _, ann = person("Ann")
    first = services.do_start_tutorial(ann, "kilforth")
    second = services.do_start_tutorial(ann, "kilforth")
    assert Table.objects.get(pk=first.pk).status == TableStatus.CLOSED
    services.do_leave_tutorial(second, ann)  # now it is Ann's own game
    for _ in range(6):  # more than the limit of open tables: retrying never runs into it
        latest = services.do_start_tutorial(ann, "kilforth")
    assert Table.objects.get(pk=second.pk).status == TableStatus.STARTED
    live = Table.objects.filter(host=ann).exclude(status=TableStatus.CLOSED)
    assert set(live) == {second, latest}
