"""Racing submissions, many times over, on whichever database the suite runs on."""

import threading

import pytest
from django.db import connection

from games.kilforth import adapter
from games.tables import services
from games.tables.models import Action, Game
from tests.tables.test_game_flow import current_state, started_table

RACES = 1000


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_thousand_races_between_two_seats_apply_each_decision_exactly_once():
    table, players = started_table(("Ann", "Bob"), seed=99)
    applied = 0
    errors: list[BaseException] = []
    for _ in range(RACES):
        state = current_state(table)
        if state.result is not None:
            table, players = started_table(("Ann", "Bob"), seed=applied + 100)
            state = current_state(table)
        seat = state.waiting_for[0]
        key = adapter.legal(state, seat)[0].key
        other = 1 - seat
        other_keys = [c.key for c in adapter.legal(state, other)] or [key]
        outcomes: list[str] = []
        barrier = threading.Barrier(3)

        def submit(
            player, k, table=table, version=state.version, outcomes=outcomes, barrier=barrier
        ):
            barrier.wait()
            try:
                services.do_act(table, player, k, version)
                outcomes.append("applied")
            except services.ServiceError:
                outcomes.append("refused")
            except Exception as exc:  # "database is locked", a duplicate action: never
                errors.append(exc)
            finally:
                connection.close()  # the thread ends: its connection with it (they are kept)

        threads = [
            threading.Thread(target=submit, args=(players[seat], key)),  # one tab
            threading.Thread(target=submit, args=(players[seat], key)),  # a second tab
            threading.Thread(target=submit, args=(players[other], other_keys[0])),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        assert outcomes.count("applied") == 1, outcomes
        applied += 1
    # Every game's actions are gapless: no double application, no lost update.
    for game in Game.objects.all():
        versions = list(Action.objects.filter(game=game).values_list("version", flat=True))
        assert versions == list(range(1, len(versions) + 1))
        assert adapter.load(game.state).version == len(versions)
    assert Action.objects.count() == RACES
