"""A heuristic bot: a sensible player that reads only what its seat may know.

It sees the game through `view(state, seat)` (its own hand and loot, the public board, the
prompt put to it) and the public card data in `content()`; it never looks at deck order, other
hands or the engine's queue. Every decision is a score over the legal choices:

* the turn: assault the ancient when the dice odds are good, complete chapters, attempt the
  finale or an interlude at its location, overcome weaknesses, discover rumours, rest or heal
  when low, use the market, confront encounters bearing the keywords the saga needs, fight only
  enemies it is likely to beat, otherwise walk towards the most valuable location;
* every mid-action prompt (reveal or evade, fight on or escape, fate, loot/rumour steps, trophy,
  keyword payment, discards, market, card choices) has its own rule;
* an unknown prompt kind gets a safe default; any internal error falls back to a legal key.

Fight odds come from an exact Markov chain over (foe HP, hero HP) with binomial dice (successes
on 5-6, or 4-6 on the easier setting). The bot's own `random.Random` only breaks ties, so its
play is deterministic given that generator.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from math import comb

from games.kilforth.engine.api import Choice
from games.kilforth.engine.cards.catalogue import ATTRS, REWARD_DECKS, content
from games.kilforth.engine.rules.position import neighbours
from games.kilforth.engine.state import State
from games.kilforth.engine.view import view

STRICT = False  # tests set this to surface internal errors instead of falling back
# The verbs of tests at the hero's location, which a co-op teammate helps with (+1 die).
TEST_VERBS = ("confront", "clear_plot", "regale", "assault")


# --------------------------------------------------------------------------- public card data


def _card(cid: str) -> dict:
    return content().cards.get(cid, {})


def _keywords(cid: str) -> list[str]:
    """SAGA-3: a card's keywords plus its reward deck or encounter type."""
    c = _card(cid)
    kws = [k.lstrip("*") for k in c.get("keywords", [])]
    if c.get("kind") == "reward":
        kws.append(c["deck"])
    elif c.get("kind") in ("encounter", "night") and c.get("type") != "weather":
        kws.append(c["type"])
    return kws


# --------------------------------------------------------------------------- dice odds


@lru_cache(maxsize=4096)
def _binom(n: int, p: float) -> tuple[float, ...]:
    n = max(0, n)
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def p_at_least(dice: int, need: int, p: float) -> float:
    """Probability that `dice` dice give at least `need` successes."""
    if need <= 0:
        return 1.0
    return sum(_binom(dice, p)[need:])


@lru_cache(maxsize=65536)
def p_win_battle(hero_dice: int, foe_dice: int, foe_hp: int, hero_hp: int, p: float) -> float:
    """Probability that a hero fighting to the end reduces the foe to 0 HP before falling.

    Each round both sides roll at once; the foe-defeated check comes first (a double knock-out
    counts as half a win: the reward is claimed but the hero is defeated too).
    """
    if foe_hp <= 0:
        return 1.0
    if hero_hp <= 0 or hero_dice <= 0:
        return 0.0
    if foe_dice <= 0:
        return 1.0
    hb, fb = _binom(hero_dice, p), _binom(foe_dice, p)
    stay = hb[0] * fb[0]
    if stay >= 1.0:
        return 0.0
    total = 0.0
    for a, pa in enumerate(hb):
        for b, pb in enumerate(fb):
            if a == 0 and b == 0:
                continue
            pr = pa * pb
            f, h = foe_hp - a, hero_hp - b
            if f <= 0:
                total += pr * (1.0 if h > 0 else 0.5)
            elif h > 0:
                total += pr * p_win_battle(hero_dice, foe_dice, f, h, p)
    return total / (1 - stay)


def p_win_first(
    hero_dice: int, foe_dice: int, foe_hp: int, hero_hp: int, p: float, surprise: str | None
) -> float:
    """Like p_win_battle, with one surprise die for one side in the first round (ENG-7)."""
    if surprise not in ("hero", "foe"):
        return p_win_battle(hero_dice, foe_dice, foe_hp, hero_hp, p)
    hd = hero_dice + (surprise == "hero")
    fd = foe_dice + (surprise == "foe")
    if hd <= 0:
        return 0.0
    total = 0.0
    for a, pa in enumerate(_binom(hd, p)):
        for b, pb in enumerate(_binom(fd, p)):
            f, h = foe_hp - a, hero_hp - b
            if f <= 0:
                total += pa * pb * (1.0 if h > 0 else 0.5)
            elif h > 0:
                total += pa * pb * p_win_battle(hero_dice, foe_dice, f, h, p)
    return total


# --------------------------------------------------------------------------- the bot's picture


