"""mkdocs hooks: the package tree as Python imports it, for mkdocstrings to read.

The packages live in folders of other names (``core/`` is ``twofold.core``, see
``[tool.setuptools.package-dir]``), so griffe, which reads files rather than importing
them, is given ``build/api-src/twofold/``: links to the real folders.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent
STAGED = ROOT / "build" / "api-src"
#: the folders installed as subpackages of twofold (pyproject.toml's package-dir)
FOLDERS = ("core", "ui", "variants", "testing")


def stage() -> Path:
    """``build/api-src`` with ``twofold/`` laid out as it is installed; its path."""
    package = STAGED / "twofold"
    if STAGED.exists():
        shutil.rmtree(STAGED)
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""twofold."""\n', encoding="utf-8")
    (package / "plugin.py").symlink_to(ROOT / "twofold" / "plugin.py")
    for folder in FOLDERS:
        (package / folder).symlink_to(ROOT / folder, target_is_directory=True)
    return STAGED


# first of every plugin: mkdocstrings drops a path that does not exist yet in its own on_config
@event_priority(100)
def on_config(config: Any) -> Any:
    # mkdocs.yml gives mkdocstrings ``paths: [build/api-src]``; it reads them when it collects
    stage()
    return config
