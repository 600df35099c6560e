"""`manage.py kilforth_cards --check`: the real cards pass, broken ones are named with file and id.

Each broken case copies the real content folder into a temporary one and adds a single card file
with one mistake, so the tests keep working as the card set grows.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.kilforth.engine import content
from games.kilforth.engine.cards.catalogue import CONTENT_DIR
from games.kilforth.gallery.census import EDITIONS, census
from tests.conftest import ROOT


def run(*args: str) -> str:
    out = StringIO()
    call_command("kilforth_cards", *args, stdout=out)
    return out.getvalue()


def failure(folder: Path, *extra: str) -> str:
    with pytest.raises(CommandError) as caught:
        run("--check", "--dir", str(folder), *extra)
    message = str(caught.value)
    assert "\n" not in message, "an error is one line"
    return message


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the real content that still passes the check."""
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, target)
    return target


@pytest.fixture
def a_location() -> str:
    return content().locations("gloom")[1]


def add(folder: Path, text: str, name: str = "extra.toml") -> None:
    (folder / "common" / name).write_text(text, encoding="utf-8")


def enemy(cid: str = "e.test_beast", **fields: str) -> str:
    base = {
        "id": f'"{cid}"',
        "name": '"Test Beast"',
        "type": '"enemy"',
        "terrain": '"forest"',
        "fight": "2",
        "health": "2",
        "gold": "2",
    }
    base.update(fields)
    body = ", ".join(f"{k} = {v}" for k, v in base.items() if v is not None)
    return "encounter = [\n  {" + body + "},\n]\n"


# --------------------------------------------------------------------------- the real cards


def test_the_real_card_set_passes_the_check():
    out = run("--check")
    assert "OK:" in out
    assert f"{len(content().cards)} cards" in out


def test_a_copy_of_the_real_card_set_passes_from_another_folder(folder):
    assert "OK:" in run("--check", "--dir", str(folder))


def test_the_counts_printed_match_the_loaded_cards():
    out = run("--check")
    c = content()
    rows = census(c)
    table = out.splitlines()[4 : 4 + len(rows)]
    for row, line in zip(rows, table, strict=True):
        assert line.startswith("  " * row.depth + row.label + " "), line
        numbers = [int(w) for w in line[len(row.label) + 2 * row.depth :].split() if w.isdigit()]
        assert numbers[: len(EDITIONS)] == [row.counts[ed] for ed in EDITIONS], line
    encounters = next(r for r in census(c) if r.label == "encounters")
    assert encounters.counts["gloom"] == len(c.by_kind["encounter"])
    locations = next(r for r in census(c) if r.label.startswith("locations"))
    for ed in EDITIONS:
        not_harder = [i for i in c.locations(ed) if c.cards[i]["centre"] != "harder"]
        assert locations.counts[ed] == len(not_harder)
    night = next(r for r in census(c) if r.label == "night cards")
    assert night.counts == {ed: len(c.night(ed)) for ed in EDITIONS}
    loot = next(r for r in census(c) if r.label == "loot tokens")
    assert loot.counts["shadows"] == len(c.by_kind["loot"])


def test_the_table_shows_the_issue_targets_and_marks_them():
    out = run()
    assert "target" in out.splitlines()[2]
    for label, target in [("encounters", "82"), ("rewards", "74"), ("loot tokens", "82")]:
        line = next(x for x in out.splitlines() if x.startswith(label + " "))
        assert line.rstrip().endswith(target)
        assert "✓" in line or "✗" in line
    assert "Targets met:" in out


def test_plain_check_does_not_fail_on_counts_but_strict_counts_does(folder):
    (folder / "common" / "loot.toml").unlink()
    out = run("--check", "--dir", str(folder))
    assert "OK:" in out
    assert next(x for x in out.splitlines() if x.startswith("loot tokens")).split()[2] == "0"
    message = failure(folder, "--strict-counts")
    assert "target counts not met" in message
    assert "loot tokens: 0 of 82" in message


# --------------------------------------------------------------------------- broken cards


def test_malformed_toml_names_the_file_and_the_card_on_that_line(folder):
    add(folder, enemy().replace("health = 2", "health = "))
    message = failure(folder)
    assert message.startswith("common/extra.toml: ")
    assert "'e.test_beast'" in message
    assert "invalid TOML" in message


def test_an_unknown_card_kind_names_the_file_and_its_cards(folder):
    add(folder, enemy().replace("encounter = [", "monster = ["))
    message = failure(folder)
    assert message.startswith("common/extra.toml: ")
    assert "'e.test_beast'" in message
    assert "unknown card kind 'monster'" in message


def test_a_missing_field_names_the_file_the_card_and_the_field(folder):
    add(folder, enemy(terrain=None))
    message = failure(folder)
    assert message == "common/extra.toml: card 'e.test_beast': missing field 'terrain' (a string)"


def test_a_card_without_an_id_is_pointed_at_by_its_name(folder):
    add(folder, enemy(id=None))
    message = failure(folder)
    assert message.startswith("common/extra.toml: card '?' (named 'Test Beast', line 2)")
    assert "missing field 'id'" in message


