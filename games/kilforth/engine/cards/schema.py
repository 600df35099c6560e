"""The shapes card data may take: a small type vocabulary and the one checker the loader runs.

Card fields (`cards.FIELDS`) and the parameters of card step kinds (declared beside each step,
`@step(kind, card=True, params={...}, optional={...})`) are both written with these types, and
`check` walks a card (or a step) against them. A mistake raises SchemaError with a message that
names the field or the parameter and the type expected, e.g.
`wrong type for field 'gold': expected an integer, got 'lots'` or
`step 'gain_gold': missing parameter 'n' (an integer)`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass


class SchemaError(ValueError):
    """A value does not fit its declared type; the message names the field or parameter."""


@dataclass(frozen=True)
class Type:
    """A plain value: `name` is how messages say it, `accepts` tells a fitting value.

    `wrong` says what a refused value has wrong: its "type", or its "value" (one_of).
    """

    name: str
    accepts: Callable[[object], bool]
    wrong: str = "type"


@dataclass(frozen=True)
class Table:
    """A table of named fields: those in `required` must be given, the others may be left out.

    A name not in `fields` is refused (a typo in an optional field would otherwise be ignored).
    """

    fields: Mapping[str, Spec]
    required: tuple[str, ...] = ()
    name: str = "a table"


@dataclass(frozen=True)
class ListOf:
    """A list whose every item is an `item`."""

    item: Spec
    name: str


@dataclass(frozen=True)
class Steps:
    """A list of effect steps `{k = kind, ...}`: each kind known, its parameters as declared."""

    name: str = "a list of steps"


Spec = Type | Table | ListOf | Steps

INT = Type("an integer", lambda v: type(v) is int)  # not a bool, not a float
STR = Type("a string", lambda v: type(v) is str)
BOOL = Type("true or false", lambda v: type(v) is bool)
STRS = ListOf(STR, "a list of strings")
STEPS = Steps()


def one_of(*values: str) -> Type:
    """A string that must be one of `values`."""
    return Type("one of " + ", ".join(values), lambda v: type(v) is str and v in values, "value")


def step_params(params: Mapping[str, Spec], optional: Mapping[str, Spec]) -> Table:
    """The parameters of a step kind: `params` required, `optional` may be left out."""
    both = set(params) & set(optional)
    if both:
        raise ValueError(f"parameters both required and optional: {sorted(both)}")
    return Table({**params, **optional}, tuple(params), "the step's parameters")


@dataclass(frozen=True)
class _Where:
    noun: str  # "field" or "parameter"
    prefix: str  # "" for a card's fields, "step 'kind': " inside a step


_FIELD = _Where("field", "")


def check(value: object, spec: Spec, steps: Mapping[str, Table | None]) -> None:
    """Raise SchemaError unless `value` fits `spec`; `steps`: the known step kinds' parameters.

    A step kind known but without a declared table (None) has only its kind checked.
    """
    _check(value, spec, "", _FIELD, steps)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check(
    value: object, spec: Spec, path: str, at: _Where, steps: Mapping[str, Table | None]
) -> None:
    def wrong() -> SchemaError:
        what = f"{at.noun} {path!r}" if path else "a value"
        fault = spec.wrong if isinstance(spec, Type) and type(value) is str else "type"
        return SchemaError(
            f"{at.prefix}wrong {fault} for {what}: expected {spec.name}, got {_shown(value)}"
        )

    if isinstance(spec, Type):
        if not spec.accepts(value):
            raise wrong()
    elif isinstance(spec, Table):
        if type(value) is not dict:
            raise wrong()
        for key in spec.required:
            if key not in value:
                field = spec.fields[key]
                raise SchemaError(
                    f"{at.prefix}missing {at.noun} {_join(path, key)!r} ({field.name})"
                )
        for key, item in value.items():
            if key not in spec.fields:
                raise SchemaError(
                    f"{at.prefix}unknown {at.noun} {_join(path, key)!r} ({_hint(key, spec)})"
                )
            _check(item, spec.fields[key], _join(path, key), at, steps)
    elif isinstance(spec, ListOf):
        if type(value) is not list:
            raise wrong()
        for i, item in enumerate(value):
            _check(item, spec.item, f"{path}[{i}]", at, steps)
    else:
        if type(value) is not list:
            raise wrong()
        for s in value:
            _check_step(s, steps)


def _check_step(s: object, steps: Mapping[str, Table | None]) -> None:
    if type(s) is not dict or type(s.get("k")) is not str:
        raise SchemaError(f"step {_shown(s)} needs a kind 'k'")
    kind = s["k"]
    if kind not in steps:
        raise SchemaError(f"unknown step kind {kind!r}")
    params = steps[kind]
    if params is not None:
        args = {key: v for key, v in s.items() if key != "k"}
        _check(args, params, "", _Where("parameter", f"step {kind!r}: "), steps)


def _hint(key: str, spec: Table) -> str:
    if not spec.fields:
        return "it takes none"
    close = difflib.get_close_matches(key, list(spec.fields), n=1)
    if close:
        return f"did you mean {close[0]!r}?"
    return "known: " + ", ".join(spec.fields)
