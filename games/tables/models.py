"""Lobby state: who is playing (Player), the tables they gather at, and the seats on them."""

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, OuterRef, Q, Subquery, When
from django.urls import reverse


def one(rows: models.QuerySet) -> Any:
    """The first row of a query that finds at most one (a primary or unique key), or None.

    Django's `first()` orders by the primary key, and compiling an ORDER BY costs more than a
    small query itself (0.2-0.9 ms a query on this machine, measured in docs/benchmarks.md);
    the hot paths of a decision use this instead (and the model's default ordering is dropped
    too: with at most one row, it orders nothing)."""
    return next(iter(rows.order_by()[:1]), None)


def new_slug() -> str:
    # Short but unguessable: the slug is the table's public address, and an unlisted table's
    # address must not be found by counting.
    return secrets.token_urlsafe(8)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Player(models.Model):
    """A person at the site: a guest known by their session, or linked to an account."""

    name = models.CharField(max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public (listed in the lobby)"
    UNLISTED = "unlisted", "Unlisted (by link only)"


class TableStatus(models.TextChoices):
    OPEN = "open", "Gathering"
    CHOOSING = "choosing", "Getting ready"  # each seat answers the kit's pre-game prompt
    STARTED = "started", "In play"
    FINISHED = "finished", "Finished"
    CLOSED = "closed", "Closed"


# A table is live (in the lobby, counting towards its host's open tables) in these states.
LIVE_STATUSES = (TableStatus.OPEN, TableStatus.CHOOSING, TableStatus.STARTED)


class Table(models.Model):
    slug = models.CharField(max_length=16, unique=True, default=new_slug)
    name = models.CharField(max_length=60)
    host = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hosted_tables")
    # The key of the game kit this table plays (games.tables.kits).
    game = models.CharField(max_length=20, default="kilforth")
    # The options of this table's game, as the kit's options form cleaned them (kit.options_form).
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    spectate_token = models.CharField(max_length=32, unique=True, default=new_token)
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.OPEN)
    # Bumped by every change a viewer can see; the realtime layer renders once per version.
    version = models.PositiveIntegerField(default=1)
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Bots wait this long before each decision, so that people can follow what they do.
    bot_delay_ms = models.PositiveIntegerField(default=1000)
    # A player offline this long while the game waits on them may be replaced by a bot.
    grace_seconds = models.PositiveIntegerField(default=120)
    # The host lets the players read the spectators' chat.
    # A database default too: rows written by code that predates the column still insert.
    chat_open = models.BooleanField(default=False, db_default=False)
    # How fast the table plays: a key of games.tables.clocks.PACES (live without a clock, live
    # with a clock, or turn-based). Tables from before clocks play live without one.
    pace = models.CharField(max_length=12, default="untimed", db_default="untimed")
    # The host paused the clocks: no seat's time runs (clocks.sync) until they resume.
    clocks_paused = models.BooleanField(default=False)
    # A guided first game (games/tables/tutorials.py): the kit's fixed seed and where the guide
    # stands ({"seed", "step", "strayed", "left"}); None for every other table.
    tutorial = models.JSONField(null=True, blank=True, default=None)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "visibility"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.slug])

    @property
    def is_open(self) -> bool:
        return self.status == TableStatus.OPEN

    @property
    def is_public(self) -> bool:
        return self.visibility == Visibility.PUBLIC

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"

    @property
    def kit_name(self) -> str:
        from .kits import get

        try:
            return get(self.game).name
        except LookupError:
            return self.game

    @property
    def option_summary(self) -> list[str]:
        """The options in a few words each, as the kit puts them (lobby and table pages)."""
        from .kits import get

        try:
            return get(self.game).options_summary(self.options)
        except LookupError:
            return []

    @property
    def pace_label(self) -> str:
        from .clocks import pace_of

        return pace_of(self).label


def seat_label(number: int) -> str:
    """A seat as a person reads it. Seats are 0-based everywhere else (URLs and sockets too)."""
    return f"Seat {number + 1}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    # Before the game: this seat's answer to the kit's pre-game prompt (Kilforth: the hero,
    # {"race", "class", "female"}) and whether the player confirmed it. The game starts when
    # every seat has confirmed.
    setup = models.JSONField(null=True, blank=True)
    ready = models.BooleanField(default=False)
    # A bot plays this seat: an empty seat given to a bot (player empty), or a stand-in for an
    # absent player (player set), who can take the seat back on return.
    # The level is one of the table's kit's bot_levels ("" for no bot).
    bot = models.CharField(max_length=12, blank=True, default="")
    # When the seat's player closed their last socket to the table (None: online or never seen).
    offline_since = models.DateTimeField(null=True, blank=True)
    # The seat's clock (games/tables/clocks.py): the time bank left on a live clock, when the
    # game began waiting on this seat's player (None: it waits on someone else), and by when the
    # decision is due on a timed table (None: no clock runs for this seat now).
    bank_ms = models.PositiveIntegerField(default=0, db_default=0)
    waiting_since = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),
            # One seat per person per table, enforced by the database so that two racing
            # requests cannot both succeed.
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=Q(player__isnull=False),
                name="one_seat_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {seat_label(self.number).lower()}"

    @property
    def label(self) -> str:
        return seat_label(self.number)

    @property
    def taken(self) -> bool:
        return self.player_id is not None or bool(self.bot)


