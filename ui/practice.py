"""Why a game is practice, said the same way by every front end (the app and the line modes)."""

from __future__ import annotations

from twofold.core._i18n import _
from twofold.core.daily import daily_code
from twofold.core.session import Session


def practice_words(session: Session | None = None) -> str:
    """Why the game in play is practice: another day's board, or today's played again."""
    other_day = (
        session is not None
        and session.mode.daily
        and session.game.code != daily_code(session.mode.id, session.today())
    )
    if other_day:
        return _("Practice: only today's board is the Daily, so this game does not count.")
    return _("Practice: today's daily game is already played, so this try does not count.")
