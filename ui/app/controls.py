"""What plays each kind of controls in the app: one table, read by the menu and the app.

Each kind of ``Mode.controls`` names the module and the class of its game screen. A
screen module is only looked for when the menu is drawn (so the menu opens fast) and
imported when a mode of its kind is opened.
"""

from __future__ import annotations

#: ``Mode.controls`` -> (the module of its screen, the screen class)
SCREENS: dict[str, tuple[str, str]] = {
    "slide": ("twofold.ui.app.screens.slide", "SlideScreen"),
    "chain": ("twofold.ui.app.chain", "ChainScreen"),
    "place": ("twofold.ui.app.screens.place", "PlaceScreen"),
}
