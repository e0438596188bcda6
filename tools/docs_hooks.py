"""mkdocs hooks: the package tree as it is installed, for mkdocstrings to read.

griffe reads files rather than importing them, so it is given ``build/package`` (see
``tools/package_tree.py``), the same tree ``make lint`` gives import-linter.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

_SPEC = importlib.util.spec_from_file_location(
    "package_tree", Path(__file__).with_name("package_tree.py")
)
assert _SPEC and _SPEC.loader
package_tree = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(package_tree)


# first of every plugin: mkdocstrings drops a path that does not exist yet in its own on_config
@event_priority(100)
def on_config(config: Any) -> Any:
    # mkdocs.yml gives mkdocstrings ``paths: [build/package]``; it reads them when it collects
    package_tree.stage()
    return config
