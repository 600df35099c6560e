"""Every write to the lobby goes through one function here (views -> check_* -> do_*).

Each do_* function checks permissions and state, makes its change in one transaction, bumps the
table's version and schedules the broadcast for after commit, so no browser is ever told about a
change that was rolled back. Views and consumers only translate requests into these calls and
ServiceError into an HTTP status or a websocket error frame.
"""

from datetime import timedelta
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from . import caches, clocks, heartbeat, kits, names, realtime, rendering, replays, rows, tutorials
from .identity import PLAYER_ACCESS, player_id_from_session
from .models import (
    LIVE_STATUSES,
    UNDO,
    Action,
    Connection,
    Game,
    Player,
    Seat,
    Table,
    TableStatus,
    Visibility,
    one,
    seat_label,
)


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


class TooMany(ServiceError):
    status = 429
    code = "too_many"


class Stale(Conflict):
    """The submission was made against an older state than the current one."""

    code = "stale"


NAME_MAX = 40


def clean_display_name(raw: str) -> str:
    try:
        return names.clean(raw, "A display name", NAME_MAX)
    except names.BadName as exc:
        raise ServiceError(exc.message) from exc


def check_name_free_at(table: Table, player: Player, name: str) -> None:
    """Two people at one table never look alike: a name already seated there is refused."""
    others = Seat.objects.filter(table=table, player__isnull=False).exclude(player=player)
    for other in others.values_list("player__name", flat=True):
        if names.same(other, name):
            raise Conflict(f"Someone at this table is already called {other}; pick another name.")


def do_set_display_name(player: Player | None, raw_name: str) -> Player:
    name = clean_display_name(raw_name)
    with transaction.atomic():
        if player is None:
            return Player.objects.create(name=name)
        seated = Table.objects.filter(seats__player=player).exclude(status=TableStatus.CLOSED)
        for table in seated:
            check_name_free_at(table, player, name)
        player.name = name
        player.save(update_fields=["name"])
        tables = list(seated) + list(player.hosted_tables.exclude(status=TableStatus.CLOSED))
        # Each table's sockets re-render; the lobby, once for all of them (a host of many
        # tables renaming must not re-render the lobby per table).
        for table in {t.pk: t for t in tables}.values():
            _touch(table, lobby=False)
        if tables:
            realtime.on_commit_lobby_changed()
    return player


def do_create_table(host: Player, settings: dict[str, Any]) -> Table:
    from . import limits

    with transaction.atomic():
        hosting = Table.objects.filter(host=host, status__in=LIVE_STATUSES).count()
        if hosting >= limits.MAX_OPEN_TABLES:
            raise TooMany(
                f"You already host {hosting} open tables; close one before opening another."
            )
        table = Table.objects.create(host=host, **settings)
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(table.seat_count))
        _after_commit(table)
    return table


def _locked_table(table: Table) -> Table:
    """The table's row, read again under the writer's lock (NotFound if it is gone).

    On PostgreSQL this serialises writers to one table; SQLite's IMMEDIATE transactions (see
    settings) already serialise all writers, and select_for_update is a no-op there."""
    found = one(Table.objects.select_for_update().filter(pk=table.pk))
    if found is None:
        raise NotFound("This table no longer exists.")
    return found


def _decision_rows(table: Table, session_key: str | None = None) -> rows.DecisionRows:
    """What a decision reads, under the table's lock, in two statements: the table with its
    host and its game's id and version (not the game's documents), and every seat with its
    player, in seat order (and, `session_key`, the session's stored data with them). Only the
    table's row is locked. Read without the ORM's compiler (rows.py), as the statements every
    decision runs."""
    found = rows.decision_rows(table.pk, session_key)
    if found is None:
        raise NotFound("This table no longer exists.")
    return found


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
            raise NotFound(f"This table has no {seat_label(number).lower()}.")
        check_name_free_at(table, player, player.name)
        if seat.player_id == player.pk:
            raise Conflict("You are already in that seat.")
        if seat.player_id is not None or seat.bot:
            raise Conflict(f"{seat.label} is already taken.")
        Seat.objects.filter(table=table, player=player).update(player=None)
        # The conditional update is the real guard: of two racing requests only one matches.
        try:
            taken = Seat.objects.filter(pk=seat.pk, player__isnull=True, bot="").update(
                player=player
            )
        except IntegrityError as exc:
            raise Conflict("You already have a seat at this table.") from exc
        if taken != 1:
            raise Conflict(f"{seat.label} is already taken.")
        _chat_line(table, f"{player.name} sat down in {seat.label.lower()}.")
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
        _chat_line(table, f"{player.name} left their seat.")
        _touch(table)


