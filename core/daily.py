"""The daily seed: one code per daily mode and UTC date, the same for every player."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

from twofold.core.codes import code_from_text

Today = Callable[[], date]


def utc_today() -> date:
    return datetime.now(UTC).date()


def daily_code(mode_id: str, day: date) -> str:
    """The code of ``mode_id``'s daily game on ``day`` (UTC)."""
    return code_from_text(f"twofold-daily:{mode_id}:{day.isoformat()}")
