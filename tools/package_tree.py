"""The package as it is installed, as a tree of links, for the tools that read folders.

``core/``, ``variants/`` and ``ui/`` stand beside ``twofold/`` in the repository and are
installed as its subpackages (``FOLDERS`` in setup.py). Python finds them through the editable
install; grimp (import-linter) and griffe (mkdocstrings) walk folders instead of importing, so
``make lint`` and ``make docs`` give them ``build/package/twofold``: links to what ``twofold/``
holds and to the three folders. A regular install (``pip install .``) needs none of this.

    python tools/package_tree.py    # prints the folder to put first on PYTHONPATH
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "package"


def folders() -> dict[str, str]:
    """setup.py's ``FOLDERS``: import name -> folder, read without running setup.py."""
    module = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in module.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if isinstance(target, ast.Name) and target.id == "FOLDERS" and node.value:
                found: dict[str, str] = ast.literal_eval(node.value)
                return found
    raise LookupError("setup.py has no FOLDERS")


def stage(tree: Path = TREE) -> Path:
    """``tree`` (``build/package``) with ``twofold/`` laid out as it is installed; its path."""
    if tree.exists():
        shutil.rmtree(tree)
    package = tree / "twofold"
    package.mkdir(parents=True)
    mapped = folders()
    for entry in (ROOT / mapped.pop("twofold")).iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    for name, folder in mapped.items():
        (tree / name.replace(".", "/")).symlink_to(ROOT / folder, target_is_directory=True)
    return tree


if __name__ == "__main__":
    print(stage())
