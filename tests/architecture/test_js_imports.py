"""The Mini App's ES modules import one another without a circle, as the Python modules do (test_layers.py).

A circle of static imports makes the order in which modules run depend on which one the page loads first: a
module can see another's exports before they are set. Dynamic ``import()`` runs later, on demand, and is not
counted (a game's descriptor loads its table that way).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.architecture.test_layers import cycles

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "webapp" / "static"
VENDOR = STATIC / "vendor"

# ``import x from "./a.js"``, ``import { a, b } from "./a.js"`` (over several lines too), ``import "./a.js"``,
# ``export { a } from "./a.js"``, ``export * from "./a.js"``: a statement at the start of a line.
STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b(?:[^;'"`()]*?\bfrom)?[ \t\n]*(["'])(?P<spec>[^"'\n]+)\1""", re.MULTILINE)


def specifiers(source: str) -> list[str]:
    """The module specifiers ``source`` imports statically, in order."""
    return [m.group("spec") for m in STATIC_IMPORT.finditer(source)]


def modules() -> dict[str, Path]:
    """Every ES module under webapp/static (vendored code aside), by its path there."""
    return {path.relative_to(STATIC).as_posix(): path for path in sorted(STATIC.rglob("*.js"))
            if VENDOR not in path.parents}


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Module -> the modules of ``sources`` it imports statically (relative specifiers resolved by path)."""
    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        edges = set()
        for spec in specifiers(source):
            if not spec.startswith("."):
                continue
            target = (Path("/") / name).parent.joinpath(spec).resolve().as_posix().lstrip("/")
            if target in sources and target != name:
                edges.add(target)
        graph[name] = edges
    return graph


def test_every_module_import_is_found() -> None:
    found = modules()
    assert "shell/games.js" in found and len(found) > 40
    graph = import_graph({name: path.read_text(encoding="utf-8") for name, path in found.items()})
    assert {"games/coins/index.js", "shell/dom.js"} <= graph["shell/games.js"]


def test_no_js_module_imports_itself_through_a_circle() -> None:
    graph = import_graph({name: path.read_text(encoding="utf-8") for name, path in modules().items()})
    assert cycles(graph) == []


@pytest.mark.parametrize("line", [
    'import { a } from "./b.js";',
    'import b from "./b.js";',
    "import * as b from './b.js';",
    'import "./b.js";',
    'import {\n  a,\n  c,\n} from "./b.js";',
    'export { a } from "./b.js";',
    'export * from "./b.js";',
])
def test_the_import_reader_finds_every_form_of_a_static_import(line: str) -> None:
    assert specifiers(f"// a module\n{line}\nconst x = 1;\n") == ["./b.js"]


def test_the_import_reader_skips_dynamic_imports_and_strings() -> None:
    source = 'const t = () => import("./b.js");\nconst s = "import x from \\"./c.js\\"";\nexport const y = 2;\n'
    assert specifiers(source) == []


def test_the_circle_finder_sees_a_circle_of_modules_in_folders() -> None:
    sources = {"shell/a.js": 'import { b } from "../games/x/b.js";',
               "games/x/b.js": 'import { a } from "../../shell/a.js";',
               "shell/c.js": 'import { a } from "./a.js";'}
    assert cycles(import_graph(sources)) == [["games/x/b.js", "shell/a.js"]]
