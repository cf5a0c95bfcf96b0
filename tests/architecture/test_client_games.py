"""The Mini App's client keeps each game in its own folder: only ``webapp/static/games/<id>/`` names a game.

The shell (everything else under ``webapp/static``) asks a game's descriptor instead, and the one registry,
``shell/games.js``, imports exactly the game folders on disk. A line is reported with its file and number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from engine.catalogue import describe_games
from engine.core.cards import FRENCH, SPANISH

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "webapp" / "static"
SCANNED = (".js", ".css", ".html", ".svg", ".json")

# Words that name one game in the client beyond its id and its title: its other names, the prefixes of its page
# strings ("sm_trumps") and CSS classes (".kc-pile").
KNOWN = {
    "coins": ("Coins", "Mark Steere", "coins_", "coins-"),
    "sergeant_major": ("Sergeant Major", "3-5-8", "Woburn", "sm_", "sm-"),
    "kings_corner": ("Kings in the Corner", "Kings Corner", "kc_", "kc-"),
}
DECK_SUITS = (SPANISH.suits, FRENCH.suits)
REGISTRY = "shell/games.js"
REGISTRY_IMPORT = re.compile(r'^import (\w+) from "\.\./games/([\w-]+)/index\.js";$')
REGISTRY_LIST = re.compile(r"^const DESCRIPTORS = \[([\w, ]*)\];$")


def _pattern(token: str) -> re.Pattern[str]:
    """``token`` standing alone: not inside a longer word (``_`` and ``-`` count as separators)."""
    before = r"(?<![A-Za-z0-9])" if token[0].isalnum() else ""
    after = r"(?![A-Za-z0-9])" if token[-1].isalnum() else ""
    if token.endswith(("_", "-")):  # a prefix: "sm_" in "sm_trumps", not in "rp_sm_x" or "prism-"
        before = r"(?<![A-Za-z0-9_-])"
    return re.compile(before + re.escape(token) + after)


def _suit_of_a_deck(token: str, line: str, start: int) -> bool:
    """Whether this use of a suit's name (Coins is also a Spanish suit) names the suit, not the game.

    A suit in a card code, a CSS name or a sprite id follows a hyphen ("N-coins", "--suit-coins"), and a line
    naming every suit of its deck defines the deck.
    """
    for suits in DECK_SUITS:
        if token in suits:
            if start > 0 and line[start - 1] == "-":
                return True
            if all(_pattern(suit).search(line) for suit in suits):
                return True
    return False


def game_tokens() -> dict[str, tuple[str, ...]]:
    """Each game's id, title and known words, for every game the server describes and every known one."""
    tokens: dict[str, list[str]] = {}
    for game in describe_games():
        tokens.setdefault(game["id"], []).extend([game["id"], game["title"]])
    for game_id, words in KNOWN.items():
        tokens.setdefault(game_id, [game_id]).extend(words)
    return {game_id: tuple(dict.fromkeys(words)) for game_id, words in tokens.items()}


def registry_lines(text: str) -> set[int]:
    """The registry's lines that may name games: its imports of the game folders and the list of descriptors."""
    lines = enumerate(text.splitlines(), 1)
    return {n for n, line in lines if REGISTRY_IMPORT.match(line) or REGISTRY_LIST.match(line)}


def naming(static: Path, tokens: dict[str, tuple[str, ...]]) -> Iterator[str]:
    """Every line outside ``games/`` under ``static`` that names a game, as "file:line: game (word): text"."""
    patterns = [(game_id, token, _pattern(token)) for game_id, words in tokens.items() for token in words]
    for path in sorted(static.rglob("*")):
        rel = path.relative_to(static).as_posix()
        if not path.is_file() or path.suffix not in SCANNED or rel.startswith("games/"):
            continue
        text = path.read_text(encoding="utf-8")
        allowed = registry_lines(text) if rel == REGISTRY else set()
        for n, line in enumerate(text.splitlines(), 1):
            if n in allowed:
                continue
            for game_id, token, pattern in patterns:
                hits = [m for m in pattern.finditer(line) if not _suit_of_a_deck(token, line, m.start())]
                if hits:
                    yield f"webapp/static/{rel}:{n}: {game_id} ({token!r}): {line.strip()[:100]}"


