"""The play widget of chain modes: power-ups, pause, the end of a game (the board and its
chain controls are ``twofold.ui.app.board``)."""

from __future__ import annotations

from twofold.ui.app.screens.chain.play import ChainPlay

__all__ = ["ChainPlay"]