def _seat_for_host(table: Table, actor: Player | None, number: int) -> tuple[Table, Seat]:
    """Inside a transaction: the locked table and one of its seats, for a host-only change."""
    table = _locked_table(table)
    check_host(table, actor)
    check_open(table)
    seat = Seat.objects.filter(table=table, number=number).first()
    if seat is None:
        raise NotFound(f"This table has no {seat_label(number).lower()}.")
    return table, seat


def check_bot_level(table: Table, level: str) -> None:
    if level not in kits.kit_for(table).bot_levels:
        raise ServiceError("Choose one of the bot levels on offer.")


def do_remove_player(table: Table, actor: Player | None, number: int) -> None:
    with transaction.atomic():
        table, seat = _seat_for_host(table, actor, number)
        if seat.player_id is None and not seat.bot:
            raise Conflict(f"{seat.label} is already empty.")
        if seat.player_id is not None:
            _chat_line(table, f"The host gave {seat.player.name}'s seat back to the table.")
        seat.player = None
        seat.bot = ""
        seat.save(update_fields=["player", "bot"])
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


def do_rotate_links(table: Table, actor: Player | None) -> None:
    """The host replaces the invite and spectate links: the old ones stop working at once
    (access already granted through them stays, as a seat taken stays)."""
    from .models import new_token

    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        if table.status == TableStatus.CLOSED:
            raise Conflict("This table has been closed.")
        Table.objects.filter(pk=table.pk).update(
            invite_token=new_token(), spectate_token=new_token()
        )


def do_close_table(table: Table, actor: Player | None) -> None:
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        if table.status == TableStatus.CLOSED:
            raise Conflict("This table is already closed.")
        Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
        _touch(table)


def do_pause_clocks(table: Table, actor: Player | None, paused: bool) -> None:
    """The host stops every clock (the time used so far is kept) or lets them run again."""
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        if table.status != TableStatus.STARTED or not clocks.pace_of(table).timed:
            raise Conflict("Only a game in play with a clock can be paused.")
        if table.clocks_paused == paused:
            return
        table.clocks_paused = paused
        Table.objects.filter(pk=table.pk).update(clocks_paused=paused)
        _restart_clocks(table)
        _chat_line(table, "The host paused the clocks." if paused else "The clocks run again.")
        _touch(table)


def do_start_game(table: Table, actor: Player | None) -> None:
    """Host's Start: every seat taken, each player now answers the kit's pre-game prompt."""
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        check_open(table)
        if table.seats.filter(player__isnull=True, bot="").exists():
            raise Conflict("Every seat must be taken (by a player or a bot) before the start.")
        table.seats.update(setup=None, ready=False)
        # Bots take the kit's setup for bots and are ready at once.
        table.seats.filter(player__isnull=True).exclude(bot="").update(
            setup=kits.kit_for(table).bot_setup(), ready=True
        )
        Table.objects.filter(pk=table.pk).update(status=TableStatus.CHOOSING)
        seats = list(table.seats.order_by("number"))
        if all(s.ready for s in seats):
            _begin_game(table, seats)
        _touch(table)


def _seat_of(table: Table, player: Player | None) -> Seat:
    # Not the pre-game answer (a JSON document) nobody here reads.
    seat = one(Seat.objects.filter(table=table, player=player).defer("setup")) if player else None
    if seat is None:
        raise Forbidden("Only the players seated at this table can do that.")
    return seat


def do_setup_seat(table: Table, player: Player | None, answer: dict[str, Any]) -> None:
    """Confirm one's answer to the kit's pre-game prompt (Kilforth: the hero, SET-2).

    The kit checks the answer against the seats already ready and the table's options. When the
    last seat confirms, the game is set up and begins in the same transaction.
    """
    if not isinstance(answer, dict):
        raise ServiceError("That answer was malformed.")
    with transaction.atomic():
        table = _locked_table(table)
        if table.status != TableStatus.CHOOSING:
            raise Conflict("This is answered after the host presses Start, before play.")
        seat = _seat_of(table, player)
        kit = kits.kit_for(table)
        others = [
            (other.number, other.setup or {})
            for other in table.seats.exclude(pk=seat.pk).filter(ready=True)
        ]
        try:
            seat.setup = kit.check_setup(answer, others, table.options)
        except kits.KitRefusal as exc:
            raise Conflict(exc.reason) from exc
        seat.ready = True
        seat.save(update_fields=["setup", "ready"])
        seats = list(table.seats.order_by("number"))
        if all(s.ready for s in seats):
            _begin_game(table, seats)
        _touch(table)


