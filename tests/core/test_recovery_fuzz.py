"""Damaged saves files, row for row against SQLite's own reads (see recovery_fuzz).

Every row SQLite can still read of a damaged file is carried into the fresh one, and
every save those rows make is resumed. ``TWOFOLD_TESTS=thorough`` runs 1,216 files.
"""

from __future__ import annotations

import pytest

from tests.conftest import THOROUGH
from tests.core.recovery_fuzz import fuzz

#: damaged files in each part, each part on a real file of its own (parts share the xdist
#: workers and stay well inside the suite's time limit for one test)
FILES = 38 if THOROUGH else 15
PARTS = 32 if THOROUGH else 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_every_save_sqlite_can_read_is_resumed(part: int) -> None:
    found = fuzz(FILES, seed=4300 + part, bases=1)
    assert found.problems == []
    assert found.resumed_saves == found.readable_saves > 0
    print(
        f"files {found.files}, saves readable by SQLite {found.readable_saves}, "
        f"resumed {found.resumed_saves}"
    )
