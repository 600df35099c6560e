"""`manage.py simulate --game KEY ...`: the platform forwards to the kit's own command."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.tables import kits
from tests.tables.toy_kit import KIT as TOY


def test_simulate_forwards_every_other_argument_to_the_named_games_command() -> None:
    out = StringIO()
    call_command(
        "simulate",
        "--game",
        "kilforth",
        "--games",
        "1",
        "--heroes",
        "2",
        "--no-progress",
        stdout=out,
    )
    text = out.getvalue()
    assert "games/s" in text and "win share" in text


def test_simulate_refuses_a_game_that_is_not_offered() -> None:
    with pytest.raises(CommandError, match="No game called 'chess'"):
        call_command("simulate", "--game", "chess")


def test_simulate_refuses_a_game_without_a_simulation() -> None:
    kits.register(TOY)
    try:
        with pytest.raises(CommandError, match="has no bot-game simulation"):
            call_command("simulate", "--game", TOY.key)
    finally:
        kits.unregister(TOY.key)


def test_the_games_own_command_still_refuses_its_bad_arguments() -> None:
    with pytest.raises(CommandError, match="3 bot levels given for 2 seats"):
        call_command(
            "simulate",
            "--game",
            "kilforth",
            "--games",
            "1",
            "--heroes",
            "2",
            "--bots",
            "random,random,random",
            "--no-progress",
        )