def do_unsetup_seat(table: Table, player: Player | None) -> None:
    with transaction.atomic():
        table = _locked_table(table)
        if table.status != TableStatus.CHOOSING:
            raise Conflict("The game has begun; every seat's setup is fixed.")
        seat = _seat_of(table, player)
        Seat.objects.filter(pk=seat.pk).update(ready=False)
        _touch(table)


def _begin_game(table: Table, seats: list[Seat]) -> None:
    kit = kits.kit_for(table)
    setups = [dict(seat.setup or {}) for seat in seats]
    # A tutorial deals from its script's seed, so that its dice fall as the script tells.
    seed = int(table.tutorial["seed"]) if table.tutorial else kit.new_seed()
    state = kit.setup(table.options, setups, seed)
    document = kit.dump(state)
    Game.objects.create(
        table=table,
        state=document,
        initial=document,
        version=kit.version(state),
        opening=kit.events(None, state),
    )
    Table.objects.filter(pk=table.pk).update(status=TableStatus.STARTED)
    clocks.begin(table, kit.waiting_for(state))


def do_act(table: Table, player: Player | None, key: str, seen_version: int) -> int:
    """Apply one decision of the player's hero; returns the game's new version.

    Only `player`'s id is read: the player's row is the one read with its seat, under the
    table's lock (a socket passes `Player(pk=...)` from its session, unread).

    Exactly one of several racing submissions for the same version is applied: the engine runs
    on the state that version names, and the save is conditional on the version being unchanged.
    """
    with transaction.atomic():
        table, seats, _ = _decision_rows(table)
        return _act(table, seats, player, key, seen_version)


def do_session_act(
    table: Table, session_key: str | None, key: str, seen_version: int
) -> tuple[int, int | None]:
    """A decision sent on a socket, by whoever its session (Django's database store) names now:
    the session is read with the table's rows, in the decision's first round trip, not in one
    of its own before it. A session logged out or expired since names nobody, and nobody may
    decide. Returns the game's new version and the player's id (refusals as `do_act`'s)."""
    with transaction.atomic():
        table, seats, stored = _decision_rows(table, session_key)
        player_id = player_id_from_session(SessionStore().decode(stored) if stored else {})
        player = None if player_id is None else Player(pk=player_id)
        return _act(table, seats, player, key, seen_version), player_id


def _act(
    table: Table, seats: list[Seat], player: Player | None, key: str, seen_version: int
) -> int:
    seat = next((s for s in seats if player and s.player_id == player.pk), None)
    if seat is None:
        raise Forbidden("Only the players seated at this table can do that.")
    if seat.bot:
        raise Conflict("A bot is playing your seat; take it back first.")
    return _apply(table, seats, seat, key, seen_version, seat.player)


def do_bot_act(table: Table, number: int, key: str, seen_version: int) -> int:
    """A bot's decision, through the same checks, versioning and broadcast as a person's."""
    with transaction.atomic():
        table, seats, _ = _decision_rows(table)
        seat = next((s for s in seats if s.number == number), None)
        if seat is None or not seat.bot:
            raise Forbidden("No bot plays that seat.")
        return _apply(table, seats, seat, key, seen_version, None)


def do_expire(table: Table, number: int, key: str, seen_version: int) -> int:
    """A seat's time ran out: the table's bot makes that one decision for it (clocks.py).

    The same checks, versioning and broadcast as any decision: of several processes expiring
    the same deadline, the version lets exactly one through. The seat's bank is left at 0.
    """
    with transaction.atomic():
        table, seats, _ = _decision_rows(table)
        seat = next((s for s in seats if s.number == number), None)
        if seat is None or seat.bot or seat.deadline is None or seat.deadline > clocks.now():
            raise Conflict("That seat's time has not run out.")
        level = next(iter(kits.kit_for(table).bot_levels))
        name = seat.player.name if seat.player else seat.label
        # Written first, so that it comes before a "game over" line; a refusal below rolls
        # the line back with the rest.
        _chat_line(table, f"{name} ran out of time; a bot made that decision for them.")
        return _apply(table, seats, seat, key, seen_version, None, bot=level, expired=True)


