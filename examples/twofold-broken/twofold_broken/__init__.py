"""A plugin distribution broken on purpose: see README.md. Importing this package is fine."""
