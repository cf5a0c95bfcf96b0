"""Every citation of the rules (``coins/RULES.md`` and a section number, or ``RULES.md`` alone inside a game's
package) names a section that its game's RULES.md has: the specs in the repository are the contract of the code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "engine" / "games"
CITATION = re.compile(r"(?:([a-z_]+)/)?RULES\.md §([0-9]+(?:\.[0-9]+)*)")
WHERE = ("engine", "tgbot", "webapp", "templates", "tests", "bench")
SUFFIXES = {".py", ".js", ".html", ".css", ".md"}


def sections(game: str) -> set[str]:
    """The numbered headings of a game's RULES.md: ``### 3.3 Trick winner`` -> ``3.3``."""
    text = (GAMES / game / "RULES.md").read_text(encoding="utf-8")
    return {m.group(1) for m in re.finditer(r"^#+ ([0-9]+(?:\.[0-9]+)*)\.? ", text, flags=re.M)}


def citing_files() -> list[Path]:
    return [path for top in WHERE for path in sorted((ROOT / top).rglob("*"))
            if path.suffix in SUFFIXES and path.is_file() and "fixtures" not in path.parts]


def test_every_rules_citation_names_a_section_of_its_games_rules() -> None:
    games = {path.name for path in GAMES.iterdir() if (path / "RULES.md").exists()}
    known = {game: sections(game) for game in games}
    unresolved, cited = [], 0
    for path in citing_files():
        text = path.read_text(encoding="utf-8")
        here = next((part for part in path.relative_to(ROOT).parts if part in games), None)
        for match in CITATION.finditer(text):
            game = match.group(1) or here
            cited += 1
            if game not in known or match.group(2) not in known[game]:
                unresolved.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert cited > 50
    assert unresolved == []


def test_no_file_cites_the_specs_by_their_old_names_outside_the_repository() -> None:
    old = re.compile(r"\b(coins|sergeant-major|kings-in-the-corner)\.md\b")
    citing_old = [path for path in citing_files() if old.search(path.read_text(encoding="utf-8"))]
    assert [str(path.relative_to(ROOT)) for path in citing_old] == []
