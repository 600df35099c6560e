"""A decision's reads without the ORM's compiler give the instances the ORM gives."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.kilforth import adapter
from games.tables import realtime, rows
from games.tables.consumers import fresh_session
from games.tables.models import Action, Connection, Game, Player, Seat, Table
from tests.tables.helpers import open_table
from tests.tables.test_game_flow import started_table

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    """An instance's field values as loaded (deferred fields left out), without its caches."""
    if instance is None:
        return {}
    loaded = {f.attname for f in instance._meta.concrete_fields} - instance.get_deferred_fields()
    # With each value's type: 1 == True and a naive time == an aware one would hide a converter.
    values = {name: getattr(instance, name) for name in sorted(loaded)}
    return {
        name: (type(v).__name__, v, getattr(v, "tzinfo", None)) for name, v in values.items()
    } | {"deferred": sorted(instance.get_deferred_fields())}


def orm_rows(table_id: int) -> tuple[Table, list[Seat]]:
    table = (
        Table.objects.select_related("host", "game_state")
        .defer("game_state__state", "game_state__opening", "game_state__initial")
        .get(pk=table_id)
    )
    seats = sorted(
        Seat.objects.filter(table=table).select_related("player"), key=lambda s: s.number
    )
    return table, seats


def assert_same(table_id: int) -> None:
    with transaction.atomic():
        table, seats, session = rows.decision_rows(table_id)
    assert session is None  # none was named
    expected, expected_seats = orm_rows(table_id)
    assert fields_of(table) == fields_of(expected)
    assert fields_of(table.host) == fields_of(expected.host)
    game = getattr(table, "game_state", None)
    expected_game = getattr(expected, "game_state", None)
    assert fields_of(game) == fields_of(expected_game)
    if game is not None:
        assert game.table is table  # as select_related links them
        assert game.get_deferred_fields() == {"state", "opening", "initial"}
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in expected_seats]
    assert [fields_of(s.player) for s in seats] == [fields_of(s.player) for s in expected_seats]
    assert all(not s._state.adding and s._state.db == "default" for s in seats)


def test_a_started_tables_rows_are_the_ones_the_orm_reads():
    table, players = started_table(names=("Ann", "Bob", "Cy"))
    Seat.objects.filter(table=table, number=2).update(bot="heuristic", player=None)
    assert_same(table.pk)


def test_an_open_table_with_a_free_seat_and_no_game_reads_the_same_too():
    table = open_table(Player.objects.create(name="Hal"), seat_count=3)
    assert_same(table.pk)


def test_a_table_that_is_gone_reads_as_none():
    table = open_table(Player.objects.create(name="Hal"), seat_count=2)
    Table.objects.filter(pk=table.pk).delete()
    with transaction.atomic():
        assert rows.decision_rows(table.pk) is None


def test_a_conditional_update_changes_the_row_only_at_the_version_named():
    table, _ = started_table()
    game = Game.objects.get(table=table)
    assert (
        int(rows.update(Game, {"state": "{}", "version": 99}, pk=game.pk, version=game.version + 1))
        == 0
    )
    saved = rows.update(Game, {"state": "{}", "version": 99}, pk=game.pk, version=game.version)
    assert int(saved) == 1
    game.refresh_from_db()
    assert (game.state, game.version) == ("{}", 99)


def test_writes_sent_together_land_with_their_counts_known_after_the_block():
    table, _ = started_table()
    game = Game.objects.get(table=table)
    with transaction.atomic():
        with rows.pipelined():
            saved = rows.update(Game, {"version": 50}, pk=game.pk, version=game.version)
            missed = rows.update(Game, {"version": 60}, pk=game.pk, version=game.version)
            rows.bump_version(table.pk)
        assert (int(saved), int(missed)) == (1, 0)
    assert Game.objects.get(pk=game.pk).version == 50
    assert Table.objects.get(pk=table.pk).version == table.version + 1


