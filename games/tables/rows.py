"""A decision's statements, without Django's query compiler.

Every decision reads its table (locked), the table's host and game, and every seat with its player
(`services._decision_rows`), with the session of the socket that sent it (`session_data`: a
session logged out since must not decide); it writes the game, its `Action`, the seats' clocks
and the table's version, and reads who is watching for its broadcast (`presence_later`).
Through the ORM, compiling those statements cost more than running them: about 2 ms of CPU a
decision for the two reads alone on this machine, most of it building and compiling one column
expression per field, again for every decision (docs/benchmarks.md). Here each statement's SQL and
each column's converters are made once per database, and the rows are turned into the same model
instances the ORM builds: `Model.from_db` with the values the field converters gave, the related
rows put in the caches `select_related` fills, the fields left out deferred. A write's values are
prepared by their fields, as the ORM prepares them. Every name in the SQL comes from the models'
`_meta`. Each function looks the database's connection up once (`_db`): Django's `connection`
looks it up in asgiref's thread-critical storage at every attribute read (about 1.7 us each, some
50 a decision; docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model
from django.utils import timezone

from .models import Connection, Game, Player, Seat, Table

Converter = Callable[[Any, Any, Any], Any]


def _db() -> Any:
    """The default database's connection of this thread, looked up once by each function here
    (the module's `connection` is a proxy that looks it up again at every attribute)."""
    return connections[DEFAULT_DB_ALIAS]


@dataclass(frozen=True)
class Columns:
    """Some concrete columns of one model under a table alias, as SQL and as converters."""

    model: type[Model]
    attnames: tuple[str, ...]
    sql: str
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]

    @classmethod
    def of(cls, model: type[Model], alias: str, leave_out: Sequence[str] = ()) -> Columns:
        fields = [f for f in model._meta.concrete_fields if f.name not in leave_out]
        assert fields[0].primary_key  # `build` tells a missing joined row by it
        quote = connection.ops.quote_name
        sql = ", ".join(f"{quote(alias)}.{quote(f.column)}" for f in fields)
        converters = []
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            # As the compiler applies them: the backend's, then the field's own.
            found = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
            if found:
                converters.append((i, found, col))
        return cls(model, tuple(f.attname for f in fields), sql, tuple(converters))

    @property
    def width(self) -> int:
        return len(self.attnames)

    def build(self, row: Sequence[Any], start: int, db: Any = None) -> Model | None:
        """The instance in `row[start:start + width]`; None for a left join that found none.
        `db`: the connection it was read on (else the default one)."""
        values = list(row[start : start + self.width])
        if values[0] is None:  # the primary key comes first: no row was joined
            return None
        db = _db() if db is None else db
        for i, converters, col in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, col, db)
            values[i] = value
        return self.model.from_db(db.alias, self.attnames, values)


@dataclass(frozen=True)
class Statements:
    table: str
    seats: str
    table_columns: Columns
    host_columns: Columns
    game_columns: Columns
    seat_columns: Columns
    player_columns: Columns


_HOST = Table._meta.get_field("host")
_GAME = Table._meta.get_field("game_state")  # the reverse side of Game.table
_GAME_TABLE = Game._meta.get_field("table")
_SEAT_PLAYER = Seat._meta.get_field("player")
_SEAT_TABLE = Seat._meta.get_field("table")

_made: dict[tuple[str, str], Statements] = {}


