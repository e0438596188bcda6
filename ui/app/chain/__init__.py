"""The screen of chain modes: the chain board, power-ups, pause, the end of a game."""

from __future__ import annotations

from twofold.ui.app.chain.screen import ChainScreen

__all__ = ["ChainScreen"]