def test_a_long_document_is_saved_exactly_alone_or_among_writes_sent_together():
    # On PostgreSQL a text this long is sent beside its statement (server-side parameters), not
    # quoted into it: every character must land as it was, quotes, backslashes, percent signs,
    # dollar quotes and characters beyond ASCII among them, and the statement is still Django's
    # (its wrappers see it: the load test's timeline, the debug log).
    table, _ = started_table()
    game = Game.objects.get(table=table)
    awkward = "'\\\" %s %(x)s $$ $1 \u00e9\u2014\U0001f409 ;-- \n\t"
    document = '{"text": "' + awkward * (rows.LONG_TEXT // len(awkward) + 1) + '"}'
    assert len(document) > rows.LONG_TEXT
    seen = []

    def watch(execute, sql, params, many, context):
        client = type(context["cursor"].cursor).__mro__
        seen.append((sql, any(c.__name__ == "ClientCursor" for c in client)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch), transaction.atomic():
        saved = rows.update(
            Game, {"state": document, "version": 77}, pk=game.pk, version=game.version
        )
        assert int(saved) == 1
    assert Game.objects.get(pk=game.pk).state == document
    with connection.execute_wrapper(watch), transaction.atomic():
        with rows.pipelined():
            saved = rows.update(Game, {"state": document[::-1]}, pk=game.pk, version=77)
            rows.bump_version(table.pk)
        assert int(saved) == 1
    assert Game.objects.get(pk=game.pk).state == document[::-1]
    updates = [cursor for sql, cursor in seen if sql.startswith('UPDATE "tables_game"')]
    assert len(updates) == 2
    if connection.vendor == "postgresql":
        assert updates == [False, False]  # not psycopg's client-binding cursor
        assert [c for sql, c in seen if "tables_table" in sql] == [True]  # as every other


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL pass sends them")
def test_on_postgresql_writes_sent_together_wait_for_no_result_until_the_blocks_end():
    table, _ = started_table()
    game = Game.objects.get(table=table)
    with transaction.atomic(), rows.pipelined():
        saved = rows.update(Game, {"version": 50}, pk=game.pk, version=game.version)
        with pytest.raises(RuntimeError, match="known only after"):
            int(saved)  # not sent for on its own: its result comes with the others'
    assert int(saved) == 1


def test_a_write_refused_among_writes_sent_together_rolls_them_all_back():
    table, _ = started_table()
    game = Game.objects.get(table=table)
    first, second = Seat.objects.filter(table=table).order_by("number")[:2]
    with pytest.raises(IntegrityError), transaction.atomic():  # Django's error, as a cursor's
        with rows.pipelined():
            rows.update(Game, {"version": 50}, pk=game.pk, version=game.version)
            rows.update(Seat, {"number": first.number}, pk=second.pk)  # one seat per number
            rows.bump_version(table.pk)
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Table.objects.get(pk=table.pk).version == table.version
    assert Seat.objects.get(pk=second.pk).number == second.number


def test_a_seats_clock_fields_are_saved_as_the_orm_saves_them():
    table, _ = started_table()
    seat = Seat.objects.get(table=table, number=1)
    moment = timezone.now().replace(microsecond=123456)
    seat.bank_ms, seat.waiting_since, seat.deadline = 4321, moment, moment + timedelta(minutes=3)
    rows.save_fields(seat, ("bank_ms", "waiting_since", "deadline"))
    saved = Seat.objects.get(pk=seat.pk)
    assert (saved.bank_ms, saved.waiting_since, saved.deadline) == (4321, moment, seat.deadline)
    seat.waiting_since = seat.deadline = None
    rows.save_fields(seat, ("waiting_since", "deadline"))
    saved.refresh_from_db()
    assert (saved.bank_ms, saved.waiting_since, saved.deadline) == (4321, None, None)


def test_a_tables_version_goes_one_up():
    table = open_table(Player.objects.create(name="Hal"), seat_count=2)
    rows.bump_version(table.pk)
    rows.bump_version(table.pk)
    assert Table.objects.get(pk=table.pk).version == table.version + 2


def test_an_action_is_inserted_as_the_orm_creates_it():
    table, players = started_table()
    game = Game.objects.get(table=table)
    made = dict(
        game=game,
        version=77,
        seat=1,
        key="move:x",
        player=players[1],
        bot="",
        events=[{"e": "moved", "to": "s.x", "faces": [5, 6]}, {"e": "note", "text": "é ü"}],
        progress=[3, [0.5, 0.25]],
        undoable=True,
    )
    rows.insert(Action(**made))
    Action.objects.create(**(made | {"version": 78}))
    ours, theirs = Action.objects.filter(version__in=[77, 78]).order_by("version")
    skip = {"id", "version", "created"}
    assert {k: v for k, v in fields_of(ours).items() if k not in skip} == {
        k: v for k, v in fields_of(theirs).items() if k not in skip
    }
    assert ours.events[1]["text"] == "é ü" and ours.undone is False and ours.restored == ""
    assert abs(ours.created - theirs.created) < timedelta(seconds=5)
    assert fields_of(ours)["created"][2] is not None  # aware, as the ORM's


def test_the_presence_rows_are_the_tables_open_sockets():
    table, players = started_table()
    Connection.objects.create(
        table=table, channel_name="a", viewer=str(players[0].pk), player=players[0], process="p1"
    )
    Connection.objects.create(table=table, channel_name="b", viewer="anon-key", process="p2")
    assert sorted(rows.presence_rows(table.pk), key=str) == sorted(
        Connection.objects.filter(table=table).values_list("viewer", "player_id", "process"),
        key=str,
    )


def test_a_sessions_data_is_read_as_the_session_store_reads_it():
    store = SessionStore()
    store["kilforth_player_id"] = 7
    store.create()
    assert SessionStore().decode(rows.session_data(store.session_key)) == {"kilforth_player_id": 7}
    assert SessionStore(session_key=store.session_key).load() == {"kilforth_player_id": 7}
    # Expired, it reads as none, as the store reads it as empty.
    Session.objects.filter(pk=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert rows.session_data(store.session_key) is None
    assert SessionStore(session_key=store.session_key).load() == {}
    assert rows.session_data("no-such-session-key") is None


def test_a_socket_rereads_its_session_and_a_logged_out_one_reads_as_nobody():
    store = SessionStore()
    store["kilforth_player_id"] = 7
    store.create()
    assert fresh_session(store).get("kilforth_player_id") == 7
    store.flush()  # logged out: the row is gone
    assert fresh_session(SimpleNamespace(session_key=store.session_key)) == {}
    assert fresh_session(SimpleNamespace(session_key=None)) == {}


def test_a_decisions_first_reads_bring_the_named_sessions_data_as_the_store_reads_it():
    table, players = started_table()
    store = SessionStore()
    store["kilforth_player_id"] = players[0].pk
    store.create()
    with transaction.atomic():
        found = rows.decision_rows(table.pk, store.session_key)
    assert found.table.pk == table.pk and [s.number for s in found.seats] == [0, 1]
    assert found.session == rows.session_data(store.session_key)
    assert SessionStore().decode(found.session) == {"kilforth_player_id": players[0].pk}
    # Expired or logged out, it reads as none, as the store reads it.
    Session.objects.filter(pk=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    with transaction.atomic():
        assert rows.decision_rows(table.pk, store.session_key).session is None
    store.flush()
    with transaction.atomic():
        assert rows.decision_rows(table.pk, store.session_key).session is None
        assert rows.decision_rows(table.pk, "").session is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL pass sends them")
def test_on_postgresql_a_decisions_session_comes_in_its_first_round_trip():
    # Sent in pipeline mode with the table's rows, it waits for no result of its own: libpq's
    # pipeline is on while each of the three statements is sent.
    from psycopg import pq

    table, players = started_table()
    store = SessionStore()
    store["kilforth_player_id"] = players[1].pk
    store.create()
    sent = []

    def note(execute, sql, params, many, context):
        if sql.startswith("SELECT"):
            status = connection.connection.pgconn.pipeline_status
            sent.append((sql.split(" FROM ")[1].split()[0], status == pq.PipelineStatus.ON))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note), transaction.atomic():
        found = rows.decision_rows(table.pk, store.session_key)
    assert sent == [('"tables_table"', True), ('"tables_seat"', True), ('"django_session"', True)]
    assert SessionStore().decode(found.session) == {"kilforth_player_id": players[1].pk}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL pass sends them")
def test_on_postgresql_who_watches_is_read_with_a_decisions_writes_not_after_its_commit(
    django_capture_on_commit_callbacks,
):
    from psycopg import pq

    from games.tables import services
    from tests.tables.test_game_flow import current_state

    table, players = started_table()
    Connection.objects.create(table=table, channel_name="w", viewer="anon-key", process="p2")
    state = current_state(table)
    seat = state.waiting_for[0]
    key = adapter.legal(state, seat)[0].key
    sent = []

    def note(execute, sql, params, many, context):
        status = connection.connection.pgconn.pipeline_status
        sent.append((sql.split()[0], "tables_connection" in sql, status == pq.PipelineStatus.ON))
        return execute(sql, params, many, context)

    with (
        connection.execute_wrapper(note),
        django_capture_on_commit_callbacks(execute=True),  # the broadcast after the commit
    ):
        services.do_act(table, players[seat], key, state.version)
    reads = [on for verb, watchers, on in sent if watchers]
    assert reads == [True]  # once, in the writes' round trip
    assert realtime.take_broadcast(table.pk)["spectators"] == 1
