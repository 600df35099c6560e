"""From Start to the end of a game, through the services that every request goes through."""

import threading

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import override_settings

from games.kilforth import adapter
from games.kilforth.kit import pick_hero
from games.tables import services
from games.tables.models import Action, Game, Player, Seat, Table, TableStatus
from tests.tables.helpers import open_table, session_for


def full_table(names=("Ann", "Bob"), **settings):
    host = Player.objects.create(name=names[0])
    table = open_table(host, seat_count=len(names), **settings)
    players = [host] + [Player.objects.create(name=n) for n in names[1:]]
    for number, player in enumerate(players):
        Seat.objects.filter(table=table, number=number).update(player=player)
    return table, players


def started_table(names=("Ann", "Bob"), seed=4242, **settings):
    """A table whose game has begun, dealt from `seed` so that every run plays the same game."""
    table, players = full_table(names, **settings)
    services.do_start_game(table, players[0])
    with override_settings(KILFORTH_TEST_SEED=seed):
        for player in players:
            pick_hero(table, player, "", "", False)
    table.refresh_from_db()
    return table, players


def current_state(table):
    return adapter.load(Game.objects.get(table=table).state)


def deciding(state):
    seat = state.waiting_for[0]
    return seat, adapter.legal(state, seat)


@pytest.mark.django_db
def test_start_needs_the_host_and_every_seat_taken():
    host = Player.objects.create(name="Hal")
    table = open_table(host, seat_count=2)
    with pytest.raises(services.Conflict, match="Every seat"):
        services.do_start_game(table, host)
    table, players = full_table()
    with pytest.raises(services.Forbidden):
        services.do_start_game(table, players[1])
    services.do_start_game(table, players[0])
    assert Table.objects.get(pk=table.pk).status == TableStatus.CHOOSING


@pytest.mark.django_db
def test_players_pick_heroes_and_the_game_begins_when_all_have_confirmed():
    table, (ann, bob) = full_table()
    services.do_start_game(table, ann)
    options = adapter.hero_options()
    race, klass = options["races"][0].id, options["classes"][1].id
    pick_hero(table, ann, race, klass, True)
    assert not Game.objects.exists()
    with pytest.raises(services.Conflict, match="already picked that race"):
        pick_hero(table, bob, race, "", False)
    pick_hero(table, bob, "", "", False)
    table.refresh_from_db()
    assert table.status == TableStatus.STARTED
    picture = adapter.view(current_state(table), 0)
    assert (picture["heroes"][0]["race"], picture["heroes"][0]["class"]) == (race, klass)
    assert picture["heroes"][1]["race"] != race


@pytest.mark.django_db
def test_a_hero_pick_must_be_one_of_the_choices_and_from_a_seated_player():
    table, (ann, _) = full_table()
    services.do_start_game(table, ann)
    with pytest.raises(services.ServiceError, match="not one of the choices"):
        pick_hero(table, ann, "race.dragon_king", "", False)
    stranger = Player.objects.create(name="Sly")
    with pytest.raises(services.Forbidden):
        pick_hero(table, stranger, "", "", False)


@pytest.mark.django_db
def test_a_legal_decision_is_applied_saved_and_logged():
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    version = services.do_act(table, players[seat], choices[0].key, state.version)
    game = Game.objects.get(table=table)
    assert version == game.version > state.version
    action = Action.objects.get(game=game)
    assert (action.seat, action.key, action.version) == (seat, choices[0].key, version)


@pytest.mark.django_db
def test_a_sockets_decision_is_made_by_whoever_its_session_names_now():
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    key = session_for(players[seat])
    # Another seat's session is refused as its player is; nobody's, none at all and one
    # unknown to the store (logged out) name no seated player.
    with pytest.raises(services.ServiceError, match="not your decision"):
        services.do_session_act(
            table, session_for(players[1 - seat]), choices[0].key, state.version
        )
    for other in (session_for(), "", "no-such-session"):
        with pytest.raises(services.Forbidden):
            services.do_session_act(table, other, choices[0].key, state.version)
    assert Game.objects.get(table=table).version == state.version
    version, player_id = services.do_session_act(table, key, choices[0].key, state.version)
    assert (version, player_id) == (Game.objects.get(table=table).version, players[seat].pk)
    action = Action.objects.get(version=version)
    assert (action.seat, action.player_id, action.key) == (seat, players[seat].pk, choices[0].key)
    SessionStore(session_key=key).flush()  # logged out since: that session decides nothing
    state = current_state(table)
    seat_now, choices_now = deciding(state)
    with pytest.raises(services.Forbidden):
        services.do_session_act(table, key, choices_now[0].key, state.version)
    assert Game.objects.get(table=table).version == state.version


@pytest.mark.django_db
def test_an_illegal_decision_is_refused_with_the_engines_reason_and_changes_nothing():
    table, players = started_table()
    state = current_state(table)
    seat, _ = deciding(state)
    with pytest.raises(services.ServiceError, match="not one of your options"):
        services.do_act(table, players[seat], "fly-to-the-moon", state.version)
    assert Game.objects.get(table=table).version == state.version
    assert not Action.objects.exists()


