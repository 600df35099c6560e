"""python manage.py kilforth_cards [--check] [--strict-counts] [--dir PATH]

Loads every card file through the engine's own loader
(games.kilforth.engine.cards.catalogue.load_files, which checks each card's fields and effect steps
against their declared types and cross-checks references), prints how many of each component there
are per edition beside the targets of the full set, and fails with one line naming the file and the
card on the first error. The validation itself lives in the engine; this command only finds the
files and makes the engine's answer easy to act on.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from types import TracebackType

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kilforth.engine.cards import steps
from games.kilforth.engine.cards.catalogue import (
    CONTENT_DIR,
    ENC_TYPES,
    Content,
    ContentError,
    load_files,
)
from games.kilforth.gallery.census import EDITIONS, Row, census, encounter_matrix, unmet

OK, NOT_MET = "✓", "✗"


class Command(BaseCommand):
    help = "Validate the Kilforth card files and count every component per edition."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="validate and fail (exit 1) on any error; counts below target do not fail",
        )
        parser.add_argument(
            "--strict-counts",
            action="store_true",
            help="also fail when a component does not reach the full set's target count",
        )
        parser.add_argument(
            "--dir",
            type=Path,
            default=CONTENT_DIR,
            help="the content folder to read (default: the game's own)",
        )

    def handle(self, *args: object, **opts: object) -> None:
        folder = Path(str(opts["dir"])).resolve()
        if not folder.is_dir():
            raise CommandError(f"no content folder at {folder}")
        files = sorted(folder.rglob("*.toml"))
        if not files:
            raise CommandError(f"no card files (*.toml) in {folder}")
        content = load_content(files, folder)
        rows = census(content)
        self.stdout.write(self.report(content, rows, folder, len(files)))
        missing = unmet(rows)
        if opts["strict_counts"] and missing:
            raise CommandError(f"{len(missing)} target counts not met: " + "; ".join(missing))
        if opts["check"] or opts["strict_counts"]:
            self.stdout.write(f"OK: {len(content.cards)} cards in {len(files)} files are valid.")

    def report(self, content: Content, rows: list[Row], folder: Path, n_files: int) -> str:
        """The counts table: one line per component, editions side by side, targets marked."""
        lines = [f"Kilforth cards in {_shown(folder)}: {n_files} files, {len(content.cards)} cards"]
        lines.append("")
        width = max(len("  " * r.depth + r.label) for r in rows) + 2
        head = "component".ljust(width) + "".join(ed.rjust(10) for ed in EDITIONS)
        lines.append(head + "    target")
        lines.append("-" * (len(head) + 10))
        for r in rows:
            cells = []
            for ed in EDITIONS:
                mark = {True: " " + OK, False: " " + NOT_MET, None: "  "}[r.met(ed)]
                cells.append(f"{r.counts.get(ed, 0)}{mark}".rjust(10))
            lines.append(
                ("  " * r.depth + r.label).ljust(width) + "".join(cells) + "    " + _target(r)
            )
        lines.append("")
        lines.append("Encounters per terrain deck and type (shared by both editions):")
        lines.append("".ljust(12) + "".join(t.rjust(10) for t in ENC_TYPES) + "     total")
        for terrain, cells, total in encounter_matrix(content):
            lines.append(
                terrain.ljust(12) + "".join(str(n).rjust(10) for n in cells) + f"{total:10}"
            )
        checked = [(r, ed) for r in rows for ed in EDITIONS if r.met(ed) is not None]
        met = sum(1 for r, ed in checked if r.met(ed))
        lines.append("")
        lines.append(
            f"Targets met: {met} of {len(checked)} ({OK} met, {NOT_MET} not met). "
            "Cards without an edition are shared and count in both."
        )
        return "\n".join(lines)


def _target(r: Row) -> str:
    if not r.target:
        return "-"
    values = set(r.target.values())
    if len(values) > 1:
        return " / ".join(f"{ed} {r.target[ed]}" for ed in EDITIONS if ed in r.target)
    return f"{values.pop()}{'+' if r.at_least else ''}"


def _shown(folder: Path) -> str:
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)


def load_content(files: list[Path], folder: Path) -> Content:
    """The engine's loader on these files; any failure becomes one CommandError line."""
    steps.load_all()
    try:
        return load_files(files, set(steps.CARD_STEPS))
    except ContentError as exc:
        raise CommandError(explain(str(exc), files, folder)) from exc
    except Exception as exc:  # a loader bug on unchecked data: still name the file and card
        raise CommandError(explain_crash(exc, files, folder)) from exc


