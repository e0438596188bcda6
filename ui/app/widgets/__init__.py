"""Widgets shared by the app's screens: the top bar, the announcement line, the action
bar, the board's geometry and tile colours (the board itself is ``twofold.ui.app.board``)."""
