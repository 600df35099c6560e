"""Whatever arrives on a table socket, the socket answers and stays usable, and nothing changes:
no presence row is left behind, no seat moves, the table's version stays (Hypothesis)."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.tables.identity import SPECTATOR_ACCESS
from games.tables.models import Connection, Player, Seat, Table
from tests.tables.helpers import open_table, receive_until, session_for, socket

pytestmark = pytest.mark.django_db(transaction=True)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
actions = st.sampled_from(["act", "take_seat", "leave_seat", "chat", "resync", "x", "", None])
messages = st.one_of(
    st.builds(
        lambda action, extra: json.dumps({"action": action, **extra}),
        actions,
        st.dictionaries(st.sampled_from(["seat", "version", "key", "text"]), json_values),
    ),
    json_values.map(json.dumps),
    st.binary(min_size=1, max_size=200),
    st.text(min_size=1, max_size=200),
    # What a black-box probe found crashing the consumer, among the rest.
    st.sampled_from(
        [
            '{"action": "take_seat", "seat": Infinity}',
            '{"action": "act", "key": "k", "version": 1e400}',
            '{"action": "act", "key": "k", "version": -Infinity}',
            "[" * 10_000,
        ]
    ),
)


@pytest.fixture
def watched_table():
    host = Player.objects.create(name="Hal")
    table = open_table(host, seat_count=2)
    Seat.objects.filter(table=table, number=0).update(player=host)
    wes = Player.objects.create(name="Wes")
    return table, session_for(wes, table, SPECTATOR_ACCESS)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(messages, min_size=1, max_size=4))
def test_arbitrary_frames_leave_the_socket_usable_and_change_nothing(watched_table, frames):
    table, session = watched_table
    before = (Table.objects.get(pk=table.pk).version, list(Seat.objects.values_list("player_id")))

    async def talk() -> None:
        sock = socket(f"/ws/t/{table.slug}/", session)
        assert (await sock.connect())[0]
        await receive_until(sock, 'id="table-live"')
        for frame in frames:
            if isinstance(frame, bytes):
                await sock.send_to(bytes_data=frame)
            else:
                await sock.send_to(text_data=frame)
        # Still usable: a resync brings the whole table back.
        await sock.send_to(text_data=json.dumps({"action": "resync"}))
        await receive_until(sock, 'id="table-live"', wait=5)
        await sock.disconnect()

    async_to_sync(talk)()
    after = (Table.objects.get(pk=table.pk).version, list(Seat.objects.values_list("player_id")))
    # A chat line may be written by the spectator; nothing else about the table may change.
    assert after[1] == before[1]
    assert after[0] == before[0]
    assert async_to_sync(database_sync_to_async(Connection.objects.count))() == 0
