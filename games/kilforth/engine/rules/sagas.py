"""Sagas (REG-1/2, SAGA-1..9): chapters, keyword payment, interludes, finales, catch-up.

Hero fields: `chapter` is the current stage (1-4 chapters, 5 finale, 6 saga done),
`chapter_day` the day a chapter or interlude was last completed, `ch4_day` the day chapter 4 was,
`saga_progress` the finale/interlude successes gathered today.
"""

from __future__ import annotations

from collections.abc import Callable

from games.kilforth.engine.cards.catalogue import content
from games.kilforth.engine.cards.effects import add_asset, discard_card, remove_asset
from games.kilforth.engine.cards.steps import ask, option, push, step
from games.kilforth.engine.events import Ctx, event
from games.kilforth.engine.rules.explain import card_text, finish, plural
from games.kilforth.engine.rules.position import card, gold_value, keywords_of, name
from games.kilforth.engine.state import State, log

_KEYWORD_PAID = {"discard": "discarding", "sacrifice": "sacrificing", "keep": "showing"}


def _chapter_completed(e: dict, c: Ctx) -> str:
    free = " for free" if e.get("free") else ""
    what = "the interlude of chapter" if e.get("interlude") else "chapter"
    return f"{c.person(e['seat'])} completed {what} {e['chapter']} of their saga{free}!"


event("chapter_paid", "{seat} paid {gold:gold} towards a saga chapter.")
event(
    "keyword_paid",
    lambda e, c: (
        f"{c.person(e['seat'])} paid a saga keyword by "
        f"{_KEYWORD_PAID.get(str(e.get('how')), 'using')} {c.card(e['card'])}."
    ),
    fields=("seat", "card", "how"),
    examples=tuple({"how": h} for h in (*_KEYWORD_PAID, None)),
)
event(
    "chapter_completed",
    _chapter_completed,
    tone="big",
    fields=("seat", "chapter", "free", "interlude"),
    examples=({"free": True, "interlude": False}, {"free": False, "interlude": True}),
)
event("skill_gained", "{seat} learned the skill {card}.", tone="good")
event("finale_attempt", "{seat} worked on the finale of their saga: {total} of {need:success}.")
event(
    "interlude_attempt", "{seat} worked on the interlude of their saga: {total} of {need:success}."
)
event("finale_completed", "{seat} completed the finale of {saga}!", tone="big")
event("totem_sold", "{seat} gave up the totem for {gold:gold}.")


def saga(state: State, seat: int) -> dict:
    return card(state.heroes[seat]["saga"])


def stage(state: State, seat: int) -> dict | None:
    h = state.heroes[seat]
    if 1 <= h["chapter"] <= 4:
        return saga(state, seat)["chapters"][h["chapter"] - 1]
    return None


def is_interlude(state: State, seat: int) -> bool:
    st = stage(state, seat)
    return bool(st and state.edition == "shadows" and "interlude" in st)


def chapter_keywords(state: State, seat: int) -> list[str]:
    """SAGA-3: keywords marked for 1-2 players only count when that many heroes started."""
    st = stage(state, seat) or {}
    if is_interlude(state, seat):
        kws = list(st["interlude"].get("keywords", []))
        return kws if len(state.heroes) <= 2 else []
    kws = list(st.get("keywords", []))
    if len(state.heroes) <= 2:
        kws += st.get("solo_keywords", [])
    return kws


def chapter_cost(state: State, seat: int) -> int:
    """SAGA-1 (5 gold) or SAGA-2 variant (2 x chapter number)."""
    if state.settings["chapter_cost_2x"]:
        return 2 * state.heroes[seat]["chapter"]
    return 5


def _candidates(state: State, seat: int, kw: str, used: list[str]) -> list[tuple[str, str]]:
    h = state.heroes[seat]
    out = [("rumour", c) for c in h["hand"] if kw in keywords_of(c) and c not in used]
    out += [("asset", c) for c in h["assets"] if kw in keywords_of(c) and c not in used]
    return out


def payable(state: State, seat: int, kws: list[str], used: list[str] | None = None) -> bool:
    """Can each keyword be matched to a distinct card? (tiny backtracking search)"""
    used = list(used or [])
    if not kws:
        return True
    for _, c in _candidates(state, seat, kws[0], used):
        if payable(state, seat, kws[1:], used + [c]):
            return True
    return False


