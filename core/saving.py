"""A session's save: written after every change of the game in play, and brought back.

A save is the game's log (a game *is* its log). It also carries the game summed up as
its finished row would be (its ``live`` row, so records include the game in progress)
and, once the log has grown enough, a checkpoint (``twofold.core.checkpoint``) so a long
game resumes without replaying every action.
"""

from __future__ import annotations

from typing import Any

from twofold.core import checkpoint
from twofold.core.game import UNDO, Clock, Flags, Game
from twofold.core.keeper import Store
from twofold.core.kept import FinishedGame, SavedGame
from twofold.core.plugins import PluginFault
from twofold.core.rules import Mode
from twofold.core.summary import stats_of, summary


class Saving:
    """What the store keeps of one mode's game in play, and the game a save replays to."""

    def __init__(self, mode: Mode, store: Store, clock: Clock, plugin: str | None = None) -> None:
        self.mode = mode
        self.store = store
        self.clock = clock
        self.plugin = plugin
        #: the game whose checkpoints are taken, the log length of its last one, and the
        #: digest of its log so far (extended block by block, never recomputed)
        self._marked = ""
        self._kept_at = 0
        self._digest: checkpoint.Digest | None = None

    def keep(self, game: Game, *, day: str | None) -> None:
        """Write ``game``'s save (``day``: the date a daily game belongs to), or clear the slot."""
        # an untouched practice try is kept: it remembers that today's daily was played
        if not game.log and game.position is None and not game.flags.practice:
            self.store.clear_save(self.mode.id)
            return
        self.store.write_save(
            SavedGame(
                mode_id=self.mode.id,
                code=game.code,
                actions=tuple(game.log),
                elapsed=game.elapsed,
                flags=game.flags.as_dict(),
                position=game.position,
                day=day,
                game_id=game.game_id,
                live=self._live(game),
                checkpoint=self._checkpoint(game),
            )
        )

    def restore(self, saved: SavedGame) -> Game:
        """The game ``saved`` holds, from its checkpoint when that fits its log.

        Raises ValueError for a save of another mode, ReplayError (or whatever the rules
        raise) for a log that does not replay.
        """
        if saved.mode_id != self.mode.id:
            raise ValueError(f"it belongs to mode {saved.mode_id!r}")
        game = checkpoint.resume(
            self.mode,
            saved.code,
            saved.actions,
            saved.checkpoint,
            position=saved.position,
            clock=self.clock,
        )
        kept_at = 0 if game is None or saved.checkpoint is None else int(saved.checkpoint["at"])
        if game is None:
            game = Game.replay(
                self.mode, saved.code, saved.actions, position=saved.position, clock=self.clock
            )
        self._mark(game, kept_at)
        game.flags = Flags.from_dict(saved.flags or {})
        if saved.position is not None:
            game.flags.uncounted = True
        game.elapsed = saved.elapsed
        if saved.game_id:
            game.game_id = saved.game_id
        return game

    def _live(self, game: Game) -> FinishedGame:
        try:
            stats = stats_of(game, self.plugin)
        except PluginFault:
            stats = {}  # the save matters more than its summary; finishing will report the fault
        return summary(game, stats)

    def _mark(self, game: Game, kept_at: int) -> None:
        """Take ``game``'s checkpoints from now on, its last one at action ``kept_at``."""
        self._marked, self._kept_at, self._digest = game.game_id, kept_at, None

    def _checkpoint(self, game: Game) -> dict[str, Any] | None:
        """A new checkpoint of ``game`` once its log has grown enough since the last one."""
        if self.mode.codec is None:
            return None
        if self._marked != game.game_id:
            self._mark(game, 0)  # a game brought back or started: checkpointed afresh
        if len(game.log) - self._kept_at < checkpoint.EVERY:
            return None
        if game.undo_depth and (not game.history or game.log[-1] == UNDO):
            return None  # a checkpoint is checked by playing its last action again: the next
        if self._digest is None:
            self._digest = checkpoint.opening(self.mode.id, game.code, game.position)
        self._kept_at = len(game.log)
        try:
            taken = checkpoint.take(game, self._digest)
        except Exception:  # a codec's fault costs the checkpoint, never the save
            return None
        self._digest = checkpoint.extend(self._digest, game.log)
        return taken
