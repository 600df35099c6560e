"""Every decision the Knight Fall engine can ask has words for those waiting on it."""

import ast
from pathlib import Path

from games.knightfall import board

ENGINE = Path(board.__file__).parent / "engine"


def prompt_kinds() -> set[str]:
    kinds = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ask":
                kind = node.args[2]
                assert isinstance(kind, ast.Constant), f"{path.name}:{node.lineno} names no kind"
                kinds.add(kind.value)
    return kinds


def test_every_prompt_kind_has_a_waiting_phrase():
    kinds = prompt_kinds()
    assert len(kinds) >= 20
    missing = sorted(kinds - set(board.WAITING))
    assert not missing, f"the board would say 'Waiting for ... to decide' for {missing}"
