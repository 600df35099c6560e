"""Card effects in plain words: a list of engine steps -> one readable sentence.

Every step kind card files may use (games.kilforth.engine.cards.steps.CARD_STEPS) has a phrase
here; a kind added to the engine later still reads sensibly through the generic fallback
("Steal gold (n 2)") until it gets its own phrase.
"""

from __future__ import annotations

from collections.abc import Callable

ATTR_WORD = {"fight": "fight", "study": "study", "sneak": "sneak", "influence": "influence"}


def _n(s: dict, default: int = 1) -> int:
    n = s.get("n", default)
    return n if isinstance(n, int) else default


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _choose(s: dict) -> str:
    options = [o.get("label") or steps_text(o.get("steps", [])) for o in s.get("options", [])]
    who = "the first hero chooses" if s.get("who") == "first" else "choose"
    return f"{who}: " + " or ".join(f"“{o}”" for o in options)


def _each_hero(s: dict) -> str:
    who = "every hero at this location" if s.get("here") else "every hero"
    return f"{who} {third_person(steps_text(s.get('steps', [])))}"


def _test_gate(s: dict) -> str:
    attr = ATTR_WORD.get(str(s.get("attr")), str(s.get("attr", "")))
    need = s.get("need", 1)
    text = f"make a {attr} test needing {_plural(need, 'success', 'successes')}"
    if s.get("pass"):
        text += f"; on success {steps_text(s['pass'])}"
    if s.get("fail"):
        text += f"; on failure {steps_text(s['fail'])}"
    return text


def _if_side(s: dict) -> str:
    text = f"with the {s.get('side')} showing: {steps_text(s.get('then', []))}"
    if s.get("else"):
        text += f"; otherwise {steps_text(s['else'])}"
    return text


PHRASES: dict[str, Callable[[dict], str]] = {
    "gain_gold": lambda s: f"gain {_n(s)} gold",
    "lose_gold": lambda s: f"lose {_n(s)} gold",
    "gain_hp": lambda s: f"heal {_n(s)} HP",
    "lose_hp": lambda s: f"lose {_n(s)} HP",
    "lose_ap": lambda s: f"lose {_n(s)} AP",
    "gain_fate": lambda s: f"gain {_n(s)} fate",
    "draw_loot": lambda s: "draw a loot token",
    "draw_reward": lambda s: f"draw {_article(str(s.get('deck', 'reward')))} card as a rumour",
    "place_obstacle": lambda s: "place an obstacle on your location",
    "choose": _choose,
    "each_hero": _each_hero,
    "test_gate": _test_gate,
    "move_to_centre": lambda s: "go back to the centre",
    "hide": lambda s: "become hidden",
    "extra_night_card": lambda s: "draw and resolve one more night card",
    "log_text": lambda s: str(s.get("text", "")),
    "if_side": _if_side,
    "flip_side": lambda s: "turn the choose-sides token over",
}


def step_text(s: dict) -> str:
    """One step in words (lower case, no full stop)."""
    kind = str(s.get("k", "?"))
    phrase = PHRASES.get(kind)
    if phrase is not None:
        return phrase(s)
    params = ", ".join(f"{k} {v}" for k, v in s.items() if k != "k" and not isinstance(v, list))
    words = kind.replace("_", " ")
    return f"{words} ({params})" if params else words


def has_phrase(kind: str) -> bool:
    return kind in PHRASES


def third_person(text: str) -> str:
    """'gain 1 gold, then lose 1 HP' -> 'gains 1 gold, then loses 1 HP'."""
    out = []
    for part in text.split(", then "):
        head, _, rest = part.partition(" ")
        if head in ("the", "every", "make", "choose:", "with") or not head.isalpha():
            verb = {"make": "makes", "choose:": "chooses:"}.get(head, head)
        elif head.endswith(("o", "s", "sh", "ch")):
            verb = head + "es"
        else:
            verb = head + "s"
        out.append(f"{verb} {rest}".strip())
    return ", then ".join(out)


def steps_text(steps: list | None) -> str:
    """Several steps in order: 'lose 1 HP, then gain 1 gold' (lower case, no full stop).

    When a step has branches ('on success ...; on failure ...'), the following steps start a
    new sentence so it is clear they happen either way.
    """
    parts = [step_text(s) for s in steps or [] if isinstance(s, dict)]
    parts = [p for p in parts if p]
    if not parts:
        return ""
    if any(";" in p for p in parts[:-1]):
        return ". Then ".join(parts)
    return ", then ".join(parts)


def sentence(steps: list | None) -> str:
    """Steps as a sentence: 'Lose 1 HP, then gain 1 gold.'"""
    text = steps_text(steps)
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "”")) else text + "."