class Mind:
    """What the seat knows right now, with the derived numbers every rule needs."""

    def __init__(self, state: State, seat: int, choices: list[Choice]) -> None:
        self.seat = seat
        self.choices = choices
        self.v = view(state, seat)
        v = self.v
        self.me = v["heroes"][seat]
        self.mode = v["mode"]
        self.edition = v["edition"]
        self.n_heroes = len(v["heroes"])
        self.day = v["day"]
        self.map = v["map"]
        self.p = 0.5 if state.settings.get("difficulty") == "easier" else 1 / 3
        self.loc = self.me["loc"]
        self.hand: list[str] = list(self.me.get("hand", []))
        self.assets: list[str] = list(self.me["assets"])
        self.loot: list[str] = list(self.me.get("loot", []))
        self.dist = self._bfs(self.loc)
        self.need, self.next_need = self._needs()

    # -- attributes ------------------------------------------------------------------------
    def attr(self, a: str, seat: int | None = None) -> int:
        h = self.me if seat is None else self.v["heroes"][seat]
        race = _card(h["race"])
        val = race.get(a, 0)
        if h.get("female") and a in race.get("female_attrs", {}):
            val = race["female_attrs"][a]
        val += _card(h["class"]).get(a, 0)
        for cid in list(h["assets"]) + list(h["skills"]):
            if cid not in h["veiled"]:
                val += _card(cid).get("bonus", {}).get(a, 0)
        if self.v.get("weather"):
            val += _card(self.v["weather"]).get("mods", {}).get(a, 0)
        return max(0, val)

    # -- saga ------------------------------------------------------------------------------
    def stage(self, chapter: int | None = None) -> dict | None:
        ch = self.me["chapter"] if chapter is None else chapter
        saga = _card(self.me["saga"])
        if 1 <= ch <= 4 and saga.get("chapters"):
            return saga["chapters"][ch - 1]
        return None

    def is_interlude(self, chapter: int | None = None) -> bool:
        st = self.stage(chapter)
        return bool(st and self.edition == "shadows" and "interlude" in st)

    def chapter_kws(self, chapter: int | None = None) -> list[str]:
        st = self.stage(chapter) or {}
        if self.is_interlude(chapter):
            kws = list(st["interlude"].get("keywords", []))
            return kws if self.n_heroes <= 2 else []
        kws = list(st.get("keywords", []))
        if self.n_heroes <= 2:
            kws += st.get("solo_keywords", [])
        return kws

    def _missing(self, kws: list[str], cards: list[str]) -> list[str]:
        """Keywords no distinct card can pay (greedy on the rarest keyword first)."""
        free = list(cards)
        missing = []
        order = sorted(kws, key=lambda k: sum(k in _keywords(c) for c in free))
        for kw in order:
            best = None
            for c in free:
                if kw in _keywords(c):
                    if best is None or len(_keywords(c)) < len(_keywords(best)):
                        best = c
            if best is None:
                missing.append(kw)
            else:
                free.remove(best)
        return missing

    def _needs(self) -> tuple[dict[str, float], dict[str, float]]:
        ch = self.me["chapter"]
        need: dict[str, float] = {}
        for kw in self._missing(self.chapter_kws(), self.hand + self.assets):
            need[kw] = need.get(kw, 0) + 1
        nxt: dict[str, float] = {}
        if ch + 1 <= 4:
            for kw in self.chapter_kws(ch + 1):
                nxt[kw] = nxt.get(kw, 0) + 1
        return need, nxt

    def kw_value(self, cid: str) -> float:
        """How much a card helps the saga now (3) and next (1)."""
        val = 0.0
        for kw in _keywords(cid):
            if kw in self.need:
                val += 3
            elif kw in self.next_need:
                val += 1
        return val

    def payable_now(self) -> bool:
        return not self._missing(self.chapter_kws(), self.hand + self.assets)

    def card_value(self, cid: str) -> float:
        """Rough worth of holding a card: saga keywords, bonuses, gold value."""
        c = _card(cid)
        bonus = c.get("bonus", {})
        val = self.kw_value(cid) * 2 + c.get("gold", 0) * 0.5
        val += 1.5 * bonus.get("fight", 0) + sum(bonus.values())
        if c.get("reroll"):
            val += 1.5
        if c.get("where") and cid in self.hand:
            loc = self.loc_of(c["where"])
            if loc is not None:
                val += 2 - 0.2 * self.dist.get(loc, 8)
        return val

    # -- board -----------------------------------------------------------------------------
    def loc_of(self, where: list[str]) -> int | None:
        for i, m in enumerate(self.map):
            if m["id"] in where:
                return i
        return None

    def destinations(self, i: int) -> list[int]:
        # The grid is public geometry; shortcuts are read from the public view's map.
        out = neighbours(i)
        sym = self.map[i].get("symbol")
        if sym:
            for j, m in enumerate(self.map):
                if j != i and j not in out and m.get("symbol") == sym:
                    out.append(j)
        return out

    def _bfs(self, start: int) -> dict[int, int]:
        dist = {start: 0}
        q = deque([start])
        while q:
            i = q.popleft()
            for j in self.destinations(i):
                if j not in dist:
                    dist[j] = dist[i] + 1
                    q.append(j)
        return dist

    def enemies_at(self, i: int) -> list[dict]:
        return [
            e
            for e in self.map[i]["encounters"]
            if e["type"] == "enemy" or (e["type"] == "stranger" and self.seat in e["enemies"])
        ]

    def foe_stats(self, cid: str) -> tuple[int, int, int]:
        c = _card(cid)
        return c.get("fight", 0), max(1, c.get("health", 0) or 1), c.get("gold", 0)

    def win_odds(self, cid: str, surprise: str | None = None, foe_hp: int | None = None) -> float:
        fight, health, _ = self.foe_stats(cid)
        hp = foe_hp if foe_hp is not None else health
        return p_win_first(self.attr("fight"), fight, hp, self.me["hp"], self.p, surprise)

    def ancient_here(self) -> dict | None:
        for a in self.v["ancients"]:
            if a.get("in_play") and not a.get("defeated") and a.get("loc") == self.loc:
                return a
        return None

    def ancient_numbers(self, anc: dict) -> tuple[int, int]:
        """(health left, fight) once every unresolved plot of it has joined it (ANC-3)."""
        c = _card(anc["id"])
        ab = c.get("abilities", {})
        health = c.get("health", 0) + ab.get("health", 0)
        fight = c.get("fight", 0) + ab.get("fight", 0)
        plots = list(anc.get("plots", []))
        for m in self.map:
            plots += [p for p in m["plots"] if _card(p).get("ancient") == anc["id"]]
        for p in plots:
            pab = _card(p).get("ability", {})
            health += pab.get("health", 0)
            fight += pab.get("fight", 0)
        return health - anc.get("damage", 0), fight

    def last_event(self, name: str) -> dict | None:
        for e in reversed(self.v["log"]):
            if e.get("e") == name:
                return e
        return None


