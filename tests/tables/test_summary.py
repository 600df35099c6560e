"""The end of a game in numbers: each kit's summary, and the platform's charts at the table."""

import re

import pytest

from games.kilforth.engine import Settings
from games.kilforth.engine.bots.play import play
from games.kilforth.engine.rules.endgame import vp
from games.kilforth.kit import KIT as KILFORTH
from games.knightfall.engine import api as kf
from games.knightfall.engine.simulate import playout
from games.knightfall.kit import KIT as KNIGHTFALL
from games.tables import services
from games.tables.identity import PLAYER_ACCESS
from games.tables.models import Action, Game, Player, TableStatus


@pytest.mark.parametrize("mode", ["competitive", "cooperative"])
def test_a_kilforth_summary_adds_up_to_the_scores_and_counts_every_public_roll(mode):
    settings = Settings(edition="shadows", mode=mode, heroes=3)
    state, record = play(settings, 21, bot="heuristic", keep_history=True)
    players = {0: "Ann", 1: "Bob", 2: "Cy"}
    summary = KILFORTH.summary(state, record.history, players)
    assert [row["score"] for row in summary["rows"]] == [vp(state, s) for s in range(3)]
    for row in summary["rows"]:
        assert row["score"] == sum(value for _, value in row["parts"])
    rolls = [e for e in record.history if e["e"] == "roll" and e["vis"] == "all" and "seat" in e]
    assert sum(r["rolled"] for r in summary["luck"]) == sum(e["successes"] for e in rolls)
    dice = sum(e["dice"] for e in rolls)
    assert sum(r["expected"] for r in summary["luck"]) == pytest.approx(dice / 3, abs=0.2)
    assert all(1 <= m["phase"] <= state.day for m in summary["moments"])
    assert summary["series"] == ["Ann", "Bob", "Cy"]
    assert KILFORTH.progress(state) == (state.day, [float(vp(state, s)) for s in range(3)])


def test_a_knight_fall_summary_explains_each_teams_points_and_the_kills_that_scored():
    state = playout({"mode": "standard", "players": 4}, 5)
    history = state["log"]  # a playout keeps its whole log
    summary = KNIGHTFALL.summary(state, history, {})
    for row, team in zip(summary["rows"], ("demons", "knights"), strict=True):
        assert row["score"] == state["score"][team]
        assert row["score"] == sum(value for _, value in row["parts"])
        assert row["won"] == (state["result"]["winner"] == team)
    assert summary["luck"] == []
    assert all(1 <= m["phase"] <= state["round"] for m in summary["moments"])
    assert all("wears on" not in m["text"] for m in summary["moments"])
    assert KNIGHTFALL.progress(state) == (
        state["round"],
        [float(state["score"]["demons"]), float(state["score"]["knights"])],
    )


@pytest.mark.rule("END-2")
@pytest.mark.rule("END-3")
@pytest.mark.parametrize("mode", ["competitive", "cooperative"])
def test_a_kilforth_outcome_names_the_winners_or_says_the_team_won_or_lost(mode):
    settings = Settings(edition="gloom", mode=mode, heroes=2)
    state, _ = play(settings, 4, bot="heuristic")
    said = KILFORTH.outcome(state, {0: "Ann", 1: "Bob"})
    result = state.result
    assert said.startswith("The game is over: "), said
    if mode == "competitive":
        names = {0: "Ann", 1: "Bob"}
        winners = [names[s] for s in result["winners"]]
        verdict = " and ".join(winners) + (" wins" if len(winners) == 1 else " share the win")
        assert (verdict if winners else "Nobody wins") in said, said
    else:
        assert ("heroes win" if result["won"] else "heroes lose") in said, said
        assert "team score" in said


@pytest.mark.rule("END-5")
def test_a_kilforth_outcome_where_every_hero_fell_says_nobody_wins():
    settings = Settings(edition="gloom", mode="competitive", heroes=2)
    state, _ = play(settings, 4, bot="heuristic")
    state.result = {"reason": "all heroes eliminated", "won": False, "winners": []}
    said = KILFORTH.outcome(state, {0: "Ann", 1: "Bob"})
    assert said == "The game is over: every hero has fallen. Nobody wins.", said


@pytest.mark.rule("KEND-6")
def test_a_knight_fall_outcome_names_the_team_at_the_door_and_the_round():
    state = playout({"mode": "standard", "players": 4}, 5)
    result = state["result"]
    said = KNIGHTFALL.outcome(state, {})
    assert said.startswith(f"The game is over (round {result['round']}). The {result['winner']}")
    assert result["reason"] in said, said


@pytest.mark.django_db
def test_a_finished_game_shows_everyone_its_summary_with_charts(client):
    solo = Player.objects.create(name="Sol")
    settings = {"name": "Night", "game": "knightfall", "seat_count": 1, "visibility": "public"}
    settings |= {"bot_delay_ms": 0, "grace_seconds": 60}
    settings["options"] = {"mode": "coop", "lone_team": "demons", "locations": True}
    table = services.do_create_table(solo, settings)
    services.do_take_seat(table, solo, 0, PLAYER_ACCESS)
    services.do_start_game(table, solo)
    services.do_setup_seat(table, solo, {})
    for _ in range(3000):
        game = Game.objects.get(table=table)
        state = KNIGHTFALL.load(game.state)
        if kf.result(state) is not None:
            break
        key = kf.legal(state, 0)[0]["key"]
        services.do_act(table, solo, key, game.version)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert all(a.progress for a in Action.objects.filter(game__table=table))
    page = client.get(f"/t/{table.slug}/").content.decode()
    assert "The game in numbers" in page
    assert re.search(r'<svg class="chart"[^>]*aria-label="Points by round"', page)
    assert "Demons" in page and "Knights" in page