def _apply(
    table: Table,
    seats: list[Seat],
    seat: Seat,
    key: str,
    seen_version: int,
    player: Player | None,
    bot: str | None = None,
    expired: bool = False,
) -> int:
    """`bot`: the level of the bot deciding for a seat that is not its own (an expired clock)."""
    kit = kits.kit_for(table)
    if not isinstance(key, str) or not key or len(key) > 120:
        raise ServiceError("That decision was malformed.")
    if table.status != TableStatus.STARTED:
        raise Conflict("There is no game in play at this table.")
    # Only the game's id and version (_decision_rows): the state is cached, the first state and
    # the opening events are read by replays.
    game = getattr(table, "game_state", None)
    if game is None:
        raise Conflict("There is no game in play at this table.")
    if seen_version != game.version:
        raise Stale("The game had moved on; here is where it stands now.")
    state = caches.state_at(kit, table.slug, game.version, lambda: _document(game.pk, game.version))
    if state is None:
        raise Stale("The game had moved on; here is where it stands now.")
    try:
        new = kit.act(state, seat.number, key)
    except kits.KitRefusal as exc:
        raise ServiceError(exc.reason) from exc
    version = kit.version(new)
    document = kit.dump(new)
    # The writes go to the database together (rows.pipelined: on PostgreSQL, one round trip
    # for them all). The game's row is saved only at the version this decision was made on;
    # that is known once they are in, and a miss rolls them all back.
    saved: rows.RowCount | None = None
    try:
        with rows.pipelined():
            saved = rows.update(
                Game, {"state": document, "version": version}, pk=game.pk, version=seen_version
            )
            game.version = version  # the row as saved (the table's rows below show this version)
            _record(table, seats, seat, key, player, bot, expired, state, new, document)
    except DatabaseError:
        # A save that missed makes the writes after it fail too (this version's action is
        # another decision's): that decision came too late, as below; any other error stands.
        if saved is None or saved.known() != 0:
            raise
    if saved is None or saved.known() != 1:
        raise Stale("The game had moved on; here is where it stands now.")
    return version


def _record(
    table: Table,
    seats: list[Seat],
    seat: Seat,
    key: str,
    player: Player | None,
    bot: str | None,
    expired: bool,
    state: Any,
    new: Any,
    document: str,
) -> None:
    """A decision's writes after the game's own save (`_apply`), and what its commit shows."""
    kit = kits.kit_for(table)
    game = table.game_state
    version = game.version
    # A person's own decision only (a bot's, a stand-in's or an expired clock's is final).
    undoable = bot is None and not seat.bot and kit.undoable(state, new)
    rows.insert(
        Action(
            game=game,
            version=version,
            seat=seat.number,
            key=key,
            player=player,
            bot=seat.bot if bot is None else bot,
            events=kit.events(state, new),
            progress=list(kit.progress(new)),
            undoable=undoable,
        )
    )
    caches.remember_on_commit(table.slug, version, new)
    if table.tutorial:
        _tutorial_after_decision(table, kit, state, seat.number, key, version)
    ended = kit.result(new) is not None
    # The seats read with the table: the clocks settle them, the snapshot shows them.
    clocks.sync(table, [] if ended else kit.waiting_for(new), seat.number, expired, seats=seats)
    if ended:
        Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
        _chat_line(table, kit.outcome(new, {s.number: seat_name(table, s) for s in seats}))
    else:
        # What every viewer's page shows of the new version, built from the rows this decision
        # holds locked and wrote, so that this process's sockets need not read it back (a
        # finished game's summary is read as usual). Offered before _touch schedules the
        # broadcast that takes it; _touch bumps the locked row's version by one.
        table.version += 1
        snapshot = rendering.snapshot_of(
            table,
            seats,
            new,
            player.pk if undoable and player else None,
            last_player=player.pk if player else None,
        )
        # Who watches the table is read with the writes (rows.pipelined: in their round trip),
        # not after the commit: the broadcast tells it.
        viewers = rows.presence_later(table.pk)
        caches.offer_snapshot_on_commit(snapshot, document, realtime.seat_facts(seats), viewers)
    # A decision changes no lobby row (seats, status, watchers) unless it ended the game.
    _touch(table, lobby=ended)