# --------------------------------------------------------------------------- step values


def steps_value(m: Mind, steps: list, depth: int = 0) -> float:
    """What a list of card steps is worth to this hero (positive = good)."""
    if depth > 4 or not isinstance(steps, list):
        return 0.0
    hp, max_hp = m.me["hp"], m.me["max_hp"]
    val = 0.0
    for s in steps:
        if not isinstance(s, dict):
            continue
        k, n = s.get("k"), s.get("n", 1) or 1
        if k == "gain_gold":
            val += n
        elif k == "lose_gold":
            val -= min(n, m.me["gold"]) + 0.2
        elif k == "gain_hp":
            val += 1.5 * min(n, max_hp - hp)
        elif k == "lose_hp":
            val -= 2.5 * n + (20 if n >= hp else 0)
        elif k == "lose_ap":
            val -= 1.2 * min(n, m.me["ap"])
        elif k == "gain_fate":
            val += 0.7 * n
        elif k == "draw_loot":
            val += 1.5
        elif k == "draw_reward":
            val += 2.5 + (2 if s.get("deck") in m.need else 0)
        elif k == "place_obstacle":
            val -= 1
        elif k == "move_to_centre":
            val -= 1.5
        elif k == "each_hero":
            val += steps_value(m, s.get("steps", []), depth + 1)
        elif k == "test_gate":
            need = s.get("need", 1)
            pr = p_at_least(m.attr(s.get("attr", "fight")), need, m.p)
            val += pr * steps_value(m, s.get("pass", []), depth + 1)
            val += (1 - pr) * steps_value(m, s.get("fail", []), depth + 1)
        elif k == "choose":
            opts = [steps_value(m, o.get("steps", []), depth + 1) for o in s.get("options", [])]
            val += max(opts) if opts else 0
    return val


# --------------------------------------------------------------------------- turn scoring


def _confront_score(m: Mind, cid: str, attr: str) -> float:
    c = _card(cid)
    need = c.get(attr, 0)
    have = 0
    for e in m.map[m.loc]["encounters"]:
        if e["id"] == cid:
            prog = e["progress"].get(str(m.seat))
            have = prog["n"] if prog else 0
    dice = m.attr(attr)
    if dice <= 0:
        return -50
    left = max(1, need - have)
    per = dice * m.p
    expected_actions = left / per
    ap = m.me["ap"]
    if expected_actions > ap + 0.5 and have == 0:
        return -5
    reward = 6 + 6 * max(m.kw_value(cid), _deck_need(m, c.get("type", ""))) + c.get("gold", 0)
    score = 30 + reward - 6 * expected_actions
    if c.get("type") == "stranger" and have == 0:
        p_zero = _binom(dice, m.p)[0]
        lose = 1 - m.win_odds(cid)
        score -= 40 * p_zero * lose
    return score


