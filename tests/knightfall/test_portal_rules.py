"""The Veil Strider's portals: original content for the "Phase Knight's portals" of KDEATH-7.

The Veil Strider's magic ability opens a portal on its tile (at most 2 stay open; a third closes
the oldest) and then moves it up to 2; on one of its portals it may step through to the other
as one step of a move; portals stay when the Veil Strider falls (KDEATH-7), and the knight who
takes its slot may use them.
"""

from __future__ import annotations

import pytest

from games.knightfall import board
from games.knightfall.engine import api
from games.knightfall.engine.board import CENTRE
from games.knightfall.engine.turns import make_character

from .rig import at, bare, become, chars, events, keys, pick, plain, run_steps


def _strider():
    s = bare(locations=False)
    ks = [plain(s, k["id"])["id"] for k in chars(s, "knights")]
    ds = [plain(s, d["id"])["id"] for d in chars(s, "demons")]
    become(s, ks[0], "veil_strider")
    return s, ks, ds


def _open(s: dict, uid: str, tile: int) -> dict:
    """The Veil Strider uses its magic on `tile` and stays put."""
    at(s, uid, tile)
    s["turn"]["unit"] = uid
    s = run_steps(s, {"k": "gain_magic", "n": 2, "src": uid})
    return pick(s, "stay")


@pytest.mark.rule("KMAGIC-2", "KDEATH-7")
def test_the_veil_striders_magic_opens_a_portal_on_its_tile_then_moves_it() -> None:
    s, (k, *_), _ = _strider()
    at(s, k, 0)
    s["turn"]["unit"] = k
    s = run_steps(s, {"k": "gain_magic", "n": 2, "src": k})
    assert [e["tile"] for e in s["effects"] if e["kind"] == "portal"] == [0]
    assert events(s, "portal")
    assert s["prompt"]["kind"] == "move" and "move:1" in keys(s)


@pytest.mark.rule("KDEATH-7", "KACT-4")
def test_the_veil_strider_steps_through_to_its_other_portal_as_one_step() -> None:
    s, (k, *_), _ = _strider()
    s = _open(s, k, 0)
    s = _open(s, k, 8)
    s = run_steps(s, {"k": "step", "n": 1, "src": k})
    assert "move:portal:0" in keys(s)
    s = pick(s, "move:portal:0")
    assert s["units"][k]["tile"] == 0  # two tiles apart, reached with a single step
    assert s["prompt"] is None or s["prompt"]["kind"] != "move"  # the one step is spent
    assert events(s, "through_portal")


@pytest.mark.rule("KDEATH-7")
def test_another_knight_or_a_demon_cannot_use_the_portals_and_one_leads_nowhere() -> None:
    s, (k, k2, *_), (d, *_) = _strider()
    s = _open(s, k, 0)
    s = run_steps(s, {"k": "step", "n": 1, "src": k})
    assert not any(x.startswith("move:portal") for x in keys(s))
    s = _open(s, k, 8)
    for other in (k2, d):
        at(s, other, 0)
        s2 = run_steps(s, {"k": "step", "n": 1, "src": other})
        assert not any(x.startswith("move:portal") for x in keys(s2)), other


@pytest.mark.rule("KDEATH-7")
def test_a_third_portal_closes_the_oldest_and_a_second_on_the_same_tile_does_nothing() -> None:
    s, (k, *_), _ = _strider()
    s = _open(s, k, 0)
    s = _open(s, k, 0)
    assert [e["tile"] for e in s["effects"]] == [0] and events(s, "portal_there")
    s = _open(s, k, 2)
    s = _open(s, k, 8)
    assert [e["tile"] for e in s["effects"]] == [2, 8] and events(s, "portal_closed")


@pytest.mark.rule("KDEATH-7")
def test_portals_stay_when_the_veil_strider_falls_and_its_replacement_uses_them() -> None:
    s, (k, *_), _ = _strider()
    s = _open(s, k, 0)
    s = _open(s, k, 8)
    seat, slot = s["units"][k]["seat"], s["units"][k]["slot"]
    s["turn"]["unit"] = None
    s = run_steps(s, {"k": "hit", "target": k, "n": 99, "attack": False})
    assert k not in s["units"] or s["units"][k]["tile"] is None
    assert [e["tile"] for e in s["effects"]] == [0, 8]
    heir = make_character(s, "iron_deacon", seat, slot, False)
    at(s, heir["id"], 8)
    s = pick(run_steps(s, {"k": "step", "n": 1, "src": heir["id"]}), "move:portal:0")
    assert s["units"][heir["id"]]["tile"] == 0


@pytest.mark.rule("KDEATH-7")
def test_the_board_marks_a_portal_tile_and_explains_it_in_the_tiles_popover() -> None:
    s, (k, *_), _ = _strider()
    s = _open(s, k, CENTRE)
    html = board.render(api.view(s, None), None, {}, set())
    tile = html.split(f'id="kf-tile-{CENTRE}"', 1)[1].split('<ul class="kf-units">', 1)[0]
    assert "kf-has-portal" in html.split(f'id="kf-tile-{CENTRE}"', 1)[0].rsplit("<li", 1)[1]
    assert "with a portal" in tile and "step through to its other portal" in tile
    other = html.split('id="kf-tile-0"', 1)[1].split('<ul class="kf-units">', 1)[0]
    assert "portal" not in other