def regale_options(state: State, seat: int, act: Callable[..., list]) -> list[dict]:
    h = state.heroes[seat]
    here = state.map[h["loc"]]["id"]
    st = stage(state, seat)
    opts = []
    if st is not None and is_interlude(state, seat):
        il = st["interlude"]
        if (
            here in il["where"]
            and h["chapter_day"] != state.day
            and h["gold"] >= 5
            and payable(state, seat, chapter_keywords(state, seat))
        ):
            opts.append(
                option(
                    "regale",
                    f"Attempt interlude ({il['attr']} {il['need']})",
                    act(seat, *_attempt(seat, il["attr"], il["need"], "interlude")),
                    explain=_attempt_text(state, seat, il["attr"], il["need"], "interlude")
                    + " Then you pay 5 gold"
                    + _kw_text(chapter_keywords(state, seat))
                    + ", gain 1 max HP and may learn a skill.",
                    rule="SAGA-8",
                    cost="1 AP",
                    group="action",
                    topic="regale",
                    data={
                        "verb": "regale",
                        "stage": "interlude",
                        "chapter": h["chapter"],
                        "attr": il["attr"],
                        "need": il["need"],
                    },
                )
            )
    elif st is not None:
        if (
            h["chapter_day"] != state.day
            and h["gold"] >= chapter_cost(state, seat)
            and payable(state, seat, chapter_keywords(state, seat))
        ):
            opts.append(
                option(
                    "regale",
                    f"Complete chapter {h['chapter']}",
                    act(seat, {"k": "pay_chapter", "seat": seat}),
                    explain=f"Spend 1 AP and {chapter_cost(state, seat)} gold"
                    + _kw_text(chapter_keywords(state, seat))
                    + f" to complete chapter {h['chapter']} of {saga(state, seat)['name']}: "
                    "max HP and HP +1, and you may learn a skill.",
                    rule="REG-1",
                    cost=f"1 AP, {chapter_cost(state, seat)} gold",
                    group="action",
                    topic="regale",
                    data={"verb": "regale", "stage": "chapter", "chapter": h["chapter"]},
                )
            )
    elif h["chapter"] == 5:
        fin = saga(state, seat)["finale"]
        if here in fin["where"] and h["ch4_day"] != state.day:
            opts.append(
                option(
                    "regale",
                    f"Attempt the finale ({fin['attr']} {fin['need']})",
                    act(seat, *_attempt(seat, fin["attr"], fin["need"], "finale")),
                    explain=_attempt_text(state, seat, fin["attr"], fin["need"], "finale")
                    + " Completing it gives you your totem and wakes the ancient.",
                    rule="SAGA-6",
                    cost="1 AP",
                    group="action",
                    topic="regale",
                    data={
                        "verb": "regale",
                        "stage": "finale",
                        "chapter": h["chapter"],
                        "attr": fin["attr"],
                        "need": fin["need"],
                    },
                )
            )
    return opts


def _kw_text(kws: list[str]) -> str:
    """' and one card for each keyword: fire, title' (SAGA-1), or nothing."""
    return f" and one card for each keyword: {', '.join(kws)}" if kws else ""


def _attempt_text(state: State, seat: int, attr: str, need: int, what: str) -> str:
    """SAGA-6/SAGA-8: a test whose successes pile up for the day, at this location."""
    prog = state.heroes[seat]["saga_progress"]
    have = prog["n"] if prog["day"] == state.day else 0
    so_far = f" (you have {have} so far)" if have else ""
    return (
        f"Spend 1 AP to test your {attr} for your {what}: "
        f"{plural(need, 'success', 'successes')} in total today{so_far} complete it."
    )


def _attempt(seat: int, attr: str, need: int, what: str) -> list[dict]:
    tag = f"{what}{seat}"
    return [
        {"k": "test", "seat": seat, "attr": attr, "tag": tag, "team": True},
        {"k": "saga_attempt", "seat": seat, "tag": tag, "need": need, "what": what},
        {"k": "disband_after_test", "seat": seat},
    ]


@step("pay_chapter")
def _pay_chapter(state: State, s: dict) -> None:
    seat = s["seat"]
    cost = chapter_cost(state, seat)
    state.heroes[seat]["gold"] -= cost
    log(state, "chapter_paid", seat=seat, gold=cost)
    push(
        state,
        {"k": "pay_keywords", "seat": seat, "kws": chapter_keywords(state, seat), "used": []},
        {"k": "chapter_complete", "seat": seat, "free": False},
    )