def do_undo(table: Table, player: Player | None, seen_version: int) -> int:
    """Take back the player's own last decision (issue 16's policy: nothing random or hidden
    came out of it, the same turn, nobody else decided since). A versioned decision itself: a
    stale undo is refused like any stale decision. Returns the game's new version."""
    with transaction.atomic():
        table = _locked_table(table)
        if table.status != TableStatus.STARTED:
            raise Conflict("There is no game in play at this table.")
        seat = _seat_of(table, player)
        game = Game.objects.defer("state").get(table=table)
        if seen_version != game.version:
            raise Stale("The game had moved on; here is where it stands now.")
        target = game.undoable_action()
        if target is None or target.seat != seat.number or target.player_id != player.pk:
            raise Conflict(
                "Nothing of yours can be taken back now: dice were rolled, a card was drawn, "
                "the turn moved on or someone else decided since."
            )
        kit = kits.kit_for(table)
        steps = replays.steps_of(game)
        index = next(i for i, step in enumerate(steps) if step.version == target.version)
        before = replays.state_after(game, kit, steps, index)
        version = game.version + 1
        new = kit.rewind(before, version)
        document = kit.dump(new)
        saved = Game.objects.filter(pk=game.pk, version=seen_version).update(
            state=document, version=version
        )
        if saved != 1:
            raise Stale("The game had moved on; here is where it stands now.")
        Action.objects.filter(pk=target.pk).update(undone=True)
        if table.tutorial:
            _tutorial_after_undo(table, target.version)
        Action.objects.create(
            game=game,
            version=version,
            seat=seat.number,
            key=UNDO,
            player=player,
            restored=document,
            progress=list(kit.progress(new)),
        )
        caches.remember_on_commit(table.slug, version, new)
        clocks.sync(table, kit.waiting_for(new))
        _chat_line(table, f"{player.name} took back their last decision.")
        _touch(table)
    return version


# -- Tutorials: a guided first game on an ordinary table (games/tables/tutorials.py) -------------


def do_start_tutorial(player: Player | None, game: str) -> Table:
    """A private solo table of the kit's tutorial, set up and begun through the ordinary path:
    create the table, take its seat, start, answer the pre-game prompt with the tutorial's hero
    (the game begins with the tutorial's seed). Starting again closes the earlier guided games
    still under the guide, so that retrying never runs into the limit of open tables."""
    if player is None:
        raise Forbidden("Choose a display name first.")
    try:
        kit = kits.get(game)
    except LookupError as exc:
        raise NotFound(str(exc)) from exc
    tutorial = kits.tutorial_of(kit)
    if tutorial is None:
        raise NotFound(f"{kit.name} has no guided game.")
    settings = {
        "name": f"Learning {kit.name}",
        "game": kit.key,
        "options": dict(tutorial.options),
        "seat_count": 1,
        "visibility": Visibility.UNLISTED,
        "tutorial": tutorials.new_progress(tutorial.seed),
    }
    with transaction.atomic():
        # Starting over closes the person's earlier guided games still under the guide (a game
        # whose guide was left or finished is their own game now, and stays).
        earlier = Table.objects.filter(
            host=player, game=kit.key, tutorial__isnull=False, status__in=LIVE_STATUSES
        )
        for old in earlier.select_for_update():
            if tutorials.active(old.tutorial, tutorial.script):
                Table.objects.filter(pk=old.pk).update(status=TableStatus.CLOSED)
                _touch(old)
        table = do_create_table(player, settings)
        do_take_seat(table, player, 0, PLAYER_ACCESS)
        do_start_game(table, player)
        do_setup_seat(table, player, dict(tutorial.setup))
    table.refresh_from_db()
    return table


def _tutorial_of_table(table: Table) -> tuple[Any, Any]:
    kit = kits.kit_for(table)
    tutorial = kits.tutorial_of(kit)
    if not table.tutorial or tutorial is None:
        raise Conflict("This table has no guide.")
    return kit, tutorial


def _tutorial_after_decision(
    table: Table, kit: Any, state: Any, seat: int, key: str, version: int
) -> None:
    """Inside a decision's transaction: the guide moves on if the choice was the one it meant
    (where it stood before is kept with the decision's version, for an undo of it)."""
    tutorial = kits.tutorial_of(kit)
    if tutorial is None or not tutorials.active(table.tutorial, tutorial.script):
        return
    before = table.tutorial
    progress = tutorials.after_decision(tutorial.script, before, tutorial.offer(state, seat), key)
    if progress != before:
        back = {"version": version, "step": before["step"], "strayed": before["strayed"]}
        table.tutorial = {**progress, "back": back}  # the decision's snapshot shows it
        Table.objects.filter(pk=table.pk).update(tutorial=table.tutorial)


