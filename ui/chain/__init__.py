"""The 2248 screen: the chain board, power-ups, tutorial and the 2248 dialogs."""

from __future__ import annotations

from textual.app import App

from twofold.ui.chain.help import ChainHelpScreen, chain_help_markdown, tile_chart
from twofold.ui.chain.screen import ChainScreen
from twofold.ui.chain.tutorial import TutorialScreen


def start_tutorial(app: App[object]) -> None:
    """Show the 2248 tutorial over whatever screen is up (Help's "Start the tutorial")."""
    app.push_screen(TutorialScreen())


__all__ = [
    "ChainHelpScreen",
    "ChainScreen",
    "TutorialScreen",
    "chain_help_markdown",
    "start_tutorial",
    "tile_chart",
]
