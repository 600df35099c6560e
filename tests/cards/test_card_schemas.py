"""The declared shapes of cards: every card step kind has a parameter schema, every field a type.

The broken-file tests in test_kilforth_cards.py check the messages; these check the declarations
themselves, so that a new step kind or field cannot skip them and docs/cards.md stays true.
"""

from __future__ import annotations

import re

import pytest

from games.kilforth.engine.cards import steps
from games.kilforth.engine.cards.catalogue import DEFAULTS, FIELDS, KINDS, REQUIRED, SCHEMAS
from games.kilforth.engine.cards.schema import (
    BOOL,
    INT,
    STEPS,
    STR,
    STRS,
    ListOf,
    SchemaError,
    Steps,
    Table,
    Type,
    check,
    one_of,
)
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def registry() -> None:
    steps.load_all()


def test_every_card_step_kind_declares_a_parameter_schema():
    assert set(steps.CARD_PARAMS) == set(steps.CARD_STEPS)
    for kind, params in steps.CARD_PARAMS.items():
        assert isinstance(params, Table), kind
        assert set(params.required) <= set(params.fields), kind
        assert "k" not in params.fields and "seat" not in params.fields, kind


def test_a_card_step_kind_cannot_be_registered_without_its_parameters():
    with pytest.raises(ValueError, match="must declare its params"):
        steps.step("steal_gold_untyped", card=True)
    with pytest.raises(ValueError, match="only card steps declare params"):
        steps.step("steal_gold_internal", params={"n": INT})
    with pytest.raises(ValueError, match="both required and optional"):
        steps.step("steal_gold_twice", card=True, params={"n": INT}, optional={"n": INT})
    assert not {"steal_gold_untyped", "steal_gold_internal", "steal_gold_twice"} & set(steps.STEPS)


def test_every_kind_declares_a_type_for_each_required_field_and_default():
    for kind in KINDS:
        assert set(REQUIRED[kind]) <= set(FIELDS[kind]), kind
        assert set(DEFAULTS[kind]) <= set(FIELDS[kind]), kind


def test_every_default_fits_its_own_declared_type():
    known = dict(steps.CARD_PARAMS)
    for kind in KINDS:
        for field, value in DEFAULTS[kind].items():
            if value is not None:  # None: absent (a location without a night effect)
                check(value, FIELDS[kind][field], known)


def sample(spec: Type | Table | ListOf | Steps) -> object:
    """The smallest value that fits `spec`: a table gets only its required fields."""
    if isinstance(spec, Table):
        return {name: sample(spec.fields[name]) for name in spec.required}
    if isinstance(spec, ListOf | Steps):
        return []
    return next(v for v in (1, "fight", False) if spec.accepts(v))


def test_a_card_with_only_its_required_fields_fits_its_kind():
    for kind in KINDS:
        card = sample(SCHEMAS[kind])
        assert set(card) == set(REQUIRED[kind]), kind
        check(card, SCHEMAS[kind], {})


@pytest.mark.parametrize(
    ("value", "spec", "fits"),
    [
        (2, INT, True),
        (True, INT, False),
        (2.0, INT, False),
        ("2", INT, False),
        ("", STR, True),
        (False, BOOL, True),
        (0, BOOL, False),
        (["a", "b"], STRS, True),
        (["a", 1], STRS, False),
        ("ab", STRS, False),
        ("fight", one_of("fight", "study"), True),
        ("sneak", one_of("fight", "study"), False),
        (["fight"], one_of("fight", "study"), False),
        ([], STEPS, True),
        ([{"k": "hide"}], STEPS, True),
        ({"k": "hide"}, STEPS, False),
        ([{"n": 1}], STEPS, False),
        ([{"k": 3}], STEPS, False),
        ({"a": 1}, Table({"a": INT}), True),
        ({"a": 1, "b": 2}, Table({"a": INT}), False),
        ({}, Table({"a": INT}, ("a",)), False),
        ([{"a": 1}, {}], ListOf(Table({"a": INT}), "a list of tables"), True),
        ([{"a": "1"}], ListOf(Table({"a": INT}), "a list of tables"), False),
    ],
)
def test_the_type_vocabulary(value, spec, fits):
    known = dict(steps.CARD_PARAMS)
    if fits:
        check(value, spec, known)
    else:
        with pytest.raises(SchemaError):
            check(value, spec, known)


def test_a_step_kind_known_without_a_schema_has_only_its_kind_checked():
    check([{"k": "custom", "anything": [1, 2]}], STEPS, {"custom": None})
    with pytest.raises(SchemaError, match="unknown step kind 'other'"):
        check([{"k": "other"}], STEPS, {"custom": None})


def test_the_step_table_in_docs_cards_md_lists_each_kind_with_its_parameters():
    text = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    section = text[text.index("## Effect steps") : text.index("## How to add a card")]
    documented = {}
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)` \|([^|]*)\|", line)
        if m:
            params = re.findall(r"`(\w+)`(\??)", m.group(2))
            documented[m.group(1)] = {
                "required": {p for p, opt in params if not opt},
                "optional": {p for p, opt in params if opt},
            }
    declared = {
        kind: {
            "required": set(t.required),
            "optional": set(t.fields) - set(t.required),
        }
        for kind, t in steps.CARD_PARAMS.items()
    }
    assert documented == declared
