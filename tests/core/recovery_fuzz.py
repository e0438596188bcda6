"""Damaged saves files: every row SQLite can still read is carried into the fresh file.

A real ``twofold.db`` with a save in every mode (some long enough for a base and a tail,
some of them still in the WAL) is copied and damaged the ways a disk damages a file: a
leaf page of a table zeroed or overwritten (whole, or in part), an interior page zeroed,
a few bytes anywhere, or the main file cut short with its WAL intact.

The reference is SQLite itself: every row the undamaged file held is asked for by its
rowid in the damaged one (read-only, through the WAL where there is one), which reads
each row whose own pages still read. The app then starts on the damaged file. Row for
row, the fresh file must hold what SQLite read (saves, tails, records, settings, the
live rows), and each mode must resume the save those rows make.

``python -m tests.core.recovery_fuzz 1000`` is the long run.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from twofold.core import plugins
from twofold.core.codes import code_from_text
from twofold.core.session import Session
from twofold.core.store import DB_NAME, open_store, saves
from twofold.core.store.readable import KEPT
from twofold.core.store.schema import SAVE_TAIL, SAVES

PAGE = 4096
Rows = dict[str, dict[int, tuple[object, ...]]]


def make_file(folder: Path, seed: int) -> Path:
    """A twofold.db with a save in every mode, copied (with its WAL) while still open."""
    registry = plugins.registry()
    rng = random.Random(seed)
    home = folder / f"base-{seed}"
    home.mkdir(mode=0o700, parents=True)
    store = open_store(home)
    for mode_id in sorted(registry.modes):
        mode = registry.mode(mode_id)
        session = Session(mode, store)
        player = mode.autoplayer(1) if mode.autoplayer else None
        for game in range(rng.randint(1, 2)):
            if not mode.daily:
                session.new_game(code_from_text(f"recover-{seed}-{mode_id}-{game}"))
            for _move in range(rng.choice((8, 40, 120))):
                action = player.choose(session.game.state) if player else None
                if action is None or session.game.over:
                    break
                session.act(action)
    kept = folder / f"kept-{seed}"
    kept.mkdir(mode=0o700)
    for suffix in ("", "-wal"):
        source = home / (DB_NAME + suffix)
        if source.exists():
            shutil.copyfile(source, kept / (DB_NAME + suffix))
    store.close()
    return kept / DB_NAME


def pages_of(path: Path, kind: str) -> list[int]:
    """The pages of the kept tables (``leaf`` or ``internal``), from SQLite's dbstat."""
    names = ", ".join(f"'{table.name}'" for table in KEPT)
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = source.execute(
            f"SELECT pageno FROM dbstat WHERE name IN ({names}) AND pagetype = ?", (kind,)
        ).fetchall()
    finally:
        source.close()
    return sorted(int(row[0]) for row in rows)


def write_page(data: bytearray, page: int, content: bytes) -> None:
    start = (page - 1) * PAGE
    if start < len(data):
        data[start : start + len(content)] = content[: max(0, len(data) - start)]