def _deck_need(m: Mind, enc_type: str) -> float:
    deck = {"enemy": "item", "place": "title", "quest": "spell", "stranger": "ally"}.get(enc_type)
    return 1.0 if deck and deck in m.need else 0.0


def _fight_reward(m: Mind, cid: str) -> float:
    c = _card(cid)
    return 8 + c.get("gold", 0) + 5 * max(m.kw_value(cid), _deck_need(m, c.get("type", "")))


def _location_value(m: Mind, i: int) -> float:
    """How much the hero wants to be at location i (before distance)."""
    loc = m.map[i]
    me = m.me
    val = 0.0
    ch = me["chapter"]
    # Rumours to discover here.
    for cid in m.hand:
        if loc["id"] in _card(cid).get("where", []):
            val += 25
    # Finale, interlude, ancient.
    saga = _card(me["saga"])
    if ch == 5 and loc["id"] in saga.get("finale", {}).get("where", []):
        val += 70
    if m.is_interlude():
        il = m.stage()["interlude"]
        if loc["id"] in il.get("where", []):
            val += 60 if me["gold"] >= 5 and m.payable_now() else 8
    for a in m.v["ancients"]:
        if a.get("in_play") and not a.get("defeated") and a.get("loc") == i and _assault_ready(m):
            val += 90
    # Encounters.
    for e in loc["encounters"]:
        cid = e["id"]
        c = _card(cid)
        if e in m.enemies_at(i):
            pw = m.win_odds(cid)
            val += pw * _fight_reward(m, cid) - (1 - pw) * (25 + me["gold"])
        elif c.get("type") in ("place", "quest", "stranger"):
            attrs = ["influence"] if c["type"] == "stranger" else [a for a in ATTRS if c.get(a)]
            best = 0.0
            for a in attrs:
                dice = m.attr(a)
                if dice and c.get(a, 0) / (dice * m.p) <= max(2.5, me["ap"] - 1):
                    best = max(best, 12 + 8 * m.kw_value(cid) + c.get("gold", 0))
            val += best
            if loc["obstacles"]:
                val -= 6
        if c.get("weakness") and c["weakness"] in _my_kws(m):
            val += 20
    # Plots once the ancient is near: each one cleared is one health or fight die less.
    if ch >= 3:
        for pid in loc["plots"]:
            pc = _card(pid)
            pr = p_at_least(m.attr(pc.get("attr", "fight")), pc.get("need", 9), m.p)
            val += (40 if ch >= 5 else 20) * pr
    # Market.
    if loc.get("market"):
        if me["hp"] <= me["max_hp"] - 2 and me["gold"] >= 2:
            val += 30
        if me["gold"] >= _reserve(m) + 4:
            val += 18
    # Unexplored locations draw an encounter on arrival (an enemy with surprise, perhaps).
    if not loc["encounters"] and loc["terrain"] != "none" and not loc["obstacles"]:
        val += 12 - _arrival_danger(m, loc["terrain"]) * (30 + me["gold"])
    # Gloom hurts at night: a low hero must not stay there.
    if loc["gloom"]:
        gv = loc.get("gloom_value", 1)
        val -= 4 * gv + (25 * gv if me["hp"] <= gv + 1 else 0)
    return val


@lru_cache(maxsize=4096)
def _terrain_enemies(terrain: str) -> tuple[tuple[int, int], ...]:
    """(fight, health) of each enemy in a terrain's encounter cards, plus one entry per other
    card as (0, 0) so the tuple's length is the deck's size (public card data)."""
    out = []
    for cid in content().by_kind["encounter"]:
        c = _card(cid)
        if c.get("terrain") != terrain:
            continue
        out.append((c["fight"], max(1, c["health"])) if c["type"] == "enemy" else (0, 0))
    return tuple(out)


def _arrival_danger(m: Mind, terrain: str) -> float:
    """Chance that arriving here draws an enemy that beats this hero (it has surprise)."""
    cards = _terrain_enemies(terrain)
    if not cards:
        return 0.0
    fight, hp = m.attr("fight"), m.me["hp"]
    lose = 0.0
    for f, health in cards:
        if health:
            lose += 1 - p_win_first(fight, f, health, hp, m.p, "foe")
    return lose / len(cards)


