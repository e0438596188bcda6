"""What ``twofold --version`` tells: the version, Python, the compiled search, the data folder.

Also the one line ``twofold solve`` says when a mode's autoplayer runs without its compiled
search (twofold was installed where no C compiler was found): the same moves, much slower.
Whether a mode has a compiled search, and whether it was built, is the autoplayer's
documented ``compiled`` fact (``twofold.core._capabilities.compiled_search``).
"""

from __future__ import annotations

import os
import platform
from importlib import metadata

from twofold.core._capabilities import Autoplayer, compiled_search
from twofold.core._i18n import _
from twofold.core._rules import Mode
from twofold.core.plugins import Registry
from twofold.core.store import HOME_VARIABLE
from twofold.core.store.files import data_dir

DISTRIBUTION = "twofold"


def version() -> str:
    """The installed version, from the package's metadata."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return _("unknown (not installed)")


def searches(registry: Registry) -> dict[str, bool]:
    """Mode id -> whether its compiled search is built, for every mode that has one."""
    found: dict[str, bool] = {}
    for mode in registry.modes.values():
        if mode.autoplayer is None:
            continue
        try:
            compiled = compiled_search(mode.autoplayer(None))
        except Exception:  # a plugin's autoplayer that fails to start has nothing to tell here
            continue
        if compiled is not None:
            found[mode.id] = compiled
    return found


def search_line(registry: Registry) -> str:
    """``compiled search: built (2048, 2048-daily)``, or that it is not, and what that means."""
    found = searches(registry)
    if not found:
        return _("compiled search: no mode has one")
    missing = sorted(mode_id for mode_id, built in found.items() if not built)
    if missing:
        return _(
            "compiled search: not built ({modes}): twofold was installed without a C compiler, "
            "so the autoplayer makes the same moves much slower (see the README)"
        ).format(modes=", ".join(missing))
    return _("compiled search: built ({modes})").format(modes=", ".join(sorted(found)))


def home_line() -> str:
    folder = data_dir()
    if os.environ.get(HOME_VARIABLE):
        return _("data folder: {folder} (from {variable})").format(
            folder=folder, variable=HOME_VARIABLE
        )
    return _("data folder: {folder} ({variable} moves it)").format(
        folder=folder, variable=HOME_VARIABLE
    )


def version_text(registry: Registry) -> str:
    python = f"Python {platform.python_version()} ({platform.python_implementation()})"
    return "\n".join([f"twofold {version()}", python, search_line(registry), home_line()])


def slow_search_line(mode: Mode, autoplayer: Autoplayer) -> str | None:
    """The one line to say when ``autoplayer`` runs without its compiled search, or None."""
    if compiled_search(autoplayer) is not False:
        return None
    return "twofold: " + _(
        "the compiled search of {mode} is not built (no C compiler when twofold was "
        "installed): the same moves, much slower; the README says how to get it"
    ).format(mode=mode.id)
