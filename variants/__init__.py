"""twofold's own variants, each a plugin of the ``twofold`` entry-point group like any other.

``classic2048`` slides tiles (2048); ``chain2248`` chains them (2248). Each knows core
only, never the other, and never the ui (pyproject.toml's import-linter contracts).
"""
