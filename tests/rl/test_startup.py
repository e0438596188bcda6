"""``gymnasium.make("twofold/2248-v0")`` with no import of twofold (twofold-rl.pth), and a
watch that never breaks a Python process. Each test starts the installed interpreter
afresh, as a user's ``python -c`` does."""

from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path

import pytest
import twofold_rl_startup

pytest.importorskip("gymnasium")
pytest.importorskip("numpy")

pytestmark = pytest.mark.slow

#: the issue's "Done means" line, word for word
DONE = (
    'import gymnasium as g; e = g.make("twofold/2248-v0"); '
    'print(e.reset(seed=1)[1]["action_mask"].sum())'
)
COUNT = "print(sum(k.startswith('twofold/') for k in g.registry))"
#: a finder that makes every import of twofold's core fail, as a broken install would
BREAK = """
import sys
class Broken:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("twofold.core"):
            raise {error}("twofold.core is broken here")
sys.meta_path.insert(0, Broken())
"""


def python(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in a folder of its own, with none of the checkout on its path."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONWARNINGS")}
    clean.pop(twofold_rl_startup.DISABLE_VARIABLE, None)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**clean, "TWOFOLD_HOME": str(tmp_path / "home"), **env},
        timeout=120,
    )


def test_the_startup_file_is_installed() -> None:
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    assert any((Path(f) / "twofold-rl.pth").is_file() for f in folders), (
        "twofold-rl.pth is not beside the installed twofold: install it again (pip install -e .)"
    )


def test_gymnasium_makes_a_twofold_environment_with_no_import_of_twofold(
    tmp_path: Path,
) -> None:
    done = python(DONE, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().isdigit() and int(done.stdout) > 0, done.stdout
    assert done.stderr == ""


def test_every_way_into_gymnasium_registers_and_leaves_no_trace(tmp_path: Path) -> None:
    # a look for gymnasium first, a submodule first, then twofold.rl first (it imports
    # gymnasium while itself half imported)
    code = (
        "import importlib.util; importlib.util.find_spec('gymnasium'); "
        "import gymnasium.spaces; import gymnasium as g; "
        "print(type(g.__loader__).__name__, type(g.__spec__.loader).__name__); " + COUNT
    )
    found = python(code, tmp_path)
    assert found.returncode == 0, found.stderr
    loaders, count = found.stdout.splitlines()
    assert "Registering" not in loaders
    assert int(count) >= 7
    first = python("import twofold.rl; import gymnasium as g; " + COUNT, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == count


def test_the_watch_is_silent_and_harmless_when_twofold_rl_cannot_be_imported(
    tmp_path: Path,
) -> None:
    broken = python(BREAK.format(error="ImportError") + "import gymnasium as g\n" + COUNT, tmp_path)
    assert broken.returncode == 0, broken.stderr
    assert broken.stdout.strip() == "0"  # nothing registered, and nothing said
    assert broken.stderr == ""


def test_any_other_failure_is_one_warning_and_gymnasium_imports(tmp_path: Path) -> None:
    code = BREAK.format(error="RuntimeError") + "import gymnasium as g\n" + COUNT
    broken = python(code, tmp_path)
    assert broken.returncode == 0, broken.stderr
    assert broken.stdout.strip() == "0"
    said = [line for line in broken.stderr.splitlines() if "RuntimeWarning" in line]
    assert len(said) == 1 and twofold_rl_startup.DISABLE_VARIABLE in said[0], broken.stderr
    strict = python(code, tmp_path, PYTHONWARNINGS="error")
    assert strict.returncode == 0, strict.stderr  # warnings as errors: silent, not broken


def test_the_variable_turns_it_off_and_the_module_form_still_works(tmp_path: Path) -> None:
    code = (
        "import gymnasium as g; " + COUNT + "; "
        "e = g.make('twofold.rl:twofold/2248-v0'); print(e.reset(seed=1)[1]['action_mask'].sum())"
    )
    off = python(code, tmp_path, **{twofold_rl_startup.DISABLE_VARIABLE: "1"})
    assert off.returncode == 0, off.stderr
    count, mask = off.stdout.split()
    assert count == "0"
    assert int(mask) > 0
