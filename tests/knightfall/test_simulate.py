"""The Knight Fall simulation report: win rates by side per mode and player count."""

from __future__ import annotations

import pytest

from games.knightfall.engine.simulate import CONFIGS, lines, report


def test_the_report_gives_win_rates_by_side_for_every_mode_and_player_count() -> None:
    rep = report(1, seed=3, bot="random")
    assert [(r["mode"], r["players"]) for r in rep["rows"]] == list(CONFIGS)
    for r in rep["rows"]:
        assert sum(r["wins"].values()) == 1
        assert sum(r["win_rate"].values()) == pytest.approx(1.0)
    assert set(rep["by_mode"]) == {"standard", "coop"}
    assert rep["by_mode"]["standard"]["games"] == 5 and rep["by_mode"]["coop"]["games"] == 3
    assert len(lines(rep)) == 1 + len(CONFIGS) + 2


def test_the_same_seed_gives_the_same_report_and_options_reach_every_game() -> None:
    a = report(2, seed=5, configs=[("coop", 1)], settings={"door": 3})
    b = report(2, seed=5, configs=[("coop", 1)], settings={"door": 3})
    assert a == b and a["rows"][0]["rounds_mean"] <= 3


def test_an_unknown_bot_or_no_games_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        report(1, bot="genius")
    with pytest.raises(ValueError, match="at least 1 game"):
        report(0)
