"""The plugin promise, end to end: install a plugin package, play it, break it, remove it.

A fresh virtual environment is made for the test (``python -m venv --without-pip``)
and sees the environment running the tests (twofold, its dependencies, pip) through a
``.pth`` file: ``--system-site-packages`` would give the base interpreter's packages,
not this environment's. The example packages are installed into it with pip, offline
(``--no-index``), from wheels ``pip wheel`` builds once per test session with the test
environment's setuptools (``--no-build-isolation``: nothing is downloaded). Every
twofold command runs as a subprocess of the new environment's Python.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import sysconfig
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.leaderboard.servers import leaderboard
from twofold.core._events import VOCABULARY
from twofold.core.codes import code_from_text
from twofold.core.daily import daily_code, utc_today

from .conftest import BROKEN_DIR, CHAINSUM_DIR, DROP_DIR, FIBONACCI_DIR, HEX_DIR
from .wheels import TIMEOUT, build_wheel, build_wheels

CODE = code_from_text("end-to-end")
#: nothing from the test run may leak into the new environment's imports or plugins
DROPPED_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "TWOFOLD_NO_PLUGINS")
Completed = subprocess.CompletedProcess[str]


@dataclass
class Env:
    """A virtual environment of its own, and a TWOFOLD_HOME of its own."""

    root: Path
    python: Path
    home: Path
    #: the example projects' wheels, by project folder name
    wheels: dict[str, Path]

    def run(
        self, *args: str, stdin: str = "", **extra_env: str
    ) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TWOFOLD_NO_PLUGINS")}
        env.update(TWOFOLD_HOME=str(self.home), PYTHONNOUSERSITE="1", **extra_env)
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        return subprocess.run(
            [str(self.python), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=TIMEOUT,
        )

    def twofold(
        self, *args: str, stdin: str = "", **extra_env: str
    ) -> subprocess.CompletedProcess[str]:
        return self.run("-m", "twofold.ui.command.cli", *args, stdin=stdin, **extra_env)

    def play_json(self, *args: str, commands: list[str], status: int = 0) -> list[dict[str, Any]]:
        result = self.twofold("play", *args, "--json", stdin="".join(c + "\n" for c in commands))
        assert result.returncode == status, result.stderr
        return [json.loads(line) for line in result.stdout.splitlines()]

    def install(self, project: Path) -> None:
        wheel = str(self.wheels[project.name])
        result = self.run("-m", "pip", "install", "--no-deps", "--no-index", wheel)
        assert result.returncode == 0, result.stderr

    def uninstall(self, name: str) -> None:
        result = self.run("-m", "pip", "uninstall", "--yes", name)
        assert result.returncode == 0, result.stderr


@pytest.fixture(scope="session")
def example_wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The example plugins as wheels, built by pip from copies of their folders."""
    out = tmp_path_factory.mktemp("wheels")
    return build_wheels((FIBONACCI_DIR, CHAINSUM_DIR, DROP_DIR, BROKEN_DIR), out)


@pytest.fixture
def env(tmp_path: Path, example_wheels: dict[str, Path]) -> Env:
    root = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=TIMEOUT
    )
    python = root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    query = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = subprocess.run(
        [str(python), "-c", query], capture_output=True, text=True, check=True
    ).stdout.strip()
    host = sysconfig.get_paths()["purelib"]
    # addsitedir (not a bare path) so the host's own .pth files, twofold's editable
    # install among them, are read too
    (Path(purelib) / "twofold-host.pth").write_text(f"import site; site.addsitedir({host!r})\n")
    home = tmp_path / "home"
    home.mkdir()
    return Env(tmp_path, python, home, example_wheels)


@contextlib.contextmanager
def env_leaderboard(env: Env) -> Iterator[str]:
    """``twofold leaderboard`` in the environment, on a free port; yields its address."""
    environ = {k: v for k, v in os.environ.items() if k not in DROPPED_VARIABLES}
    with leaderboard(
        str(env.root / "board.db"),
        env.home,
        python=str(env.python),
        environ={**environ, "PYTHONNOUSERSITE": "1"},
    ) as (_server, address):
        yield address


def saved_modes(home: Path) -> set[str]:
    with sqlite3.connect(home / "twofold.db") as db:
        return {row[0] for row in db.execute("SELECT mode_id FROM saves")}


