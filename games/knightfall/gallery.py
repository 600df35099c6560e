"""Knight Fall's cards on show (/cards/knightfall/): every character, power card, co-operative
card and location tile, read from the same content files the engine plays (validated on load)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.knightfall.engine.content import content

TEAMS = (("knights", "Knights"), ("demons", "Demons"))


def gallery(request: HttpRequest) -> HttpResponse:
    c = content()
    characters = {
        team: sorted(
            (
                {**ch, "coop": _words(ch.get("coop"))}
                for ch in c.chars.values()
                if ch["team"] == team
            ),
            key=_name,
        )
        for team, _ in TEAMS
    }
    cards = {
        team: sorted((card for card in c.cards.values() if card["team"] == team), key=_name)
        for team, _ in TEAMS
    }
    basic = next((card for card in c.cards.values() if card["team"] == "any"), None)
    context = {
        "teams": [
            {
                "key": team,
                "name": label,
                "characters": characters[team],
                "cards": cards[team],
                "deck": sum(card.get("copies", 1) for card in cards[team]),
            }
            for team, label in TEAMS
        ],
        "basic": basic,
        "coop": list(c.coop.values()),
        "tiles": list(c.tiles.values()),
    }
    return render(request, "knightfall/gallery.html", context)


def _name(item: dict) -> str:
    return str(item["name"])


def _words(clarification: object) -> str:
    """A character's co-op clarification ({"text", "traits"}, a sentence, or a list) as text."""
    if isinstance(clarification, dict):
        clarification = clarification.get("text", "")
    if isinstance(clarification, list):
        return " ".join(str(line) for line in clarification)
    return str(clarification or "")
