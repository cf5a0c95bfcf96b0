"""Parts are composed, not stacked: no class of the service, the store or the adapters inherits another of ours.

A class that inherits one of the project's own classes reaches state it does not own, and a
reader must open every file of the tower to follow it. Exceptions, enums, protocols, typed
dicts and named tuples are kinds, not towers, and may be subclassed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPOSED = ("engine/service", "engine/store", "tgbot", "webapp")
KINDS = {"Exception", "Enum", "StrEnum", "IntEnum", "Protocol", "TypedDict", "NamedTuple", "Generic", "object"}


def project_classes() -> dict[str, str]:
    """Every class defined under engine/, tgbot/ and webapp/: name -> the module that defines it."""
    found: dict[str, str] = {}
    for folder in ("engine", "tgbot", "webapp"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, str(path.relative_to(ROOT)))
    return found


def _base_name(base: ast.expr) -> str:
    if isinstance(base, ast.Subscript):
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def towers(source: str, module: str, ours: dict[str, str]) -> list[str]:
    """The classes in ``source`` that inherit one of ``ours`` (not a mere kind such as an exception)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for base in node.bases:
            name = _base_name(base)
            if name in ours and name not in KINDS and not _is_kind(name, ours):
                found.append(f"{module}: {node.name}({name}) — {name} is defined in {ours[name]}")
    return found


def _is_kind(name: str, ours: dict[str, str]) -> bool:
    """An exception, enum or protocol of ours (they may be subclassed)."""
    path = ROOT / ours[name]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == name:
            bases = {_base_name(b) for b in node.bases}
            return bool(bases & KINDS) or any(_is_kind(b, ours) for b in bases if b in ours and b != name)
    return False


def test_no_class_of_the_service_store_or_adapters_inherits_another_of_ours() -> None:
    ours = project_classes()
    found = []
    for folder in COMPOSED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += towers(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), ours)
    assert found == []


def test_a_tower_is_found_when_one_is_built() -> None:
    ours = project_classes() | {"Moves": "engine/service/moves.py"}
    source = "class Lobby(Moves):\n    pass\n\nclass Fine(Exception):\n    pass\n"
    assert [line.split(" — ")[0] for line in towers(source, "example.py", ours)] == ["example.py: Lobby(Moves)"]


def store_reaches(source: str, module: str) -> list[str]:
    """Every ``<something>.store`` an adapter's source reaches for (the service's store is not theirs)."""
    return [f"{module}:{node.lineno}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in ("store", "_store")]


def test_the_adapters_never_reach_the_services_store() -> None:
    found = []
    for folder in ("tgbot", "webapp"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += store_reaches(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


def test_a_reach_for_the_store_is_found() -> None:
    source = "async def f(service):\n    return await service.store.people.user_settings(1)\n"
    assert store_reaches(source, "example.py") == ["example.py:2"]
