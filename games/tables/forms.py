"""Forms for names, table settings and accounts; a game's options are its kit's form."""

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from . import clocks, kits, names
from .models import Table
from .services import NAME_MAX


class DisplayNameForm(forms.Form):
    name = forms.CharField(
        label="Your name at the table",
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "nickname"}),
    )

    def clean_name(self) -> str:
        try:
            return names.clean(self.cleaned_data["name"], "A display name", NAME_MAX)
        except names.BadName as exc:
            raise forms.ValidationError(exc.message) from exc


class TableSettingsForm(forms.ModelForm):
    """Everything a host decides before the game; impossible combinations are form errors.

    The platform's own fields (name, seats, visibility, pace) are declared here; the game's
    options come from the chosen kit's `options_form`: its fields are shown in this form, and its
    `check` judges their combinations (and the seat count). The cleaned options are handed on as
    one dict, `cleaned_data["options"]`, stored as Table.options.
    """

    game = forms.ChoiceField(label="Game", required=False)
    # A platform option, the same for every game (games/tables/clocks.py: PACES).
    pace = forms.ChoiceField(
        label="Pace",
        choices=clocks.choices,
        initial=clocks.UNTIMED,
        required=False,  # a post without it (an older page) keeps the table's pace
        widget=forms.RadioSelect,
        help_text=(
            "A clock runs only while the game waits on that player. When a player's time runs "
            "out, a bot makes that one decision for them."
        ),
    )

    class Meta:
        model = Table
        fields = ["name", "game", "seat_count", "visibility", "pace"]
        fields += ["bot_delay_ms", "grace_seconds"]
        labels = {
            "bot_delay_ms": "Bot pace (milliseconds a bot waits before each decision)",
            "grace_seconds": "Seconds an offline player is waited for before a bot may stand in",
            "seat_count": "Seats",
        }
        widgets = {"visibility": forms.RadioSelect}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(k.key, k.name) for k in kits.all_kits()]
        self.fields["game"].initial = self.instance.game  # the model's default for a new table
        if not self.instance.pk and self.initial.get("game"):  # a new table's ?game= link
            self.fields["game"].initial = self.initial["game"]
        wanted = self.data.get("game") or self.fields["game"].initial
        try:
            self.kit: kits.GameKit | None = kits.get(wanted)
        except LookupError:
            self.kit = None
        self.option_names: list[str] = []
        if self.kit is not None:
            low, high = self.kit.min_seats, self.kit.max_seats
            self.fields["seat_count"].widget.attrs.update(min=low, max=high)
            self.fields["seat_count"].label = self.kit.seats_label
            options_form = self.kit.options_form(
                initial=self.instance.options if self.instance.pk else None
            )
            for name, field in options_form.fields.items():
                if name in self.instance.options and self.instance.pk:
                    field.initial = self.instance.options[name]
                if getattr(field, "show_when", None):
                    # Hidden and disabled (so not sent) while another mode is picked: required
                    # only while its mode is (checked in clean).
                    field.required_when_shown, field.required = field.required, False
                self.fields[name] = field
                self.option_names.append(name)

    def clean_name(self) -> str:
        try:
            return names.clean(self.cleaned_data["name"], "A table's name", 60)
        except names.BadName as exc:
            raise forms.ValidationError(exc.message) from exc

    def clean_game(self) -> str:
        game = self.cleaned_data.get("game") or self.fields["game"].initial
        if self.kit is None or game != self.kit.key:
            raise forms.ValidationError("Choose one of the games on offer.")
        if self.instance.pk and game != self.instance.game:
            raise forms.ValidationError("A table's game cannot change once the table is open.")
        return game

    def clean_pace(self) -> str:
        pace = self.cleaned_data.get("pace")
        if not pace:
            return self.instance.pace if self.instance.pk else clocks.UNTIMED
        return pace

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
        if self.kit is not None and not self.kit.min_seats <= count <= self.kit.max_seats:
            low, high = self.kit.min_seats, self.kit.max_seats
            raise forms.ValidationError(f"A table has {low} to {high} seats.")
        return count

    def clean(self) -> dict:
        data = super().clean()
        for name in self.option_names:
            when = getattr(self.fields[name], "show_when", None)
            if not when:
                continue
            shown = data.get(when[0]) in when[1].split()
            field = self.fields[name]
            if shown and field.required_when_shown and data.get(name) in (None, ""):
                self.add_error(name, field.error_messages["required"])
            elif not shown and name not in self.data:
                # An option of another mode, not sent (the page disabled it): its default. One
                # that was sent is judged by the kit's check like any other.
                default = field.initial
                data[name] = default if default is not None else field.to_python(None)
        options = {name: data.pop(name) for name in self.option_names if name in data}
        if self.kit is not None and len(options) == len(self.option_names):
            problems = self.kit.options_form.check(options, data.get("seat_count"))
            for field, message in problems.items():
                self.add_error(field if field in self.fields else None, message)
        data["options"] = options
        return data


class SignUpForm(UserCreationForm):
    """An account keeps a guest's name and seats across devices."""
