"""The engine is pure: standard library only, never pygame."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "briscola" / "engine"
AI = ENGINE.parent / "ai"


def _imports(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return names


def test_engine_imports_only_the_standard_library() -> None:
    outside = {
        name
        for name in _imports(ENGINE)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not name.startswith("briscola.engine")
    }
    assert outside == set(), f"engine imports non-stdlib modules: {outside}"


def test_ai_imports_no_gui() -> None:
    names = _imports(AI)
    assert not any(name.split(".")[0] == "pygame" for name in names)
    assert not any(name.startswith("briscola.gui") for name in names)


def test_importing_the_engine_and_ai_never_loads_pygame() -> None:
    code = (
        "import sys, briscola.engine, briscola.ai;"
        "bad = [m for m in sys.modules if m.startswith(('pygame', 'briscola.gui'))];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent.parent)
