"""Lobby state: who is playing (Player), the tables they gather at, and the seats on them."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


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


class Edition(models.TextChoices):
    GLOOM = "gloom", "Gloom of Kilforth"
    SHADOWS = "shadows", "Shadows of Kilforth"


class Mode(models.TextChoices):
    COMPETITIVE = "competitive", "Competitive"
    COOPERATIVE = "cooperative", "Cooperative"
    SOLO = "solo", "Solo"


class Difficulty(models.TextChoices):
    EASIER = "easier", "Easier"
    STANDARD = "standard", "Standard"
    HARDER = "harder", "Harder"


class SagaAllocation(models.TextChoices):
    MATCHED = "matched", "Matched to class"
    RANDOM = "random", "Random"


class BotLevel(models.TextChoices):
    NONE = "", "No bot"
    RANDOM = "random", "Random (any legal choice)"
    HEURISTIC = "heuristic", "Sensible (pursues its saga)"


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public (listed in the lobby)"
    UNLISTED = "unlisted", "Unlisted (by link only)"


class TableStatus(models.TextChoices):
    OPEN = "open", "Gathering"
    CHOOSING = "choosing", "Choosing heroes"
    STARTED = "started", "In play"
    FINISHED = "finished", "Finished"
    CLOSED = "closed", "Closed"


class Table(models.Model):
    slug = models.CharField(max_length=16, unique=True, default=new_slug)
    name = models.CharField(max_length=60)
    host = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hosted_tables")
    edition = models.CharField(max_length=10, choices=Edition.choices, default=Edition.SHADOWS)
    mode = models.CharField(max_length=12, choices=Mode.choices, default=Mode.COMPETITIVE)
    seat_count = models.PositiveSmallIntegerField(default=2)
    difficulty = models.CharField(
        max_length=10, choices=Difficulty.choices, default=Difficulty.STANDARD
    )
    auto_evasion = models.BooleanField(default=False)
    chapter_cost_by_number = models.BooleanField(default=False)
    open_hands = models.BooleanField(default=False)
    saga_allocation = models.CharField(
        max_length=10, choices=SagaAllocation.choices, default=SagaAllocation.MATCHED
    )
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

    def variants(self) -> list[str]:
        labels = []
        if self.auto_evasion:
            labels.append("automatic evasion")
        if self.chapter_cost_by_number:
            labels.append("chapter cost 2 x chapter")
        if self.open_hands:
            labels.append("open hands")
        return labels


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    # Before the game: the hero this seat picked ({"race", "class", "female"}) and whether the
    # player confirmed it. The game starts when every seat has confirmed.
    hero = models.JSONField(null=True, blank=True)
    ready = models.BooleanField(default=False)
    # A bot plays this seat: an empty seat given to a bot (player empty), or a stand-in for an
    # absent player (player set), who can take the seat back on return.
    bot = models.CharField(max_length=12, choices=BotLevel.choices, blank=True, default="")
    # When the seat's player closed their last socket to the table (None: online or never seen).
    offline_since = models.DateTimeField(null=True, blank=True)

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
        return f"{self.table} seat {self.number + 1}"

    @property
    def label(self) -> str:
        return f"Seat {self.number + 1}"

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

    def __str__(self) -> str:
        return f"{self.viewer} on {self.table_id}"


class Game(models.Model):
    """The rules engine's state of one table's game, saved whole after every accepted decision."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    # The engine's JSON document, seed and deck order included: it never leaves the server as is.
    state = models.TextField()
    # Equal to the engine state's version; the optimistic lock every decision is checked against.
    version = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"game of {self.table}"


class Action(models.Model):
    """One accepted decision, appended in the same transaction that saved the new state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="the game version this decision produced")
    seat = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=120)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)
    # The level of the bot that made this decision ("" for a person).
    bot = models.CharField(max_length=12, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_action_per_version")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version}: seat {self.seat} {self.key}"