def registry_problems(static: Path) -> list[str]:
    """How the registry differs from the game folders on disk (empty when it lists exactly those)."""
    registry = static / REGISTRY
    text = registry.read_text(encoding="utf-8") if registry.is_file() else ""
    imports = {m.group(1): m.group(2) for m in map(REGISTRY_IMPORT.match, text.splitlines()) if m}
    listed = [name.strip() for m in map(REGISTRY_LIST.match, text.splitlines()) if m
              for name in m.group(1).split(",") if name.strip()]
    folders = {p.name for p in (static / "games").iterdir() if p.is_dir()} if (static / "games").is_dir() else set()
    imported = set(imports.values())
    problems = [f"{REGISTRY}: no import of games/{name}/index.js" for name in sorted(folders - imported)]
    problems += [f"{REGISTRY}: imports games/{name}/, which is not on disk" for name in sorted(imported - folders)]
    problems += [f"{REGISTRY}: {ident} is imported but not in DESCRIPTORS" for ident in imports if ident not in listed]
    problems += [f"{REGISTRY}: {ident} is in DESCRIPTORS but not imported" for ident in listed if ident not in imports]
    for name in sorted(folders):
        index = static / "games" / name / "index.js"
        source = index.read_text(encoding="utf-8") if index.is_file() else ""
        if "export default {" not in source or not re.search(rf'^\s*id: "{re.escape(name)}",$', source, re.M):
            problems.append(f"games/{name}/index.js: no default descriptor with id {name!r}")
    return problems


def test_client_shell_names_no_game() -> None:
    found = list(naming(STATIC, game_tokens()))
    assert not found, "a game named outside its folder under webapp/static/games/:\n" + "\n".join(found)


def test_client_registry_lists_exactly_the_game_folders() -> None:
    assert registry_problems(STATIC) == []


def test_client_has_a_folder_for_every_game_the_server_describes() -> None:
    folders = {p.name for p in (STATIC / "games").iterdir() if p.is_dir()}
    assert {game["id"] for game in describe_games()} <= folders


def test_client_every_game_has_its_page_words_beside_the_page() -> None:
    # app.html merges templates/games/<id>.html for every game the server describes (gettext reads templates/)
    words = ROOT / "templates" / "games"
    missing = [game["id"] for game in describe_games() if not (words / f"{game['id']}.html").is_file()]
    assert missing == []


def test_client_check_reports_a_game_named_in_the_shell_with_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "shell").mkdir()
    (tmp_path / "games" / "kings_corner").mkdir(parents=True)
    (tmp_path / "shell" / "history.js").write_text(
        '// a card "N-coins" and the deck ["cups", "coins", "swords", "clubs"] name suits\n'
        'const x = 1;\n'
        'if (game === "kings_corner") label = t("kc_title_penalty");\n'
        'const css = ".suit-spanish-coins, .coins-table";\n', encoding="utf-8")
    (tmp_path / "games" / "kings_corner" / "table.js").write_text('export const id = "kings_corner";\n')
    found = list(naming(tmp_path, game_tokens()))
    assert [line.split(": ")[0:2] for line in found] == [
        ["webapp/static/shell/history.js:3", "kings_corner ('kings_corner')"],
        ["webapp/static/shell/history.js:3", "kings_corner ('kc_')"],
        ["webapp/static/shell/history.js:4", "coins ('coins')"],
        ["webapp/static/shell/history.js:4", "coins ('coins-')"],
    ]


def test_client_check_reports_a_registry_that_differs_from_the_folders(tmp_path: Path) -> None:
    for name in ("dice", "chess"):
        (tmp_path / "games" / name).mkdir(parents=True)
        (tmp_path / "games" / name / "index.js").write_text(f'export default {{\n  id: "{name}",\n}};\n')
    (tmp_path / "shell").mkdir()
    (tmp_path / "shell" / "games.js").write_text(
        'import dice from "../games/dice/index.js";\n'
        'import go from "../games/go/index.js";\n'
        'const DESCRIPTORS = [dice];\n', encoding="utf-8")
    assert registry_problems(tmp_path) == [
        "shell/games.js: no import of games/chess/index.js",
        "shell/games.js: imports games/go/, which is not on disk",
        "shell/games.js: go is imported but not in DESCRIPTORS",
    ]
