"""Processes as Linux's /proc shows them: whether one still runs, all it started, and the
CPU time it has used."""

from __future__ import annotations

import os
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def descendants(pid: int) -> set[int]:
    """Every process ``pid`` started, and those they started, while they run."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = (task / "children").read_text().split()
            except OSError:
                continue
            for kid in map(int, kids):
                if kid not in found:
                    found.add(kid)
                    todo.append(kid)
    return found


def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used so far, 0 once it is gone: a wait on work done, which a
    busy machine does not shorten as it does a sleep."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
