"""Chat at a table: players' chat, spectators' chat, system lines, mutes (views -> do_*).

Every write is one transaction and is broadcast after commit to the table's group as
{"type": "chat.message", "channel", "html", "author"}; each socket shows it or not by what its
viewer may read (`may_read`): a spectators' line reaches a seated player only when the host
has opened that chat. Lines are rendered once, escaped, names isolated (<bdi>); only a link to
this site is made clickable (`linked`), and then only as a path on it.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from . import kits, realtime
from .models import (
    SPECTATOR_CHAT_HIDDEN,
    SPECTATOR_CHAT_SHOWN,
    ChatChannel,
    ChatMessage,
    ChatMute,
    Player,
    Seat,
    Table,
    TableStatus,
)
from .services import Conflict, Forbidden, ServiceError, check_host

MAX_CHARS = 500
# A person may send BURST lines per WINDOW seconds (across every socket and process).
BURST = 5
WINDOW = 10
SHOWN = 100  # lines a page opens with, per table


class ChatRefused(ServiceError):
    code = "chat"


def clean_text(raw: object) -> str:
    """The text to post, or ChatRefused with what is wrong with it."""
    if not isinstance(raw, str):
        raise ChatRefused("A chat message must be text.")
    text = raw.strip()
    if not text:
        raise ChatRefused("Write something before sending.")
    if len(text) > MAX_CHARS:
        raise ChatRefused(f"A chat message is at most {MAX_CHARS} characters ({len(text)} here).")
    # Control characters (tabs and line breaks too: a chat line is one line) and the invisible
    # formatting ones that reorder or hide text (bidi overrides, zero-width joiners...).
    if any(unicodedata.category(c) in {"Cc", "Cf"} for c in text):
        raise ChatRefused("A chat message cannot hold control or invisible formatting characters.")
    return text


# An address written out in a line: scheme, host (a name, an IPv4 address or a bracketed IPv6
# one), an optional port, then an optional path that starts with one slash.
URL = re.compile(
    r"https?://(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?"
    r"(?P<path>/(?!/)[A-Za-z0-9\-._~/?#@!$&'()*+,;=%:]*)?(?![A-Za-z0-9\-.:\[/])"
)


def own_hosts() -> set[str]:
    """The names this site answers to (ALLOWED_HOSTS without patterns: "*" or ".example.org"
    would count every address, or another site's, as this one)."""
    return {h.lower() for h in settings.ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")}


def linked(text: str) -> SafeString:
    """A chat line's text, escaped, with the addresses of this site made links. A link is only
    ever the path (`href="/t/..."`): it can lead nowhere but here, whatever the host said. Any
    other address stays plain text."""
    hosts = own_hosts()
    out: list[str] = []
    pos = 0
    for found in URL.finditer(text):
        # A sentence's full stop or closing bracket is not part of the address.
        url = found.group(0).rstrip(".,;:!?)'")
        own = URL.fullmatch(url)
        if own is None or own.group("host").lower() not in hosts:
            continue
        out.append(escape(text[pos : found.start()]))
        out.append(f'<a href="{escape(own.group("path") or "/")}" rel="nofollow">{escape(url)}</a>')
        pos = found.start() + len(url)
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))


def may_read(
    channel: str, seated: bool, chat_open: bool, team: str = "", my_team: str | None = None
) -> bool:
    """Whether a viewer (seated or not; of `my_team`) may read a line of `channel`/`team`."""
    if channel == ChatChannel.TEAM:
        return seated and my_team is not None and team == my_team
    return channel == ChatChannel.TABLE or not seated or chat_open


def team_of(table: Table, seat: int | None) -> str | None:
    """The team a seat plays for in a team game (the kit's `teams`), else None."""
    if seat is None:
        return None
    names = kits.kit_for(table).teams(table.options, table.seat_count)
    return names[seat] if names and 0 <= seat < len(names) else None


def _author_seat(table: Table, player: Player) -> int | None:
    return Seat.objects.filter(table=table, player=player).values_list("number", flat=True).first()


