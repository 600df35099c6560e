"""Small phrase helpers for the explanations options carry (see steps.option).

Each option states its own explanation where it is made; these helpers only word the facts that
many options share (a location, a card, an amount), always from the state and the card data.
"""

from __future__ import annotations

from games.kilforth.engine.rules.position import card, is_enemy_for, name
from games.kilforth.engine.state import State


def gold(n: int) -> str:
    """'1 gold', '5 gold'."""
    return f"{n} gold"


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 success', '3 successes' ('many' overrides the plural form)."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or word + 's'}"


def finish(text: str) -> str:
    """A sentence that ends with exactly one full stop."""
    text = text.strip().rstrip(".!?;:, ")
    return text + "." if text else ""


def place(state: State, i: int, seat: int) -> str:
    """What a hero would find at location `i`, as one sentence.

    'Mossveil Thicket (forest, colour side): Dune Stalker (enemy) is there, and it attacks you.'
    """
    loc = state.map[i]
    lc = card(loc["id"])
    side = f"in gloom, {lc['gloom']} HP a night" if loc["gloom"] else "colour side"
    terrain = "no terrain" if lc["terrain"] == "none" else lc["terrain"]
    head = f"{lc['name']} ({terrain}, {side})"
    bits = []
    encs = [f"{name(c)} ({card(c)['type']})" for c in loc["enc"]]
    if encs:
        bits.append(", ".join(encs) + (" is there" if len(encs) == 1 else " are there"))
        foes = [c for c in loc["enc"] if is_enemy_for(state, c, seat)]
        if foes:
            bits.append("you must fight " + ("it" if len(foes) == 1 else "them") + " on arrival")
    elif lc["terrain"] != "none":
        bits.append(f"no encounter yet, so a {lc['terrain']} encounter is drawn there")
    else:
        bits.append("nothing is drawn there")
    if loc["obstacles"]:
        bits.append(plural(loc["obstacles"], "obstacle") + " block it")
    if lc.get("market"):
        bits.append("it has a market")
    return finish(f"{head}: " + "; ".join(bits))


def card_text(cid: str) -> str:
    """'Moonsilver Sabre: item, 5 gold; +1 fight; keywords blade, silver.' from the card data."""
    c = card(cid)
    if c.get("kind") == "skill":
        bits = [f"level {c['level']} {c['type']} skill"]
    else:
        kind = c.get("deck") or c.get("type") or c.get("kind", "card")
        bits = [f"{kind}, {gold(c.get('gold', 0))}" if c.get("gold") else str(kind)]
    bonus = ", ".join(f"{v:+d} {a}" for a, v in (c.get("bonus") or {}).items() if v)
    if bonus:
        bits.append(bonus)
    kws = [str(k).lstrip("*") for k in c.get("keywords") or []]
    if kws:
        bits.append("keywords " + ", ".join(kws))
    if c.get("text"):
        bits.append(str(c["text"]).strip().rstrip("."))
    return finish(f"{c['name']}: " + "; ".join(bits))


def hero(state: State, seat: int) -> str:
    return state.heroes[seat]["name"]
