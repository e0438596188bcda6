"""Shell completion (argcomplete) for bash, zsh and fish: commands, options and mode ids.

Installed the way argcomplete documents it (README, "Shell completion"):

    eval "$(register-python-argcomplete twofold)"                  # bash or zsh
    register-python-argcomplete --shell fish twofold | source      # fish

The shell then runs ``twofold`` with argcomplete's variables set on every Tab; ``enable``
answers it and exits before anything else runs. Mode ids come from the registry, so a
plugin's modes complete too.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

#: set by the shell's completion function while it asks for candidates
ASKING = "_ARGCOMPLETE"


def modes(prefix: str, **_ignored: Any) -> list[str]:
    """Every mode id starting with ``prefix``."""
    from twofold.core.plugins import registry

    return sorted(m for m in registry().modes if m.startswith(prefix.lower()))


def daily_games(prefix: str, **_ignored: Any) -> list[str]:
    """The games with a daily board, as ``twofold daily`` takes them (``2048``, ``2248``)."""
    from twofold.core.plugins import registry

    games = {m.id.removesuffix("-daily") for m in registry().modes.values() if m.daily}
    return sorted(g for g in games if g.startswith(prefix.lower()))


def complete_modes(action: argparse.Action) -> None:
    """Let ``action`` (a MODE argument) complete mode ids."""
    action.completer = modes  # type: ignore[attr-defined]


def enable(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's completion request, if this run is one (it then exits)."""
    if ASKING not in os.environ:
        return  # an ordinary run: argcomplete is not even imported
    import argcomplete

    argcomplete.autocomplete(parser)