class Connection(models.Model):
    """One open websocket watching a table; counted to show who is watching live."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    # Player id, or session key for an anonymous visitor: one person with three tabs counts once.
    viewer = models.CharField(max_length=64)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE)
    opened = models.DateTimeField(auto_now_add=True)
    # The server process holding the socket (games/tables/heartbeat.py): when that process dies
    # without closing its sockets, the survivors delete its rows.
    process = models.CharField(max_length=80, default="", db_default="", db_index=True)

    def __str__(self) -> str:
        return f"{self.viewer} on {self.table_id}"


class ChatChannel(models.TextChoices):
    # Players' chat: seen by everyone at the table, written by its seated players.
    TABLE = "table", "Table"
    # Spectators' chat: written and seen by spectators only, so that watchers cannot coach a
    # competitive table; the host may open it to the players' eyes (Table.chat_open).
    SPECTATORS = "spectators", "Spectators"
    # A team's chat (team games only): written and read by that team's seated players.
    TEAM = "team", "Team"


# The system lines of the host opening and closing the spectators' chat to the players; the
# page keeps its chat panel's note and the host's button in step with the newest one (chat.js).
SPECTATOR_CHAT_SHOWN = "The host showed the spectators' chat to the players."
SPECTATOR_CHAT_HIDDEN = "The host hid the spectators' chat from the players."


class ChatMessage(models.Model):
    """One line of a table's chat, kept with the table (shown again on every reload)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    channel = models.CharField(max_length=16, choices=ChatChannel.choices)
    # None for a system line ("Ann sat down in seat 2").
    author = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)
    # As shown when it was written: a later rename or seat change does not rewrite history.
    author_name = models.CharField(max_length=40, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The team of a TEAM line (the kit's name for it, "Knights"); blank otherwise.
    team = models.CharField(max_length=40, blank=True, default="")
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.author_name or 'system'}: {self.text[:40]}"

    @property
    def is_system(self) -> bool:
        return not self.author_name

    @property
    def spectator_chat(self) -> str:
        """ "1" or "0" for the system line of the host showing or hiding the spectators' chat to
        the players, else "" (a person's line never counts, whatever it says)."""
        if not self.is_system:
            return ""
        return {SPECTATOR_CHAT_SHOWN: "1", SPECTATOR_CHAT_HIDDEN: "0"}.get(self.text, "")


class ChatMute(models.Model):
    """A person the host has muted at one table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_mutes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="one_mute")]

    def __str__(self) -> str:
        return f"{self.player_id} muted at {self.table_id}"


class ServerProcess(models.Model):
    """A live server process; it beats every KILFORTH_HEARTBEAT_SECONDS (tables/heartbeat.py)."""

    name = models.CharField(max_length=80, unique=True)
    started = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    """The rules engine's state of one table's game, saved whole after every accepted decision."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game_state")
    # The engine's JSON document, seed and deck order included: it never leaves the server as is.
    state = models.TextField()
    # Equal to the engine state's version; the optimistic lock every decision is checked against.
    version = models.PositiveIntegerField()
    # The history the new game began with (the kit's `events(None, state)`); each decision's
    # own part of the history is on its Action. The state keeps only what the position needs.
    opening = models.JSONField(default=list, blank=True)
    # The state the game began with (the kit's document, seed included): a replay applies the
    # Action rows to it one by one. Empty for games begun before replays existed.
    initial = models.TextField(blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"game of {self.table}"

    def undoable_action(self) -> "Action | None":
        """The decision an undo would take back now: the newest one still standing, if it may
        be (after it come only undos of later decisions, so nobody has decided since)."""
        last = (
            _standing(Action.objects.filter(game=self))
            .defer("events", "progress", "restored")  # a whole state document, on an undo
            .first()
        )
        return last if last is not None and last.undoable else None

    def history(self) -> list:
        """The game's whole history, in order: the opening, then each decision's events (a
        decision taken back is no longer part of it)."""
        out = list(self.opening)
        rows = self.actions.filter(undone=False).order_by("version")
        for events in rows.values_list("events", flat=True):
            out += events
        return out


UNDO = "undo"  # the key of an undo's own Action row (services.do_undo)


def undo_player(game: OuterRef) -> Subquery:
    """`Game.undoable_action`'s player as an expression, for a statement that reads the game's
    row (`game`: its id): whoever may take back the newest standing decision, else NULL."""
    return Subquery(
        _standing(Action.objects.filter(game=game))
        .annotate(who=Case(When(undoable=True, then="player"), default=None))
        .values("who")[:1]
    )


def last_decider(game: OuterRef) -> Subquery:
    """Who made the newest standing decision (NULL for a bot's, or before the first): with
    `undo_player`, a page can say why that person has no undo."""
    return Subquery(_standing(Action.objects.filter(game=game)).values("player")[:1])


def _standing(actions: "models.QuerySet[Action]") -> "models.QuerySet[Action]":
    """Decisions still standing (not undone, not an undo's own row), the newest first."""
    return actions.filter(undone=False).exclude(key=UNDO).order_by("-version")


class Action(models.Model):
    """One accepted decision, appended in the same transaction that saved the new state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="the game version this decision produced")
    seat = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=120)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)
    # The level of the bot that made this decision ("" for a person).
    bot = models.CharField(max_length=12, blank=True, default="")
    # What this decision added to the game's history (the kit's `events(before, after)`).
    events = models.JSONField(default=list, blank=True)
    # The kit's `progress` after this decision: [phase, [score of each series]], a point of the
    # end-of-game score chart (None for rows written before charts existed).
    progress = models.JSONField(null=True, blank=True)
    # Undo (services.do_undo): whether this decision may be taken back (the kit's `undoable`:
    # nothing random or hidden came out of it); whether it was; and, on an undo's own row
    # (key UNDO), the state document it restored (replays load it instead of acting).
    undoable = models.BooleanField(default=False)
    undone = models.BooleanField(default=False)
    restored = models.TextField(blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_action_per_version")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version}: seat {self.seat} {self.key}"