def _statements(db: Any = None) -> Statements:
    db = _db() if db is None else db
    key = (db.alias, db.vendor)
    found = _made.get(key)
    if found is not None:
        return found
    quote = db.ops.quote_name
    table = Columns.of(Table, "t")
    host = Columns.of(Player, "h")
    # Not the game's documents: the state is cached, the first state and opening are for replays.
    game = Columns.of(Game, "g", leave_out=("state", "opening", "initial"))
    seat = Columns.of(Seat, "s")
    player = Columns.of(Player, "p")
    # Only the table's row is locked (the seats are written under its lock); SQLite has no row
    # locks and needs none: its transactions begin IMMEDIATE, one writer at a time.
    lock = f" FOR UPDATE OF {quote('t')}" if db.features.has_select_for_update_of else ""

    def col(alias: str, field: Any) -> str:
        return f"{quote(alias)}.{quote(field.column)}"

    made = Statements(
        table=(
            f"SELECT {table.sql}, {host.sql}, {game.sql}"
            f" FROM {quote(Table._meta.db_table)} {quote('t')}"
            f" LEFT OUTER JOIN {quote(Player._meta.db_table)} {quote('h')}"
            f" ON {col('h', Player._meta.pk)} = {col('t', _HOST)}"
            f" LEFT OUTER JOIN {quote(Game._meta.db_table)} {quote('g')}"
            f" ON {col('g', _GAME_TABLE)} = {col('t', Table._meta.pk)}"
            f" WHERE {col('t', Table._meta.pk)} = %s{lock}"
        ),
        seats=(
            f"SELECT {seat.sql}, {player.sql}"
            f" FROM {quote(Seat._meta.db_table)} {quote('s')}"
            f" LEFT OUTER JOIN {quote(Player._meta.db_table)} {quote('p')}"
            f" ON {col('p', Player._meta.pk)} = {col('s', _SEAT_PLAYER)}"
            f" WHERE {col('s', _SEAT_TABLE)} = %s"
        ),
        table_columns=table,
        host_columns=host,
        game_columns=game,
        seat_columns=seat,
        player_columns=player,
    )
    _made[key] = made
    return made


class DecisionRows(NamedTuple):
    """What a decision reads first (`decision_rows`)."""

    table: Table
    seats: list[Seat]
    # The stored data of the session named, as `session_data` reads it (None: none was named,
    # or it is gone or expired).
    session: str | None


def decision_rows(table_id: int, session_key: str | None = None) -> DecisionRows | None:
    """The table (locked, in the caller's transaction) with its host and its game's id and
    version, and its seats in seat order with their players; None if the table is gone. The
    same instances as `select_related` gives (`tests/tables/test_rows.py`).

    `session_key`: the session of the socket that sent the decision is read with them, in the
    same round trip (its player is whoever the session names now: a session logged out since
    names nobody), where it would otherwise take one of its own before the decision's."""
    db = _db()
    made = _statements(db)
    # Sent together (`pipelined`): the transaction's start, the table, its seats (and the
    # session).
    with (
        db.cursor() as tables,
        db.cursor() as seated,
        db.cursor() as sessions,
    ):
        with pipelined():
            tables.execute(made.table, [table_id])
            seated.execute(made.seats, [table_id])
            if session_key:
                sessions.execute(*_session_statement(session_key, db))
        row = tables.fetchone()
        if row is None:
            return None
        seat_rows = seated.fetchall()
        stored = sessions.fetchone() if session_key else None
    columns = made.table_columns
    table = columns.build(row, 0, db)
    start = columns.width
    host = made.host_columns.build(row, start, db)
    _HOST.set_cached_value(table, host)
    game = made.game_columns.build(row, start + made.host_columns.width, db)
    _GAME.set_cached_value(table, game)
    if game is not None:
        _GAME_TABLE.set_cached_value(game, table)
    seats = []
    width = made.seat_columns.width
    for seat_row in seat_rows:
        seat = made.seat_columns.build(seat_row, 0, db)
        _SEAT_PLAYER.set_cached_value(seat, made.player_columns.build(seat_row, width, db))
        seats.append(seat)
    seats.sort(key=lambda s: s.number)
    return DecisionRows(table, seats, None if stored is None else stored[0])


# -- statements sent together ------------------------------------------------------------------


@contextmanager
def pipelined() -> Iterator[None]:
    """The statements run inside are sent together, and their results read at the block's end.

    On PostgreSQL this is psycopg's pipeline mode: one round trip to the server for all of them
    (and for the `BEGIN` of a transaction they start), where each would otherwise wait for its
    own. A decision makes three or more in a row whose results it does not need at once
    (docs/benchmarks.md). Inside the block a statement's results are not known yet: its
    `RowCount` is read after the block (psycopg/psycopg#175), and a fetch inside the block waits
    for everything sent before it. An error in any of them is raised by the fetch or at the
    block's end, as Django's error, and the caller's transaction then rolls back as it would
    have. On other databases each statement runs as it comes, as without the block."""
    db = _db()
    if db.vendor != "postgresql":
        yield
        return
    db.ensure_connection()
    with db.wrap_database_errors, db.connection.pipeline():
        yield