def _my_kws(m: Mind) -> set[str]:
    out: set[str] = set()
    for cid in m.assets + list(m.me["skills"]):
        if cid not in m.me["veiled"]:
            out.update(k.lstrip("*") for k in _card(cid).get("keywords", []))
    return out


def _reserve(m: Mind) -> int:
    """Gold kept for the next chapter (5, or 0 once the chapters are done)."""
    return 5 if m.me["chapter"] <= 4 else 0


def _assault_ready(m: Mind) -> bool:
    if m.me["chapter"] < 6:
        return False
    if m.mode != "competitive":
        return all(h["chapter"] >= 6 for h in m.v["heroes"] if not h["eliminated"])
    return True


def _assault_score(m: Mind) -> float:
    anc = m.ancient_here()
    if anc is None:
        return -100
    health, fight = m.ancient_numbers(anc)
    pw = p_win_battle(m.attr("fight"), fight, health, m.me["hp"], m.p)
    days_left = 25 - m.day
    if m.mode == "competitive":
        # A lost assault eliminates the hero (VP 0): only with good odds, or late and level.
        ok = pw >= 0.55 or (days_left <= 1 and pw >= 0.35)
        return 100 + pw if ok else -10
    # Solo and co-op: without the ancient slain the game is lost anyway, so the bar falls as
    # the days run out; before that, heal and clear plots first.
    if m.me["hp"] < m.me["max_hp"] and days_left > 1 and pw < 0.7:
        return -10
    need = 0.6 if days_left > 6 else (0.35 if days_left > 2 else 0.0)
    if days_left <= 0 or (pw >= need and pw > 0.001) or days_left <= 1:
        return 100 + pw
    return -10


def _move_scores(m: Mind) -> dict[int, float]:
    """Score of stepping to each neighbour: the best value reachable along shortest paths."""
    values = {i: _location_value(m, i) for i in range(len(m.map)) if i != m.loc}
    out: dict[int, float] = {}
    for j in m.destinations(m.loc):
        dj = m._bfs(j)
        best = -1e9
        for i, val in values.items():
            if i not in dj:
                continue
            # The step is worth taking if it brings i one step nearer than from here.
            if dj[i] + 1 > m.dist.get(i, 99) and i != j:
                continue
            best = max(best, val / (1 + 0.7 * dj[i]))
        # The location stepped into matters on its own: enemies there are engaged at once.
        for e in m.enemies_at(j):
            pw = m.win_odds(e["id"])
            if pw < 0.65:
                best -= 40 * (1 - pw)
        if m.map[j]["gloom"] and m.me["ap"] <= 1:
            best -= 6 * m.map[j].get("gloom_value", 1)
        out[j] = best
    return out


def _resolve_score(m: Mind, cid: str) -> float:
    c = _card(cid)
    val = steps_value(m, c.get("deed", []))
    if val <= 0:
        return -20
    if c.get("kind") == "loot":
        return 20 + val * 5
    if c.get("veil") or c.get("kind") == "skill":
        return 20 + val * 5
    # A single-use asset: only when it really helps (low HP).
    if m.me["hp"] <= 1 and any(s.get("k") == "gain_hp" for s in c.get("deed", [])):
        return 70
    return -20


