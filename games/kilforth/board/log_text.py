"""Engine log events -> short English sentences, in our own words.

`describe(event, names, viewer)` never raises: an unknown kind (the engine keeps growing) or a
missing field falls back to a generic sentence built from the event's own fields, flagged with
`fallback=True` so tests can list the kinds still needing a sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import ATTR_LABEL, card, card_name
from .rules_help import deciding

Names = Callable[[int | None], str]

# Bookkeeping events: shown only when "Show every detail" is ticked.
MINOR = {
    "prompt",
    "decision",
    "decided",
    "rumour_gained_public",
    "loot_gained_public",
    "set8_done",
    "turn",
}
# Events that start a new stretch of play (for grouping dice and battles).
MARKERS = {"turn", "night", "daylight", "dawn"}


@dataclass
class LogLine:
    kind: str
    text: str
    day: int = 0
    seats: frozenset[int] = field(default_factory=frozenset)
    minor: bool = False
    tone: str = ""  # "", "good", "bad", "dice", "night", "battle", "turn", "big"
    dice: list[dict] = field(default_factory=list)
    fallback: bool = False


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _succ(n: int) -> str:
    return _plural(n, "success", "successes")


def faces(event: dict, success_min: int = 5) -> list[dict]:
    return [
        {"face": f, "hit": isinstance(f, int) and f >= success_min}
        for f in event.get("faces") or []
    ]


def _source(src: object) -> str:
    if not src:
        return ""
    if src in ("gloom", "weather", "night"):
        return f" to the {src}"
    if isinstance(src, str) and card(src):
        return f" to {card_name(src)}"
    return ""


def _gift(kind: object) -> str:
    return {
        "gold": "1 gold",
        "loot": "a loot token",
        "rumour": "a rumour",
        "asset": "an asset",
    }.get(str(kind), "something")


def _members(ms: object, names: Names) -> str:
    people = [names(m) for m in (ms or [])]  # type: ignore[union-attr]
    if len(people) <= 1:
        return "".join(people)
    return ", ".join(people[:-1]) + " and " + people[-1]


def _taken(e: dict, names: Names) -> str:
    parts = [f"{names(m)} lost {n}" for m, n in (e.get("taken") or []) if n]
    return "; ".join(parts) if parts else "nobody was hurt"


def _sentence(e: dict, who: str, names: Names, viewer: int | None) -> tuple[str, str]:
    """(text, tone) for known kinds; KeyError/unknown -> caller falls back."""
    k = e["e"]
    c = card_name(e.get("card")) if e.get("card") else ""
    loc = card_name(e.get("loc")) if e.get("loc") else ""
    if k == "setup":
        return (
            f"The game begins ({str(e.get('edition', '')).capitalize()}); the heroes "
            f"gather at {card_name(e.get('centre'))}.",
            "big",
        )
    if k == "prompt":
        return f"{names(viewer)} was asked to {deciding(e.get('kind', ''))}.", ""
    if k == "decision":
        return f"{who} answered ({e['key']}).", ""
    if k == "decided":
        return f"{who} decided: {deciding(e.get('kind', ''))}.", ""
    if k == "set8_look":
        return f"{who} looked at {' and '.join(card_name(x) for x in e['cards'])}.", ""
    if k == "set8_kept":
        return f"{who} kept {c} as a first rumour.", "good"
    if k == "set8_done":
        return f"{who} drew a first rumour from the {e['deck']} deck.", ""
    if k == "side_chosen":
        return f"{who} set the choose-sides token to {e['side']}.", ""
    if k == "daylight":
        return f"Day {e.get('day')} begins. {names(e.get('first'))} goes first.", "turn"
    if k == "turn":
        return f"{who}'s turn.", "turn"
    if k == "moved":
        to = card_name(e["to"])
        if e.get("how") == "escape":
            return f"{who} fled to {to}.", ""
        if e.get("how") == "effect":
            return f"{who} was sent to {to}.", ""
        return f"{who} moved to {to}.", ""
    if k == "encounter_drawn":
        return f"{c} ({e.get('type', 'encounter')}) turned up at {loc}.", ""
    if k == "obstacle_cleared":
        return f"{who} cleared an obstacle at {loc}.", "good"
    if k == "obstacle_placed":
        return f"An obstacle now blocks {loc}.", "bad"
    if k == "hidden":
        return f"{who} slipped into hiding.", ""
    if k == "revealed":
        return f"{who} came out of hiding.", ""
    if k == "rested":
        return f"{who} rested (now {e['hp']} HP).", "good"
    if k == "discovered":
        return f"{who} discovered {c}; it is now in play.", "good"
    if k == "confront":
        attr = ATTR_LABEL.get(e["attr"], e["attr"])
        return (
            f"{who} confronted {c} with {attr}: {e['total']} of {e['need']} "
            f"{'success' if e['need'] == 1 else 'successes'} so far.",
            "",
        )
    if k == "no_enemy_token":
        return f"{c} turned hostile, but {who} has no enemy token left to mark it.", ""
    if k == "enemy_token":
        return f"{c} is now {who}'s sworn enemy.", "bad"
    if k == "market_heal":
        return f"{who} paid a healer at the market: {names(e['target'])} is at {e['hp']} HP.", ""
    if k == "market_look":
        return f"{who} browsed {', '.join(card_name(x) for x in e['cards'])}.", ""
    if k == "purchased":
        return f"{who} bought {c}.", "good"
    if k == "sold":
        return f"{who} sold {c} for {e['gold']} gold.", ""
    if k == "plot_attempt":
        verdict = "and defeated it" if e.get("defeated") else "not enough yet"
        return (
            f"{who} worked against the plot {card_name(e['plot'])}: "
            f"{_succ(e['successes'])}, {verdict}.",
            "good" if e.get("defeated") else "",
        )
    if k == "ancient_enters":
        return f"{card_name(e['ancient'])} awakens at {loc}!", "big"
    if k == "plot_joins":
        return f"The plot {card_name(e['plot'])} feeds {card_name(e['ancient'])}.", "bad"
    if k == "plot_enters":
        return (
            f"{card_name(e['ancient'])} schemes: {card_name(e['plot'])} appears at {loc}.",
            "bad",
        )
    if k == "assault":
        team = e.get("team") or []
        extra = f" with {_members(team[1:], names)}" if len(team) > 1 else ""
        return f"{who} assaults {card_name(e['ancient'])}{extra}!", "battle"
    if k == "ancient_skirmish":
        return (
            f"Against {card_name(e['ancient'])}: heroes dealt {e['dealt']}, "
            f"{_taken(e, names)}; it has {e['hp']} HP left.",
            "battle",
        )
    if k == "ancient_defeated":
        return f"{who} has slain {card_name(e['ancient'])}!", "big"
    if k == "hero_eliminated":
        return f"{who} fell before the ancient and is out of the game.", "bad"
    if k == "team_offered":
        return f"{who} asked {names(e['target'])} to team up.", ""
    if k == "team_formed":
        return f"{_members(e['members'], names)} joined forces.", "good"
    if k == "offer_declined":
        return f"{names(e['target'])} turned down {who}'s offer.", ""
    if k == "left_team":
        rest = e.get("team") or []
        tail = f"; {_members(rest, names)} carry on" if rest else "; the team broke up"
        return f"{who} left the team{tail}.", ""
    if k == "team_disbanded":
        return f"The team of {_members(e['members'], names)} split up.", ""
    if k == "gift_offered":
        return f"{who} offered {_gift(e.get('kind'))} to {names(e['target'])}.", ""
    if k == "gift":
        return f"{names(e['target'])} accepted {_gift(e.get('kind'))} from {who}.", "good"
    if k == "overcome":
        return f"{who} overcame {c} through its weakness.", "good"
    if k == "resolve":
        return f"{who} used {c}.", ""
    if k == "roll":
        attr = ATTR_LABEL.get(e.get("attr", ""), e.get("attr", ""))
        roller = card_name(e["foe"]) if e.get("foe") else who
        return (
            f"{roller} rolled {_plural(e['dice'], attr + ' die', attr + ' dice')}: "
            f"{_succ(e['successes'])}.",
            "dice",
        )
    if k == "reroll":
        return (
            f"{who} used {c} to roll the failed dice again: now {_succ(e['successes'])}.",
            "dice",
        )
    if k == "fate_called":
        paid = "a fate token" if e.get("paid") == "token" else f"the rumour {c or 'card'}"
        return f"{who} called on fate for +1 success, spending {paid}.", "dice"
    if k == "test_gate":
        ok = "passed" if e.get("passed") else "failed"
        return f"{who} {ok} a test ({e['successes']} of {e['need']}).", ""
    if k == "reshuffle":
        return f"The {e['deck']} deck was shuffled again from its discards.", ""
    if k == "deck_empty":
        return f"The {e['deck']} deck has run out.", ""
    if k == "rumour_gained":
        return f"{who} took {c} into hand as a rumour.", "good"
    if k == "rumour_gained_public":
        return f"{who} gained a rumour.", ""
    if k == "asset_replaced":
        return (
            f"{who}'s {card_name(e['by'])} replaced {c} (only one "
            f"{e.get('keyword', 'such')} card at a time).",
            "",
        )
    if k == "asset_gained":
        return f"{who} put {c} into play.", "good"
    if k == "loot_bag_empty":
        return f"The loot bag was empty, so {who} drew nothing.", ""
    if k == "loot_cashed":
        return f"{who} cashed {card_name(e['token'])} for {e['gold']} gold.", "good"
    if k == "loot_gained":
        return f"{who} drew the loot token {card_name(e['token'])}.", "good"
    if k == "loot_gained_public":
        return f"{who} drew a loot token.", ""
    if k == "hp_lost":
        return (
            f"{who} lost {e['n']} HP{_source(e.get('source'))} (now {e['hp']} HP, {e['ap']} AP).",
            "bad",
        )
    if k == "hp_gained":
        return f"{who} healed {e['n']} HP (now {e['hp']} HP).", "good"
    if k == "gold_gained":
        return (
            f"{who} gained {e['n']} gold{_source(e.get('source')).replace(' to ', ' from ')}.",
            "good",
        )
    if k == "gold_lost":
        return f"{who} lost {e['n']} gold.", "bad"
    if k == "ap_lost":
        return f"{who} lost {e['n']} AP (now {e['ap']}).", "bad"
    if k == "fate_gained":
        return f"{who} gained {e['n']} fate.", "good"
    if k == "text":
        return f"{who}: {e.get('text', '')}.", ""
    if k == "defeated":
        by = _source(e.get("by")).replace(" to ", " by ")
        return f"{who} was struck down{by}.", "bad"
    if k == "hero_defeated":
        return (
            f"{who} was defeated: {e.get('gold_lost', 0)} gold dropped, carried back to "
            f"the centre.",
            "bad",
        )
    if k == "card_lost":
        return f"{who} lost {c}.", "bad"
    if k == "limit_discard":
        return f"{who} discarded {c} to stay within the limit of 6.", ""
    if k == "engage":
        return f"{who} faces {c}.", "battle"
    if k == "evade_failed":
        return f"{who} could not slip past {c} and was spotted.", "bad"
    if k == "evaded":
        return f"{who} slipped past {c} unseen.", "good"
    if k == "battle":
        team = e.get("team") or []
        extra = f" together with {_members(team[1:], names)}" if len(team) > 1 else ""
        sur = {"foe": f"; {c} strikes first", "hero": f"; {who} strikes first"}.get(
            str(e.get("surprise")), ""
        )
        return f"Battle: {who}{extra} against {c}{sur}.", "battle"
    if k == "skirmish":
        return (
            f"Round {e['round']} against {c}: {_plural(e['dealt'], 'hit')} dealt, "
            f"{_taken(e, names)}; {c} has {e['foe_hp']} HP left.",
            "battle",
        )
    if k == "escape":
        return f"{who} escaped from {c}.", ""
    if k == "night":
        return f"Night falls after day {e.get('day')}.", "night"
    if k == "gloomed":
        return f"{loc} fell into gloom.", "night"
    if k == "pre_gloom":
        return f"Before the first day, {loc} fell into gloom ({c}).", "night"
    if k == "night_card":
        extra = " (an extra card)" if e.get("extra") else ""
        return f"The night card{extra} is {c}, a {e.get('type', 'card')} for {loc}.", "night"
    if k == "dawn":
        return (
            "Dawn: progress against encounters is lost, hiding ends, veiled cards return.",
            "night",
        )
    if k == "encounter_defeated":
        how = {"confront": "", "battle": " in battle", "overcome": " by its weakness"}.get(
            str(e.get("how")), ""
        )
        return f"{who} defeated {c}{how}.", "good"
    if k == "trophy":
        return f"{who} took the trophy of {c}{' (forced)' if e.get('forced') else ''}.", ""
    if k == "chapter_paid":
        return f"{who} paid {e['gold']} gold towards a saga chapter.", ""
    if k == "keyword_paid":
        how = {"discard": "discarding", "sacrifice": "sacrificing", "keep": "showing"}.get(
            str(e.get("how")), "using"
        )
        return f"{who} paid a saga keyword by {how} {c}.", ""
    if k == "chapter_completed":
        free = " for free" if e.get("free") else ""
        what = "the interlude of chapter" if e.get("interlude") else "chapter"
        return f"{who} completed {what} {e['chapter']} of their saga{free}!", "big"
    if k == "skill_gained":
        return f"{who} learned the skill {c}.", "good"
    if k in ("finale_attempt", "interlude_attempt"):
        what = "finale" if k.startswith("finale") else "interlude"
        return f"{who} worked on the {what}: {e['total']} of {e['need']} successes.", ""
    if k == "finale_completed":
        return f"{who} completed the finale of {card_name(e.get('saga'))}!", "big"
    if k == "totem_sold":
        return f"{who} gave up the totem for {e['gold']} gold.", ""
    if k == "camp":
        forced = " (out of AP)" if e.get("forced") else ""
        return f"{who} made camp{forced}.", ""
    if k == "first_hero":
        return f"{who} takes the first-hero marker.", ""
    if k == "game_over":
        return f"The game is over: {e.get('reason', 'it has ended')}.", "big"
    raise KeyError(k)


def _seats(e: dict) -> frozenset[int]:
    out: set[int] = set()
    if isinstance(e.get("vis"), int):
        out.add(e["vis"])
    for key in ("seat", "target"):
        if isinstance(e.get(key), int):
            out.add(e[key])
    for key in ("members", "team"):
        for m in e.get(key) or []:
            if isinstance(m, int):
                out.add(m)
    for pair in e.get("taken") or []:
        if isinstance(pair, list | tuple) and pair and isinstance(pair[0], int):
            out.add(pair[0])
    return frozenset(out)


def _generic(e: dict, names: Names) -> str:
    words = str(e.get("e", "event")).replace("_", " ").capitalize()
    bits = []
    for key, value in e.items():
        if key in ("e", "vis", "day"):
            continue
        if key in ("seat", "target") and isinstance(value, int):
            shown = names(value)
        elif isinstance(value, str) and card(value):
            shown = card_name(value)
        else:
            shown = str(value)
        bits.append(f"{key.replace('_', ' ')} {shown}")
    return words + (": " + ", ".join(bits) if bits else "") + "."


def describe(e: dict, names: Names, viewer: int | None = None, success_min: int = 5) -> LogLine:
    """One log event as a readable line; never raises."""
    kind = str(e.get("e", "?"))
    seat = e.get("seat")
    who = names(seat) if isinstance(seat, int) else "Someone"
    seats = _seats(e)
    minor = kind in MINOR
    if kind in ("rumour_gained_public", "loot_gained_public") and seat != viewer:
        minor = False  # for the others this is the only line about it
    try:
        text, tone = _sentence(e, who, names, viewer)
        fallback = False
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        text, tone, fallback = _generic(e, names), "", True
    dice = faces(e, success_min) if kind in ("roll", "reroll") else []
    day = e.get("day") if isinstance(e.get("day"), int) else 0
    return LogLine(
        kind=kind,
        text=text,
        day=day,
        seats=seats,
        minor=minor,
        tone=tone,
        dice=dice,
        fallback=fallback,
    )
