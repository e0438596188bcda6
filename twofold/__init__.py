"""twofold: power-of-two merge puzzles (2048 and 2248) in the terminal, and a contract for more.

A plugin imports :mod:`twofold.plugin`; its tests use :mod:`twofold.testing`. The rules live in
``twofold.core``, the built-in games in ``twofold.variants``, the front ends in ``twofold.ui``.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # read when asked, not at every import of a submodule: one source, pyproject.toml's version
    if name == "__version__":
        try:
            return metadata.version("twofold")
        except metadata.PackageNotFoundError:  # a checkout run without being installed
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