def _turn_scores(m: Mind) -> dict[str, float]:
    me = m.me
    scores: dict[str, float] = {}
    verbs: dict[str, str] = {}
    hp, max_hp, ap = me["hp"], me["max_hp"], me["ap"]
    move_scores: dict[int, float] | None = None
    anc = m.ancient_here()
    # Ready to assault but something here is in the way: clear it.
    at_ancient = anc is not None and _assault_ready(m)
    for ch in m.choices:
        d = ch.data
        verb = verbs[ch.key] = _verb(ch)
        s = -30.0
        if verb == "assault":
            s = _assault_score(m)
        elif verb == "regale":
            # Completing a chapter is sure; an interlude or the finale is an attempt, worth it
            # unless the dice cannot get there today.
            s = 95 if d["stage"] == "chapter" else 80
        elif verb == "overcome":
            s = 88
        elif verb == "discover":
            s = 72 + m.kw_value(d["card"])
        elif verb == "resolve":
            s = _resolve_score(m, d["card"])
        elif verb == "rest":
            s = 20 + 12 * (max_hp - hp)
            if hp <= 2:
                s += 35
            gv = m.map[m.loc].get("gloom_value", 1) if m.map[m.loc]["gloom"] else 0
            if gv and ap <= gv + 1:
                s = 5  # the night here takes it all back: better move off the gloom
        elif verb == "market":
            s = -5
            if hp <= max_hp - 1 and me["gold"] >= 1 and (hp <= 2 or me["gold"] > _reserve(m)):
                s = 45 + 5 * (max_hp - hp)
            if me["gold"] >= _reserve(m) + 3:
                s = max(s, 50)
        elif verb == "confront":
            s = _confront_score(m, d["card"], d["attr"])
            if at_ancient:
                s = max(s + 40, 65)
        elif verb == "make_enemy":
            cid = d["card"]
            pw = m.win_odds(cid)
            s = 20 + pw * (_fight_reward(m, cid) + 8) - (1 - pw) * (40 + me["gold"])
            if at_ancient:
                s += 30
        elif verb == "clear_plot":
            pr = p_at_least(m.attr(d["attr"]), d["need"], m.p)
            s = (25 if me["chapter"] >= 3 else 10) + (55 if me["chapter"] >= 5 else 35) * pr
        elif verb == "clear_obstacle":
            # An obstacle blocks confronting here (and the assault): worth it if here matters.
            s = 2 + 0.6 * max(0.0, _location_value(m, m.loc))
            if at_ancient:
                s = max(s, 70)
        elif verb == "search":
            s = 26 if hp >= 3 else 5
        elif verb == "hide":
            s = -5
        elif verb == "move":
            if move_scores is None:
                move_scores = _move_scores(m)
            j = d["loc"]
            s = min(60.0, move_scores.get(j, -1e9))
            here = m.map[m.loc]
            if here["gloom"]:
                # NIGHT-1: the night costs gloom-value HP here (defeat at 0): get off in time.
                gv = here.get("gloom_value", 1)
                there = m.map[j]
                if not there["gloom"] and not m.enemies_at(j):
                    safe = there["terrain"] == "none" or bool(there["encounters"])
                    if hp <= gv:
                        s = max(s, 92 + 2 * safe)
                    elif ap <= 1:
                        s = max(s, 40 + 2 * safe)
        elif verb == "camp":
            s = 0
            if m.map[m.loc]["gloom"] and ap >= 1:
                s -= 3 * m.map[m.loc].get("gloom_value", 1)
                if hp <= m.map[m.loc].get("gloom_value", 1):
                    s -= 60
        elif verb == "unhide":
            s = 1
        elif verb in ("team", "give", "trade"):
            s = -10
        scores[ch.key] = s
    # Co-op: before a test here, ask a companion to team up (+1 die).
    if m.mode == "cooperative":
        best_key = max(scores, key=lambda k: scores[k]) if scores else ""
        if verbs.get(best_key) in TEST_VERBS and scores[best_key] > 0:
            for ch in _with(m.choices, "team"):
                if m.v["heroes"][ch.data["target"]]["hp"] >= 2:
                    scores[ch.key] = scores[best_key] + 1
                    break
    return scores


# --------------------------------------------------------------------------- prompt rules


def _verb(c: Choice) -> str:
    """The choice's verb (`Choice.data["verb"]`; "" for a choice without one)."""
    v = c.data.get("verb")
    return v if isinstance(v, str) else ""


def _with(choices: list[Choice], *verbs: str) -> list[Choice]:
    """The choices whose verb is one of `verbs`, in the order offered."""
    return [c for c in choices if _verb(c) in verbs]


def _first(choices: list[Choice], *verbs: str) -> str | None:
    """The key of the first choice with one of `verbs`, or None."""
    found = _with(choices, *verbs)
    return found[0].key if found else None


def _pick(scores: dict[str, float], r: random.Random) -> str:
    best = max(scores.values())
    tops = sorted(k for k, v in scores.items() if v >= best - 1e-9)
    return tops[0] if len(tops) == 1 else tops[r.randrange(len(tops))]


def _best(options: list[Choice], value: Callable[[Choice], float]) -> str:
    """The key of the option worth most (keys only break ties, as opaque stable strings)."""
    return max(options, key=lambda c: (value(c), c.key)).key


def _loss_order(m: Mind, options: list[Choice]) -> str:
    """The key of the option whose card (`data["card"]`) is cheapest to lose."""
    return min(options, key=lambda c: (m.card_value(c.data["card"]), c.key)).key


