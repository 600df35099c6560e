"""Read-only lookups of public card data (names, values, keywords) for the board.

Card texts are public knowledge; what a viewer may see of the game is decided by the view dict
alone. Every lookup tolerates unknown ids (the content may change under a running game).
"""

from __future__ import annotations

from functools import lru_cache

from games.kilforth.engine import content

ATTRS = ("fight", "study", "sneak", "influence")
ATTR_LABEL = {"fight": "fight", "study": "study", "sneak": "sneak", "influence": "influence"}
ATTR_SHORT = {"fight": "Fgt", "study": "Stu", "sneak": "Snk", "influence": "Inf"}
TERRAIN_LABEL = {
    "badlands": "Badlands",
    "forest": "Forest",
    "mountain": "Mountain",
    "plains": "Plains",
    "none": "No terrain",
}
SYMBOL_LABEL = {"sun": "Sun shortcut", "moon": "Moon shortcut", "star": "Star shortcut"}


def card(cid: str | None) -> dict:
    """The card's declaration, or {} if unknown."""
    if not cid:
        return {}
    return content().cards.get(cid, {})


def card_name(cid: str | None) -> str:
    """A readable name for any card id (falls back to a tidied id)."""
    if not cid:
        return "a card"
    c = card(cid)
    if c.get("name"):
        return c["name"]
    tail = str(cid).rsplit(".", 1)[-1]
    return tail.replace("_", " ").capitalize()


def encounter_card(cid: str) -> dict:
    return card(cid)


def location_label(loc: dict) -> str:
    """'Owlmourn Wood (forest, gloom 1)' in words, for explanations."""
    terrain = TERRAIN_LABEL.get(loc.get("terrain", ""), loc.get("terrain", ""))
    side = f"in gloom, {loc['gloom_value']} HP a night" if loc.get("gloom") else "colour side"
    return f"{loc['name']} ({terrain.lower()}, {side})"


def keywords_of(cid: str) -> list[str]:
    """A card's keywords plus its reward deck or encounter type (those count as keywords)."""
    c = card(cid)
    kws = [str(k).lstrip("*") for k in c.get("keywords", [])]
    kind = c.get("kind")
    if kind == "reward" and c.get("deck"):
        kws.append(c["deck"])
    elif kind in ("encounter", "night") and c.get("type") not in (None, "weather"):
        kws.append(c["type"])
    return kws


def gold_value(cid: str) -> int:
    return int(card(cid).get("gold", 0) or 0)


def bonus_of(cid: str) -> dict[str, int]:
    return {k: v for k, v in (card(cid).get("bonus") or {}).items() if v}


@lru_cache(maxsize=64)
def female_name(race_id: str) -> str:
    c = card(race_id)
    return c.get("female") if isinstance(c.get("female"), str) else c.get("name", race_id)


def race_name(race_id: str, female: bool = False) -> str:
    if female:
        return female_name(race_id)
    return card_name(race_id)


def saga_stage(saga_id: str, chapter: int, heroes: int, edition: str) -> dict:
    """The hero's current saga step: label, keywords (with the player-count extras), where."""
    s = card(saga_id)
    out: dict = {
        "name": s.get("name", card_name(saga_id)),
        "chapter": chapter,
        "keywords": [],
        "label": "",
        "where": [],
        "attr": "",
        "need": 0,
        "interlude": False,
    }
    chapters = s.get("chapters") or []
    if 1 <= chapter <= len(chapters):
        st = chapters[chapter - 1]
        if edition == "shadows" and "interlude" in st:
            il = st["interlude"]
            out.update(
                label=f"Chapter {chapter}: interlude",
                interlude=True,
                keywords=list(il.get("keywords", [])) if heroes <= 2 else [],
                where=_where(il.get("where", []), edition),
                attr=il.get("attr", ""),
                need=il.get("need", 0),
            )
        else:
            kws = list(st.get("keywords", []))
            if heroes <= 2:
                kws += st.get("solo_keywords", [])
            out.update(label=f"Chapter {chapter} of 4", keywords=kws)
    elif chapter == len(chapters) + 1 and s.get("finale"):
        fin = s["finale"]
        out.update(
            label="Finale",
            where=_where(fin.get("where", []), edition),
            attr=fin.get("attr", ""),
            need=fin.get("need", 0),
        )
    elif chapter > len(chapters) + 1:
        out.update(label="Saga complete")
    return out


def _where(ids: list[str], edition: str) -> list[str]:
    return [card_name(i) for i in ids if card(i).get("edition") in (None, edition)]