@pytest.mark.django_db
def test_another_players_decision_cannot_be_made_from_a_seat_that_is_not_asked():
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    other = players[1 - seat]
    if choices[0].key in {c.key for c in adapter.legal(state, 1 - seat)}:
        pytest.skip("both seats happen to share this key")
    with pytest.raises(services.ServiceError):
        services.do_act(table, other, choices[0].key, state.version)
    spectator = Player.objects.create(name="Wes")
    with pytest.raises(services.Forbidden):
        services.do_act(table, spectator, choices[0].key, state.version)
    assert Game.objects.get(table=table).version == state.version


@pytest.mark.django_db
def test_a_stale_or_replayed_decision_is_refused_and_applied_only_once():
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    services.do_act(table, players[seat], choices[0].key, state.version)
    for _ in range(10):
        with pytest.raises(services.Stale):
            services.do_act(table, players[seat], choices[0].key, state.version)
    assert Action.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_submissions_of_the_same_version_apply_exactly_once():
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    outcomes = []
    barrier = threading.Barrier(4)

    def submit():
        barrier.wait()
        try:
            services.do_act(table, players[seat], choices[0].key, state.version)
            outcomes.append("applied")
        except services.Stale:
            outcomes.append("stale")
        except Exception as exc:  # anything else fails the test, not just its thread
            outcomes.append(repr(exc))
        finally:
            connection.close()  # the thread ends: its connection with it (they are kept)

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    assert Action.objects.count() == 1


@pytest.mark.django_db
def test_a_saved_game_resumes_exactly_where_it_was():
    table, players = started_table()
    for _ in range(40):
        state = current_state(table)
        if state.result is not None:
            break
        seat, choices = deciding(state)
        services.do_act(table, players[seat], choices[-1].key, state.version)
    before = current_state(table)
    # A "restart": nothing in memory, only the row in the database.
    after = adapter.load(Game.objects.get(table=table).state)
    assert after == before
    for seat in range(2):
        assert adapter.legal(after, seat) == adapter.legal(before, seat)


@pytest.mark.django_db
def test_a_finished_game_offers_a_rematch_with_the_same_players():
    table, players = started_table()
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    with pytest.raises(services.Forbidden):
        services.do_rematch(table, players[1])
    rematch = services.do_rematch(table, players[0])
    assert rematch.pk != table.pk
    assert (rematch.game, rematch.options, rematch.seat_count) == (
        table.game,
        table.options,
        table.seat_count,
    )
    assert [s.player for s in rematch.seats.order_by("number")] == players
    assert Table.objects.get(pk=table.pk).rematch == rematch
    assert services.do_rematch(table, players[0]) == rematch  # asking twice opens one table


@pytest.mark.django_db
def test_the_whole_log_is_readable_by_each_viewer_with_only_what_they_may_see(client):
    table, players = started_table()
    for _ in range(30):
        state = current_state(table)
        seat, choices = deciding(state)
        services.do_act(table, players[seat], choices[0].key, state.version)
    state = current_state(table)
    page = client.get(f"/t/{table.slug}/log/").content.decode()
    assert "The whole story of" in page and 'class="log-list"' in page
    assert page.count('class="log-row') >= 10
    from games.kilforth.engine import content

    hands = {c for hero in state.heroes for c in hero["hand"]}
    # Public: what a spectator may know, the whole public history included.
    history = Game.objects.get(table=table).history()
    public = str(adapter.view(state, None)) + str([e for e in history if e["vis"] == "all"])
    for card in hands:
        if card not in public:
            assert content().card(card)["name"] not in page


@pytest.mark.django_db
def test_the_whole_log_reaches_back_to_the_first_event_though_the_state_keeps_only_the_newest(
    client,
):
    from games.kilforth.engine.state import LOG_KEPT

    table, players = started_table()
    while True:
        state = current_state(table)
        if state.logged > 2 * LOG_KEPT or state.result is not None:
            break
        seat, choices = deciding(state)
        services.do_act(table, players[seat], choices[0].key, state.version)
    assert len(state.log) < state.logged, "the state no longer holds the whole history"
    history = Game.objects.get(table=table).history()
    assert len(history) == state.logged
    page = client.get(f"/t/{table.slug}/log/").content.decode()
    assert page.count('class="log-row') == sum(1 for e in history if e["vis"] == "all")


@pytest.mark.django_db
def test_a_table_without_a_game_has_no_log(client):
    table, _ = full_table()
    assert client.get(f"/t/{table.slug}/log/").status_code == 404


@pytest.mark.django_db
def test_at_a_matched_table_a_player_may_pick_a_saga_and_at_a_random_table_not():
    table, (ann, bob) = full_table()
    services.do_start_game(table, ann)
    sagas = [o.id for o in adapter.hero_options()["sagas"]]
    pick_hero(table, ann, "", "", False, sagas[2])
    with pytest.raises(services.Conflict, match="already picked that saga"):
        pick_hero(table, bob, "", "", False, sagas[2])
    pick_hero(table, bob, "", "", False)
    assert adapter.view(current_state(table), 0)["heroes"][0]["saga"] == sagas[2]

    dealt, (cy, di) = full_table(("Cy", "Di"), saga_allocation="random")
    services.do_start_game(dealt, cy)
    with pytest.raises(services.Conflict, match="dealt at random"):
        pick_hero(dealt, cy, "", "", False, sagas[0])