@pytest.mark.slow
def test_a_plugin_installs_plays_survives_a_broken_neighbour_and_uninstalls(env: Env) -> None:
    # -- before: twofold alone; the example is not importable here
    listing = env.twofold("plugins")
    assert listing.returncode == 0 and "fib" not in listing.stdout
    assert env.run("-c", "import twofold_fibonacci").returncode != 0

    # -- installed: its modes are listed, with no line of twofold changed
    env.install(FIBONACCI_DIR)
    listing = env.twofold("plugins")
    assert "fibonacci (twofold-fibonacci): fib, fib-daily" in listing.stdout
    assert "skipped" not in listing.stdout

    # -- a few moves, undo, quit over --json
    start, *moves, undone, bye = env.play_json(
        "fib", "--code", CODE, commands=["left", "up", "right", "undo", "quit"]
    )
    assert (start["mode"], start["code"], start["moves"]) == ("fib", CODE, 0)
    assert len(start["board"]) == 4 and sum(v > 0 for row in start["board"] for v in row) == 2
    assert {e["type"] for m in moves for e in m["events"]} >= {"moved", "appeared"}
    played = [m for m in moves if m["changed"]]
    assert undone["changed"] and undone["events"] == [{"type": "undone"}]
    assert undone["moves"] == played[-1]["moves"] - 1
    assert bye == {**undone, "changed": False, "events": []}

    # -- resumed exactly, then the same in --plain
    [resumed] = env.play_json("fib", commands=["quit"])[:1]
    assert (resumed["board"], resumed["moves"], resumed["score"]) == (
        undone["board"],
        undone["moves"],
        undone["score"],
    )
    plain = env.twofold("play", "fib", "--plain", stdin="read\nquit\n")
    assert plain.returncode == 0, plain.stderr
    assert "Fibonacci · Score" in plain.stdout and "Row 1:" in plain.stdout

    # -- the daily mode takes the day's code; a new game records the old one
    [daily, *_rest] = env.play_json("fib-daily", commands=["quit"])
    assert daily["code"] == daily_code("fib-daily", utc_today())
    env.play_json("fib", commands=["new", "quit"])
    stats = json.loads(env.twofold("stats", "fib", "--json").stdout)
    assert stats["modes"]["fib"]["played"] == 1
    journal = env.home / "plugins" / "twofold-fibonacci" / "journal.jsonl"
    assert json.loads(journal.read_text().splitlines()[0])["code"] == CODE

    # -- the chain example beside it: its hint, a chain, undo, over --json
    env.install(CHAINSUM_DIR)
    assert "chainsum (twofold-chainsum): chainsum" in env.twofold("plugins").stdout
    start, hint = env.play_json("chainsum", "--code", CODE, commands=["hint", "quit"])[:2]
    assert len(start["board"]) == 6 and all(all(row) for row in start["board"])
    assert hint["hint_action"].startswith("chain ") and len(hint["hint"]) >= 2
    _start, chained, undone, _bye = env.play_json(
        "chainsum", "--code", CODE, commands=[hint["hint_action"], "undo", "quit"]
    )
    merged = chained["events"][0]
    first_r, first_c = hint["hint"][0]
    assert merged["type"] == "merged" and merged["cells"] == hint["hint"]
    assert merged["value"] == len(hint["hint"]) * start["board"][first_r][first_c]
    assert {e["type"] for e in chained["events"]} <= set(VOCABULARY)
    assert (chained["chains"], chained["longest"]) == (1, len(hint["hint"]))
    assert undone["board"] == start["board"] and undone["events"] == [{"type": "undone"}]
    env.play_json("chainsum", commands=[hint["hint_action"], "new", "quit"])
    chain_stats = json.loads(env.twofold("stats", "chainsum", "--json").stdout)
    assert chain_stats["modes"]["chainsum"]["played"] == 1

    # -- the drop example: a column from 0 in --json, from 1 in --plain, the next blocks
    env.install(DROP_DIR)
    assert "drop (twofold-drop): drop" in env.twofold("plugins").stdout
    first, dropped, _bye = env.play_json("drop", "--code", CODE, commands=["place 0", "quit"])
    assert {"word": "place", "takes": "column"} in first["commands"]
    assert dropped["events"][0] == {
        "type": "appeared",
        "cell": [6, 0],
        "value": first["upcoming"][0],
    }
    plain = env.twofold("play", "drop", "--plain", stdin="place 5\nquit\n")
    assert plain.returncode == 0, plain.stderr
    assert "fell into column 5" in plain.stdout and "next: " in plain.stdout
    env.uninstall("twofold-drop")

    # -- a broken distribution beside it: reported, and nothing else breaks
    env.install(BROKEN_DIR)
    listing = env.twofold("plugins")
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    assert "fibonacci (twofold-fibonacci): fib, fib-daily" in lines
    assert "broken-clash (twofold-broken): clash-ok" in lines
    assert "broken-move (twofold-broken): faulty, misdrawn" in lines
    assert any(line.startswith("broken-import: skipped: failed to import") for line in lines)
    assert any(
        line.startswith("broken-hook: skipped: raised in twofold_register_") for line in lines
    )
    assert (
        "broken-clash: skipped: mode id '2048' is already registered by classic2048; skipped"
        in lines
    )
    last_fib = env.play_json("fib", commands=["left", "right"])[-1]
    assert last_fib["mode"] == "fib" and last_fib["moves"] >= 1
    classic = env.play_json("2048", "--code", CODE, commands=["left", "right", "quit"])
    assert classic[0]["mode"] == "2048" and len(classic) == 4

    # -- a plugin that crashes in a move: one line, that game stops, its save stays
    _start, counted, stopped = env.play_json("faulty", commands=["left", "right", "up"], status=1)
    assert counted["moves"] == 1
    assert stopped["error"].startswith(
        "plugin broken-move failed in mode faulty: ZeroDivisionError"
    )
    assert stopped["stopped"] is True
    assert env.play_json("faulty", commands=[])[0]["moves"] == 1

    # -- TWOFOLD_NO_PLUGINS: twofold's own variants only, and nothing to report
    bare = env.twofold("plugins", TWOFOLD_NO_PLUGINS="1")
    assert "fibonacci" not in bare.stdout and "skipped" not in bare.stdout
    assert "classic2048 (twofold)" in bare.stdout

    # -- uninstalled: gone; its save and records stay, unseen, and return with it
    env.uninstall("twofold-broken")
    env.uninstall("twofold-fibonacci")
    env.uninstall("twofold-chainsum")
    listing = env.twofold("plugins")
    assert "fib" not in listing.stdout and "broken" not in listing.stdout
    gone = env.twofold("play", "fib", "--json", stdin="quit\n")
    assert gone.returncode == 2 and "unknown mode 'fib'" in gone.stderr
    assert {"fib", "faulty"} <= saved_modes(env.home)
    assert env.play_json("2048", commands=["quit"])[0]["moves"] == classic[-1]["moves"]
    assert env.twofold("stats", "--json").returncode == 0
    env.install(FIBONACCI_DIR)
    back = env.play_json("fib", commands=["quit"])[0]
    assert (back["board"], back["moves"]) == (last_fib["board"], last_fib["moves"])


