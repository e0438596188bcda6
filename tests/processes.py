"""Processes as Linux's /proc shows them: whether one still runs, all it started, and the
CPU time it has used."""

from __future__ import annotations

import os
from pathlib import Path


def stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (state first); none once
    the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped has ended)."""
    fields = stat(pid)
    return bool(fields) and fields[0] not in ("Z", "X")


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
    fields = stat(pid)
    if not fields:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
