"""The package's layout is its architecture: layers that only import downwards (the
import-linter contracts in ``pyproject.toml``), no import cycle anywhere, the GUI in rooms,
no module too long to read, and ``pip install .`` giving the two commands."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "briscola"
#: The most modules directly in briscola/gui/ (the rest are in its rooms).
GUI_MODULES = 8
#: The longest a module of the package may be, in lines.
MAX_LINES = 600


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_another_that_imports_it_back_type_checking_imports_included() -> None:
    graph = grimp.build_graph("briscola", cache_dir=None)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from loop import a\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _cycles(grimp.build_graph("loop", cache_dir=None)) == [["loop.a", "loop.b"]]


def test_the_layer_contracts_hold() -> None:
    linter = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 kept, 0 broken" in done.stdout


#: What gives the GUI an engine GameState: the name itself, and the functions that make one.
GAME_STATE = {"GameState", "replay", "determinize"}


def _game_state_imports(source: str) -> list[str]:
    """The names of :data:`GAME_STATE` that ``source`` imports from the engine."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("briscola.engine"):
            found += [alias.name for alias in node.names if alias.name in GAME_STATE]
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in GAME_STATE
            and ast.unparse(node.value).endswith("engine")  # briscola.engine.GameState
        ):
            found.append(node.attr)
    return found


def test_no_gui_module_holds_a_game_state() -> None:
    # The GUI reaches a match only through the session interface (briscola/game/session.py).
    found = {
        str(path.relative_to(ROOT)): names
        for path in sorted((PACKAGE / "gui").rglob("*.py"))
        if (names := _game_state_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_game_state_finder_finds_one() -> None:
    assert _game_state_imports("from briscola.engine import Card, GameState\n") == ["GameState"]
    assert _game_state_imports("from briscola.engine.record import replay\n") == ["replay"]
    assert _game_state_imports("import briscola.engine\nbriscola.engine.GameState\n") == [
        "GameState"
    ]
    assert _game_state_imports("from briscola.engine import Card\nmenu.replay()\n") == []


def test_nothing_outside_the_gui_imports_the_gui() -> None:
    graph = grimp.build_graph("briscola", cache_dir=None)
    gui = {m for m in graph.modules if m == "briscola.gui" or m.startswith("briscola.gui.")}
    outside = sorted(
        (module, imported)
        for module in graph.modules - gui
        for imported in graph.find_modules_directly_imported_by(module)
        if imported in gui
    )
    assert outside == []


def test_the_gui_keeps_its_modules_in_rooms() -> None:
    flat = sorted(path.name for path in (PACKAGE / "gui").glob("*.py"))
    assert len(flat) <= GUI_MODULES, flat


def test_no_module_of_the_package_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
