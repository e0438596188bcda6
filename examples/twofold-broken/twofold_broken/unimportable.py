"""A plugin whose dependency is missing: importing it fails."""

import twofold_broken_missing_dependency  # noqa: F401  (there is no such package, on purpose)
