"""An old path: import its contract names from ``twofold.plugin`` (they live in ``_i18n``).

A plugin that imports one of the contract's names from here still gets it, with a
DeprecationWarning naming ``twofold.plugin`` (core/old_paths.py).
"""

from twofold.core.old_paths import old_path

#: the contract's names this path once held
NAMES = frozenset({"N_", "_", "add_domain", "an_before", "ngettext", "pgettext"})

__getattr__, __dir__ = old_path(__name__, NAMES)