def _decide(m: Mind, kind: str, r: random.Random) -> str | None:
    main = [c for c in m.choices if c.kind != "offturn"]
    if not main:
        return None
    keys = [c.key for c in main]
    me = m.me

    if kind == "turn":
        return _pick(_turn_scores(m), r)

    if kind == "camp_confirm":  # it chose to camp on its turn: it means it
        return _first(main, "confirm") or keys[0]

    if kind == "hidden_engage":
        auto = _first(main, "auto_evade")
        if auto:
            return auto
        cid = _engaged_card(m)
        pw = m.win_odds(cid, surprise="hero") if cid else 0.0
        evade = _first(main, "evade")
        return (_first(main, "reveal") or keys[0]) if pw >= 0.6 or not evade else evade

    if kind == "engage_order":
        return _best(main, lambda c: m.win_odds(c.data["card"]))

    if kind == "engage_team":
        cid = _engaged_card(m)
        pw = m.win_odds(cid) if cid else 0.5
        if m.mode == "cooperative" and pw < 0.85:
            for c in _with(main, "team"):
                if m.v["heroes"][c.data["target"]]["hp"] >= 2:
                    return c.key
        return _first(main, "fight") or keys[0]

    if kind == "team_offer":
        ok = m.mode == "cooperative" and me["hp"] >= 2
        accept, decline = _first(main, "accept"), _first(main, "decline")
        return (accept if ok and accept else decline) or keys[0]

    if kind == "gift_offer":
        return _first(main, "accept") or keys[0]

    if kind == "escape":
        cid = _engaged_card(m)
        fight = _with(main, "fight")
        foe_hp = fight[0].data.get("foe_hp") if fight else None
        pw = m.win_odds(cid, foe_hp=foe_hp) if cid else 0.5
        for c in _with(main, "resolve"):
            if _resolve_score(m, c.data["card"]) >= 60:
                return c.key
        gold_at_risk = me["gold"] >= 4
        threshold = 0.7 if gold_at_risk else 0.5
        escape = _first(main, "escape")
        if pw >= threshold or not escape:
            return fight[0].key if fight else keys[0]
        return escape

    if kind == "escape_to":
        scores = {c.key: _location_value(m, c.data["loc"]) for c in main}
        return _pick(scores, r)

    if kind == "fate":
        return _fate(m, main)

    if kind == "loot_step":
        gold = _with(main, "take_gold")
        loot = _first(main, "draw_loot")
        return gold[0].key if gold and (gold[0].data["gold"] >= 2 or not loot) else loot or keys[0]

    if kind == "rumour_step":
        ev = m.last_event("encounter_defeated")
        cid = ev.get("card") if ev else None
        keep = _first(main, "keep_rumour")
        if cid and keep:
            deck = {"enemy": "item", "place": "title", "quest": "spell", "stranger": "ally"}.get(
                _card(cid).get("type", ""), ""
            )
            keep_val = m.kw_value(cid)
            draw_val = 3 if deck in m.need else (1 if deck in m.next_need else 0)
            if keep_val > draw_val:
                return keep
        return _first(main, "swap_rumour") or keys[0]

    if kind == "trophy":
        ev = m.last_event("encounter_defeated")
        cid = ev.get("card") if ev else None
        val = steps_value(m, _card(cid).get("trophy", [])) if cid else 0
        take = _first(main, "take_trophy")
        return (take if val >= 0 and take else _first(main, "decline")) or keys[0]

    if kind == "keyword":
        paying = [c for c in main if _verb(c) == "pay_keyword"]
        keeps = [c for c in paying if c.data["how"] == "keep"]
        if keeps:
            return min(keeps, key=lambda c: c.data["card"]).key
        rumours = [c for c in paying if c.data["how"] == "discard"]
        return _loss_order(m, rumours or paying) if paying else keys[0]

    if kind in ("discard_down", "lose_card"):
        cards = [c for c in main if "card" in c.data]
        return _loss_order(m, cards) if cards else keys[0]

    if kind == "skill":
        skills = _with(main, "learn_skill")
        if not skills:
            return keys[0]
        return _best(skills, lambda c: _skill_value(m, c.data["card"]))

    if kind == "catch_up":
        return _first(main, "catch_up") or keys[0]

    if kind == "totem":
        return _first(main, "keep_totem") or keys[0]

    if kind == "market":
        return _market(m, main)

    if kind == "market_heal":
        heals = _with(main, "buy_hp")
        own = next((c.key for c in heals if c.data["target"] == m.seat), None)
        if own and (me["hp"] <= 2 or me["gold"] > _reserve(m)):
            return own
        if m.mode == "cooperative" and me["gold"] > _reserve(m) + 2 and heals:
            return heals[0].key
        return _first(main, "done") or own or keys[0]

    if kind == "market_buy":
        return _best(main, lambda c: _buy_value(m, c.data["card"]))

    if kind == "market_sell":
        return _first(main, "done") or _loss_order(m, _with(main, "sell_card"))

    if kind == "set8_deck":
        return _best(main, lambda c: _deck_value(m, c.data["deck"]))

    if kind == "set8_keep":
        return _best(main, lambda c: m.card_value(c.data["card"]))

    if kind == "card_choice":
        # Each option carries its own steps (public card text): value them for this hero.
        return _pick({c.key: steps_value(m, c.data.get("steps", [])) for c in main}, r)

    if kind == "reward_split":
        own = [c for c in _with(main, "reward_to") if c.data["target"] == m.seat]
        return own[0].key if own else keys[0]

    if kind == "choose_side":
        return keys[0]

    return _fallback(main)


