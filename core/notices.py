"""What a session tells the player about keeping the game: each line, in the player's language.

A session opening a save that cannot be used says why and what it did instead; a game
that cannot be saved says why, for as long as it lasts (see ``Session.write_problem``).
"""

from __future__ import annotations

from twofold.core._i18n import _, ngettext
from twofold.core._rules import Mode


def newer_save(mode: Mode) -> str:
    """The slot holds a newer twofold's save: it stays, and this game is not saved."""
    return _(
        "The saved {mode} game was written by a newer twofold; it is kept for it, and "
        "this window's game is recorded when it ends but not saved for later."
    ).format(mode=_(mode.title))


def seat_taken(mode: Mode) -> str:
    """Another open window holds the mode's seat: this window plays a game of its own."""
    return _(
        "This {mode} game is open in another window; this window plays a new game of its "
        "own, which is kept apart and offered as the Last game when {mode} is opened next."
    ).format(mode=_(mode.title))


def kept_from_window(mode: Mode, score: int) -> str:
    """A game a second window played on the mode waits: it is the Last game now."""
    return _(
        "A {mode} game played in another window was kept (score {score}); Last game brings it back."
    ).format(mode=_(mode.title), score=score)


def unreadable(mode: Mode, reason: object) -> str:
    return _(
        "The saved {mode} game could not be read ({reason}); it is kept aside, and a "
        "new game starts."
    ).format(mode=_(mode.title), reason=reason)


def unreplayable(mode: Mode, reason: object) -> str:
    return _(
        "The saved {mode} game could not be replayed ({reason}); it is kept "
        "aside, and a new game starts."
    ).format(mode=_(mode.title), reason=reason)


def damaged_tail(mode: Mode, lost: int) -> str:
    """The save's last ``lost`` actions did not read: the game resumes before them."""
    text = ngettext(
        "The saved {mode} game's last {count} action was damaged; it resumes before it.",
        "The saved {mode} game's last {count} actions were damaged; it resumes before them.",
        lost,
    )
    return text.format(mode=_(mode.title), count=lost)


def saved_again() -> str:
    return _("Progress is saved again.")
