"""The platform (games/tables) knows games only through the kit protocol and registry."""

import ast
from pathlib import Path

import pytest

from games.tables import kits

PLATFORM = Path(__file__).resolve().parents[2] / "games" / "tables"
KIT_PACKAGES = ("games.kilforth", "games.knightfall")


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_platform_package_imports_no_kit_module():
    offenders = []
    for path in PLATFORM.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for module in imported_modules(path):
            if (
                module.startswith(KIT_PACKAGES)
                or module.startswith("games.")
                and not (module.startswith("games.tables"))
            ):
                offenders.append(f"{path.relative_to(PLATFORM)}: {module}")
    assert offenders == []


def test_kilforth_registers_itself_as_a_kit_that_implements_the_protocol():
    kit = kits.get("kilforth")
    assert isinstance(kit, kits.GameKit)
    assert kit.min_seats <= kit.max_seats
    assert list(kit.bot_levels) == ["random", "heuristic"]


def test_an_unregistered_game_is_a_lookup_error_not_a_crash():
    with pytest.raises(LookupError, match="No game called"):
        kits.get("chess")