class RowCount:
    """How many rows a write changed: `int(count)`, once its results are in (at once outside
    `pipelined`, after the block inside it)."""

    __slots__ = ("_count", "_cursor")

    def __init__(self, cursor: Any) -> None:
        # Read before the cursor closes (closing forgets it), unless it is still to come: a
        # pipeline gives it to the cursor at the block's end, closed or not.
        count = cursor.rowcount
        self._count, self._cursor = (count, None) if count >= 0 else (None, cursor)

    def known(self) -> int | None:
        """The count; None while it is still to come (or if an error came before it)."""
        count = self._count if self._cursor is None else self._cursor.rowcount
        return count if count >= 0 else None

    def __int__(self) -> int:
        count = self.known()
        if count is None:
            raise RuntimeError("a pipelined write's row count is known only after its block")
        return count


# -- a decision's writes ----------------------------------------------------------------------

_updates: dict[tuple, tuple[str, tuple]] = {}


def _update_statement(
    db: Any, model: type[Model], names: tuple[str, ...], where: tuple[str, ...]
) -> tuple:
    """(SQL, fields to set) of `UPDATE model SET names... WHERE where... = %s`, made once."""
    key = (db.alias, db.vendor, model, names, where)
    found = _updates.get(key)
    if found is None:
        quote = db.ops.quote_name
        fields = tuple(model._meta.get_field(name) for name in names)
        sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
        wheres = " AND ".join(f"{quote(_field(model, name).column)} = %s" for name in where)
        found = _updates[key] = (
            f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {wheres}",
            fields,
        )
    return found


def _field(model: type[Model], name: str) -> Any:
    return model._meta.pk if name == "pk" else model._meta.get_field(name)


def update(model: type[Model], values: dict[str, Any], **where: Any) -> RowCount:
    """`model.objects.filter(**where).update(**values)` for plain values (no expressions, no
    auto_now: as QuerySet.update), each prepared by its field as the ORM prepares it; the
    number of rows changed (`int()` of it: see `pipelined`)."""
    db = _db()
    sql, fields = _update_statement(db, model, tuple(values), tuple(where))
    params = [f.get_db_prep_save(v, db) for f, v in zip(fields, values.values(), strict=True)]
    params += [_field(model, name).get_db_prep_value(v, db) for name, v in where.items()]
    with _cursor_for(db, params) as cursor:
        cursor.execute(sql, params)
        return RowCount(cursor.cursor)


# A text this long (a game's state document, tens of KiB) is sent beside its statement, not
# quoted into it.
LONG_TEXT = 4096


def _cursor_for(db: Any, params: Sequence[Any]) -> Any:
    """A cursor for a statement with `params`, through Django's wrapper (errors, logging).

    Django's psycopg cursors bind parameters in the client: each value is quoted and escaped
    into the SQL text, which for a game's state document copied and scanned it several times
    per decision (about 6% of a decision's instructions on PostgreSQL; docs/benchmarks.md). A
    statement with a long text goes on a cursor that sends its values beside it (PostgreSQL's
    own parameters; psycopg prepares a statement it has run five times on the connection)."""
    if db.vendor == "postgresql" and any(p.__class__ is str and len(p) > LONG_TEXT for p in params):
        from psycopg import Cursor

        db.ensure_connection()
        return db._prepare_cursor(Cursor(db.connection))
    return db.cursor()


def save_fields(instance: Model, names: tuple[str, ...]) -> None:
    """`instance.save(update_fields=names)` for fields with no pre-save behaviour (no auto_now),
    and no signals (none are connected to these models)."""
    update(type(instance), {name: getattr(instance, name) for name in names}, pk=instance.pk)


