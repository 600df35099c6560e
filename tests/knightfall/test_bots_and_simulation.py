"""Knight Fall bots (random and heuristic, any seat) and the simulation report and command."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from games.knightfall.engine import api
from games.knightfall.engine.bots import BOTS, heuristic_bot, random_bot
from games.knightfall.engine.simulate import PLAYER_COUNTS, interval, playout, report, write

CONFIGS = [(mode, n) for mode, counts in PLAYER_COUNTS.items() for n in counts]


@pytest.mark.parametrize(("mode", "players"), CONFIGS)
def test_the_heuristic_bot_only_ever_chooses_a_legal_option(mode: str, players: int) -> None:
    chosen: list[tuple[str, list[str]]] = []

    def watched(state: dict, seat: int, options: list[dict], rnd: random.Random) -> str:
        key = heuristic_bot(state, seat, options, rnd)
        chosen.append((key, [o["key"] for o in options]))
        return key

    for seed in (3, 4):
        end = playout({"mode": mode, "players": players}, seed, watched)
        assert end["result"] is not None
    assert chosen
    assert all(key in keys for key, keys in chosen)


def test_every_seat_can_be_played_by_either_bot_in_one_game() -> None:
    end = playout({"players": 4}, 11, bots={"knights": BOTS["random"], "demons": BOTS["heuristic"]})
    assert end["result"] is not None
    # A bot can stand in for any one seat: it answers that seat's prompt with a legal key.
    s = api.new_game({"players": 2}, 5)
    seat = api.waiting_for(s)[0]
    key = heuristic_bot(s, seat, api.legal(s, seat), random.Random(1))
    assert key in {o["key"] for o in api.legal(s, seat)}


def test_heuristic_demons_beat_random_knights_more_often_than_random_demons_do() -> None:
    smart = report(8, ["standard"], [2, 4], seed=20, knights="random", demons="heuristic")
    dumb = report(8, ["standard"], [2, 4], seed=20, knights="random", demons="random")
    won = sum(r["demons_wins"] for r in smart["rows"])
    base = sum(r["demons_wins"] for r in dumb["rows"])
    assert won >= base + 6


def test_heuristic_knights_beat_random_demons_more_often_than_random_knights_do() -> None:
    smart = report(8, ["standard"], [2, 4], seed=30, knights="heuristic", demons="random")
    dumb = report(8, ["standard"], [2, 4], seed=30, knights="random", demons="random")
    assert sum(r["knights_wins"] for r in smart["rows"]) >= sum(
        r["knights_wins"] for r in dumb["rows"]
    )
    assert max(r["avg_rounds"] for r in smart["rows"]) < min(r["avg_rounds"] for r in dumb["rows"])


def test_heuristic_knights_hold_out_against_the_coop_deck_more_often_than_random_knights() -> None:
    smart = report(8, ["coop"], [1, 2], seed=40, knights="heuristic")
    dumb = report(8, ["coop"], [1, 2], seed=40, knights="random")
    won = sum(r["knights_wins"] for r in smart["rows"])
    base = sum(r["knights_wins"] for r in dumb["rows"])
    # At the normal level the co-op deck's imps overrun careless knights: random knights lose
    # most games (they fall before dawn), the heuristic knights win most.
    assert won > base
    assert won >= 10


def test_the_report_counts_every_game_once_and_its_rates_sum_to_one() -> None:
    rep = report(3, ["standard", "coop"], [1, 2, 5], seed=7, knights="random", demons="random")
    assert [(r["mode"], r["players"]) for r in rep["rows"]] == [
        ("standard", 2),
        ("standard", 5),
        ("coop", 1),
        ("coop", 2),
    ]
    for r in rep["rows"]:
        assert r["knights_wins"] + r["demons_wins"] + r["unfinished"] == r["games"] == 3
        assert r["knights_rate"] + r["demons_rate"] + r["unfinished_rate"] == pytest.approx(1.0)
        assert sum(r["end_reasons"].values()) == 3
        assert r["avg_rounds"] > 0
    assert rep["bots"] == {"knights": "random", "demons": "random"}


def test_the_same_seed_gives_the_same_report() -> None:
    a = report(2, ["standard"], [3], seed=9)
    b = report(2, ["standard"], [3], seed=9)
    strip = [{k: v for k, v in r.items() if k != "games_per_second"} for r in a["rows"]]
    assert strip == [{k: v for k, v in r.items() if k != "games_per_second"} for r in b["rows"]]


def test_an_unknown_bot_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        report(1, ["standard"], [2], knights="clever")


def test_the_writers_produce_json_csv_and_a_png_chart(tmp_path: Path) -> None:
    rep = report(2, ["standard"], [2, 3], seed=5, knights="random", demons="random")
    paths = write(rep, tmp_path / "out")
    assert [p.name for p in paths] == ["report.json", "report.csv", "report.png"]
    assert json.loads(paths[0].read_text())["rows"] == rep["rows"]
    rows = list(csv.reader(paths[1].open()))
    assert rows[0][:3] == ["mode", "players", "games"] and len(rows) == 3
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_plays_a_couple_of_games_and_writes_its_report(tmp_path: Path) -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "simulate_knightfall",
        "--games=2",
        "--players=2",
        "--mode=standard",
        "--knights=heuristic",
        "--demons=random",
        "--no-progress",
        f"--report={tmp_path}",
        stdout=out,
    )
    text = out.getvalue()
    assert "standard 2p: knights" in text and "games/s" in text
    assert {p.name for p in tmp_path.iterdir()} == {"report.json", "report.csv", "report.png"}
    assert json.loads((tmp_path / "report.json").read_text())["rows"][0]["games"] == 2


def test_the_random_bot_is_kept_and_picks_any_legal_option() -> None:
    s = api.new_game({"players": 3}, 2)
    seat = api.waiting_for(s)[0]
    keys = {o["key"] for o in api.legal(s, seat)}
    picks = {random_bot(s, seat, api.legal(s, seat), random.Random(i)) for i in range(40)}
    assert picks <= keys and len(picks) > 1


def test_the_report_gives_a_95_percent_interval_around_each_win_rate() -> None:
    assert interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    low, high = interval(0, 20)
    assert low == 0.0 and 0.15 < high < 0.17
    rep = report(2, ["standard"], [2], seed=5)
    row = rep["rows"][0]
    assert row["knights_ci95"][0] <= row["knights_rate"] <= row["knights_ci95"][1]
