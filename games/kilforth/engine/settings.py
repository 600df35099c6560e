"""Host-chosen settings (OPT-1..5) with validation that explains what is wrong."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from games.kilforth.engine.cards.catalogue import content

EDITIONS = ("gloom", "shadows")
MODES = ("competitive", "cooperative", "solo")
DIFFICULTIES = ("easier", "standard", "harder")
SAGA_ALLOCATIONS = ("matched", "random")


class SettingsError(ValueError):
    """Impossible settings; the message says which field and why."""


@dataclass
class Settings:
    edition: str = "gloom"
    mode: str = "competitive"
    heroes: int = 2
    difficulty: str = "standard"
    # One entry per seat: None (random) or
    # {"race": id|None, "class": id|None, "saga": id|None, "female": bool|None}.
    choices: list = field(default_factory=list)
    saga_allocation: str = "matched"
    auto_evasion: bool = False  # ENG-5
    chapter_cost_2x: bool = False  # SAGA-2
    open_hands: bool = False  # co-op only
    harder_couch: bool = True  # OPT-3: on harder, Shadows uses Couch of Death as centre

    def validate(self) -> None:
        """Raise SettingsError with a readable reason for impossible settings."""
        if self.edition not in EDITIONS:
            raise SettingsError(f"edition must be one of {EDITIONS}, not {self.edition!r}")
        if self.mode not in MODES:
            raise SettingsError(f"mode must be one of {MODES}, not {self.mode!r}")
        if self.difficulty not in DIFFICULTIES:
            raise SettingsError(f"difficulty must be one of {DIFFICULTIES}")
        if self.saga_allocation not in SAGA_ALLOCATIONS:
            raise SettingsError(f"saga_allocation must be one of {SAGA_ALLOCATIONS}")
        if not isinstance(self.heroes, int) or not 1 <= self.heroes <= 4:
            raise SettingsError("heroes must be between 1 and 4")
        if self.mode == "solo" and self.heroes != 1:
            raise SettingsError("solo mode is played by exactly 1 hero")
        if self.mode != "solo" and self.heroes < 2:
            raise SettingsError(f"{self.mode} mode needs 2-4 heroes (use solo for 1)")
        if self.open_hands and self.mode != "cooperative":
            raise SettingsError("open hands is a cooperative variant")
        if len(self.choices) > self.heroes:
            raise SettingsError("more hero choices than heroes")

        c = content()
        picked: list[tuple[str, str]] = []
        for i, ch in enumerate(self.choices):
            if ch is None:
                continue
            if not isinstance(ch, dict):
                raise SettingsError(f"choice for seat {i} must be a dict or None")
            race, klass, sg = ch.get("race"), ch.get("class"), ch.get("saga")
            if sg is not None and sg not in c.by_kind["saga"]:
                raise SettingsError(f"seat {i}: unknown saga {sg!r}")
            if race is not None and race not in c.races:
                raise SettingsError(f"seat {i}: unknown race {race!r}")
            if klass is not None and klass not in c.classes:
                raise SettingsError(f"seat {i}: unknown class {klass!r}")
            for kind, value in (("race", race), ("class", klass), ("saga", sg)):
                if value is not None:
                    if (kind, value) in picked:
                        raise SettingsError(f"seat {i}: {kind} {value!r} is already taken")
                    picked.append((kind, value))

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Settings:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        unknown = set(d) - set(known)
        if unknown:
            raise SettingsError(f"unknown settings: {sorted(unknown)}")
        s = cls(**known)
        s.validate()
        return s
