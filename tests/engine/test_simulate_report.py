"""Simulation reports: per-seat bots, the aggregated figures, and the JSON/CSV/PNG files."""

from __future__ import annotations

import builtins
import csv
import json
from pathlib import Path

import pytest

from games.kilforth.engine import Settings
from games.kilforth.engine.simulation import report as R
from games.kilforth.engine.simulation.simulate import simulate


def test_one_bot_level_fills_every_seat_and_a_list_gives_one_per_seat() -> None:
    assert R.seat_bots("heuristic", 3) == ["heuristic"] * 3
    assert R.seat_bots("heuristic, random", 2) == ["heuristic", "random"]
    with pytest.raises(ValueError, match="3 bot levels given for 2 seats"):
        R.seat_bots("random,random,random", 2)
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        R.seat_bots("genius", 1)


def test_the_same_bot_at_every_seat_reproduces_the_single_bot_simulation() -> None:
    settings = Settings(mode="cooperative", heroes=2)
    old = simulate(settings, 3, seed=4)
    new, outcomes = R.run(settings, 3, 4, ["random", "random"])
    assert (new.wins, new.vp_mean, new.day_mean, new.reasons) == (
        old.wins,
        old.vp_mean,
        old.day_mean,
        old.reasons,
    )
    assert [o["seed"] for o in outcomes] == [4, 5, 6]


def test_a_solo_report_has_every_figure_the_issue_asks_for() -> None:
    settings = Settings(mode="solo", heroes=1)
    seen: list[int] = []
    speed, outcomes = R.run(settings, 4, 30, ["heuristic"], progress=seen.append)
    rep = R.aggregate(outcomes, settings, ["heuristic"], 30)
    assert seen == [1] * 4 and speed.games == 4
    assert rep["games"] == 4 and 0 <= rep["win_rate"] <= 1
    assert rep["mean_vp"] == pytest.approx(speed.vp_mean, abs=1e-3)
    assert 1 <= rep["mean_day"] <= 25
    assert 0 <= rep["finale_rate"] <= 1 and 0 <= rep["ancient_defeat_rate"] <= 1
    assert sum(row["heroes"] for row in rep["chapters_per_saga"].values()) == 4
    for row in rep["chapters_per_saga"].values():
        assert 1 >= row["chapter_1"] >= row["chapter_2"] >= row["chapter_3"] >= row["chapter_4"]
    assert sum(row["heroes"] for row in rep["win_rate_by_race"].values()) == 4
    assert sum(row["heroes"] for row in rep["win_rate_by_class"].values()) == 4
    assert sum(row["games"] for row in rep["win_rate_by_ancient"].values()) == 4
    most, least = rep["cards_most_acquired"], rep["cards_least_acquired"]
    assert len(most) == len(least) == R.TOP_CARDS
    assert most[0]["games"] >= most[-1]["games"] >= least[-1]["games"] >= least[0]["games"]
    assert all(line for line in R.lines(rep))


def test_a_competitive_report_gives_each_seat_a_share_of_the_wins() -> None:
    settings = Settings(mode="competitive", heroes=3)
    bots = ["heuristic", "random", "random"]
    _, outcomes = R.run(settings, 3, 8, bots)
    rep = R.aggregate(outcomes, settings, bots, 8)
    assert "win_rate" not in rep and set(rep["win_share"]) == {"0", "1", "2"}
    assert 0 < sum(rep["win_share"].values()) <= 1 + 1e-3  # ties are shared, never counted twice
    assert [rep["per_seat"][s]["bot"] for s in "012"] == bots
    assert any("win share" in line for line in R.lines(rep))


def _report() -> dict:
    settings = Settings(mode="solo", heroes=1)
    _, outcomes = R.run(settings, 2, 40, ["random"])
    return R.aggregate(outcomes, settings, ["random"], 40)


def test_the_report_is_written_as_json_csv_and_a_png_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rep = _report()
    paths = R.write(rep, tmp_path / "out")
    assert [p.name for p in paths] == ["report.json", "report.csv", "report.png"]
    assert json.loads(paths[0].read_text()) == rep
    rows = list(csv.reader(paths[1].open()))
    assert rows[0] == ["section", "key", "metric", "value"]
    assert ["summary", "", "win_rate", str(rep["win_rate"])] in rows
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_json_and_csv_are_written_and_the_reason_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: object, **kwargs: object) -> object:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(R.ChartUnavailable, match="pip install"):
        R.write(_report(), tmp_path)
    assert (tmp_path / "report.json").exists() and (tmp_path / "report.csv").exists()
    assert not (tmp_path / "report.png").exists()


def test_the_simulate_command_takes_a_bot_per_seat_and_writes_the_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "simulate_kilforth",
        games=2,
        heroes=2,
        mode="competitive",
        bots="heuristic,random",
        report=str(tmp_path),
        no_progress=True,
        stdout=out,
    )
    text = out.getvalue()
    assert "games/s" in text and "win share" in text and "bots: heuristic, random" in text
    assert {p.name for p in tmp_path.iterdir()} == {"report.json", "report.csv", "report.png"}


def test_the_simulate_command_refuses_a_wrong_number_of_bots() -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="3 bot levels given for 2 seats"):
        call_command(
            "simulate_kilforth", games=1, heroes=2, bots="random,random,random", no_progress=True
        )
