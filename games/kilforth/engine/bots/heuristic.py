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
import re
from collections import deque
from functools import lru_cache
from math import comb

from games.kilforth.engine.api import Choice
from games.kilforth.engine.cards.catalogue import ATTRS, REWARD_DECKS, content
from games.kilforth.engine.rules.position import neighbours
from games.kilforth.engine.state import State
from games.kilforth.engine.view import view

STRICT = False  # tests set this to surface internal errors instead of falling back
TEST_KEYS = ("confront:", "clear:", "regale", "assault:")
_NUM = re.compile(r"(\d+)")


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


@lru_cache(maxsize=1)
def _choice_steps() -> dict[str, list]:
    """Label of every card choice option -> its steps (card texts are public)."""
    out: dict[str, list] = {}

    def scan(steps: object) -> None:
        if not isinstance(steps, list):
            return
        for s in steps:
            if not isinstance(s, dict):
                continue
            for opt in s.get("options", []) or []:
                if isinstance(opt, dict) and "label" in opt:
                    out.setdefault(opt["label"], opt.get("steps", []))
                    scan(opt.get("steps", []))
            for key in ("steps", "pass", "fail"):
                scan(s.get(key))

    for c in content().cards.values():
        for key in ("arrive", "gloom_arrive", "trophy", "effect", "deed", "nightly", "night"):
            scan(c.get(key))
        scan(c.get("enter"))
    return out


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
        self.prompt_text = (v.get("prompt") or {}).get("text", "")

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


def _label_value(label: str) -> float:
    """Fallback for a choice whose steps are unknown: words and numbers in its label."""
    low = label.lower()
    nums = [int(x) for x in _NUM.findall(low)] or [1]
    n = nums[0]
    val = 0.0
    if "gain" in low or "heal" in low or "draw" in low:
        val += n
    if "lose" in low or "discard" in low or "pay" in low:
        val -= n * (2.5 if "hp" in low else 1)
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
    hp, max_hp, ap = me["hp"], me["max_hp"], me["ap"]
    move_scores: dict[int, float] | None = None
    anc = m.ancient_here()
    # Ready to assault but something here is in the way: clear it.
    at_ancient = anc is not None and _assault_ready(m)
    for ch in m.choices:
        key = ch.key
        s = -30.0
        if key.startswith("assault:"):
            s = _assault_score(m)
        elif key == "regale":
            s = 95 if ch.label.startswith("Complete") else 80
            if "finale" in ch.label or "interlude" in ch.label:
                # An attempt: worth it unless the dice cannot get there today.
                s = 80
        elif key.startswith("overcome:"):
            s = 88
        elif key.startswith("discover:"):
            s = 72 + m.kw_value(key.split(":", 1)[1])
        elif key.startswith("resolve:"):
            s = _resolve_score(m, key.split(":", 1)[1])
        elif key == "rest":
            s = 20 + 12 * (max_hp - hp)
            if hp <= 2:
                s += 35
            gv = m.map[m.loc].get("gloom_value", 1) if m.map[m.loc]["gloom"] else 0
            if gv and ap <= gv + 1:
                s = 5  # the night here takes it all back: better move off the gloom
        elif key == "market":
            s = -5
            if hp <= max_hp - 1 and me["gold"] >= 1 and (hp <= 2 or me["gold"] > _reserve(m)):
                s = 45 + 5 * (max_hp - hp)
            if me["gold"] >= _reserve(m) + 3:
                s = max(s, 50)
        elif key.startswith("confront:"):
            _, cid, attr = key.split(":", 2)
            s = _confront_score(m, cid, attr)
            if at_ancient:
                s = max(s + 40, 65)
        elif key.startswith("enemy:"):
            cid = key.split(":", 1)[1]
            pw = m.win_odds(cid)
            s = 20 + pw * (_fight_reward(m, cid) + 8) - (1 - pw) * (40 + me["gold"])
            if at_ancient:
                s += 30
        elif key.startswith("clear:"):
            pc = _card(key.split(":", 1)[1])
            pr = p_at_least(m.attr(pc.get("attr", "fight")), pc.get("need", 9), m.p)
            s = (25 if me["chapter"] >= 3 else 10) + (55 if me["chapter"] >= 5 else 35) * pr
        elif key == "clear":
            # An obstacle blocks confronting here (and the assault): worth it if here matters.
            s = 2 + 0.6 * max(0.0, _location_value(m, m.loc))
            if at_ancient:
                s = max(s, 70)
        elif key == "search":
            s = 26 if hp >= 3 else 5
        elif key == "hide":
            s = -5
        elif key.startswith("move:"):
            if move_scores is None:
                move_scores = _move_scores(m)
            j = ch.data.get("loc")
            best = move_scores.get(j, -1e9) if isinstance(j, int) else -1e9
            s = min(60.0, best)
            here = m.map[m.loc]
            if here["gloom"] and isinstance(j, int):
                # NIGHT-1: the night costs gloom-value HP here (defeat at 0): get off in time.
                gv = here.get("gloom_value", 1)
                there = m.map[j]
                if not there["gloom"] and not m.enemies_at(j):
                    safe = there["terrain"] == "none" or bool(there["encounters"])
                    if hp <= gv:
                        s = max(s, 92 + 2 * safe)
                    elif ap <= 1:
                        s = max(s, 40 + 2 * safe)
        elif key == "camp":
            s = 0
            if m.map[m.loc]["gloom"] and ap >= 1:
                s -= 3 * m.map[m.loc].get("gloom_value", 1)
                if hp <= m.map[m.loc].get("gloom_value", 1):
                    s -= 60
        elif key == "unhide":
            s = 1
        elif key.startswith("team:"):
            s = -10
        elif key.startswith(("give:", "trade:")):
            s = -10
        scores[key] = s
    # Co-op: before a test here, ask a companion to team up (+1 die).
    if m.mode == "cooperative":
        best_key = max(scores, key=lambda k: scores[k]) if scores else ""
        if best_key.startswith(TEST_KEYS) and scores[best_key] > 0:
            for ch in m.choices:
                if ch.key.startswith("team:"):
                    t = ch.data.get("target")
                    if isinstance(t, int) and m.v["heroes"][t]["hp"] >= 2:
                        scores[ch.key] = scores[best_key] + 1
                        break
    return scores


