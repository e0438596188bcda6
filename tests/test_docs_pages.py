"""The players' and the contributors' pages stay true of the tree: the keys they list are the
app's default keys, the import contracts they explain are the ones lint-imports runs, and
every file they point at exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from twofold.core._i18n import retranslate
from twofold.core.plugins import registry
from twofold.ui.app.keys import key_actions

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PLAYING = DOCS / "playing.md"
ARCHITECTURE = DOCS / "architecture.md"

#: how the players' page writes a key, and Textual's name for it
KEY_NAMES = {
    "←": "left",
    "→": "right",
    "↑": "up",
    "↓": "down",
    "esc": "escape",
    "?": "question_mark",
    ",": "comma",
}
#: a line that names the screens of the keys table under it: <!-- keys: slide chain -->
KEYS_MARK = re.compile(r"<!-- keys: ([a-z ]+) -->")
ROW = re.compile(r"^\| ([^|`]+?) \| ((?:`[^`]+` ?)+) \|$")
#: the repository's folders, so a path written in backticks can be told from a module name
FOLDERS = ("core", "variants", "ui", "twofold", "tests", "benchmarks", "docs")


def documented_keys() -> list[tuple[str, str, tuple[str, ...]]]:
    """(screen kind, action title, keys) for every row of the players' keys tables."""
    found = []
    kinds: list[str] = []
    for line in PLAYING.read_text(encoding="utf-8").splitlines():
        if mark := KEYS_MARK.fullmatch(line.strip()):
            kinds = mark.group(1).split()
        elif not line.startswith("|"):
            kinds = [] if line.strip() else kinds
        elif kinds and (row := ROW.match(line)):
            keys = tuple(
                KEY_NAMES.get(key.lower(), key.lower()) for key in re.findall(r"`([^`]+)`", line)
            )
            found.extend((kind, row.group(1), keys) for kind in kinds)
    return found


def test_the_nav_has_the_players_and_the_architecture_pages() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    assert "playing.md" in nav and "architecture.md" in nav


def test_every_key_the_players_page_lists_is_the_apps_default() -> None:
    rows = documented_keys()
    assert {kind for kind, _title, _keys in rows} == {"slide", "chain", "place"}
    defaults = {
        # a binding's title is fixed at import, in whatever language an earlier test chose
        (action.binding_id.split(".")[0], retranslate(action.title)): action.default_keys
        for action in key_actions()
    }
    for kind, title, keys in rows:
        assert (kind, title) in defaults, f"docs/playing.md: no {kind} key does {title!r}"
        assert set(keys) == set(defaults[kind, title]), (
            f"docs/playing.md gives {title!r} on the {kind} screen {keys}; the app has "
            f"{defaults[kind, title]}"
        )


def test_the_players_page_names_every_mode_of_twofold() -> None:
    # twofold's own modes: an installed example plugin's are not on the page
    ours = {mode_id for mode_id in registry().modes if mode_id.startswith(("2048", "2248"))}
    text = PLAYING.read_text(encoding="utf-8")
    assert ours and all(f"`{mode_id}`" in text for mode_id in ours)


def test_the_architecture_page_explains_every_import_contract() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = {c["name"] for c in config["tool"]["importlinter"]["contracts"]}
    explained = set(
        re.findall(r"^\| ([a-z][^|]+?) \| [^|]+ \|$", ARCHITECTURE.read_text("utf-8"), re.M)
    )
    assert contracts <= explained, f"docs/architecture.md lacks {sorted(contracts - explained)}"


def test_every_file_the_architecture_page_points_at_exists() -> None:
    page = ARCHITECTURE
    paths = {
        path
        for path in re.findall(r"`([\w./-]+)`", page.read_text(encoding="utf-8"))
        if path.split("/")[0] in FOLDERS and "/" in path
    }
    assert paths, "the page names no file"
    missing = sorted(path for path in paths if not (ROOT / path).exists())
    assert not missing, f"{page.name} points at {missing}"