def zero_leaf(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    pages = [page for page in pages_of(path, "leaf") if page * PAGE <= len(data)]
    for page in rng.sample(pages, min(len(pages), rng.choice((1, 1, 2)))):
        write_page(data, page, bytes(PAGE))
    path.write_bytes(bytes(data))
    return "a leaf zeroed"


def overwrite_leaf(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    pages = [page for page in pages_of(path, "leaf") if page * PAGE <= len(data)]
    page = rng.choice(pages)
    start = rng.choice((0, rng.randrange(PAGE)))
    length = rng.randint(1, PAGE - start)
    at = (page - 1) * PAGE + start
    data[at : at + length] = rng.randbytes(length)
    path.write_bytes(bytes(data))
    return "a leaf overwritten"


def zero_interior(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    pages = [page for page in pages_of(path, "internal") if page * PAGE <= len(data)]
    if not pages:
        return zero_leaf(path, rng)
    write_page(data, rng.choice(pages), bytes(PAGE))
    path.write_bytes(bytes(data))
    return "an interior page zeroed"


def bytes_anywhere(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    for _ in range(rng.randint(1, 16)):
        data[rng.randrange(PAGE, len(data))] = rng.randrange(256)
    path.write_bytes(bytes(data))
    return "bytes overwritten"


def cut_short(path: Path, rng: random.Random) -> str:
    """The main file cut at a page boundary; its WAL is left as it was."""
    data = path.read_bytes()
    pages = len(data) // PAGE
    path.write_bytes(data[: rng.randint(2, max(2, pages - 1)) * PAGE])
    return "cut short, WAL intact"


KINDS: tuple[Callable[[Path, random.Random], str], ...] = (  # the likelier ones twice
    zero_leaf,
    zero_leaf,
    overwrite_leaf,
    overwrite_leaf,
    zero_interior,
    bytes_anywhere,
    cut_short,
)


def every_row(path: Path) -> Rows:
    """Every row of the kept tables of an undamaged file, by rowid."""
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {
            table.name: {
                int(rowid): tuple(values)
                for rowid, *values in source.execute(
                    f"SELECT rowid, {table.column_list} FROM {table.name}"
                )
            }
            for table in KEPT
        }
    finally:
        source.close()


def readable(path: Path, original: Rows) -> Rows:
    """What SQLite reads of each of ``original``'s rows in the damaged file, by rowid."""
    wal = path.with_name(path.name + "-wal").exists()
    for query in ("?mode=ro", "?immutable=1") if wal else ("?immutable=1",):
        try:
            source = sqlite3.connect(path.resolve().as_uri() + query, uri=True, timeout=1.0)
        except sqlite3.Error:
            continue
        source.text_factory = lambda data: data.decode("utf-8", "replace")
        found: Rows = {table.name: {} for table in KEPT}
        try:
            for table in KEPT:
                sql = f"SELECT {table.column_list} FROM {table.name} WHERE rowid = ?"
                for rowid in original[table.name]:
                    try:
                        row = source.execute(sql, (rowid,)).fetchone()
                    except (sqlite3.Error, ValueError, OverflowError):
                        continue
                    if row is not None:
                        found[table.name][rowid] = tuple(row)
        finally:
            source.close()
        if any(found.values()):
            return found
    return {table.name: {} for table in KEPT}


def _seq_order(row: tuple[object, ...]) -> tuple[int, float, str]:
    seq = row[0]
    if isinstance(seq, int | float) and not isinstance(seq, bool):
        return (0, float(seq), str(row))
    return (1, 0.0, str(row))


def resumable(rows: Rows) -> dict[str, tuple[str, ...]]:
    """The saves those rows make, by mode: the actions each resumes with."""
    tails: dict[str, list[tuple[object, ...]]] = {}
    for values in rows[SAVE_TAIL.name].values():
        tails.setdefault(str(values[0]), []).append(tuple(values[1:]))
    found: dict[str, tuple[str, ...]] = {}
    keys = [str(values[0]) for values in rows[SAVES.name].values()]
    for values in rows[SAVES.name].values():
        mode_id, data = str(values[0]), values[1]
        if "#" in mode_id or keys.count(mode_id) > 1:
            continue  # a slot beside a save (its tip, its checkpoint, the Last game)
        try:
            based, base = saves.decode_sealed(data, mode_id)  # type: ignore[arg-type]
        except ValueError:
            continue  # the row reads, its save does not (the damage is in its text)
        # as the store reads them (ORDER BY seq); a damaged seq may be of any type
        tail = sorted(tails.get(mode_id, []), key=_seq_order)
        saved, _lost = saves.with_tail(based, base, tail)
        found[mode_id] = saved.actions
    return found


@dataclass
class Outcome:
    files: int = 0
    readable_saves: int = 0
    resumed_saves: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def fresh_rows(path: Path) -> dict[str, set[tuple[object, ...]]]:
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    source.text_factory = lambda data: data.decode("utf-8", "replace")
    try:
        return {
            table.name: set(source.execute(f"SELECT {table.column_list} FROM {table.name}"))
            for table in KEPT
        }
    finally:
        source.close()


Damage = Callable[[Path, random.Random], str]


def one_file(
    base: Path,
    original: Rows,
    folder: Path,
    rng: random.Random,
    out: Outcome,
    damage: Damage | None = None,
) -> None:
    """Damage a copy of ``base``, start on it, and add to ``out`` what was and was not kept."""
    home = folder / f"case-{out.files}"
    home.mkdir(mode=0o700)
    for suffix in ("", "-wal"):
        source = base.with_name(base.name + suffix)
        if source.exists():
            shutil.copyfile(source, home / (DB_NAME + suffix))
    path = home / DB_NAME
    kind = (damage or rng.choice(KINDS))(path, rng)
    out.kinds[kind] += 1
    out.files += 1
    expected = readable(path, original)
    wanted = resumable(expected)
    out.readable_saves += len(wanted)
    store = open_store(home)
    try:
        moved = store.path is not None and any(home.glob(DB_NAME + ".broken-*"))
        if moved:
            # row for row: what SQLite read of the damaged file is in the fresh one
            kept = fresh_rows(path)
            for table in KEPT:
                unread = set(expected[table.name].values()) - kept[table.name]
                keys = {row[: len(table.key)] for row in kept[table.name]}
                # a row whose key repeats another's (damaged) keeps the first read
                lost = [row for row in unread if row[: len(table.key)] not in keys]
                if lost:
                    out.problems.append(
                        f"{kind}: {len(lost)} rows of {table.name} not carried, such as {lost[0]}"
                    )
        for mode_id, actions in wanted.items():
            try:
                saved = store.load_save(mode_id)
            except ValueError as error:
                out.problems.append(f"{kind}: {mode_id} not resumed ({error})")
                continue
            # more is no loss: a row whose rowid is damaged is read by a scan, not a lookup
            if saved is None or saved.actions[: len(actions)] != actions:
                got = None if saved is None else len(saved.actions)
                out.problems.append(f"{kind}: {mode_id} resumed {got} of {len(actions)} actions")
                continue
            out.resumed_saves += 1
    finally:
        store.close()
    shutil.rmtree(home, ignore_errors=True)


def fuzz(files: int, seed: int, bases: int = 2) -> Outcome:
    """``files`` damaged copies of ``bases`` real files; the figures and any problem."""
    out = Outcome()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="twofold-recover-") as temporary:
        folder = Path(temporary)
        made = [make_file(folder, seed * 10 + number) for number in range(bases)]
        originals = [every_row(path) for path in made]
        for _number in range(files):
            which = rng.randrange(len(made))
            one_file(made[which], originals[which], folder, rng, out)
    return out


if __name__ == "__main__":
    import os

    os.environ["TWOFOLD_HOME"] = tempfile.mkdtemp(prefix="twofold-home-")
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    found = fuzz(total, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 43, bases=4)
    print(
        f"files {found.files}, saves readable by SQLite {found.readable_saves}, "
        f"resumed by the app {found.resumed_saves}; {dict(found.kinds)}"
    )
    for problem in found.problems[:40]:
        print(problem)
    sys.exit(1 if found.problems else 0)