def test_an_unknown_value_names_the_file_and_the_card(folder):
    add(folder, enemy(terrain='"swamp"'))
    assert failure(folder) == "common/extra.toml: card 'e.test_beast': terrain 'swamp' unknown"


def test_a_wrong_type_names_the_file_the_card_the_field_and_the_type_expected(folder):
    add(folder, enemy(gold='"lots"'))
    assert failure(folder) == (
        "common/extra.toml: card 'e.test_beast': "
        "wrong type for field 'gold': expected an integer, got 'lots'"
    )


def test_a_wrong_type_the_loader_itself_reads_is_refused_before_it_trips(folder):
    add(folder, enemy(health='"three"'))
    assert failure(folder) == (
        "common/extra.toml: card 'e.test_beast': "
        "wrong type for field 'health': expected an integer, got 'three'"
    )


def test_true_is_not_an_integer_nor_is_a_fraction(folder):
    add(folder, enemy(fight="true"))
    assert "wrong type for field 'fight': expected an integer, got True" in failure(folder)
    add(folder, enemy(fight="2.5"))
    assert "wrong type for field 'fight': expected an integer, got 2.5" in failure(folder)


def test_a_list_of_keywords_written_as_one_string_is_a_wrong_type(folder):
    add(folder, enemy(keywords='"coin"'))
    assert failure(folder).endswith(
        "wrong type for field 'keywords': expected a list of strings, got 'coin'"
    )


def test_a_misspelt_optional_field_is_refused_and_the_likely_field_named(folder):
    add(folder, enemy(gld="3"))
    assert failure(folder) == (
        "common/extra.toml: card 'e.test_beast': unknown field 'gld' (did you mean 'gold'?)"
    )


def test_an_unknown_field_unlike_any_other_lists_the_fields_the_kind_has(folder):
    add(folder, 'loot = [\n  {id = "l.test_coin", name = "Coin", colour = "red"},\n]\n')
    assert failure(folder) == (
        "common/extra.toml: card 'l.test_coin': unknown field 'colour' "
        "(known: id, name, gold, deed, text)"
    )


def test_a_misspelt_attribute_in_a_bonus_is_named_with_its_table(folder):
    add(
        folder,
        'reward = [\n  {id = "r.test_ring", name = "Test Ring", deck = "item", gold = 2,'
        " bonus = {fihgt = 1}},\n]\n",
    )
    assert failure(folder) == (
        "common/extra.toml: card 'r.test_ring': unknown field 'bonus.fihgt' (did you mean 'fight'?)"
    )


def break_a_saga(folder: Path, pattern: str, replacement: str) -> str:
    """Rewrite the first saga that matches `pattern` in the copied heroes file; its id."""
    path = folder / "common" / "heroes.toml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    i = next(
        n
        for n, x in enumerate(lines)
        if x.lstrip().startswith('{id = "saga.') and re.search(pattern, x)
    )
    lines[i] = re.sub(pattern, replacement, lines[i], count=1)
    path.write_text("".join(lines), encoding="utf-8")
    return re.search(r'id = "([^"]+)"', lines[i]).group(1)


def test_a_wrong_type_deep_in_a_saga_names_the_path_to_it(folder):
    saga = break_a_saga(folder, r'(totem = \{name = "[^"]*", gold = )(\d+)', r'\1"\2"')
    assert re.fullmatch(
        f"common/heroes.toml: card '{re.escape(saga)}': "
        r"wrong type for field 'totem.gold': expected an integer, got '\d+'",
        failure(folder),
    )


def test_an_interlude_testing_an_unknown_attribute_is_a_wrong_value(folder):
    saga = break_a_saga(folder, r'(interlude = \{[^}]*attr = )"\w+"', r'\1"charm"')
    assert failure(folder) == (
        f"common/heroes.toml: card '{saga}': wrong value for field 'chapters[1].interlude.attr': "
        "expected one of fight, study, sneak, influence, got 'charm'"
    )


def test_cards_must_be_an_array_of_tables(folder):
    add(folder, 'encounter = {id = "e.test_beast", name = "Test Beast"}\n')
    assert failure(folder) == ("common/extra.toml: 'encounter' must be an array of cards (tables)")


def test_a_loader_crash_on_a_value_it_does_not_check_still_names_the_file_and_the_card(
    folder, monkeypatch
):
    from games.kilforth.engine.cards import catalogue as cards

    def trips(path: Path, kind: str, card: dict) -> None:
        if card["id"] == "e.test_beast":
            raise TypeError("'<' not supported between instances of 'str' and 'int'")

    monkeypatch.setattr(cards, "_validate_kind", trips)
    add(folder, enemy())
    message = failure(folder)
    assert message.startswith("common/extra.toml: card 'e.test_beast': ")
    assert "TypeError" in message


def test_an_unknown_effect_step_names_the_file_the_card_and_the_step(folder):
    add(folder, enemy(trophy='[{k = "teleport", n = 1}]'))
    message = failure(folder)
    assert message == "common/extra.toml: card 'e.test_beast': unknown step kind 'teleport'"