# --------------------------------------------------------------------------- reporting only
# The engine's messages start with the file's bare name ("locations.toml: card 'x': ...");
# the helpers below only make them point at the exact file (and card) for a person to open.

_ID_RE = r'\bid\s*=\s*"{}"'


def _rel(path: Path, folder: Path) -> str:
    try:
        return str(path.resolve().relative_to(folder))
    except ValueError:
        return str(path)


def _candidates(name: str, files: list[Path]) -> list[Path]:
    return [f for f in files if f.name == name]


def _file_with_card(name: str, cid: str | None, files: list[Path]) -> Path | None:
    found = _candidates(name, files)
    if len(found) > 1 and cid:
        pattern = re.compile(_ID_RE.format(re.escape(cid)))
        holding = [f for f in found if pattern.search(f.read_text(encoding="utf-8"))]
        found = holding or found
    return found[0] if len(found) == 1 else None


def explain(message: str, files: list[Path], folder: Path) -> str:
    """An engine ContentError, with the file's path in the content folder and the card named."""
    name, _, rest = message.partition(": ")
    m = re.match(r"card '([^']*)': ", rest)
    cid = m.group(1) if m else None
    path = _file_with_card(name, cid if cid != "?" else None, files)
    where = _rel(path, folder) if path else name
    if rest.startswith("invalid TOML") and path:
        rest = _toml_hint(rest, path)
    elif rest.startswith("unknown card kind") and path:
        rest = _kind_hint(rest, path)
    elif cid == "?" and path:
        rest = _unnamed_hint(rest, path)
    return f"{where}: {rest}"


def _toml_hint(rest: str, path: Path) -> str:
    """Name the card on the line the TOML parser stopped at."""
    m = re.search(r"at line (\d+)", rest)
    if not m:
        return rest
    n = int(m.group(1))
    lines = path.read_text(encoding="utf-8").splitlines()
    if 1 <= n <= len(lines):
        idm = re.search(r'\bid\s*=\s*"([^"]+)"', lines[n - 1])
        if idm:
            return f"card {idm.group(1)!r}: {rest}"
    return f"near line {n}: {rest}"


def _kind_hint(rest: str, path: Path) -> str:
    """An unknown kind is a whole array: name the cards in it."""
    m = re.search(r"unknown card kind '([^']*)'", rest)
    try:
        items = tomllib.loads(path.read_text(encoding="utf-8")).get(m.group(1) if m else "", [])
    except tomllib.TOMLDecodeError:
        return rest
    ids = (
        [str(i.get("id", "?")) for i in items if isinstance(i, dict)]
        if isinstance(items, list)
        else []
    )
    if not ids:
        return rest
    shown = ", ".join(repr(i) for i in ids[:3]) + (" ..." if len(ids) > 3 else "")
    return f"card {shown}: {rest} (known kinds: {', '.join(_kinds())})"


def _kinds() -> tuple[str, ...]:
    from games.kilforth.engine.cards.catalogue import KINDS

    return KINDS


def _unnamed_hint(rest: str, path: Path) -> str:
    """A card without an id: point at it by its name or line."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("{") and not re.search(r"\bid\s*=", line):
            nm = re.search(r'\bname\s*=\s*"([^"]+)"', line)
            label = f"named {nm.group(1)!r}" if nm else "without a name"
            return rest.replace("card '?'", f"card '?' ({label}, line {n})", 1)
    return rest


def explain_crash(exc: Exception, files: list[Path], folder: Path) -> str:
    """The engine raised something other than ContentError: find the file and card it was on."""
    path, cid = _crash_site(exc.__traceback__)
    what = f"{type(exc).__name__}: {exc}"
    hint = "the loader failed on a value it does not check (a bug of the loader: report it)"
    if path is None:
        return f"could not load the cards ({what}); {hint}"
    return f"{_rel(path, folder)}: card {cid!r}: {hint} ({what})"


def _crash_site(tb: TracebackType | None) -> tuple[Path | None, str | None]:
    """The innermost frame of the engine's loader that knows the file and the card."""
    found: tuple[Path | None, str | None] = (None, None)
    while tb is not None:
        loc = tb.tb_frame.f_locals
        path = loc.get("path")
        if isinstance(path, Path):
            card = loc.get("card") if isinstance(loc.get("card"), dict) else loc.get("raw")
            cid = loc.get("cid")
            if cid is None and isinstance(card, dict):
                cid = card.get("id")
            found = (path, str(cid) if cid is not None else "?")
        tb = tb.tb_next
    return found


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run it through manage.py: python manage.py kilforth_cards --check")
