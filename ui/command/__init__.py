"""The command line: ``twofold`` and its commands, completion, ``--version``."""