# --------------------------------------------------------------------------- prompt rules


def _pick(scores: dict[str, float], r: random.Random) -> str:
    best = max(scores.values())
    tops = sorted(k for k, v in scores.items() if v >= best - 1e-9)
    return tops[0] if len(tops) == 1 else tops[r.randrange(len(tops))]


def _by_key(m: Mind) -> dict[str, Choice]:
    return {c.key: c for c in m.choices}


def _loss_order(m: Mind, keys: list[str]) -> str:
    """The card cheapest to lose among options keyed '<verb>:<card>'."""
    return min(keys, key=lambda k: (m.card_value(k.split(":", 1)[1]), k))


def _decide(m: Mind, kind: str, r: random.Random) -> str | None:
    keys = [c.key for c in m.choices if c.kind != "offturn"]
    if not keys:
        return None
    by = _by_key(m)
    me = m.me

    if kind == "turn":
        return _pick(_turn_scores(m), r)

    if kind == "hidden_engage":
        cid = _engaged_card(m)
        if "auto_evade" in by:
            return "auto_evade"
        pw = m.win_odds(cid, surprise="hero") if cid else 0.0
        return "reveal" if pw >= 0.6 or "evade" not in by else "evade"

    if kind == "engage_order":
        return max(keys, key=lambda k: (m.win_odds(k.split(":", 1)[1]), k))

    if kind == "engage_team":
        cid = _engaged_card(m)
        pw = m.win_odds(cid) if cid else 0.5
        if m.mode == "cooperative" and pw < 0.85:
            for k in keys:
                if k.startswith("team:"):
                    t = by[k].data.get("target")
                    if isinstance(t, int) and m.v["heroes"][t]["hp"] >= 2:
                        return k
        return "alone" if "alone" in by else keys[0]

    if kind == "team_offer":
        ok = m.mode == "cooperative" and me["hp"] >= 2
        return "accept" if ok and "accept" in by else ("decline" if "decline" in by else keys[0])

    if kind == "gift_offer":
        return "accept" if "accept" in by else keys[0]

    if kind == "escape":
        cid = _engaged_card(m)
        nums = _NUM.findall(m.prompt_text)
        foe_hp = int(nums[0]) if nums else None
        pw = m.win_odds(cid, foe_hp=foe_hp) if cid else 0.5
        for k in keys:
            if k.startswith("resolve:") and _resolve_score(m, k.split(":", 1)[1]) >= 60:
                return k
        gold_at_risk = me["gold"] >= 4
        threshold = 0.7 if gold_at_risk else 0.5
        if pw >= threshold or "escape" not in by:
            return "fight" if "fight" in by else keys[0]
        return "escape"

    if kind == "escape_to":
        scores = {k: _location_value(m, by[k].data.get("loc", m.loc)) for k in keys}
        return _pick(scores, r)

    if kind == "fate":
        return _fate(m, keys, by)

    if kind == "loot_step":
        nums = _NUM.findall(by["gold"].label) if "gold" in by else []
        gold = int(nums[0]) if nums else 0
        return "gold" if gold >= 2 or "loot" not in by else "loot"

    if kind == "rumour_step":
        ev = m.last_event("encounter_defeated")
        cid = ev.get("card") if ev else None
        if cid and "keep" in by:
            deck = {"enemy": "item", "place": "title", "quest": "spell", "stranger": "ally"}.get(
                _card(cid).get("type", ""), ""
            )
            keep_val = m.kw_value(cid)
            draw_val = 3 if deck in m.need else (1 if deck in m.next_need else 0)
            if keep_val > draw_val:
                return "keep"
        return "draw" if "draw" in by else keys[0]

    if kind == "trophy":
        ev = m.last_event("encounter_defeated")
        cid = ev.get("card") if ev else None
        val = steps_value(m, _card(cid).get("trophy", [])) if cid else 0
        return "take" if val >= 0 and "take" in by else ("decline" if "decline" in by else keys[0])

    if kind == "keyword":
        keeps = [k for k in keys if k.startswith("keep:")]
        if keeps:
            return sorted(keeps)[0]
        rumours = [k for k in keys if k.startswith("rumour:")]
        if rumours:
            return _loss_order(m, rumours)
        return _loss_order(m, keys) if all(":" in k for k in keys) else keys[0]

    if kind in ("discard_down", "lose_card"):
        cards = [k for k in keys if ":" in k]
        return _loss_order(m, cards) if cards else keys[0]

    if kind == "skill":
        skills = [k for k in keys if k.startswith("skill:")]
        if not skills:
            return keys[0]
        return max(skills, key=lambda k: (_skill_value(m, k.split(":", 1)[1]), k))

    if kind == "catch_up":
        return "complete" if "complete" in by else keys[0]

    if kind == "totem":
        return "asset" if "asset" in by else keys[0]

    if kind == "market":
        return _market(m, keys)

    if kind == "market_heal":
        own = f"hp:{m.seat}"
        if own in by and (me["hp"] <= 2 or me["gold"] > _reserve(m)):
            return own
        if m.mode == "cooperative" and me["gold"] > _reserve(m) + 2:
            for k in keys:
                if k.startswith("hp:"):
                    return k
        if "done" in by:
            return "done"
        return own if own in by else keys[0]

    if kind == "market_buy":
        return max(keys, key=lambda k: (_buy_value(m, k.split(":", 1)[1]), k))

    if kind == "market_sell":
        if "done" in by:
            return "done"
        return _loss_order(m, keys)

    if kind == "set8_deck":
        return max(keys, key=lambda k: (_deck_value(m, k.split(":", 1)[1]), k))

    if kind == "set8_keep":
        return max(keys, key=lambda k: (m.card_value(k.split(":", 1)[1]), k))

    if kind == "card_choice":
        steps = _choice_steps()
        scores = {}
        for k in keys:
            label = by[k].label
            scores[k] = steps_value(m, steps[label]) if label in steps else _label_value(label)
        return _pick(scores, r)

    if kind == "reward_split":
        own = f"give:{m.seat}"
        return own if own in by else keys[0]

    if kind == "choose_side":
        return keys[0]

    return _fallback(keys, by)


