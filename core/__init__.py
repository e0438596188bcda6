"""What every twofold variant shares: the deal, game codes, history, hooks and storage.

The core knows nothing of any particular variant: variants reach it only through
the plugin hooks in :mod:`twofold.core.hookspecs`.
"""

from twofold.core.hookspecs import hookimpl

__all__ = ["hookimpl"]
