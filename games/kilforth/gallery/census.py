"""Counting the card set per edition against the targets of issue 4.

Pure functions of a loaded `Content` (no Django): the `kilforth_cards` command prints them and
the tests compare them with the content. A card with an `edition` field (locations, night cards)
belongs to that edition; every other card (encounters, rewards, heroes, sagas, ancients and their
plots, loot) is shared and counts in both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from games.kilforth.engine.cards.catalogue import (
    ENC_TYPES,
    NIGHT_TYPES,
    REWARD_DECKS,
    SKILL_TYPES,
    TERRAINS,
    Content,
)

EDITIONS = ("gloom", "shadows")

# The boxed game's numbers the finished set must reach (issue 4), per edition.
TARGETS = {
    "locations": 25,
    "encounters": 82,
    "rewards": 74,
    "races": 8,
    "classes": 8,
    "skills": 32,
    "skills_per_type": 8,
    "sagas": 8,
    "ancients": 4,
    "plots_per_ancient": 6,
    "night": 25,
    "loot": 82,
    "shortcut_networks": 3,
}


def editions_of(content: Content, card: dict) -> tuple[str, ...]:
    """The editions a card is used in: its own `edition`, its ancient's for a plot, else both."""
    ed = card.get("edition")
    if ed in EDITIONS:
        return (ed,)
    if card.get("kind") == "plot" and card.get("ancient") in content.cards:
        return editions_of(content, content.cards[card["ancient"]])
    return EDITIONS


@dataclass(frozen=True)
class Row:
    """One line of the census: a count per edition and, if the issue sets one, a target."""

    label: str
    counts: dict[str, int]
    target: dict[str, int] | None = None
    at_least: bool = False
    depth: int = 0
    notes: dict[str, str] = field(default_factory=dict)

    def met(self, edition: str) -> bool | None:
        """True/False against the target for `edition`; None when the row has no target."""
        if self.target is None or edition not in self.target:
            return None
        n, want = self.counts.get(edition, 0), self.target[edition]
        return n >= want if self.at_least else n == want

    @property
    def checked(self) -> bool:
        return self.target is not None


def _both(n: int) -> dict[str, int]:
    return {ed: n for ed in EDITIONS}


