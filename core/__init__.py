"""What every twofold variant shares: the deal, game codes, history, hooks and storage.

The core knows nothing of any particular variant: variants reach it only through
the plugin hooks in :mod:`twofold.core.hookspecs`. Plugin authors import from
:mod:`twofold.plugin`, the contract's one front; ``from twofold.core import hookimpl``
still works, with a DeprecationWarning naming it.
"""

from twofold.core.hookspecs import hookimpl
from twofold.core.moved import keep_old_path

__all__ = ["hookimpl"]

keep_old_path(__name__)
