"""The layers of DESIGN.md hold in the tree: what each package may import, and no import circles."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "tgbot", "webapp")
PURE = ("engine.core", "engine.games", "engine.ai")
NEVER_IN_PURE = ("asyncio", "sqlalchemy", "aiosqlite", "asyncpg", "alembic", "redis", "engine.service", "engine.store")
ADAPTERS = ("telegram", "aiohttp", "aiohttp_jinja2", "jinja2", "tgbot", "webapp")


def module_name(path: Path) -> str:
    """``engine/core/cards.py`` -> ``engine.core.cards`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the three packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imports_of(path: Path, *, at_import_time: bool) -> Iterator[str]:
    """The absolute module names ``path`` imports (with ``at_import_time``, not those under TYPE_CHECKING)."""
    return imports_in(path.read_text(encoding="utf-8"), at_import_time=at_import_time)


def imports_in(source: str, *, at_import_time: bool) -> Iterator[str]:
    """The absolute module names a module's ``source`` imports, as ``imports_of``."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    if at_import_time:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def is_under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def forbidden_imports(banned: tuple[str, ...], where: tuple[str, ...]) -> list[str]:
    found = []
    for name, path in modules().items():
        if not is_under(name, where):
            continue
        for imported in imports_of(path, at_import_time=False):
            if is_under(imported, banned):
                found.append(f"{name} imports {imported}")
    return sorted(set(found))


def test_pure_layers_never_import_the_event_loop_the_service_the_store_or_an_adapter() -> None:
    assert forbidden_imports(NEVER_IN_PURE + ADAPTERS, PURE) == []


def test_core_imports_only_the_standard_library_and_itself() -> None:
    outside = []
    for name, path in modules().items():
        if not is_under(name, ("engine.core",)):
            continue
        for imported in imports_of(path, at_import_time=False):
            top = imported.split(".")[0]
            if top not in sys.stdlib_module_names and not is_under(imported, ("engine.core",)):
                outside.append(f"{name} imports {imported}")
    assert sorted(set(outside)) == []


def test_games_import_only_the_core_and_their_own_package() -> None:
    crossing = []
    for name, path in modules().items():
        if not is_under(name, ("engine.games",)) or name == "engine.games":
            continue
        own = ".".join(name.split(".")[:3])
        for imported in imports_of(path, at_import_time=False):
            if is_under(imported, ("engine",)) and not is_under(imported, ("engine.core", own)):
                crossing.append(f"{name} imports {imported}")
    assert sorted(set(crossing)) == []


def test_the_store_never_imports_the_service_or_the_games() -> None:
    banned = ("engine.service", "engine.games", "engine.ai", *ADAPTERS)
    assert forbidden_imports(banned, ("engine.store",)) == []


def test_the_engine_never_imports_an_adapter_and_the_bot_never_imports_the_web_app() -> None:
    assert forbidden_imports(ADAPTERS, ("engine",)) == []
    assert forbidden_imports(("webapp", "aiohttp"), ("tgbot",)) == []


def store_imports(sources: dict[str, str]) -> list[str]:
    """Every import of ``engine.store`` in these modules' sources (by module name), TYPE_CHECKING and local ones too."""
    return sorted({f"{name} imports {imported}" for name, source in sources.items()
                   for imported in imports_in(source, at_import_time=False) if is_under(imported, ("engine.store",))})


def test_the_adapters_never_import_the_store() -> None:
    """The bot and the web app reach people, chats and tables only through the service's parts (DESIGN.md)."""
    sources = {name: path.read_text(encoding="utf-8") for name, path in modules().items()
               if is_under(name, ("tgbot", "webapp"))}
    assert len(sources) > 20
    assert store_imports(sources) == []


@pytest.mark.parametrize("line", [
    "from engine.store.database import Store",
    "import engine.store.reach",
    "from engine.store import database",
    "from engine import store",
    "if TYPE_CHECKING:\n    from engine.store.rows import TableRow",
    "def later() -> None:\n    from engine.store.reach import is_unreachable",
])
def test_the_store_check_finds_every_form_of_a_store_import(line: str) -> None:
    sample = f"from __future__ import annotations\n\nfrom engine.service.people import Person\n{line}\n"
    found = store_imports({"tgbot.sample": sample, "webapp.clean": "from engine.service.reach import is_unreachable"})
    assert found and all(f.startswith("tgbot.sample imports engine.store") for f in found)


def import_graph() -> dict[str, set[str]]:
    """Module -> project modules it imports (TYPE_CHECKING imports count: a circle of types is still a circle)."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        edges = set()
        for imported in imports_of(path, at_import_time=False):
            if imported in known and imported != name:
                edges.add(imported)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_a_circle() -> None:
    """A package may import its own modules, but no module reaches back to one that imports it."""
    graph = import_graph()
    # a package's __init__ re-exporting its modules is not a circle of ideas; drop package -> child edges
    for name, edges in graph.items():
        graph[name] = {e for e in edges if not e.startswith(name + ".")}
    assert cycles(graph) == []


@pytest.mark.parametrize("sample", [{"a": {"b"}, "b": {"a"}}, {"a": {"b"}, "b": {"c"}, "c": {"a"}}])
def test_the_circle_finder_finds_a_circle(sample: dict[str, set[str]]) -> None:
    assert cycles(sample) == [sorted(sample)]


def test_every_import_is_absolute_so_the_layer_checks_see_it() -> None:
    relative = [f"{name} line {node.lineno}" for name, path in modules().items()
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.ImportFrom) and node.level > 0]
    assert relative == []


def test_the_web_process_imports_the_bot_library_only_when_it_runs_a_bot() -> None:
    """Local mode (no token) starts without python-telegram-bot: importing it takes about a sixth of the start-up."""
    code = ("import sys, webapp.__main__, webapp.app, webapp.webhook; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('telegram', 'tgbot')))")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]", found.stdout
