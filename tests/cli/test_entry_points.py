"""The standard ways in: ``python -m twofold``, ``--version``, ``--help``, shell completion."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twofold.core import plugins
from twofold.core._capabilities import compiled_search
from twofold.ui.command import about
from twofold.ui.command.cli import main


def run(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **env},
        cwd="/",  # not the checkout: the installed package, as a user has it
    )


def test_python_dash_m_twofold_is_the_twofold_command() -> None:
    result = run(sys.executable, "-m", "twofold", "plugins")
    assert result.returncode == 0, result.stderr
    assert "2048" in result.stdout and "2248" in result.stdout


def test_version_names_the_version_python_the_compiled_search_and_the_data_folder(
    twofold_home: Path,
) -> None:
    result = run(sys.executable, "-m", "twofold", "--version")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"twofold {about.version()}" and lines[0] != "twofold "
    assert lines[1].startswith(f"Python {platform.python_version()}")
    assert lines[2].startswith("compiled search: ")
    assert lines[3] == f"data folder: {twofold_home} (from TWOFOLD_HOME)"
    solver = plugins.registry().mode("2048").autoplayer
    assert solver is not None
    built = compiled_search(solver(None))
    assert ("not built" not in lines[2]) == built


def test_help_names_the_data_folder_and_twofold_home(
    twofold_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert str(twofold_home) in shown and "TWOFOLD_HOME" in shown


def completions(line: str, tmp_path: Path) -> list[str]:
    """What the shell's Tab offers after ``line``, asked as argcomplete's shell scripts ask."""
    answer = tmp_path / "completions"
    result = run(
        sys.executable,
        "-m",
        "twofold",
        _ARGCOMPLETE="1",
        _ARGCOMPLETE_SHELL="bash",
        _ARGCOMPLETE_IFS="\n",
        _ARGCOMPLETE_STDOUT_FILENAME=str(answer),
        COMP_LINE=line,
        COMP_POINT=str(len(line)),
        COMP_TYPE="9",
    )
    assert result.returncode == 0, result.stderr
    return [word.strip() for word in answer.read_text().split("\n")]


def test_tab_completes_commands_options_and_mode_ids(tmp_path: Path) -> None:
    assert {"play", "daily", "solve", "serve", "stats"} <= set(completions("twofold ", tmp_path))
    assert completions("twofold play 2048-", tmp_path) == ["2048-5x5", "2048-6x6", "2048-daily"]
    assert "2248-blitz" in completions("twofold solve 22", tmp_path)
    assert "2248" in completions("twofold stats 2", tmp_path)
    assert set(completions("twofold daily ", tmp_path)) >= {"2048", "2248"}
    assert "--version" in completions("twofold --v", tmp_path)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_documented_registration_gives_each_shell_a_script(shell: str) -> None:
    register = shutil.which("register-python-argcomplete", path=str(Path(sys.executable).parent))
    assert register, "argcomplete's register-python-argcomplete is not installed"
    result = run(register, "--shell", shell, "twofold")
    assert result.returncode == 0, result.stderr
    assert "twofold" in result.stdout and "_ARGCOMPLETE" in result.stdout
    if shutil.which(shell):  # the shell itself, where installed, reads the script
        check = ["-n"] if shell != "fish" else ["--no-execute"]
        checked = subprocess.run(
            [shell, *check], input=result.stdout, capture_output=True, text=True, timeout=30
        )
        assert checked.returncode == 0, checked.stderr


def test_a_build_without_the_compiled_search_says_so_in_one_line() -> None:
    class Slow:
        compiled = False

        def choose(self, state: object) -> str | None:
            return None

    class Fast(Slow):
        compiled = True

    class Plugin:  # an autoplayer written against the older contract: no such attribute
        def choose(self, state: object) -> str | None:
            return None

    mode = plugins.registry().mode("2048")
    line = about.slow_search_line(mode, Slow())
    assert line is not None and "\n" not in line and "2048" in line and "not built" in line
    assert about.slow_search_line(mode, Fast()) is None
    assert about.slow_search_line(mode, Plugin()) is None
    assert compiled_search(Plugin()) is None


#: twofold as installed where no C compiler was found: the compiled search cannot be imported
WITHOUT_COMPILER = (
    "import sys\n"
    "sys.modules['twofold.variants.classic2048._expectimax'] = None\n"
    "from twofold.ui.command.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def test_solve_and_version_say_in_one_line_when_the_compiled_search_is_missing() -> None:
    solve = run(sys.executable, "-c", WITHOUT_COMPILER, "solve", "--games", "1", "--depth", "1",
                "--stop-at", "16", "--workers", "1", "--json")  # fmt: skip
    assert solve.returncode == 0, solve.stderr
    said = [line for line in solve.stderr.splitlines() if "compiled search" in line]
    assert said == [
        "twofold: the compiled search of 2048 is not built (no C compiler when twofold was "
        "installed): the same moves, much slower; the README says how to get it"
    ]
    version = run(sys.executable, "-c", WITHOUT_COMPILER, "--version")
    assert version.returncode == 0, version.stderr
    assert "compiled search: not built (2048, 2048-daily)" in version.stdout