@step("pay_keywords")
def _pay_keywords(state: State, s: dict) -> None:
    """SAGA-1: per keyword, discard a rumour or select an asset (keep or sacrifice it)."""
    seat, kws, used = s["seat"], s["kws"], s["used"]
    if not kws:
        return
    kw = kws[0]
    rest = {"k": "pay_keywords", "seat": seat, "kws": kws[1:]}
    opts = []
    for where, c in _candidates(state, seat, kw, used):
        if not payable(state, seat, kws[1:], used + [c]):
            continue
        if where == "rumour":
            opts.append(
                option(
                    f"rumour:{c}",
                    f"Discard rumour {name(c)}",
                    [
                        {"k": "kw_pay", "seat": seat, "card": c, "how": "discard"},
                        {**rest, "used": used},
                    ],
                    explain=f"Discard the rumour {name(c)} from your hand to pay the keyword {kw}.",
                    rule="SAGA-1",
                    topic="keyword",
                    data={"verb": "pay_keyword", "card": c, "keyword": kw, "how": "discard"},
                )
            )
        else:
            opts.append(
                option(
                    f"keep:{c}",
                    f"Select {name(c)} and keep it",
                    [{**rest, "used": used + [c]}],
                    explain=f"Your asset {name(c)} pays the keyword {kw} and stays in play "
                    "(it cannot pay another keyword of this chapter).",
                    rule="SAGA-1",
                    topic="keyword",
                    data={"verb": "pay_keyword", "card": c, "keyword": kw, "how": "keep"},
                )
            )
            opts.append(
                option(
                    f"sac:{c}",
                    f"Select {name(c)} and sacrifice it ({gold_value(c)} gold)",
                    [
                        {"k": "kw_pay", "seat": seat, "card": c, "how": "sacrifice"},
                        {**rest, "used": used + [c]},
                    ],
                    explain=f"Your asset {name(c)} pays the keyword {kw}, then you give it up "
                    f"for its value of {gold_value(c)} gold.",
                    rule="SAGA-1",
                    topic="keyword",
                    data={"verb": "pay_keyword", "card": c, "keyword": kw, "how": "sacrifice"},
                )
            )
    ask(state, seat, "keyword", f"Keyword '{kw}': which card pays it?", opts, keyword=kw)


@step("kw_pay")
def _kw_pay(state: State, s: dict) -> None:
    seat, c = s["seat"], s["card"]
    h = state.heroes[seat]
    if s["how"] == "discard":
        h["hand"].remove(c)
    else:
        remove_asset(state, seat, c)
        h["gold"] += gold_value(c)
    discard_card(state, c)
    log(state, "keyword_paid", seat=seat, card=c, how=s["how"])


def _skill_text(sk: str) -> str:
    """'Learn Quiet Step, a level 1 shadow skill: +1 sneak.' from the skill card."""
    c = card(sk)
    bits = [f"{v:+d} {a}" for a, v in (c.get("bonus") or {}).items() if v]
    if c.get("text"):
        bits.append(str(c["text"]).strip().rstrip("."))
    what = f"Learn {c['name']}, a level {c['level']} {c['type']} skill"
    return finish(what + (": " + "; ".join(bits) if bits else ""))


def _skill_options(state: State, seat: int, level: int) -> list[dict]:
    h = state.heroes[seat]
    held = {sk for x in state.heroes for sk in x["skills"]}
    types = card(h["class"])["skill_types"]
    opts = []
    for sk in content().by_kind["skill"]:
        c = card(sk)
        if c["type"] in types and c["level"] == level and sk not in held:
            opts.append(
                option(
                    f"skill:{sk}",
                    f"Gain skill {c['name']}",
                    [{"k": "gain_skill", "seat": seat, "card": sk}],
                    explain=_skill_text(sk),
                    rule="SAGA-4",
                    data={"verb": "learn_skill", "card": sk},
                )
            )
    return opts


@step("chapter_complete")
def _chapter_complete(state: State, s: dict) -> None:
    """SAGA-4: max HP +1, HP +1, maybe a skill, next chapter; SAGA-5 catch-up trigger."""
    seat = s["seat"]
    h = state.heroes[seat]
    n = h["chapter"]
    interlude = is_interlude(state, seat)
    h["max_hp"] += 1
    if not interlude:
        h["hp"] += 1
    h["chapter"] = n + 1
    h["chapter_day"] = state.day
    if n == 4:
        h["ch4_day"] = state.day
    log(state, "chapter_completed", seat=seat, chapter=n, free=s["free"], interlude=interlude)
    then = []
    skills = _skill_options(state, seat, n)
    if skills:
        skills.append(
            option(
                "noskill",
                "Take no skill",
                explain=f"Learn no level {n} skill now; the skills stay for others to take.",
                rule="SAGA-4",
                data={"verb": "no_skill"},
            )
        )
        then.append(
            {
                "k": "ask_step",
                "seat": seat,
                "kind": "skill",
                "options": skills,
                "text": f"Chapter {n} complete: gain a level {n} skill?",
            }
        )
    if state.mode == "competitive" and not s["free"] and n in (3, 4):
        limit = 1 if n == 3 else 2
        order = [(seat + i) % len(state.heroes) for i in range(1, len(state.heroes))]
        for t in order:
            th = state.heroes[t]
            if not th["eliminated"] and th["chapter"] <= limit:
                then.append({"k": "catch_up", "seat": t, "limit": limit})
    push(state, *then)


