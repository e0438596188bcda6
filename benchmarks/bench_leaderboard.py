"""The leaderboard: submissions at 50 a second from 50 clients, the most it takes,
and a board read with 100,000 entries, on SQLite and on PostgreSQL.

A real ``twofold leaderboard`` runs in its own process (two verifying workers, on this
2-core machine); every submission is a distinct verified 2048 Daily game of 40 moves.
Goals: p99 at most 250 ms at 50 submissions a second; a board read's p99 at most 20 ms
with 100,000 entries on the board on both stores, and with 1,000,000 on PostgreSQL.
PostgreSQL is measured where ``initdb`` is on PATH (started as in the tests). The machine's
load average is printed beside each figure.

    nice -n 19 .venv/bin/python benchmarks/bench_leaderboard.py [--seconds 20]
    nice -n 19 .venv/bin/python benchmarks/bench_leaderboard.py --only postgresql \\
        --entries 1000000 --reads-only
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.leaderboard.conftest import daily_game  # noqa: E402
from tests.leaderboard.servers import leaderboard, postgresql  # noqa: E402
from twofold.core.daily import utc_today  # noqa: E402
from twofold.core.result import result_text  # noqa: E402
from twofold.leaderboard.boards import open_boards  # noqa: E402
from twofold.leaderboard.tables import entries  # noqa: E402
from twofold.ui.submission import send_result  # noqa: E402

CLIENTS = 50
RATE = 50.0
BOARD_ENTRIES = 100_000


def results(count: int, start: int) -> list[str]:
    return [result_text(daily_game(seed), day=utc_today()) for seed in range(start, start + count)]


def p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def at_rate(address: str, texts: list[str], rate: float) -> tuple[float, list[float]]:
    """Send ``texts`` from CLIENTS threads, started ``rate`` a second; achieved rate, latencies."""
    latencies: list[float] = []
    lock = threading.Lock()
    started = time.monotonic()

    def one(number: int) -> None:
        if rate:
            delay = started + number / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        begun = time.monotonic()
        send_result(address, texts[number], f"b{number % 97}")
        with lock:
            latencies.append(time.monotonic() - begun)

    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(one, range(len(texts))))
    return len(texts) / (time.monotonic() - started), latencies


def fill(database: str, count: int, mode: str, code: str) -> None:
    """``count`` entries on one board, written straight to the store (not verified)."""
    boards = open_boards(database)
    rng = random.Random(1)
    columns = ("game_key", "mode", "code", "day", "name", "score", "largest", "moves",
               "played", "assisted", "proof", "submitted", "actions", "name_key")  # fmt: skip
    try:
        for start in range(0, count, 20_000):
            with boards.transaction(write=True) as connection:
                rows = [
                    # actions -2: a proof the store does not try to replay when it opens
                    dict(zip(columns, (f"fill-{n}", mode, code, None, f"f{n}",
                         rng.randrange(100_000), 256, 500, "unassisted" if n % 3 else "undo",
                         int(not n % 3), "TF2", time.time(), -2, f"f{n}"), strict=True))
                    for n in range(start, min(count, start + 20_000))
                ]  # fmt: skip
                connection.execute(entries.insert(), rows)
    finally:
        boards.close()


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def reads(address: str, path: str, count: int = 300) -> list[float]:
    times = []
    for _read in range(count):
        begun = time.monotonic()
        with urllib.request.urlopen(address + path, timeout=30) as response:
            response.read()
        times.append(time.monotonic() - begun)
    return times


@contextlib.contextmanager
def server(database: str, home: Path) -> Iterator[str]:
    with leaderboard(database, home, workers=2) as (_process, address):
        yield address


def measure(
    name: str, database: str, home: Path, seconds: float, start: int, count: int, submit: bool
) -> None:
    if submit:
        sent = int(seconds * RATE)
        print(f"{name}: generating {2 * sent} results…", flush=True)
        paced, flat = results(sent, start), results(sent, start + sent)
        with server(database, home) as address:
            send_result(address, results(1, start + 2 * sent)[0], "warm")  # workers up
            achieved, latencies = at_rate(address, paced, RATE)
            print(
                f"{name}: {len(paced)} submissions at {achieved:.1f}/s from {CLIENTS} clients: "
                f"p50 {1000 * p(latencies, 0.5):.0f} ms, p99 {1000 * p(latencies, 0.99):.0f} ms "
                f"(goal 250 ms) [{load()}]",
                flush=True,
            )
            most, latencies = at_rate(address, flat, 0)
            print(
                f"{name}: as fast as {CLIENTS} clients send: {most:.1f} submissions/s, "
                f"p99 {1000 * p(latencies, 0.99):.0f} ms [{load()}]",
                flush=True,
            )
    mode, code = "2048", "BENCH0001"[:8]
    begun = time.monotonic()
    fill(database, count, mode, code)
    print(f"{name}: {count:,} entries written in {time.monotonic() - begun:.0f} s", flush=True)
    boards = open_boards(database)
    try:
        # the store's share of a read: board() alone, in this process, no HTTP
        times = []
        for _read in range(300):
            begun = time.monotonic()
            boards.board(mode, code, assisted=False, limit=100)
            times.append(time.monotonic() - begun)
    finally:
        boards.close()
    print(
        f"{name}: the store's board() with {count:,} entries (top 100): "
        f"p50 {1000 * statistics.median(times):.1f} ms, p99 {1000 * p(times, 0.99):.1f} ms "
        f"[{load()}]",
        flush=True,
    )
    with server(database, home) as address:
        path = f"api/boards/{mode}/{code}"
        times = reads(address, path)
        print(
            f"{name}: board read with {count:,} entries (top 100): "
            f"p50 {1000 * statistics.median(times):.1f} ms, p99 {1000 * p(times, 0.99):.1f} ms "
            f"(goal 20 ms) [{load()}]",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--entries", type=int, default=BOARD_ENTRIES, help="on the board read")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--reads-only", action="store_true", help="no submissions")
    args = parser.parse_args()
    submit = not args.reads_only
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        if args.only != "postgresql":
            db = str(home / "bench.db")
            measure("SQLite", db, home, args.seconds, 10_000, args.entries, submit)
        if args.only != "sqlite":
            try:
                with postgresql(home / "pg") as url:
                    measure("PostgreSQL", url, home, args.seconds, 20_000, args.entries, submit)
            except BaseException as error:  # pytest.skip without initdb
                if type(error).__name__ != "Skipped":
                    raise
                print(f"PostgreSQL: not measured ({error})")


if __name__ == "__main__":
    main()
