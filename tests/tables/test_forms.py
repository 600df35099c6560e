import pytest

from games.tables.forms import DisplayNameForm, TableSettingsForm
from tests.tables.helpers import DEFAULT_SETTINGS


def settings_form(**changes):
    data = {**DEFAULT_SETTINGS, **changes}
    # Unchecked checkboxes are simply absent from a real form post.
    data = {k: v for k, v in data.items() if v is not False}
    return TableSettingsForm(data)


@pytest.mark.django_db
def test_a_standard_competitive_table_is_valid():
    form = settings_form()
    assert form.is_valid(), form.errors


@pytest.mark.django_db
def test_a_solo_table_has_exactly_one_seat():
    form = settings_form(mode="solo", seat_count=2)
    assert not form.is_valid()
    assert "exactly one hero seat" in form.errors["seat_count"][0]
    assert settings_form(mode="solo", seat_count=1).is_valid()


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["competitive", "cooperative"])
def test_group_modes_need_two_to_four_heroes(mode):
    form = settings_form(mode=mode, seat_count=1)
    assert not form.is_valid()
    assert "2 to 4 heroes" in form.errors["seat_count"][0]


@pytest.mark.django_db
@pytest.mark.parametrize("count", [0, 5, 12])
def test_seat_counts_outside_one_to_four_are_refused(count):
    form = settings_form(seat_count=count)
    assert not form.is_valid()
    assert "seat_count" in form.errors


@pytest.mark.django_db
def test_open_hands_is_only_offered_in_cooperative_games():
    assert not settings_form(open_hands=True).is_valid()
    assert settings_form(mode="cooperative", open_hands=True).is_valid()


@pytest.mark.django_db
def test_harder_difficulty_is_a_shadows_setting():
    form = settings_form(edition="gloom", difficulty="harder")
    assert not form.is_valid()
    assert "Shadows" in form.errors["difficulty"][0]
    assert settings_form(edition="shadows", difficulty="harder").is_valid()
    assert settings_form(edition="gloom", difficulty="easier").is_valid()


@pytest.mark.django_db
def test_unknown_choices_are_refused():
    assert "edition" in settings_form(edition="moonlight").errors
    assert "mode" in settings_form(mode="chaos").errors


@pytest.mark.django_db
def test_a_blank_table_name_is_refused():
    assert "name" in settings_form(name="   ").errors


def test_display_names_are_trimmed_and_required():
    form = DisplayNameForm({"name": "  Ann   the   Bold "})
    assert form.is_valid()
    assert form.cleaned_data["name"] == "Ann the Bold"
    assert not DisplayNameForm({"name": "   "}).is_valid()
    assert not DisplayNameForm({"name": "x" * 41}).is_valid()


@pytest.mark.django_db
def test_a_table_for_a_game_nobody_offers_is_a_form_error():
    form = settings_form(game="chess")
    assert not form.is_valid()
    assert "game" in form.errors


@pytest.mark.django_db
def test_the_options_are_cleaned_into_one_dict_for_the_table():
    form = settings_form(mode="cooperative", open_hands=True)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["game"] == "kilforth"
    assert form.cleaned_data["options"]["open_hands"] is True
    assert "edition" not in form.cleaned_data
