"""Registered the Gymnasium 1.x way: ``import twofold.rl`` registers, ``module:id`` imports
it, and nothing of twofold runs at Python's start or on ``import gymnasium``. Each test
starts an interpreter afresh, as a user's ``python -c`` does."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numpy")

pytestmark = pytest.mark.slow

TWOFOLD_MODULES = "print(sorted(m for m in sys.modules if m.split('.')[0].startswith('twofold')))"
COUNT = "print(sum(k.startswith('twofold/') for k in gymnasium.registry))"


def python(interpreter: Path | str, code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in a folder of its own, with none of the checkout on its path."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONWARNINGS")}
    return subprocess.run(
        [str(interpreter), "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**clean, "TWOFOLD_HOME": str(tmp_path / "home")},
        timeout=120,
    )


def fresh_venv(tmp_path: Path) -> Path:
    """A new virtual environment that sees this one's installs as a site directory (so
    every .pth file there runs at its start, as in the environment twofold is installed in)."""
    folder = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False, clear=True).create(folder)
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    made = folder / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    lines = "".join(f"import site; site.addsitedir({p!r})\n" for p in ours)
    (made / "see-the-test-environment.pth").write_text(lines)
    return folder / "bin" / "python"


def test_no_file_beside_the_package_runs_at_python_start() -> None:
    for folder in [*site.getsitepackages(), site.getusersitepackages()]:
        found = [p.name for p in Path(folder).glob("*.pth") if "twofold" in p.read_text()]
        assert [name for name in found if "__editable__" not in name] == []


def test_import_gymnasium_imports_nothing_of_twofold_in_a_fresh_venv(tmp_path: Path) -> None:
    fresh = fresh_venv(tmp_path)
    code = "import sys; import gymnasium; " + TWOFOLD_MODULES + "; " + COUNT
    for interpreter in (fresh, sys.executable):
        found = python(interpreter, code, tmp_path)
        assert found.returncode == 0, found.stderr
        assert found.stdout.split("\n")[:2] == ["[]", "0"], found.stdout
        assert found.stderr == ""
    sees = python(fresh, "import twofold.rl; print(twofold.rl.__name__)", tmp_path)
    assert sees.stdout.strip() == "twofold.rl", sees.stderr  # the fresh venv sees twofold


def test_the_module_form_imports_twofold_rl_by_itself(tmp_path: Path) -> None:
    code = (
        "import gymnasium; e = gymnasium.make('twofold.rl:twofold/2048-v0'); "
        "print(int(e.reset(seed=1)[1]['action_mask'].sum())); " + COUNT
    )
    found = python(sys.executable, code, tmp_path)
    assert found.returncode == 0, found.stderr
    legal, count = found.stdout.split()
    assert int(legal) > 0 and int(count) >= 7


def test_the_documented_lines_register_every_mode(tmp_path: Path) -> None:
    code = (
        "import gymnasium; import twofold.rl; gymnasium.register_envs(twofold.rl); "
        "e = gymnasium.make('twofold/2248-daily-v0'); e.reset(seed=0); " + COUNT
    )
    found = python(sys.executable, code, tmp_path)
    assert found.returncode == 0, found.stderr
    assert int(found.stdout) >= 7
