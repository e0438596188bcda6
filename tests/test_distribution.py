"""twofold as a user installs it: an sdist and a wheel built from the source, then the wheel
installed in a fresh virtual environment and started.

The build runs setuptools' own build backend (PEP 517, as ``python -m build`` and pip do) in
a fresh environment holding only the setuptools pyproject.toml asks for, on a copy of the
tracked source, so nothing is written into the checkout. One test, one build: about half
a minute. It needs the package index pip is set up with (for setuptools and the wheel's
dependencies).
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

#: the backend's calls, with every warning shown (a deprecation would otherwise be hidden)
BUILD = """
import sys, warnings
warnings.simplefilter("default")
from setuptools import build_meta
out = sys.argv[1]
build = {"sdist": build_meta.build_sdist, "wheel": build_meta.build_wheel,
         "editable": build_meta.build_editable}[sys.argv[2]]
print(build(out))
"""
#: an environment made the Gymnasium 1.x way: gymnasium imports twofold.rl for the id
DONE = (
    'import gymnasium as g; e = g.make("twofold.rl:twofold/2248-v0"); '
    'print(e.reset(seed=1)[1]["action_mask"].sum())'
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths of a venv")


def run(argv: list[str | Path], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_REQUIRE"))}
    result = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, cwd=cwd, env=env, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def fresh_environment(folder: Path) -> Path:
    """A new virtual environment, without pip of its own (pip_into installs into it)."""
    venv.EnvBuilder(with_pip=False, clear=True).create(folder)
    return folder / "bin" / "python"


def pip_into(python: Path, *args: str | Path) -> list[str | Path]:
    """pip of the test environment installing into ``python``'s environment (``--python``):
    the same install, without seconds of ensurepip for a pip of its own."""
    return [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", *args]


def source_copy(destination: Path) -> Path:
    """The files git tracks (a fresh clone's), or the tree without caches and builds."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    names = [n for n in listed.stdout.split("\0") if n] if listed.returncode == 0 else []
    if not names:
        skip = shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", "*.so")
        shutil.copytree(ROOT, destination, symlinks=True, ignore=skip)
        return destination
    for name in names:
        # a link stays a link (core/, variants/ and ui/ are linked into twofold/)
        if (ROOT / name).is_file() or (ROOT / name).is_symlink():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target, follow_symlinks=False)
    return destination


def installed_modules(source: Path) -> list[str]:
    """Every module the package folder of ``source`` holds, as a wheel names it (links
    followed)."""
    return sorted(
        str(Path(folder, name).relative_to(source))
        for folder, _dirs, files in os.walk(source / "twofold", followlinks=True)
        for name in files
        if name.endswith(".py")
    )


def own_warnings(output: str) -> list[str]:
    """The build's warnings about twofold's own configuration (not the machine's)."""
    machine = ("byte-compiling is disabled",)  # PYTHONDONTWRITEBYTECODE on the machine
    return [
        line
        for line in output.splitlines()
        if ("warning" in line.lower() or "deprecat" in line.lower())
        and not any(m in line for m in machine)
    ]


def test_the_sdist_and_wheel_build_cleanly_and_the_wheel_runs(tmp_path: Path) -> None:
    requires = PYPROJECT["build-system"]["requires"]
    builder = fresh_environment(tmp_path / "build-env")
    run(pip_into(builder, *requires))
    source = source_copy(tmp_path / "source")
    out = tmp_path / "dist"
    out.mkdir()

    sdist_run = run([builder, "-c", BUILD, out, "sdist"], cwd=source)
    sdist = out / sdist_run.stdout.split()[-1]
    # the wheel is built from the unpacked sdist, as pip and build do: the sdist is whole
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        archive.extractall(tmp_path / "unpacked", filter="data")
    top = names[0].split("/")[0]
    for needed in ("LICENSE", "docs/plugins/index.md", "mkdocs.yml", "CHANGELOG.md",
                   "docs/protocol.md", "twofold/core/game.py", "twofold/ui/app/app.tcss",
                   "twofold/variants/classic2048/_expectimax.c",
                   "examples/twofold-chainsum/pyproject.toml",
                   "examples/twofold-fibonacci/twofold_fibonacci/rules.py"):  # fmt: skip
        assert f"{top}/{needed}" in names, f"the sdist lacks {needed}"
    wheel_run = run([builder, "-c", BUILD, out, "wheel"], cwd=tmp_path / "unpacked" / top)
    wheel = out / wheel_run.stdout.split()[-1]
    said = sdist_run.stdout + sdist_run.stderr + wheel_run.stdout + wheel_run.stderr
    assert own_warnings(said) == []

    with zipfile.ZipFile(wheel) as archive:
        info = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in archive.namelist())
        assert "twofold/__main__.py" in archive.namelist()
        # nothing that Python runs at its start: no .pth file, no module beside the package
        assert [n for n in archive.namelist() if not n.startswith("twofold")] == []
        assert not [n for n in archive.namelist() if n.endswith(".pth")]
        # every module of the tree once, the linked folders' under their installed names
        modules = [n for n in archive.namelist() if n.endswith(".py")]
        assert sorted(modules) == sorted(set(modules)) == installed_modules(source)
    assert metadata["License-Expression"] == "MIT"
    assert metadata["License-File"] == "LICENSE"
    classifiers = metadata.get_all("Classifier") or []
    assert classifiers == PYPROJECT["project"]["classifiers"]
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert any(c.startswith("Topic :: Games/Entertainment") for c in classifiers)

    player = fresh_environment(tmp_path / "player-env")
    run(pip_into(player, f"{wheel}[rl]"))
    home = tmp_path / "home"
    version = subprocess.run(
        [player, "-m", "twofold", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "TWOFOLD_HOME": str(home)},
        timeout=60,
    )
    assert version.returncode == 0, version.stderr
    lines = version.stdout.splitlines()
    assert lines[0] == f"twofold {PYPROJECT['project']['version']}"
    assert lines[1].startswith("Python ") and lines[2].startswith("compiled search: ")
    assert lines[3] == f"data folder: {home} (from TWOFOLD_HOME)"
    made = run([player, "-c", DONE], cwd=tmp_path)
    assert made.stdout.strip().isdigit() and int(made.stdout) > 0, made.stdout + made.stderr