def census(content: Content) -> list[Row]:
    """Every component of the set counted per edition, in the order the issue lists them."""
    cards = content.cards

    def ids(kind: str, pred: Callable[[dict], bool] = lambda c: True) -> list[dict]:
        return [cards[i] for i in content.by_kind.get(kind, []) if pred(cards[i])]

    def per_ed(items: Iterable[dict]) -> dict[str, int]:
        out = dict.fromkeys(EDITIONS, 0)
        for c in items:
            for ed in editions_of(content, c):
                out[ed] += 1
        return out

    def row(label: str, items: Iterable[dict], target: int | None = None, **kw: object) -> Row:
        return Row(label, per_ed(items), None if target is None else _both(target), **kw)

    rows: list[Row] = []
    locs = ids("location")
    rows.append(
        row("locations (centre + others)", [c for c in locs if c["centre"] != "harder"], 25)
    )
    rows.append(row("standard centre", [c for c in locs if c["centre"] == "standard"], 1, depth=1))
    for t in TERRAINS:
        rows.append(row(t, [c for c in locs if c["terrain"] == t], depth=1))
    harder = per_ed(c for c in locs if c["centre"] == "harder")
    rows.append(Row("harder centre (Shadows)", harder, {"gloom": 0, "shadows": 1}, depth=1))
    rows.append(row("with a shortcut symbol", [c for c in locs if c["symbol"]], depth=1))
    networks = {}
    for ed in EDITIONS:
        symbols: dict[str, int] = {}
        for c in locs:
            if c["edition"] == ed and c["symbol"]:
                symbols[c["symbol"]] = symbols.get(c["symbol"], 0) + 1
        networks[ed] = sum(1 for n in symbols.values() if n >= 2)
    rows.append(
        Row(
            "shortcut networks (2+ locations)",
            networks,
            _both(TARGETS["shortcut_networks"]),
            at_least=True,
            depth=1,
        )
    )
    rows.append(row("with a location effect", [c for c in locs if _has_effect(c)], depth=1))

    encs = ids("encounter")
    rows.append(row("encounters", encs, TARGETS["encounters"]))
    for t in TERRAINS:
        rows.append(row(f"{t} deck", [c for c in encs if c["terrain"] == t], depth=1))
    for ty in ENC_TYPES:
        rows.append(row(ty, [c for c in encs if c["type"] == ty], depth=1))

    rews = ids("reward")
    rows.append(row("rewards", rews, TARGETS["rewards"]))
    for d in REWARD_DECKS:
        rows.append(row(f"{d} deck", [c for c in rews if c["deck"] == d], depth=1))

    rows.append(row("races", ids("race"), TARGETS["races"]))
    rows.append(row("classes", ids("class"), TARGETS["classes"]))
    skills = ids("skill")
    rows.append(row("skills", skills, TARGETS["skills"]))
    for ty in SKILL_TYPES:
        rows.append(
            row(
                f"{ty} skills",
                [c for c in skills if c["type"] == ty],
                TARGETS["skills_per_type"],
                depth=1,
            )
        )
    sagas = ids("saga")
    rows.append(row("sagas (chapters, finale, totem)", sagas, TARGETS["sagas"]))
    ancients = ids("ancient")
    rows.append(row("ancients", ancients, TARGETS["ancients"]))
    for a in ancients:
        plots = [cards[p["id"]] for p in a["plots"] if p.get("id") in cards]
        rows.append(
            Row(
                f"plots of {a['name']}",
                per_ed(plots) if plots else {ed: 0 for ed in editions_of(content, a)},
                {ed: TARGETS["plots_per_ancient"] for ed in editions_of(content, a)},
                depth=1,
            )
        )
    night = ids("night")
    # END-1: Shadows needs 30 night cards for its game to end on day 25 with 4 heroes.
    rows.append(Row("night cards", per_ed(night), {"gloom": TARGETS["night"], "shadows": 30}))
    for ty in NIGHT_TYPES:
        rows.append(row(ty, [c for c in night if c["type"] == ty], depth=1))
    loot = ids("loot")
    rows.append(row("loot tokens", loot, TARGETS["loot"]))
    rows.append(row("gold tokens", [c for c in loot if c["gold"] and not c["deed"]], depth=1))
    rows.append(row("one-use tokens", [c for c in loot if c["deed"]], depth=1))
    return rows


def _has_effect(loc: dict) -> bool:
    return bool(loc.get("arrive") or loc.get("gloom_arrive") or loc.get("night"))


def encounter_matrix(content: Content) -> list[tuple[str, list[int], int]]:
    """(terrain, count per encounter type, total) for the encounter decks."""
    out = []
    for t in TERRAINS:
        cells = [
            sum(
                1
                for i in content.by_kind.get("encounter", [])
                if content.cards[i]["terrain"] == t and content.cards[i]["type"] == ty
            )
            for ty in ENC_TYPES
        ]
        out.append((t, cells, sum(cells)))
    return out


def unmet(rows: list[Row]) -> list[str]:
    """'encounters: 40 of 82' (or 'night cards: gloom 26, shadows 30 of 25') per row short."""
    out = []
    for r in rows:
        eds = [ed for ed in EDITIONS if r.met(ed) is False]
        if not eds or r.target is None:
            continue
        want = "/".join(sorted({str(r.target[ed]) for ed in eds}))
        want = f"at least {want}" if r.at_least else want
        counts = {r.counts.get(ed, 0) for ed in eds}
        if len(counts) == 1 and len(eds) == len(EDITIONS):
            got = str(counts.pop())
        else:
            got = ", ".join(f"{ed} {r.counts.get(ed, 0)}" for ed in eds)
        out.append(f"{r.label}: {got} of {want}")
    return out
