"""Where ``twofold solve`` plays its games: here, in worker processes, or on a Dask cluster.

Each runner calls ``done(index, game)`` as games finish, in any order; the caller puts
them back in the order of their codes, so every runner gives the same table. Ctrl+C
(KeyboardInterrupt) stops every worker before it reaches the caller.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
from collections.abc import Callable, Sequence
from typing import Any

from twofold.core._i18n import _
from twofold.core.autoplay import PlayedGame, play_game

Done = Callable[[int, PlayedGame], None]
#: seconds to wait for a Dask scheduler before saying it cannot be reached
CONNECT_SECONDS = 3


class ClusterUnavailable(Exception):
    """``--cluster`` cannot be used; the message is the one line shown."""


# -- worker processes ----------------------------------------------------------------------


def _ignore_ctrl_c() -> None:
    # ctrl+c reaches the whole process group: only the parent decides what stops
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(task: tuple[int, str, str, int | None, int | None, bool]) -> tuple[int, PlayedGame]:
    index, mode_id, code, depth, stop_at, prove = task
    return index, play_game(mode_id, code, depth, stop_at, prove)


def in_processes(
    mode_id: str,
    codes: Sequence[str],
    depth: int | None,
    stop_at: int | None,
    workers: int,
    done: Done,
    prove: bool = False,
) -> None:
    """Play the games in ``workers`` processes, each looking its mode up by id (``prove``:
    each game's result text with its proof, as ``--json`` gives it)."""
    tasks = [(i, mode_id, code, depth, stop_at, prove) for i, code in enumerate(codes)]
    # spawn, not fork: the parent runs a progress thread, and forking threads can hang
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(workers, initializer=_ignore_ctrl_c)
    try:
        for index, game in pool.imap_unordered(_play, tasks, chunksize=1):
            done(index, game)
        pool.close()
    finally:
        pool.terminate()  # on ctrl+c (or an error) no worker is left playing
        pool.join()


# -- a Dask cluster ------------------------------------------------------------------------


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; ClusterUnavailable in one line."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable(
            _("--cluster needs Dask distributed: pip install twofold[cluster]")
        ) from None
    unreachable = ClusterUnavailable(
        _("cannot reach the Dask scheduler at {address}").format(address=address)
    )
    # A quick look first: a Client that cannot connect retries for its whole timeout and
    # then complains from its destructor, long after the one line a user should see.
    if not _answers(address):
        raise unreachable
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # the failure is said in one line, not logged
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception:  # TimeoutError, OSError: something else listens there
        raise unreachable from None
    finally:
        quiet.setLevel(level)


def _answers(address: str) -> bool:
    """Whether a Dask scheduler (or worker) answers at ``address``: a connection and the
    comm handshake, with nothing left behind when it fails."""
    from distributed.comm import connect as open_comm

    async def knock() -> None:
        comm = await open_comm(address, timeout=CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(knock())
    except Exception:  # OSError, TimeoutError, ValueError for a malformed address, ...
        return False
    return True


def on_cluster(
    client: Any,
    mode_id: str,
    codes: Sequence[str],
    depth: int | None,
    stop_at: int | None,
    done: Done,
    prove: bool = False,
) -> None:
    """Play the games on a Dask cluster (see connect); its workers have twofold installed."""
    from distributed import as_completed

    futures: list[Any] = []
    try:
        futures = [
            client.submit(play_game, mode_id, code, depth, stop_at, prove, pure=False)
            for code in codes
        ]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures, loop=client.loop):
            done(index[future.key], future.result())
    finally:
        if futures:
            client.cancel(futures, force=True)  # ctrl+c: nothing left queued on the cluster
        client.close()
