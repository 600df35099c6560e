"""Clocks: the pace a table plays at, each seat's time bank and the deadline of its decision.

The platform's own, for every kit: the host picks a pace (`PACES`, a registry) when opening a
table. Live with a clock, each seat has a time bank that runs only while the game waits on that
seat (the kit's `waiting_for`); when the seat decides, the bank is charged the time it took
(never below 0) and the pace's increment is added. Turn-based, each decision has its own
deadline, hours or days away. Untimed (the default) keeps no clock at all.

Everything lives in the database (`Seat.bank_ms`, `Seat.waiting_since`, `Seat.deadline`), written
by `sync` inside the transaction of the change that moved the game, so any server process can
show a clock and any may expire one. A seat whose deadline passes is played by the table's bot
for that one decision (`services.do_expire`, planned and played by the bot driver,
games/tables/bots.py); the version check lets one expiry through however many processes try.

Every clock reads the time through `now()`, the one function tests replace.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

UNTIMED = "untimed"


def now() -> datetime:
    """The time every clock decision is taken at (tests replace this one function)."""
    return timezone.now()


@dataclass(frozen=True)
class Pace:
    """How fast a table plays: a label and an explanation for the host, and the clock's numbers.

    `bank` and `increment` (seconds) make a live clock; `per_decision` (seconds) makes a table
    turn-based; neither is a live table without a clock.
    """

    key: str
    label: str
    explanation: str
    bank: int = 0
    increment: int = 0
    per_decision: int = 0

    @property
    def timed(self) -> bool:
        return bool(self.bank or self.per_decision)

    @property
    def turn_based(self) -> bool:
        return bool(self.per_decision)

    @property
    def live_clock(self) -> bool:
        return bool(self.bank)

    def allowance_ms(self, bank_ms: int) -> int:
        """How long a seat may take over the decision it now owes.

        Live: its bank, and never less than one increment (a seat whose bank ran out to 0 still
        gets the increment's time for each later decision, or a bot would play it for good).
        """
        if self.turn_based:
            return self.per_decision * 1000
        return max(bank_ms, self.increment * 1000)

    @property
    def choice_label(self) -> str:
        return f"{self.label}: {self.explanation}"


HOUR = 3600
PACES: dict[str, Pace] = {
    pace.key: pace
    for pace in (
        Pace(UNTIMED, "Live, no clock", "play together now; nobody is timed"),
        Pace(
            "fast",
            "Live, fast clock",
            "5 minutes each, plus 10 seconds after every decision",
            bank=5 * 60,
            increment=10,
        ),
        Pace(
            "normal",
            "Live, normal clock",
            "10 minutes each, plus 20 seconds after every decision",
            bank=10 * 60,
            increment=20,
        ),
        Pace(
            "relaxed",
            "Live, relaxed clock",
            "20 minutes each, plus 45 seconds after every decision",
            bank=20 * 60,
            increment=45,
        ),
        Pace(
            "turn-12h",
            "Turn-based, 12 hours",
            "come and go; each decision must be made within 12 hours",
            per_decision=12 * HOUR,
        ),
        Pace(
            "turn-24h",
            "Turn-based, 24 hours",
            "come and go; each decision must be made within a day",
            per_decision=24 * HOUR,
        ),
        Pace(
            "turn-3d",
            "Turn-based, 3 days",
            "come and go; each decision must be made within three days",
            per_decision=72 * HOUR,
        ),
    )
}


def choices() -> list[tuple[str, str]]:
    return [(pace.key, pace.choice_label) for pace in PACES.values()]


def pace_of(table: Any) -> Pace:
    """The table's pace (an unknown key, say one retired since, plays untimed)."""
    return PACES.get(getattr(table, "pace", UNTIMED), PACES[UNTIMED])


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


def begin(table: Any, waiting: Iterable[int], at: datetime | None = None) -> None:
    """A game begins: every seat's bank is full, then the seats the game waits on start."""
    from .models import Seat

    pace = pace_of(table)
    Seat.objects.filter(table_id=table.pk).update(
        bank_ms=pace.bank * 1000, waiting_since=None, deadline=None
    )
    sync(table, waiting, at=at)


def sync(
    table: Any,
    waiting: Iterable[int],
    actor: int | None = None,
    expired: bool = False,
    at: datetime | None = None,
    seats: Iterable[Any] | None = None,
) -> bool:
    """Start, charge and stop the seats' clocks after a change, inside the writer's transaction;
    whether any seat's clock changed.

    `waiting`: the seats the game waits on now (empty once it has ended). `actor`: the seat
    whose decision made the change (None when no seat decided: a bot standing in or stepping
    back); its clock stops and, live, its bank is charged the time it took, then the increment
    is added. `expired`: that decision was the bot's, made because the seat's time ran out: its
    bank is 0 and earns no increment. A seat the game waits on starts ticking unless a bot plays
    it (bots have no clock) or nobody sits in it. `seats`: the table's Seat rows, if the caller
    has read them in this transaction (they are settled in place); else they are read here.
    """
    from . import rows
    from .models import Seat

    pace = pace_of(table)
    moment = at or now()
    # Paused by the host: whoever is ticking is charged up to now and stops; nobody starts.
    owed = set() if getattr(table, "clocks_paused", False) else set(waiting)
    changed = False
    if seats is None:
        seats = (
            Seat.objects.filter(table_id=table.pk)
            .only("number", "player_id", "bot", "bank_ms", "waiting_since", "deadline")
            .order_by()  # each seat is settled on its own: no ORDER BY to compile
        )
    for seat in seats:
        ticking = seat.waiting_since is not None
        owes = seat.number in owed and seat.player_id is not None and not seat.bot
        decided = seat.number == actor
        if not ticking and not owes:
            continue
        before = (seat.bank_ms, seat.waiting_since, seat.deadline)
        if ticking and (decided or not owes):
            if pace.live_clock:
                took = _ms(moment - seat.waiting_since)
                seat.bank_ms = 0 if expired and decided else max(0, seat.bank_ms - took)
                if decided and not expired:
                    seat.bank_ms += pace.increment * 1000
            seat.waiting_since = seat.deadline = None
        if owes and seat.waiting_since is None:
            seat.waiting_since = moment
            seat.deadline = (
                moment + timedelta(milliseconds=pace.allowance_ms(seat.bank_ms))
                if pace.timed
                else None
            )
        if (seat.bank_ms, seat.waiting_since, seat.deadline) != before:
            rows.save_fields(seat, ("bank_ms", "waiting_since", "deadline"))
            changed = True
    return changed


def due(at: datetime | None = None) -> list[tuple[int, int]]:
    """(table id, seat number) of every seat in a game in play whose deadline has passed."""
    from .models import Seat, TableStatus

    return list(
        Seat.objects.filter(
            deadline__lte=at or now(), table__status=TableStatus.STARTED, bot=""
        ).values_list("table_id", "number")
    )


def seconds_to_next(at: datetime | None = None) -> float | None:
    """Seconds until the earliest deadline of a game in play (None: no clock is running)."""
    from .models import Seat, TableStatus

    first = (
        Seat.objects.filter(deadline__isnull=False, table__status=TableStatus.STARTED, bot="")
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    if first is None:
        return None
    return max(0.0, (first - (at or now())).total_seconds())


def epoch_ms(moment: datetime | None) -> int | None:
    """A moment as milliseconds since 1970 (what static/js/clock.js counts down to)."""
    return None if moment is None else int(moment.timestamp() * 1000)


def shown(ms: int) -> str:
    """A time as the page shows it before clock.js takes over: "4:05", "3 h 20 min", "2 d 5 h"."""
    seconds = max(0, ms) // 1000
    if seconds >= 24 * HOUR:
        return f"{seconds // (24 * HOUR)} d {seconds % (24 * HOUR) // HOUR} h"
    if seconds >= HOUR:
        return f"{seconds // HOUR} h {seconds % HOUR // 60} min"
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock as every viewer's page shows it."""

    number: int
    name: str
    bank_ms: int
    deadline: datetime | None
    turn_based: bool
    # Live: what the bank was when this decision's clock started (the page counts down from it).
    allowance_ms: int

    @property
    def ticking(self) -> bool:
        return self.deadline is not None

    @property
    def deadline_ms(self) -> int | None:
        return epoch_ms(self.deadline)

    @property
    def text(self) -> str:
        """The time shown without JavaScript (the page's script counts down from here)."""
        if self.turn_based:
            if self.deadline is None:
                return "not their turn"
            return f"until {timezone.localtime(self.deadline):%d %b %H:%M %Z}"
        return shown(self.allowance_ms if self.ticking else self.bank_ms)


def seat_clocks(table: Any, seats: Iterable[Any]) -> list[SeatClock]:
    """The clocks of a timed table's seats (`rendering.SeatView`s), bots' seats left out."""
    pace = pace_of(table)
    if not pace.timed:
        return []
    return [
        SeatClock(
            number=seat.number,
            name=seat.display_name,
            bank_ms=seat.bank_ms,
            deadline=seat.deadline,
            turn_based=pace.turn_based,
            allowance_ms=pace.allowance_ms(seat.bank_ms),
        )
        for seat in seats
        if seat.player_id is not None and not seat.bot
    ]
