"""Forms for names, table settings and accounts; the settings rules of OPT-1..5 are checked here."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import Difficulty, Edition, Mode, Table
from .services import NAME_MAX


class DisplayNameForm(forms.Form):
    name = forms.CharField(
        label="Your name at the table",
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "nickname"}),
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Please choose a display name.")
        return name


class TableSettingsForm(forms.ModelForm):
    """Everything a host decides before the game; impossible combinations are form errors."""

    class Meta:
        model = Table
        fields = [
            "name",
            "edition",
            "mode",
            "seat_count",
            "difficulty",
            "auto_evasion",
            "chapter_cost_by_number",
            "open_hands",
            "saga_allocation",
            "visibility",
            "bot_delay_ms",
            "grace_seconds",
        ]
        labels = {
            "bot_delay_ms": "Bot pace (milliseconds a bot waits before each decision)",
            "grace_seconds": "Seconds an offline player is waited for before a bot may stand in",
            "seat_count": "Hero seats",
            "auto_evasion": "Automatic evasion (a sneakier hero slips past foes without a test)",
            "chapter_cost_by_number": "Chapters cost 2 gold x chapter number instead of 5",
            "open_hands": "Open hands (co-op: everyone sees every rumour)",
            "saga_allocation": "Sagas",
        }
        widgets = {
            "edition": forms.RadioSelect,
            "mode": forms.RadioSelect,
            "difficulty": forms.RadioSelect,
            "saga_allocation": forms.RadioSelect,
            "visibility": forms.RadioSelect,
            "seat_count": forms.NumberInput(attrs={"min": 1, "max": 4}),
        }

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the table a name.")
        return name

    def clean_bot_delay_ms(self) -> int:
        delay = self.cleaned_data["bot_delay_ms"]
        if not 0 <= delay <= 10_000:
            raise forms.ValidationError("Bots wait between 0 and 10,000 milliseconds.")
        return delay

    def clean_grace_seconds(self) -> int:
        grace = self.cleaned_data["grace_seconds"]
        if not 10 <= grace <= 3600:
            raise forms.ValidationError("Wait between 10 seconds and an hour for a player.")
        return grace

    def clean_seat_count(self) -> int:
        count = self.cleaned_data["seat_count"]
        if not 1 <= count <= 4:
            raise forms.ValidationError("A table has 1 to 4 hero seats.")
        return count

    def clean(self) -> dict:
        data = super().clean()
        mode = data.get("mode")
        seats = data.get("seat_count")
        if mode == Mode.SOLO and seats not in (None, 1):
            self.add_error("seat_count", "A solo game has exactly one hero seat.")
        if mode in (Mode.COMPETITIVE, Mode.COOPERATIVE) and seats == 1:
            self.add_error(
                "seat_count",
                f"A {Mode(mode).label.lower()} game needs 2 to 4 heroes; choose Solo for one.",
            )
        if data.get("open_hands") and mode != Mode.COOPERATIVE:
            self.add_error("open_hands", "Open hands is a cooperative variant.")
        if data.get("edition") == Edition.GLOOM and data.get("difficulty") == Difficulty.HARDER:
            # OPT-3: the harder setting is the Couch of Death centre and an extra pre-drawn
            # night card, both Shadows only; Gloom has no harder setting to offer.
            self.add_error(
                "difficulty",
                "Harder is a Shadows setting (Couch of Death, one more night card drawn at the "
                "start); Gloom offers easier or standard.",
            )
        return data


class SignUpForm(UserCreationForm):
    """An account keeps a guest's name and seats across devices."""
