"""After its first frame, a viewer of a game in play is sent only the parts that changed.

Whatever a decision changes must lie inside a part: a change outside every part (the page's
skeleton) resends the whole page (60-100 KiB to every viewer) and has the browser swap all of it,
closing what the player had open and losing the log's scroll. Played here through whole stretches
of a game, with the players away (so the host is offered a bot for whoever the game waits on).

Every render is ASCII too: a character beyond it makes the whole frame wider in memory and costs
every socket's send a conversion (games/tables/frames.py, `ascii_html`).
"""

import random

import pytest

from games.tables import kits, services
from games.tables.frames import VERSION_ATTR, Rendering, apply_frame
from games.tables.identity import PLAYER_ACCESS, SPECTATOR_ACCESS
from games.tables.models import Game, Player, Table, TableStatus
from games.tables.rendering import load_snapshot, render_table_live
from tests.knightfall.test_platform import started_duel
from tests.tables.test_game_flow import started_table

pytestmark = pytest.mark.django_db


def frames_of_a_game(table: Table, players: list[Player], decisions: int) -> dict:
    """Per viewer (the spectators, the host, another player): how many frames were whole after
    the first, and how many partial; each partial frame patches the page to the fresh render."""
    kit = kits.kit_for(table)
    rng = random.Random(table.pk)
    viewers = {
        "spectator": (None, SPECTATOR_ACCESS),
        "host": (players[0].pk, PLAYER_ACCESS),
        "player": (players[1].pk, PLAYER_ACCESS),
    }
    shown: dict[str, tuple[str, Rendering]] = {}
    counts = {name: {"whole": 0, "partial": 0, "not ascii": 0} for name in viewers}
    for _ in range(decisions):
        table.refresh_from_db()
        if table.status != TableStatus.STARTED:
            break
        snapshot = load_snapshot(table.pk)
        for name, (player_id, access) in viewers.items():
            html = render_table_live(snapshot, player_id, access)
            counts[name]["not ascii"] += not html.isascii()
            rendering = Rendering.of(html, snapshot.spectators)
            if name in shown:
                page, before = shown[name]
                frame = rendering.changed_since(before)
                if frame is None:
                    counts[name]["whole"] += 1
                else:
                    counts[name]["partial"] += 1
                    # The versions on the page's outer elements are board.js's to copy.
                    patched = VERSION_ATTR.sub("", apply_frame(page, frame))
                    assert patched == VERSION_ATTR.sub("", rendering.html)
            shown[name] = (rendering.html, rendering)
        game = Game.objects.get(table=table)
        state = kit.load(game.state)
        seat = kit.waiting_for(state)[0]
        key = kit.bot_choice(state, seat, "random", rng)
        services.do_act(table, players[seat], key, game.version)
    return counts


def test_a_kilforth_game_sends_every_viewer_only_parts_after_the_first_frame():
    table, players = started_table(names=("Ann", "Bob", "Cy", "Di"), seed=1)
    counts = frames_of_a_game(table, players, decisions=150)
    for name, seen in counts.items():
        assert seen["partial"] >= 140 and seen["whole"] == 0, (name, seen)
        assert seen["not ascii"] == 0, (name, seen)  # frames.ascii_html says why


def test_a_knight_fall_game_sends_every_viewer_only_parts_after_the_first_frame():
    table, players = started_duel()
    counts = frames_of_a_game(table, players, decisions=150)
    for name, seen in counts.items():
        assert seen["partial"] >= 100 and seen["whole"] == 0, (name, seen)
        assert seen["not ascii"] == 0, (name, seen)


def test_a_name_beyond_ascii_reaches_every_viewer_as_a_character_reference():
    table, players = started_duel()
    Player.objects.filter(pk=players[1].pk).update(name="Zo\u00eb \U0001f409")
    snapshot = load_snapshot(table.pk)
    for player_id, access in ((None, SPECTATOR_ACCESS), (players[0].pk, PLAYER_ACCESS)):
        html = render_table_live(snapshot, player_id, access)
        rendering = Rendering.of(html, snapshot.spectators)
        assert rendering.html.isascii()
        # The same text in the browser: the name's accent and its dragon, as references.
        assert "Zo&#235; &#128009;" in rendering.html
        assert html.count("Zo") == rendering.html.count("Zo&#235; &#128009;")