def _engaged_card(m: Mind) -> str | None:
    ev = m.last_event("engage")
    if ev and ev.get("seat") == m.seat:
        return ev.get("card")
    ev = m.last_event("battle")
    return ev.get("card") if ev else None


def _fate(m: Mind, main: list[Choice]) -> str:
    # TEST-2: re-roll the failed dice with a card that gives no bonus, or when 2+ dice failed.
    for c in sorted(_with(main, "reroll"), key=lambda c: c.key):
        if c.data["fails"] >= 1 and (
            not _card(c.data["card"]).get("bonus") or c.data["fails"] >= 2
        ):
            return c.key
    me = m.me
    big = me["chapter"] >= 5 or (m.ancient_here() is not None)
    token = _first([c for c in main if c.data.get("pay") == "token"], "call_fate")
    if token and (me["fate"] > 1 or big):
        return token
    if big:
        rumours = [c for c in _with(main, "call_fate") if c.data["pay"] == "rumour"]
        spare = [c for c in rumours if m.kw_value(c.data["card"]) == 0]
        if spare:
            return _loss_order(m, spare)
    return _first(main, "accept_roll") or main[0].key


def _market(m: Mind, main: list[Choice]) -> str:
    me = m.me
    heal = _first(main, "heal")
    if heal and me["hp"] < me["max_hp"] and (me["hp"] <= 2 or me["gold"] > _reserve(m)):
        return heal
    spare = me["gold"] - _reserve(m)
    buys = _with(main, "browse")
    if buys and (spare >= 3 or (me["gold"] >= 3 and me["chapter"] >= 5)):
        return _best(buys, lambda c: _deck_value(m, c.data["deck"]))
    leave = _first(main, "leave")
    if leave or heal:
        return leave or heal  # type: ignore[return-value]
    if buys and me["gold"] >= 2:
        return _best(buys, lambda c: _deck_value(m, c.data["deck"]))
    return _first(main, "sell") or main[0].key


def _deck_value(m: Mind, deck: str) -> float:
    if deck not in REWARD_DECKS:
        return 0.0
    val = 4.0 if deck in m.need else (1.5 if deck in m.next_need else 0.0)
    cards = [c for c in content().by_kind["reward"] if _card(c).get("deck") == deck]
    if cards:
        val += sum(m.kw_value(c) + 0.8 * _card(c).get("bonus", {}).get("fight", 0) for c in cards)
        val /= 1 if deck in m.need else len(cards) ** 0.5
    return val


def _buy_value(m: Mind, cid: str) -> float:
    c = _card(cid)
    cost = c.get("gold", 0)
    over = max(0, cost - (m.me["gold"] - _reserve(m)))
    return m.card_value(cid) - 1.5 * over


def _skill_value(m: Mind, cid: str) -> float:
    c = _card(cid)
    b = c.get("bonus", {})
    return (
        2 * b.get("fight", 0)
        + sum(b.values())
        + (1.5 if c.get("reroll") else 0)
        + 0.5 * bool(c.get("deed"))
    )


# Answers that are always safe, by verb, in order of preference.
SAFE_VERBS = (
    "accept",
    "accept_roll",
    "done",
    "leave",
    "decline",
    "fight",
    "catch_up",
    "take_trophy",
    "cancel",
)


def _fallback(main: list[Choice]) -> str:
    """A safe answer to a prompt kind the bot does not know."""
    for verb in SAFE_VERBS:
        key = _first(main, verb)
        if key:
            return key
    return min(c.key for c in main)


# --------------------------------------------------------------------------- entry point


def heuristic_bot(state: State, seat: int, choices: list[Choice], r: random.Random) -> str:
    """Pick one of `choices` for `seat`; never raises, always returns one of their keys."""
    if not choices:
        raise ValueError("the heuristic bot was asked to choose among no choices")
    keys = {c.key for c in choices}
    try:
        m = Mind(state, seat, choices)
        main = [c for c in choices if c.kind != "offturn"]
        kind = main[0].kind if main else "offturn"
        key = _decide(m, kind, r)
        if key in keys:
            return key
    except Exception:  # noqa: BLE001 - a bot must never stall or crash a table
        if STRICT:
            raise
    safe = [c for c in choices if c.kind != "offturn"] or list(choices)
    try:
        return _fallback(safe)
    except Exception:  # noqa: BLE001
        return safe[0].key
