"""Guests stay who they are while they keep coming back.

A guest's identity is their session, which lasted 30 days from its creation however active the
guest was. Here any request of a session that holds a player renews it at most once a day:
the session is saved again, so both its stored expiry and the cookie's move 30 days ahead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .identity import PLAYER_KEY

RENEWED_KEY = "kilforth_renewed"


class KeepActiveGuests:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and session.get(PLAYER_KEY) is not None:
            today = timezone.now().date().isoformat()
            if session.get(RENEWED_KEY) != today:
                session[RENEWED_KEY] = today  # modified: saved with a fresh 30-day expiry
        return self.get_response(request)
