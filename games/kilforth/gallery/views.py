"""Function views of the card gallery: every card as the game draws it, filtered by GET."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from games.kilforth.engine.cards.catalogue import ENC_TYPES, TERRAINS

from .faces import (
    DECK_LABEL,
    EDITION_LABEL,
    KIND_LABEL,
    KINDS,
    TERRAIN_LABEL,
    TYPE_LABEL,
    UnknownCard,
    all_ids,
    card_view,
    facets,
)

# (GET name, label, [(value, label)]) in the order the form shows them.
FILTERS: tuple[tuple[str, str, list[tuple[str, str]]], ...] = (
    ("kind", "Kind", [(k, KIND_LABEL[k][1]) for k in KINDS]),
    ("type", "Type", [(t, TYPE_LABEL[t]) for t in (*ENC_TYPES, "weather")]),
    ("terrain", "Terrain", [(t, TERRAIN_LABEL[t]) for t in (*TERRAINS, "none")]),
    ("deck", "Deck", list(DECK_LABEL.items())),
    ("edition", "Edition", list(EDITION_LABEL.items())),
)


def chosen_filters(query: dict) -> dict[str, str]:
    """The valid filters of a query string; unknown names and values are ignored."""
    out = {}
    for name, _label, options in FILTERS:
        value = query.get(name, "")
        if value in {v for v, _ in options}:
            out[name] = value
    return out


def gallery_context(query: dict) -> dict:
    """Cards shown (grouped by kind), and each filter's options with how many cards each gives."""
    chosen = chosen_filters(query)
    ids = all_ids()
    tags = {cid: facets(cid) for cid in ids}

    def matches(cid: str, skip: str = "") -> bool:
        return all(v in tags[cid][name] for name, v in chosen.items() if name != skip)

    shown = [cid for cid in ids if matches(cid)]
    filters = []
    for name, label, options in FILTERS:
        pool = [cid for cid in ids if matches(cid, skip=name)]
        opts = [{"value": "", "label": "All", "count": len(pool), "selected": name not in chosen}]
        for value, text in options:
            n = sum(1 for cid in pool if value in tags[cid][name])
            opts.append(
                {"value": value, "label": text, "count": n, "selected": chosen.get(name) == value}
            )
        filters.append({"name": name, "label": label, "options": opts, "value": chosen.get(name)})
    groups: dict[str, list[dict]] = {}
    for cid in shown:
        view = card_view(cid)
        groups.setdefault(view["kind"], []).append(view)
    active = [
        {"name": f["label"], "label": next(o["label"] for o in f["options"] if o["selected"])}
        for f in filters
        if f["value"]
    ]
    return {
        "filters": filters,
        "active": active,
        "groups": [
            {"kind": k, "label": KIND_LABEL.get(k, (k, k.capitalize()))[1], "cards": cards}
            for k, cards in groups.items()
        ],
        "shown": len(shown),
        "total": len(ids),
    }


@require_GET
@vary_on_headers("HX-Request")
def gallery(request: HttpRequest) -> HttpResponse:
    """/cards/: the whole set; an htmx request for new filters gets only the gallery part."""
    context = gallery_context(request.GET)
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        # `partial`: also tell screen readers, through the page's live region, what changed.
        response = render(request, "kilforth/gallery/_gallery.html", {**context, "partial": True})
        # The address bar shows only the filters in use, not every empty field of the form.
        query = urlencode(chosen_filters(request.GET))
        return push_url(response, reverse("cards") + (f"?{query}" if query else ""))
    return render(request, "kilforth/gallery/gallery.html", context)


@require_GET
def card(request: HttpRequest, card_id: str) -> HttpResponse:
    """/cards/<id>/: one card drawn large, with everything about it in words."""
    try:
        view = card_view(card_id)
    except UnknownCard:
        raise Http404("No card has this id.") from None
    same_kind = [cid for cid in all_ids() if card_view(cid)["kind"] == view["kind"]]
    i = same_kind.index(card_id)
    context = {
        "card": view,
        "previous": card_view(same_kind[i - 1]) if i > 0 else None,
        "next": card_view(same_kind[i + 1]) if i + 1 < len(same_kind) else None,
        "position": i + 1,
        "of": len(same_kind),
        "kind_plural": KIND_LABEL.get(view["kind"], ("", view["kind_label"]))[1],
    }
    return render(request, "kilforth/gallery/card.html", context)
