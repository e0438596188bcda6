"""twofold's front ends, each in its own folder, all standing on core and the plugin contract.

- :mod:`twofold.ui.app.app`: the Textual app (the mode menu, a screen per kind of controls, the
  board, dialogs, keys and the player's language).
- :mod:`twofold.ui.command`: the command line (``twofold``, ``play``, ``daily``, ``stats``,
  ``solve``, ``serve``, ``plugins``), its completion and ``--version``.
- :mod:`twofold.ui.lines`: the line modes, ``--plain`` for people and ``--json`` for programs.
- :mod:`twofold.ui.web`: the web server of ``twofold serve``, one app process per page.

:mod:`twofold.ui.cells` and :mod:`twofold.ui.practice` are what the app and the line modes
share: a place on the board as people count it (from 1) and as the protocol does (from 0),
and why a game is practice.
"""
