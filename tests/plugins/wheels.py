"""The example plugins as wheels, built by pip offline, and installed by pip.

The end-to-end test installs them into a virtual environment of its own; the browser test
installs the drop example into a folder that ``twofold serve`` and its pages import from.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIMEOUT = 120
PIP = [sys.executable, "-m", "pip"]
#: pip without asking the network whether it is the newest
PIP_ENV = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")


def build_wheel(project: Path, out: Path) -> Path:
    """``project``'s wheel, built by pip in ``out`` from a copy of its folder, offline."""
    return build_wheels([project], out)[project.name]


def build_wheels(projects: Sequence[Path], out: Path) -> dict[str, Path]:
    """Each project's wheel by its folder's name, built in ``out`` by one pip run (a pip run
    takes half a second to start), from copies of their folders, offline."""
    sources = [out / "src" / project.name for project in projects]
    for project, source in zip(projects, sources, strict=True):
        # a copy: an in-tree build would leave build/ and *.egg-info in examples/
        shutil.copytree(project, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    # --no-build-isolation: the test environment's setuptools builds it, nothing is downloaded
    offline = ["--no-deps", "--no-index", "--no-build-isolation"]
    built = subprocess.run(
        [*PIP, "wheel", *offline, "--wheel-dir", str(out), *map(str, sources)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=PIP_ENV,
    )
    assert built.returncode == 0, built.stderr
    wheels = {}
    for project in projects:
        [wheels[project.name]] = out.glob(f"{project.name.replace('-', '_')}-*.whl")
    return wheels


def install_into(wheel: Path, target: Path) -> Path:
    """Install ``wheel`` with pip into the folder ``target`` (``pip install --target``): put
    on PYTHONPATH, its modules import and its entry points are found, as if installed."""
    done = subprocess.run(
        [*PIP, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=PIP_ENV,
    )
    assert done.returncode == 0, done.stderr
    return target
