"""Seats: which open window may write a mode's save slot.

A seat is a row in ``seats`` with its holder's process id, host and process start
time (Linux ``/proc``). The window that opens a mode first takes the seat; a second
window (while the first one's process lives) plays a fresh game of its own. A seat
whose process has died, or whose row does not read or cannot be true (a beat in the
future, no start time where this host has one), is free again.
"""

from __future__ import annotations

import math
import os
import socket
import sqlite3
import time
from collections import Counter

from twofold.core.store.schema import SEATS

#: a seat held from another host is free when its holder has not written for this long
SEAT_STALE = 6 * 3600.0
#: how far ahead of this host's clock a beat written on this host may be (a clock set back)
CLOCK_SLACK = 600.0
#: the largest process id any system hands out (Linux's limit is 2**22)
PID_MAX = 2**31 - 1
HOST = socket.gethostname()
#: the owners of this process's open stores (a test may give two stores two owners)
LIVE_OWNERS: Counter[str] = Counter()
_SELECT = f"SELECT owner, pid, host, started, beat FROM {SEATS.name} WHERE mode_id = ?"


def start_time(pid: int) -> str:
    """When process ``pid`` started (Linux clock ticks), "" where that cannot be told."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return ""
    if fields and fields[0] in (b"Z", b"X"):
        return "dead"  # a zombie has ended; only its parent has not read its status yet
    return fields[19].decode("ascii", "replace") if len(fields) > 19 else ""


def process_alive(pid: int, started: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it lives, as another user
    except (OSError, OverflowError, ValueError):
        return False
    now = start_time(pid)
    # the same pid with another start time is a new process that took the old number
    return now != "dead" and (not started or not now or now == started)


def process_owner() -> str:
    """The seat owner of this process: host, pid and start time."""
    pid = os.getpid()
    return f"{HOST}/{pid}/{start_time(pid)}"


def taken(connection: sqlite3.Connection, mode_id: str, owner: str) -> bool:
    """Whether another window that is still open holds the seat of ``mode_id``."""
    row = connection.execute(_SELECT, (mode_id,)).fetchone()
    if row is None:
        return False
    holder, pid, host, started, beat = row
    if holder == owner:
        return False
    # a row that does not read (edited, damaged) holds no seat: it is written over
    if not (
        isinstance(holder, str)
        and isinstance(host, str)
        and isinstance(pid, int)
        and 0 < pid <= PID_MAX
        and isinstance(started, str)
        and isinstance(beat, int | float)
        and math.isfinite(beat)
    ):
        return False
    now = time.time()
    if float(beat) > now + (SEAT_STALE if host != HOST else CLOCK_SLACK):
        return False  # a beat from the future cannot be true: a row edited or damaged
    if host != HOST:
        return now - float(beat) < SEAT_STALE
    if pid == os.getpid():
        return LIVE_OWNERS[holder] > 0
    if not started and start_time(pid):
        return False  # twofold writes the start time wherever /proc tells it: not its row
    return process_alive(pid, started)


def take(connection: sqlite3.Connection, mode_id: str, owner: str) -> None:
    pid = os.getpid()
    connection.execute(
        SEATS.insert(replace=True), (mode_id, owner, pid, HOST, start_time(pid), time.time())
    )


def beat(connection: sqlite3.Connection, mode_id: str, owner: str) -> bool:
    """Mark the seat as held now; False if ``owner`` does not hold it."""
    held = connection.execute(
        f"UPDATE {SEATS.name} SET beat = ? WHERE mode_id = ? AND owner = ?",
        (time.time(), mode_id, owner),
    )
    return bool(held.rowcount)


def release(connection: sqlite3.Connection, mode_id: str, owner: str) -> None:
    connection.execute(
        f"DELETE FROM {SEATS.name} WHERE mode_id = ? AND owner = ?", (mode_id, owner)
    )