@pytest.mark.slow
def test_the_hex_example_installs_and_plays_everywhere_a_rectangle_does(
    env: Env, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env.wheels[HEX_DIR.name] = build_wheel(HEX_DIR, tmp_path_factory.mktemp("hex"))
    env.install(HEX_DIR)
    assert "hex (twofold-hex): hex, hex-daily" in env.twofold("plugins").stdout
    # six directions over --json, the board's layout in the first reply
    first, *moved, bye = env.play_json(
        "hex", "--code", CODE, commands=["nw", "ne", "w", "e", "sw", "se", "result", "quit"]
    )
    assert first["layout"]["shape"] == "hexagon" and len(first["layout"]["cells"]) == 19
    assert [row.count(-2) for row in first["board"]] == [2, 1, 0, 1, 2]
    assert any(m["changed"] for m in moved)
    result = moved[-1]["result"]
    verified = env.twofold("verify", "--json", stdin=result)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["score"] == bye["score"]
    # --plain draws it as a hexagon; the daily plays the day's board; solve plays it out
    plain = env.twofold("play", "hex", "--plain", stdin="quit\n")
    picture = plain.stdout.splitlines()[1:6]
    assert plain.returncode == 0 and [len(row.split()) for row in picture] == [3, 4, 5, 4, 3]
    assert [len(row) - len(row.lstrip()) for row in picture] == [2, 1, 0, 1, 2]
    daily, *_moves, played, _bye = env.play_json(
        "hex-daily", commands=["nw", "ne", "w", "e", "sw", "se", "result", "quit"]
    )
    assert daily["code"] == daily_code("hex-daily", utc_today())
    # the leaderboard takes it, verified on the server, and its replay page is a hexagon
    with env_leaderboard(env) as address:
        sent = env.twofold("submit", "--to", address, "--name", "Hexa", stdin=played["result"])
        assert sent.returncode == 0, sent.stderr
        with urllib.request.urlopen(address + "api/daily/hex-daily", timeout=30) as response:
            [entry] = json.loads(response.read())["entries"]
        assert entry["score"] == played["score"]
        with urllib.request.urlopen(f"{address}replay/{entry['id']}", timeout=30) as response:
            page = response.read().decode()
        assert '<script type="application/json" id="layout">{"cells"' in page
        assert '"shape": "hexagon"' in page or '"shape":"hexagon"' in page
    solved = env.twofold("solve", "hex", "--games", "1", "--workers", "1", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["results"][0]["score"] > 0
