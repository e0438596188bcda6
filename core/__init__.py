"""What every twofold variant shares: the deal, game codes, history, hooks and storage.

The core knows nothing of any particular variant: variants reach it only through
the plugin hooks in :mod:`twofold.core._hookspecs`. Plugin authors import from
:mod:`twofold.plugin`, the contract's one front; ``from twofold.core import hookimpl``
still works, with a DeprecationWarning naming it.
"""

from twofold.core.old_paths import old_path

# only hookimpl: any other name is one of the package's modules, for the import system to find
__getattr__, __dir__ = old_path(__name__, frozenset({"hookimpl"}), forward=False)