def bump_version(table_id: int) -> None:
    """The table's version, one up (every change a table's viewers are shown makes one)."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_made_once(db, "bump", _bump_sql), [table_id])


def _bump_sql(quote: Callable[[str], str]) -> str:
    column = quote(Table._meta.get_field("version").column)
    return (
        f"UPDATE {quote(Table._meta.db_table)} SET {column} = {column} + 1"
        f" WHERE {quote(Table._meta.pk.column)} = %s"
    )


_sql: dict[tuple[str, str, str], str] = {}


def _made_once(db: Any, name: str, make: Callable[[Callable[[str], str]], str]) -> str:
    """The SQL `make` writes with the database's quoting, made once per database."""
    key = (db.alias, db.vendor, name)
    sql = _sql.get(key)
    if sql is None:
        sql = _sql[key] = make(db.ops.quote_name)
    return sql


_inserts: dict[tuple, tuple[str, tuple]] = {}


def insert(instance: Model) -> None:
    """`instance.save()` of a new row whose id the caller does not need (a decision's Action):
    every field but the automatic key, each given its pre-save value (`auto_now_add`) and
    prepared as the ORM prepares it; no signals (none are connected)."""
    model = type(instance)
    db = _db()
    key = (db.alias, db.vendor, model)
    found = _inserts.get(key)
    if found is None:
        quote = db.ops.quote_name
        fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
        columns = ", ".join(quote(f.column) for f in fields)
        marks = ", ".join("%s" for _ in fields)
        sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
        found = _inserts[key] = (sql, fields)
    sql, fields = found
    params = [f.get_db_prep_save(f.pre_save(instance, True), db) for f in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, params)


def presence_rows(table_id: int) -> list[tuple[str, int | None, str]]:
    """(viewer, player id, server process) of every open socket on a table (`Connection`
    rows)."""
    return presence_later(table_id).rows()


def presence_later(table_id: int) -> Later:
    """`presence_rows`, sent now and read later: inside `pipelined` (a decision's writes), it
    goes with the block's other statements, and its rows are read after the block."""
    db = _db()
    cursor = db.cursor()
    try:
        cursor.execute(_made_once(db, "presence", _presence_sql), [table_id])
    except BaseException:
        cursor.close()
        raise
    return Later(cursor, db)


def _presence_sql(quote: Callable[[str], str]) -> str:
    viewer, player, process, table = (
        quote(Connection._meta.get_field(name).column)
        for name in ("viewer", "player", "process", "table")
    )
    return (
        f"SELECT {viewer}, {player}, {process} FROM {quote(Connection._meta.db_table)}"
        f" WHERE {table} = %s"
    )


class Later:
    """The rows of a read, fetched when first asked for. Inside `pipelined` on PostgreSQL they
    come with the block's other results (asking inside the block waits for all of them); on
    other databases, and outside a block, they are fetched at once."""

    __slots__ = ("_cursor", "_rows")

    def __init__(self, cursor: Any, db: Any = None) -> None:
        self._cursor: Any = cursor
        self._rows: list[tuple] | None = None
        if not _in_pipeline(_db() if db is None else db):
            self.rows()

    def rows(self) -> list[tuple]:
        if self._rows is None:
            with self._cursor:
                self._rows = self._cursor.fetchall()
        return self._rows


def _in_pipeline(db: Any) -> bool:
    if db.vendor != "postgresql" or db.connection is None:
        return False
    from psycopg import pq

    return db.connection.pgconn.pipeline_status != pq.PipelineStatus.OFF


def session_data(session_key: str) -> str | None:
    """The stored data of a session that has not expired, as Django's database session store
    reads it (`SessionStore.load`: the same row, the same expiry test); None if there is none."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(*_session_statement(session_key, db))
        row = cursor.fetchone()
    return None if row is None else row[0]


def _session_statement(session_key: str, db: Any = None) -> tuple[str, list[Any]]:
    """(SQL, parameters) of `session_data`'s read, its expiry test at this moment."""
    db = _db() if db is None else db
    now = _EXPIRES.get_db_prep_value(timezone.now(), db)
    return _made_once(db, "session", _session_sql), [session_key, now]


_EXPIRES = Session._meta.get_field("expire_date")


def _session_sql(quote: Callable[[str], str]) -> str:
    meta = Session._meta
    data, key, expires = (
        quote(meta.get_field(name).column)
        for name in ("session_data", "session_key", "expire_date")
    )
    return f"SELECT {data} FROM {quote(meta.db_table)} WHERE {key} = %s AND {expires} > %s"
