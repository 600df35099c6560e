"""The engine's folders follow the game's seams, and its modules import one another in layers.

Every engine module imports others only at its top (no import hidden inside a function to dodge
a circle, `TYPE_CHECKING` blocks aside), and the import graph has no circle.
"""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "kilforth" / "engine"
PACKAGE = "games.kilforth.engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def engine_imports(node: ast.ImportFrom) -> list[str]:
    """The engine modules one `from ... import ...` names (a submodule counts as itself)."""
    if not node.module or not node.module.startswith(PACKAGE) or node.level:
        return []
    out = []
    for alias in node.names:
        sub = f"{node.module}.{alias.name}"
        rel = sub[len(PACKAGE) + 1 :].replace(".", "/")
        is_module = (ENGINE / f"{rel}.py").exists() or (ENGINE / rel).is_dir()
        out.append(sub if is_module else node.module)
    return out


def graph() -> tuple[dict[str, set[str]], list[str]]:
    edges: dict[str, set[str]] = {}
    hidden = []
    for path in sorted(ENGINE.rglob("*.py")):
        name = module_name(path)
        tree = ast.parse(path.read_text())
        top = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                top.update(engine_imports(node))
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith(PACKAGE) for a in node.names), name
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
                for inner in ast.walk(node):
                    inner.type_checking = True  # type: ignore[attr-defined]
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node not in tree.body
                and engine_imports(node)
                and not getattr(node, "type_checking", False)
            ):
                hidden.append(f"{name}:{node.lineno}")
        edges[name] = top - {name}
    return edges, hidden


def test_no_engine_module_hides_an_import_inside_a_function():
    _, hidden = graph()
    assert hidden == []


def test_the_engine_modules_import_one_another_without_a_circle():
    edges, _ = graph()
    facade = PACKAGE  # the package's __init__ re-exports the public API: nothing imports it
    assert not any(facade in targets for targets in edges.values())
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                raise AssertionError(" -> ".join([*path, node, nxt]))
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])


def test_the_engine_folders_are_the_games_seams():
    folders = {p.name for p in ENGINE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == {"rules", "cards", "bots", "simulation"}
