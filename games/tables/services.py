"""Every write to the lobby goes through one function here (views -> check_* -> do_*).

Each do_* function checks permissions and state, makes its change in one transaction, bumps the
table's version and schedules the broadcast for after commit, so no browser is ever told about a
change that was rolled back. Views and consumers only translate requests into these calls and
ServiceError into an HTTP status or a websocket error frame.
"""

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from . import realtime
from .identity import PLAYER_ACCESS
from .models import Connection, Player, Seat, Table, TableStatus


class ServiceError(Exception):
    """A refused request: `status` is the HTTP status, `message` is shown to the person."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


NAME_MAX = 40


def clean_display_name(raw: str) -> str:
    name = " ".join((raw or "").split())
    if not name:
        raise ServiceError("Please choose a display name.")
    if len(name) > NAME_MAX:
        raise ServiceError(f"A display name has at most {NAME_MAX} characters.")
    return name


def do_set_display_name(player: Player | None, raw_name: str) -> Player:
    name = clean_display_name(raw_name)
    with transaction.atomic():
        if player is None:
            return Player.objects.create(name=name)
        player.name = name
        player.save(update_fields=["name"])
        tables = list(
            Table.objects.filter(seats__player=player).exclude(status=TableStatus.CLOSED)
        ) + list(player.hosted_tables.exclude(status=TableStatus.CLOSED))
        for table in {t.pk: t for t in tables}.values():
            _touch(table)
    return player


def do_create_table(host: Player, settings: dict[str, Any]) -> Table:
    with transaction.atomic():
        table = Table.objects.create(host=host, **settings)
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(table.seat_count))
        _after_commit(table)
    return table


def _locked_table(table: Table) -> Table:
    # On PostgreSQL this serialises writers to one table; SQLite's IMMEDIATE transactions
    # (see settings) already serialise all writers, and select_for_update is a no-op there.
    return Table.objects.select_for_update().get(pk=table.pk)


def check_open(table: Table) -> None:
    if table.status == TableStatus.CLOSED:
        raise Conflict("This table has been closed.")
    if table.status != TableStatus.OPEN:
        raise Conflict("The game has started; seats and settings can no longer change.")


def check_host(table: Table, actor: Player | None) -> None:
    if actor is None or table.host_id != actor.pk:
        raise Forbidden("Only the host of this table can do that.")


def do_take_seat(table: Table, player: Player | None, number: int, access: str | None) -> Seat:
    """Sit down in a free seat; a player already seated here moves to the new seat."""
    if player is None:
        raise Forbidden("Choose a display name before taking a seat.")
    if access != PLAYER_ACCESS:
        raise Forbidden("You need the table's invite link to take a seat.")
    with transaction.atomic():
        table = _locked_table(table)
        check_open(table)
        seat = Seat.objects.filter(table=table, number=number).first()
        if seat is None:
            raise NotFound(f"This table has no seat {number + 1}.")
        if seat.player_id == player.pk:
            raise Conflict("You are already in that seat.")
        if seat.player_id is not None:
            raise Conflict(f"{seat.label} is already taken.")
        Seat.objects.filter(table=table, player=player).update(player=None)
        # The conditional update is the real guard: of two racing requests only one matches.
        try:
            taken = Seat.objects.filter(pk=seat.pk, player__isnull=True).update(player=player)
        except IntegrityError as exc:
            raise Conflict("You already have a seat at this table.") from exc
        if taken != 1:
            raise Conflict(f"{seat.label} is already taken.")
        _touch(table)
    seat.player = player
    return seat


def do_leave_seat(table: Table, player: Player | None) -> None:
    with transaction.atomic():
        table = _locked_table(table)
        check_open(table)
        left = Seat.objects.filter(table=table, player=player).update(player=None)
        if player is None or left == 0:
            raise Conflict("You have no seat at this table.")
        _touch(table)


def do_remove_player(table: Table, actor: Player | None, number: int) -> None:
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        check_open(table)
        seat = Seat.objects.filter(table=table, number=number).first()
        if seat is None:
            raise NotFound(f"This table has no seat {number + 1}.")
        if seat.player_id is None:
            raise Conflict(f"{seat.label} is already empty.")
        seat.player = None
        seat.save(update_fields=["player"])
        _touch(table)


def do_update_settings(
    table: Table, actor: Player | None, settings: dict[str, Any], seen_version: int
) -> Table:
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        check_open(table)
        if seen_version != table.version:
            raise Conflict(
                "The table changed while you were editing. Please review and save again."
            )
        new_count = settings.get("seat_count", table.seat_count)
        seated_beyond = table.seats.filter(number__gte=new_count, player__isnull=False)
        if seated_beyond.exists():
            names = ", ".join(s.label for s in seated_beyond)
            raise Conflict(f"Players still sit in {names}; remove them before reducing the seats.")
        for field, value in settings.items():
            setattr(table, field, value)
        table.save()
        table.seats.filter(number__gte=new_count).delete()
        existing = set(table.seats.values_list("number", flat=True))
        Seat.objects.bulk_create(
            Seat(table=table, number=n) for n in range(new_count) if n not in existing
        )
        _touch(table)
    table.refresh_from_db()
    return table


def do_close_table(table: Table, actor: Player | None) -> None:
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        if table.status == TableStatus.CLOSED:
            raise Conflict("This table is already closed.")
        Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
        _touch(table)


def do_start_game(table: Table, actor: Player | None) -> None:
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        check_open(table)
        if table.seats.filter(player__isnull=True).exists():
            raise Conflict("Every seat must be taken before the game can start.")
        # The rules engine is wired to tables in a later step; until then nothing starts.
        raise Conflict("Games cannot be started yet: the rules engine is not wired in.")


def do_connect(table: Table, channel_name: str, viewer: str, player: Player | None) -> None:
    with transaction.atomic():
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults={"table": table, "viewer": viewer, "player": player},
        )
        realtime.on_commit_presence(table.pk)


def do_disconnect(channel_name: str) -> None:
    with transaction.atomic():
        connection = Connection.objects.filter(channel_name=channel_name).first()
        if connection is None:
            return
        table_id = connection.table_id
        connection.delete()
        realtime.on_commit_presence(table_id)


def _touch(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    _after_commit(table)


def _after_commit(table: Table) -> None:
    realtime.on_commit_table_changed(table.pk)