def _tutorial_after_undo(table: Table, undone: int) -> None:
    """An undo of the decision that moved the guide puts the guide back where it stood."""
    back = (table.tutorial or {}).get("back") or {}
    if back.get("version") == undone:
        restored = {**table.tutorial, "step": back["step"], "strayed": back["strayed"]}
        restored.pop("back")
        Table.objects.filter(pk=table.pk).update(tutorial=restored)


def do_tutorial_next(table: Table, player: Player | None, step: int) -> None:
    """Next on an explanation of the guide (`step`: the one the person read)."""
    with transaction.atomic():
        table = _locked_table(table)
        seat = _seat_of(table, player)
        kit, tutorial = _tutorial_of_table(table)
        if table.status != TableStatus.STARTED:
            raise Conflict("There is no game in play at this table.")
        state = kit.load(Game.objects.get(table=table).state)
        offer = tutorial.offer(state, seat.number)
        progress = tutorials.after_next(tutorial.script, table.tutorial, offer, step)
        if progress != table.tutorial:
            Table.objects.filter(pk=table.pk).update(tutorial=progress)
            _touch(table, lobby=False)


def do_leave_tutorial(table: Table, player: Player | None) -> None:
    """The person leaves the guide: the coach goes away, the game goes on as any other."""
    with transaction.atomic():
        table = _locked_table(table)
        _seat_of(table, player)
        _tutorial_of_table(table)
        if not table.tutorial.get("left"):
            Table.objects.filter(pk=table.pk).update(tutorial={**table.tutorial, "left": True})
            _touch(table, lobby=False)


def _document(game_id: int, version: int) -> str | None:
    return Game.objects.filter(pk=game_id, version=version).values_list("state", flat=True).first()


def do_seat_bot(table: Table, actor: Player | None, number: int, level: str) -> None:
    """Before the start, the host gives a free seat to a bot (or changes its level)."""
    check_bot_level(table, level)
    with transaction.atomic():
        table, seat = _seat_for_host(table, actor, number)
        if seat.player_id is not None:
            raise Conflict(f"{seat.label} has a player; remove them first.")
        Seat.objects.filter(pk=seat.pk).update(bot=level)
        _touch(table)


def do_hand_to_bot(table: Table, actor: Player | None, number: int, level: str) -> None:
    """The host lets a bot stand in for a player who vanished while the game waits on them."""
    kit = kits.kit_for(table)
    check_bot_level(table, level)
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        if table.status != TableStatus.STARTED:
            raise Conflict("A bot can stand in only while a game is in play.")
        seat = Seat.objects.filter(table=table, number=number, player__isnull=False).first()
        if seat is None or seat.bot:
            raise Conflict("That seat has no absent player to stand in for.")
        waited = seat_absent_for(seat)
        if waited is None or waited < table.grace_seconds:
            raise Conflict(
                f"{seat.label}'s player has not been away for {table.grace_seconds} seconds."
            )
        state = kit.load(Game.objects.get(table=table).state)
        if seat.number not in kit.waiting_for(state):
            raise Conflict(f"The game is not waiting on {seat.label}.")
        Seat.objects.filter(pk=seat.pk).update(bot=level)
        clocks.sync(table, kit.waiting_for(state))  # bots have no clock: this seat's stops
        _chat_line(table, f"A bot now plays for {seat.player.name} until they return.")
        _touch(table)


def do_reclaim_seat(table: Table, player: Player | None) -> None:
    """A player back from being away takes their seat back from the stand-in bot."""
    with transaction.atomic():
        table = _locked_table(table)
        seat = _seat_of(table, player)
        if not seat.bot:
            raise Conflict("Nobody is playing for you: your seat is already yours.")
        Seat.objects.filter(pk=seat.pk).update(bot="")
        _restart_clocks(table)
        _chat_line(table, f"{player.name} is back and plays again.")
        _touch(table)


def do_resync_clocks(table: Table) -> None:
    """The clocks follow whom the game waits on now (a clock running for a seat the game no
    longer waits on is stopped). The clock watcher's repair; no decision is made."""
    with transaction.atomic():
        table = _locked_table(table)
        if _restart_clocks(table):
            _touch(table, lobby=False)


