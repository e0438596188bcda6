"""A damaged or once read-only saves file loses no save SQLite can still read, and says so in
one line.

Each save of a real file (every mode, some of them long, some still in the WAL) is put
on the pages of the ``saves`` table in rowid order; a zeroed page costs the saves on it
and no other, and a file cut short keeps what its WAL holds (see recovery_fuzz).
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.fuzz_files import index_pages
from tests.core.recovery_fuzz import (
    PAGE,
    Outcome,
    Rows,
    cut_short,
    every_row,
    make_file,
    one_file,
    pages_of,
    write_page,
)
from twofold.core.store import DB_NAME, files, open_store


@pytest.fixture(scope="module")
def real_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Rows]]:
    folder = tmp_path_factory.mktemp("real")
    path = make_file(folder, 43)
    yield path, every_row(path)


def saves_leaves(path: Path) -> list[int]:
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = source.execute(
            "SELECT pageno FROM dbstat WHERE name = 'saves' AND pagetype = 'leaf' ORDER BY path"
        ).fetchall()
    finally:
        source.close()
    return [int(row[0]) for row in rows]


@pytest.mark.slow
def test_a_zeroed_saves_page_costs_only_the_saves_on_it(
    real_file: tuple[Path, Rows], tmp_path: Path
) -> None:
    path, original = real_file
    leaves = saves_leaves(path)
    assert len(leaves) >= 2, "the saves fit one page: the test needs more"
    out = Outcome()
    for page in leaves:

        def zero(target: Path, _rng: random.Random, page: int = page) -> str:
            data = bytearray(target.read_bytes())
            write_page(data, page, bytes(PAGE))
            target.write_bytes(bytes(data))
            return f"saves page {page} zeroed"

        one_file(path, original, tmp_path, random.Random(page), out, zero)
    assert out.problems == []
    assert out.resumed_saves == out.readable_saves > 0


@pytest.mark.slow
def test_a_file_cut_short_with_its_wal_keeps_what_sqlite_reads(
    real_file: tuple[Path, Rows], tmp_path: Path
) -> None:
    path, original = real_file
    assert path.with_name(DB_NAME + "-wal").exists()
    out = Outcome()
    for seed in range(6):
        one_file(path, original, tmp_path, random.Random(seed), out, cut_short)
    assert out.problems == []
    assert out.resumed_saves == out.readable_saves > 0


@pytest.mark.slow
def test_every_leaf_of_every_kept_table_zeroed_in_turn(
    real_file: tuple[Path, Rows], tmp_path: Path
) -> None:
    path, original = real_file
    out = Outcome()
    for page in pages_of(path, "leaf"):

        def zero(target: Path, _rng: random.Random, page: int = page) -> str:
            data = bytearray(target.read_bytes())
            write_page(data, page, bytes(PAGE))
            target.write_bytes(bytes(data))
            return f"page {page} zeroed"

        one_file(path, original, tmp_path, random.Random(page), out, zero)
    assert out.problems == []
    assert out.resumed_saves == out.readable_saves > 0


def test_the_damage_notice_is_one_line(twofold_home: Path) -> None:
    """integrity_check's newline went into the notice: --plain and stats printed two lines."""
    from tests.core.test_damaged_files import a_real_file

    path = a_real_file(twofold_home)
    for page in index_pages(path):  # every index's first cell points past its page
        data = bytearray(path.read_bytes())
        at = (page - 1) * PAGE + (100 if page == 1 else 0)
        header = 12 if data[at] in (2, 5) else 8
        data[at + header : at + header + 2] = b"\xff\xf0"
        path.write_bytes(bytes(data))
    with open_store(twofold_home) as store:
        notice = store.notice
    assert notice and "damaged" in notice
    assert "\n" not in notice and "***" not in notice, notice


class Problems:
    """A connection whose integrity_check finds what SQLite says of a damaged tree page."""

    def execute(self, _sql: str) -> Problems:
        return self

    def fetchall(self) -> list[tuple[str]]:
        return [("*** in database main ***\nOn tree page 5 cell 0: 2nd reference to page 9",)]


def test_integrity_problems_are_lines_of_their_own() -> None:
    found = files.integrity(Problems())  # type: ignore[arg-type]
    assert found == ["On tree page 5 cell 0: 2nd reference to page 9"]


def test_our_wal_files_left_read_only_are_writable_again(twofold_home: Path) -> None:
    """A start on a 0400 file left -wal and -shm 0400 (SQLite gives them the file's mode);
    every later start said the shared memory file was read-only and hid the save."""
    from twofold.core.plugins import registry
    from twofold.core.session import Session

    path = twofold_home / DB_NAME
    with open_store(twofold_home) as store:
        session = Session(registry().mode("2048"), store)
        session.act("left")
        session.close()
    os.chmod(path, 0o400)
    sides = [path.with_name(DB_NAME + end) for end in ("-wal", "-shm")]
    with open_store(twofold_home) as store:
        for side in sides:  # what a start on the read-only file leaves when it is stopped
            shutil.copy2(side, side.with_name(side.name + ".left"))
    for side in sides:
        side.with_name(side.name + ".left").replace(side)
        assert not stat.S_IMODE(side.stat().st_mode) & stat.S_IWUSR
    os.chmod(path, 0o600)
    with open_store(twofold_home) as store:
        assert store.notice is None and store.path == path
        for side in sides:
            assert stat.S_IMODE(side.stat().st_mode) & stat.S_IWUSR, side
        assert store.load_save("2048") is not None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file all the same")
def test_a_start_on_a_read_only_file_hides_no_save_later(twofold_home: Path) -> None:
    from twofold.core.plugins import registry
    from twofold.core.session import Session

    with open_store(twofold_home) as store:
        session = Session(registry().mode("2048"), store)
        for move in ("left", "up", "right", "down") * 5:
            session.act(move)
        session.close()
    path = twofold_home / DB_NAME
    os.chmod(path, 0o400)
    with open_store(twofold_home) as store:
        assert store.load_save("2048") is not None
    os.chmod(path, 0o600)
    with open_store(twofold_home) as store:
        assert store.notice is None
        saved = store.load_save("2048")
        assert saved is not None and len(saved.actions) == 20
