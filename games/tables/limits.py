"""Limits on abuse: how often a person may open tables, rename, sign up and log in, and how
many open tables one person may host (django-ratelimit, keyed by person and by IP address).

A person is their player (a guest or an account), else their session, else their address.
Counters live in the default cache: per process on the embedded default (one process), in Redis
when REDIS_URL is set (shared by every process). KILFORTH_RATE_LIMITS=0 switches them off.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from .identity import PLAYER_KEY

# (per person, per address): a person never needs more; a crowd behind one address gets room.
CREATE_TABLE = ("10/10m", "30/10m")
RENAME = ("10/10m", "30/10m")
SIGN_UP = ("5/h", "20/h")
LOG_IN = ("10/10m", "30/10m")
# Open tables (gathering, choosing or in play) one person may host at once.
MAX_OPEN_TABLES = getattr(settings, "KILFORTH_MAX_OPEN_TABLES", 5)


def person(group: str, request: HttpRequest) -> str:
    session = getattr(request, "session", None)
    if session is not None:
        player = session.get(PLAYER_KEY)
        if player is not None:
            return f"p{player}"
        if session.session_key:
            return f"s{session.session_key}"
    return f"a{request.META.get('REMOTE_ADDR', '')}"


def login_name(group: str, request: HttpRequest) -> str:
    """Log-in attempts for one account name, whoever makes them."""
    return f"u{request.POST.get('username', '')[:150].casefold()}"