def test_an_unknown_step_deep_in_a_choice_is_found(folder):
    steps = '[{k = "choose", options = [{label = "Run", steps = [{k = "fly"}]}]}]'
    add(folder, enemy(trophy=steps))
    assert "unknown step kind 'fly'" in failure(folder)


def test_an_effect_step_with_a_parameter_of_the_wrong_type_is_an_error(folder):
    add(folder, enemy(trophy='[{k = "gain_gold", n = "two"}]'))
    assert failure(folder) == (
        "common/extra.toml: card 'e.test_beast': "
        "step 'gain_gold': wrong type for parameter 'n': expected an integer, got 'two'"
    )


def test_an_effect_step_missing_its_parameter_is_an_error(folder):
    add(folder, enemy(trophy='[{k = "gain_gold"}]'))
    assert failure(folder) == (
        "common/extra.toml: card 'e.test_beast': "
        "step 'gain_gold': missing parameter 'n' (an integer)"
    )


def test_an_effect_step_with_an_unknown_parameter_is_an_error(folder):
    add(folder, enemy(trophy='[{k = "lose_hp", n = 1, sorce = "trap"}]'))
    assert failure(folder) == (
        "common/extra.toml: card 'e.test_beast': "
        "step 'lose_hp': unknown parameter 'sorce' (did you mean 'source'?)"
    )


def test_a_parameter_given_to_a_step_that_takes_none_is_an_error(folder):
    add(folder, enemy(trophy='[{k = "draw_loot", n = 2}]'))
    assert failure(folder).endswith("step 'draw_loot': unknown parameter 'n' (it takes none)")


def test_a_step_parameter_outside_its_values_is_a_wrong_value(folder):
    add(folder, enemy(trophy='[{k = "draw_reward", deck = "weapon"}]'))
    assert failure(folder).endswith(
        "step 'draw_reward': wrong value for parameter 'deck': "
        "expected one of item, title, spell, ally, got 'weapon'"
    )


def test_a_step_deep_in_a_choice_has_its_parameters_checked(folder):
    gate = '{k = "test_gate", attr = "sneak", pass = [{k = "hide"}]}'
    add(
        folder, enemy(trophy=f'[{{k = "choose", options = [{{label = "Try", steps = [{gate}]}}]}}]')
    )
    assert failure(folder).endswith("step 'test_gate': missing parameter 'need' (an integer)")


def test_a_choice_option_without_a_label_is_an_error(folder):
    add(folder, enemy(trophy='[{k = "choose", options = [{steps = [{k = "hide"}]}]}]'))
    assert failure(folder).endswith(
        "step 'choose': missing parameter 'options[0].label' (a string)"
    )


def test_an_unknown_location_names_the_file_and_the_card(folder):
    text = (
        'reward = [\n  {id = "r.test_ring", name = "Test Ring", deck = "item", gold = 2,'
        ' where = ["g.nowhere"]},\n]\n'
    )
    add(folder, text)
    message = failure(folder)
    assert message == "common/extra.toml: card 'r.test_ring': unknown location 'g.nowhere'"


def test_a_night_card_naming_a_missing_location_is_an_error(folder, a_location):
    text = (
        'night = [\n  {id = "g.night.test", name = "Test Night", edition = "gloom",'
        ' type = "weather", location = "g.atlantis"},\n]\n'
    )
    (folder / "gloom" / "extra.toml").write_text(text, encoding="utf-8")
    message = failure(folder)
    assert message == "gloom/extra.toml: card 'g.night.test': unknown location 'g.atlantis'"


def test_a_duplicate_id_names_both_files(folder):
    taken = content().by_kind["encounter"][0]
    add(folder, enemy(cid=taken), name="zz_extra.toml")
    message = failure(folder)
    assert message.startswith(f"common/zz_extra.toml: card '{taken}': duplicate id")
    assert "encounters.toml" in message


def test_a_mistake_in_one_of_two_files_with_the_same_name_names_the_right_folder(folder):
    path = folder / "shadows" / "locations.toml"
    loc = content().locations("shadows")[3]
    text = path.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if f'"{loc}"' in x)
    path.write_text(text.replace(line, line.replace('terrain = "', 'terrain = "x')), "utf-8")
    message = failure(folder)
    assert message.startswith(f"shadows/locations.toml: card '{loc}': terrain 'x")


def test_an_unknown_keyword_names_the_file_and_the_card(folder):
    add(folder, enemy(keywords='["blorp"]'))
    message = failure(folder)
    assert "common/extra.toml" in message and "blorp" in message


def test_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="no content folder"):
        run("--check", "--dir", str(tmp_path / "nope"))


def test_from_the_shell_an_error_exits_non_zero_with_one_line(folder):
    add(folder, enemy(trophy='[{k = "teleport"}]'))
    done = subprocess.run(
        [sys.executable, "manage.py", "kilforth_cards", "--check", "--dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "CommandError: common/extra.toml: card 'e.test_beast': unknown step kind 'teleport'"
    ]
