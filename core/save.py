"""A session's save: written after every change of the game in play, and brought back.

A save is the game's log (a game *is* its log). It also carries the game summed up as
its finished row would be (its ``live`` row, so records include the game in progress)
and, once the log has grown enough, a checkpoint (``twofold.core.checkpoint``) so a long
game resumes without replaying every action.
"""

from __future__ import annotations

from typing import Any

from twofold.core import checkpoint
from twofold.core._rules import Mode
from twofold.core.game import UNDO, Clock, Flags, Game
from twofold.core.plugins import PluginFault
from twofold.core.rows import OVER, FinishedGame, SavedGame
from twofold.core.storage import Store
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
        """Write ``game``'s save (``day``: the date a daily game belongs to).

        A game with no action yet is kept too: it is the mode's game from its first reply,
        so reopening the mode resumes it (the same code), never a fresh one.
        """
        self.store.write_save(self._saved(game, day, self._checkpoint(game)))

    def keep_last(self, game: Game | None, *, day: str | None) -> None:
        """Write the game one step back (Last game), with a checkpoint of its own if long."""
        if game is None:
            self.store.write_last(self.mode.id, None)
            return
        taken = None
        if self.mode.codec is not None and len(game.log) >= checkpoint.EVERY:
            opening = checkpoint.opening(self.mode.id, game.code, game.position)
            try:
                taken = checkpoint.take(game, opening)
            except Exception:  # a codec's fault costs the checkpoint, never the game
                taken = None
        self.store.write_last(self.mode.id, self._saved(game, day, taken))

    def _saved(self, game: Game, day: str | None, taken: dict[str, Any] | None) -> SavedGame:
        return SavedGame(
            mode_id=self.mode.id,
            code=game.code,
            actions=tuple(game.log),
            elapsed=game.elapsed,
            flags={**game.flags.as_dict(), **({OVER: True} if self._over(game) else {})},
            position=game.position,
            day=day,
            game_id=game.game_id,
            live=self._live(game),
            checkpoint=taken,
        )

    @staticmethod
    def _over(game: Game) -> bool:
        try:
            return game.over
        except Exception:  # the rules' fault: the next action meets it; the save is kept
            return False

    def restore(self, saved: SavedGame, *, mark: bool = True) -> Game:
        """The game ``saved`` holds, from its checkpoint when that fits its log.

        ``mark``: its checkpoints are taken from now on (False for the game one step back).
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
        if mark:
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
