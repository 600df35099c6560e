"""Who is asking: the Player behind a session, and what a session may do at an unlisted table.

Guests have no account, so the session is their identity; an account simply owns a Player too.
Both HTTP views and websocket consumers read the same session keys through these helpers.
"""

from collections.abc import MutableMapping
from typing import Any

from .models import Player, Table, one

PLAYER_KEY = "kilforth_player_id"
ACCESS_KEY = "kilforth_table_access"

PLAYER_ACCESS = "player"
SPECTATOR_ACCESS = "spectator"

Session = MutableMapping[str, Any]


def player_id_from_session(session: Session) -> int | None:
    """The id of the session's Player, unread (it may be gone: a seat or host check then fails)."""
    player_id = session.get(PLAYER_KEY)
    return None if player_id is None else int(player_id)


def player_from_session(session: Session) -> Player | None:
    player_id = player_id_from_session(session)
    if player_id is None:
        return None
    return one(Player.objects.filter(pk=player_id))


def remember_player(session: Session, player: Player) -> None:
    session[PLAYER_KEY] = player.pk


def grant_access(session: Session, table: Table, level: str) -> None:
    access = dict(session.get(ACCESS_KEY, {}))
    # A player invitation outranks a spectate link: never downgrade what a session already has.
    if access.get(str(table.pk)) != PLAYER_ACCESS:
        access[str(table.pk)] = level
    session[ACCESS_KEY] = access


def access_level(session: Session, table: Table, player: Player | None) -> str | None:
    """PLAYER_ACCESS, SPECTATOR_ACCESS, or None when this session may not see the table at all."""
    if player is not None and (
        table.host_id == player.pk or table.seats.filter(player=player).exists()
    ):
        return PLAYER_ACCESS
    # Anyone may sit at a public table, whatever link they came by (a spectate link too).
    if table.is_public:
        return PLAYER_ACCESS
    return session.get(ACCESS_KEY, {}).get(str(table.pk)) or None