def _restart_clocks(table: Table) -> bool:
    """Inside a transaction: the clocks follow whom the game waits on at its current version
    (a bot stepped back, or a clock was found running for a seat nobody waits on)."""
    if table.status != TableStatus.STARTED:
        return False
    kit = kits.kit_for(table)
    game = Game.objects.defer("state").get(table=table)
    state = caches.state_at(kit, table.slug, game.version, lambda: _document(game.pk, game.version))
    return state is not None and clocks.sync(table, kit.waiting_for(state))


def seat_absent_for(seat: Seat) -> float | None:
    """Seconds since the seat's player closed their last socket, None when online or unseen."""
    if seat.offline_since is None:
        return None
    return (timezone.now() - seat.offline_since).total_seconds()


def do_rematch(table: Table, actor: Player | None) -> Table:
    """A new table with the same settings and the same players in the same seats."""
    with transaction.atomic():
        table = _locked_table(table)
        check_host(table, actor)
        if table.status != TableStatus.FINISHED:
            raise Conflict("A rematch is offered once the game has ended.")
        if table.rematch_id:
            return table.rematch
        fields = ["game", "options", "seat_count", "visibility"]
        fields += ["bot_delay_ms", "grace_seconds", "pace", "chat_open"]
        settings = {f: getattr(table, f) for f in fields}
        settings["name"] = table.name if "rematch" in table.name else f"{table.name} (rematch)"
        new = Table.objects.create(host=table.host, **settings)
        Seat.objects.bulk_create(
            Seat(table=new, number=s.number, player=s.player, bot=s.bot if not s.player else "")
            for s in table.seats.all()
        )
        Table.objects.filter(pk=table.pk).update(rematch=new)
        _touch(table)
        _after_commit(new)
    return new


def do_connect(table: Table, channel_name: str, viewer: str, player: Player | None) -> None:
    with transaction.atomic():
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults={
                "table": table,
                "viewer": viewer,
                "player": player,
                "process": heartbeat.PROCESS_NAME,
            },
        )
        if player is not None:
            Seat.objects.filter(table=table, player=player).update(offline_since=None)
        realtime.on_commit_presence(table.pk)


def do_disconnect(channel_name: str) -> None:
    with transaction.atomic():
        connection = Connection.objects.filter(channel_name=channel_name).first()
        if connection is None:
            return
        table_id = connection.table_id
        connection.delete()
        player_id = connection.player_id
        still_here = Connection.objects.filter(table_id=table_id, player_id=player_id).exists()
        if player_id and not still_here:
            # The player's last tab to this table closed: the grace time starts now.
            Seat.objects.filter(table_id=table_id, player_id=player_id).update(
                offline_since=timezone.now()
            )
        realtime.on_commit_presence(table_id)


def close_idle_tables(minutes: int) -> int:
    """Close the gathering tables nobody sits at or looks at, opened over `minutes` ago
    (a forgotten or spammed table must not hold a lobby row for ever). Returns how many."""
    if minutes <= 0:
        return 0
    cutoff = timezone.now() - timedelta(minutes=minutes)
    idle = (
        Table.objects.filter(status=TableStatus.OPEN, created__lt=cutoff)
        .exclude(seats__player__isnull=False)
        .exclude(pk__in=Connection.objects.values("table_id"))
    )
    with transaction.atomic():
        closed = Table.objects.filter(pk__in=list(idle.values_list("pk", flat=True))).update(
            status=TableStatus.CLOSED, version=F("version") + 1
        )
        if closed:
            realtime.on_commit_lobby_changed()
    return closed


def seat_name(table: Table, seat: Seat) -> str:
    """The name a seat goes by in a game's log, its replay and its end: its player's, or its
    bot's."""
    if seat.player:
        return seat.player.name
    return f"Bot ({kits.bot_label(table.game, seat.bot)})"


def _chat_line(table: Table, text: str) -> None:
    from . import chat  # chat builds on this module's errors

    chat.system(table.pk, text)


def _touch(table: Table, lobby: bool = True) -> None:
    rows.bump_version(table.pk)
    _after_commit(table, lobby)


def _after_commit(table: Table, lobby: bool = True) -> None:
    realtime.on_commit_table_changed(table.pk, lobby=lobby)
