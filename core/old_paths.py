"""The contract's names have one front, ``twofold.plugin``: their old paths still work and warn.

Each old path (``twofold.core.rules`` and the rest) is a module of its own that holds
none of the contract's names: a plugin that imports ``Mode`` from it reaches the module's
``__getattr__`` (PEP 562), which gives the name with a DeprecationWarning naming
``twofold.plugin``. Its other names (``largest_tile``) come from the module that holds
them, silently. twofold's own modules import from where a name lives (``twofold.core._rules``).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Collection
from typing import Any

#: where plugin authors import the contract's names from now
FRONT = "twofold.plugin"

#: the old paths and the module now holding what each had
OLD_PATHS: dict[str, str] = {
    "twofold.core": "twofold.core._hookspecs",
    "twofold.core.rules": "twofold.core._rules",
    "twofold.core.events": "twofold.core._events",
    "twofold.core.capabilities": "twofold.core._capabilities",
    "twofold.core.presentation": "twofold.core._presentation",
    "twofold.core.stones": "twofold.core._stones",
    "twofold.core.deal": "twofold.core._deal",
    "twofold.core.i18n": "twofold.core._i18n",
    "twofold.core.hookspecs": "twofold.core._hookspecs",
    "twofold.core.store": "twofold.core.store.files",
}


def moved_words(module: str, name: str) -> str:
    """The warning an old path gives."""
    return (
        f"importing {name} from {module} is deprecated: import it from {FRONT} "
        f"(from {FRONT} import {name})"
    )


def old_path(
    module: str, names: Collection[str], *, forward: bool = True
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of old path ``module``.

    A name of ``names`` (the contract's) warns, naming the front; with ``forward``, any
    other public name of the module it moved to is given silently; anything else is an
    AttributeError (for a package: the import system then looks for a submodule).
    """
    home = OLD_PATHS[module]

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        found = importlib.import_module(home)
        if name in names:
            warnings.warn(moved_words(module, name), DeprecationWarning, stacklevel=2)
            return getattr(found, name)
        if forward and not name.startswith("_") and hasattr(found, name):
            return getattr(found, name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        found = importlib.import_module(home)
        return sorted(n for n in vars(found) if not n.startswith("_") or n in names)

    return __getattr__, __dir__