def _engaged_card(m: Mind) -> str | None:
    ev = m.last_event("engage")
    if ev and ev.get("seat") == m.seat:
        return ev.get("card")
    ev = m.last_event("battle")
    return ev.get("card") if ev else None


def _fate(m: Mind, keys: list[str], by: dict[str, Choice]) -> str:
    me = m.me
    fails = 0
    nums = re.findall(r"\[([^\]]*)\]", m.prompt_text)
    if nums:
        lo = 4 if m.p > 0.4 else 5
        fails = sum(1 for x in _NUM.findall(nums[0]) if int(x) < lo)
    for k in sorted(keys):
        if k.startswith("reroll:") and fails >= 1:
            if not _card(k.split(":", 1)[1]).get("bonus") or fails >= 2:
                return k
    big = me["chapter"] >= 5 or (m.ancient_here() is not None)
    if "fate" in by and (me["fate"] > 1 or big):
        return "fate"
    if big:
        rumours = [k for k in keys if k.startswith("fate:")]
        spare = [k for k in rumours if m.kw_value(k.split(":", 1)[1]) == 0]
        if spare:
            return _loss_order(m, spare)
    return "accept" if "accept" in by else keys[0]


def _market(m: Mind, keys: list[str]) -> str:
    me = m.me
    if "heal" in keys and me["hp"] < me["max_hp"] and (me["hp"] <= 2 or me["gold"] > _reserve(m)):
        return "heal"
    spare = me["gold"] - _reserve(m)
    buys = [k for k in keys if k.startswith("buy:")]
    if buys and (spare >= 3 or (me["gold"] >= 3 and me["chapter"] >= 5)):
        return max(buys, key=lambda k: (_deck_value(m, k.split(":", 1)[1]), k))
    if "leave" in keys:
        return "leave"
    if "heal" in keys:
        return "heal"
    if buys and me["gold"] >= 2:
        return max(buys, key=lambda k: (_deck_value(m, k.split(":", 1)[1]), k))
    if "sell" in keys:
        return "sell"
    return keys[0]


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


def _fallback(keys: list[str], by: dict[str, Choice]) -> str:
    """A safe answer to a prompt kind the bot does not know."""
    for safe in ("accept", "done", "leave", "decline", "fight", "alone", "complete", "take"):
        if safe in by:
            return safe
    scored = {k: _label_value(by[k].label) for k in keys}
    best = max(scored.values())
    return sorted(k for k in keys if scored[k] == best)[0]


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
    safe = [c.key for c in choices if c.kind != "offturn"] or [c.key for c in choices]
    by = {c.key: c for c in choices}
    try:
        return _fallback(safe, by)
    except Exception:  # noqa: BLE001
        return safe[0]
