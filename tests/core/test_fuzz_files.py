"""Random bytes overwritten in a real twofold.db, started three ways (see fuzz_files).

None of the files may raise, hang, or leave the player unable to start or to save.
The long run over 500 files is ``python -m tests.core.fuzz_files 500``.
"""

from __future__ import annotations

import pytest

from tests.conftest import THOROUGH
from tests.core.fuzz_files import fuzz

#: files started with ``play --json`` and ``stats --json`` (and a save checked after);
#: ``TWOFOLD_TESTS=thorough`` starts ten times as many
FILES = 2000 if THOROUGH else 200
#: every this many files, the app too (Pilot): it takes about a second a start
APP_EVERY = 20


#: the files in parts of their own seeds, so both xdist workers share them
PARTS = 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_damaged_files_never_stop_a_start_or_a_save(part: int) -> None:
    outcomes, problems = fuzz(FILES // PARTS, seed=2023 + part, app_every=APP_EVERY)
    assert problems == []
    assert outcomes["moved aside"] and outcomes["read"]  # both kinds of damage were met
