"""The contract's names have one front, ``twofold.plugin``: their old paths still work and warn.

A plugin that imports ``Mode`` from ``twofold.core.rules`` (as the guide once showed) gets
it, with a DeprecationWarning naming ``twofold.plugin``. Only an import statement outside
twofold warns: twofold's own modules import from where a name lives, and reading a name
as an attribute (pickle, dataclasses, typing) stays silent.
"""

from __future__ import annotations

import dis
import sys
import warnings
from types import ModuleType
from typing import Any

#: where plugin authors import the contract's names from now
FRONT = "twofold.plugin"

#: every name of the contract ``twofold.plugin`` re-exports (tests/plugins/test_front.py)
NAMES = frozenset(
    {
        # twofold.core.rules
        *("Board", "Controls", "Mode", "Outcome", "Place", "PositionError", "Refused"),
        *("Rules", "State"),
        # twofold.core.events
        *("Appeared", "Cell", "Earned", "Event", "Fell", "Merged", "Moved", "Praised"),
        *("Removed", "Undone", "Used"),
        # twofold.core.capabilities
        *("Autoplayer", "Hint", "Sample", "StateCodec", "Verdict", "compiled_search"),
        # twofold.core.presentation
        *("Command", "Gauge", "PowerUp", "Statistic", "Status", "TutorialPage", "games_reaching"),
        *("RESERVED_KEYS", "upcoming_words"),
        # twofold.core.stones
        *("STONE", "stones_on", "value_mark", "value_words"),
        # twofold.core.deal, twofold.core.i18n, twofold.core.hookspecs, twofold.core.store
        *("below", "chance", "draw", "_", "N_", "ngettext", "pgettext", "hookimpl", "data_dir"),
        "add_domain",
    }
)

_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def _from_outside() -> bool:
    """Whether the attribute being read is named by an import statement outside twofold."""
    frame = sys._getframe(2)  # past _from_outside and __getattribute__: the importer
    name = frame.f_globals.get("__name__", "")
    spec = frame.f_globals.get("__spec__")
    if name == "__main__" and spec is not None:
        name = spec.name  # one of twofold's modules run with python -m
    if name == "twofold" or name.startswith("twofold."):
        return False
    code = frame.f_code.co_code
    return 0 <= frame.f_lasti < len(code) and code[frame.f_lasti] == _IMPORT_FROM


class _OldPath(ModuleType):
    """A core module whose contract names warn when a plugin imports them from here."""

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if name in NAMES and _from_outside():
            module = super().__getattribute__("__name__")
            warnings.warn(moved_words(module, name), DeprecationWarning, stacklevel=2)
        return value


def moved_words(module: str, name: str) -> str:
    """The warning an old path gives."""
    return (
        f"importing {name} from {module} is deprecated: import it from {FRONT} "
        f"(from {FRONT} import {name})"
    )


def keep_old_path(module_name: str) -> None:
    """Let ``module_name``'s contract names warn, naming the front, when a plugin imports them."""
    sys.modules[module_name].__class__ = _OldPath