@step("gain_skill")
def _gain_skill(state: State, s: dict) -> None:
    state.heroes[s["seat"]]["skills"].append(s["card"])
    log(state, "skill_gained", seat=s["seat"], card=s["card"])


@step("catch_up")
def _catch_up(state: State, s: dict) -> None:
    """SAGA-5: a hero behind may at once complete its current chapter for free."""
    seat = s["seat"]
    h = state.heroes[seat]
    if h["chapter"] > s["limit"] or h["eliminated"]:
        return
    ask(
        state,
        seat,
        "catch_up",
        f"Catch up: complete chapter {h['chapter']} for free?",
        [
            option(
                "complete",
                "Complete it for free",
                [{"k": "chapter_complete", "seat": seat, "free": True}],
                explain=f"Complete chapter {h['chapter']} at once without paying AP, gold or "
                "keywords: max HP and HP +1, and you may learn a skill.",
                rule="SAGA-5",
                topic="chapter",
                data={"verb": "catch_up", "chapter": h["chapter"]},
            ),
            option(
                "decline",
                "Decline",
                explain=f"Leave chapter {h['chapter']} as it is, to complete it later.",
                rule="SAGA-5",
                topic="chapter",
                data={"verb": "decline"},
            ),
        ],
    )


@step("saga_attempt")
def _saga_attempt(state: State, s: dict) -> None:
    """SAGA-6/SAGA-8: successes accumulate for the day; done when they reach the value."""
    seat = s["seat"]
    h = state.heroes[seat]
    res = state.scratch.pop(s["tag"])
    prog = h["saga_progress"]
    if prog["day"] != state.day:
        prog["n"], prog["day"] = 0, state.day
    prog["n"] += res["succ"]
    log(state, f"{s['what']}_attempt", seat=seat, total=prog["n"], need=s["need"])
    if prog["n"] < s["need"]:
        return
    h["saga_progress"] = {"n": 0, "day": 0}
    if s["what"] == "finale":
        push(state, {"k": "finale_complete", "seat": seat})
    else:
        h["gold"] -= 5
        push(
            state,
            {"k": "pay_keywords", "seat": seat, "kws": chapter_keywords(state, seat), "used": []},
            {"k": "chapter_complete", "seat": seat, "free": False},
        )


@step("finale_complete")
def _finale_complete(state: State, s: dict) -> None:
    """SAGA-7: the finale flips to its totem (asset, or removed for its gold); ANC-1."""
    seat = s["seat"]
    h = state.heroes[seat]
    h["chapter"] = 6
    totem = h["saga"] + ".totem"
    log(state, "finale_completed", seat=seat, saga=h["saga"])
    push(
        state,
        {
            "k": "ask_step",
            "seat": seat,
            "kind": "totem",
            "text": "Your totem",
            "options": [
                option(
                    "asset",
                    f"Put {name(totem)} into play",
                    [{"k": "totem", "seat": seat, "keep": True}],
                    explain=f"Keep your totem as an asset. {card_text(totem)}",
                    rule="SAGA-7",
                    topic="asset",
                    data={"verb": "keep_totem", "card": totem},
                ),
                option(
                    "gold",
                    f"Remove it for {gold_value(totem)} gold",
                    [{"k": "totem", "seat": seat, "keep": False}],
                    explain=f"Take {gold_value(totem)} gold and remove {name(totem)} from the "
                    "game.",
                    rule="SAGA-7",
                    topic="gold",
                    data={"verb": "sell_totem", "card": totem, "gold": gold_value(totem)},
                ),
            ],
        },
        {"k": "ancients_enter"},
    )


@step("totem")
def _totem(state: State, s: dict) -> None:
    seat = s["seat"]
    h = state.heroes[seat]
    totem = h["saga"] + ".totem"
    if s["keep"]:
        add_asset(state, seat, totem)
    else:
        h["gold"] += gold_value(totem)
        state.removed.append(totem)
        log(state, "totem_sold", seat=seat, gold=gold_value(totem))