def do_post(table: Table, player: Player | None, raw: object, to_team: bool = False) -> ChatMessage:
    """A person writes a line: a seated player's goes to the table chat (or, `to_team`, to
    their team's chat in a team game), anyone else's to the spectators' chat (the channel
    follows the seat, so no page can pick the wrong one)."""
    text = clean_text(raw)
    if player is None:
        raise Forbidden("Choose a display name before chatting.")
    with transaction.atomic():
        table = Table.objects.get(pk=table.pk)
        if table.status == TableStatus.CLOSED:
            raise Conflict("This table has been closed.")
        if ChatMute.objects.filter(table=table, player=player).exists():
            raise Forbidden("The host has muted you at this table.")
        seat = _author_seat(table, player)
        channel = ChatChannel.SPECTATORS if seat is None else ChatChannel.TABLE
        team = ""
        if to_team:
            if seat is None:
                raise Forbidden("Only a seated player has a team to talk to.")
            team = team_of(table, seat) or ""
            if not team:
                raise ChatRefused("This game has no teams; your line would go to everyone.")
            channel = ChatChannel.TEAM
        since = timezone.now() - timedelta(seconds=WINDOW)
        if ChatMessage.objects.filter(author=player, created__gte=since).count() >= BURST:
            raise ChatRefused(f"Slow down: at most {BURST} messages every {WINDOW} seconds.")
        message = ChatMessage.objects.create(
            table=table,
            channel=channel,
            author=player,
            author_name=player.name,
            seat=seat,
            team=team,
            text=text,
        )
        _broadcast_on_commit(message)
    return message


def system(table_id: int, text: str, reread: bool = False) -> None:
    """A system line in the table chat ("Ann left seat 2"), inside the caller's transaction.

    `reread`: what the seated players may read changed with it (the spectators' chat was shown
    to them): their sockets are sent their whole chat again, this line included."""
    message = ChatMessage.objects.create(table_id=table_id, channel=ChatChannel.TABLE, text=text)
    _broadcast_on_commit(message, reread)


def do_mute(table: Table, actor: Player | None, player_id: object, muted: bool) -> None:
    """The host mutes (or lets speak again) one person at this table."""
    try:
        target = Player.objects.get(pk=int(player_id))
    except (TypeError, ValueError, OverflowError, Player.DoesNotExist) as exc:
        raise ChatRefused("Who? That person is not known here.") from exc
    with transaction.atomic():
        table = Table.objects.get(pk=table.pk)
        check_host(table, actor)
        if target.pk == table.host_id:
            raise ChatRefused("The host cannot mute themselves.")
        if muted:
            ChatMute.objects.get_or_create(table=table, player=target)
            system(table.pk, f"The host muted {target.name}.")
        else:
            ChatMute.objects.filter(table=table, player=target).delete()
            system(table.pk, f"The host let {target.name} speak again.")


def do_open_spectator_chat(table: Table, actor: Player | None, open_: bool) -> None:
    """The host shows the spectators' chat to the players (or hides it again). Everyone is told
    in a system line, which also brings every page's chat panel (its note, the host's button)
    up to date; asking for what already holds changes nothing."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        check_host(table, actor)
        if table.chat_open == open_:
            return
        Table.objects.filter(pk=table.pk).update(chat_open=open_)
        # Shown: the players read what the spectators said before it too, as after a reload.
        # Hidden: what they have read stays on their pages (a host mutes from a line).
        system(table.pk, SPECTATOR_CHAT_SHOWN if open_ else SPECTATOR_CHAT_HIDDEN, reread=open_)
        realtime.on_commit_table_changed(table.pk, bump=True, lobby=False)


def render_line(message: ChatMessage) -> str:
    return render_to_string("tables/_chat_line.html", {"m": message})


def recent(table: Table, seated: bool, team: str | None = None) -> list[ChatMessage]:
    """The newest lines this viewer (of `team`, in a team game) may read, oldest first."""
    readable = Q(channel=ChatChannel.TABLE)
    if may_read(ChatChannel.SPECTATORS, seated, table.chat_open):
        readable |= Q(channel=ChatChannel.SPECTATORS)
    if seated and team:
        readable |= Q(channel=ChatChannel.TEAM, team=team)
    lines = ChatMessage.objects.filter(table=table).filter(readable)
    return list(reversed(lines.order_by("-pk")[:SHOWN]))


def said_by(table: Table, moment: datetime) -> list[ChatMessage]:
    """The players' chat (the table channel, which everyone there read) up to `moment`, for a
    replay; the newest SHOWN lines, oldest first."""
    lines = ChatMessage.objects.filter(
        table=table, channel=ChatChannel.TABLE, created__lte=moment
    ).order_by("-pk")
    return list(reversed(lines[:SHOWN]))


def lines_html(table_id: int, seated: bool, team: str | None = None) -> str:
    """The chat a page opens with (`recent`), as the lines of `#chat-log`."""
    table = Table.objects.get(pk=table_id)
    return "".join(render_line(m) for m in recent(table, seated, team))


def _broadcast_on_commit(message: ChatMessage, reread: bool = False) -> None:
    event = {
        "type": "chat.message",
        "table": message.table_id,
        "channel": message.channel,
        "team": message.team,
        "html": render_line(message),
        "reread": reread,
    }
    transaction.on_commit(lambda: realtime.send_to_table(message.table_id, event))
