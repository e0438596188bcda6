"""One served page's app process: it ends, saved, when the ``twofold serve`` that started it goes.

``twofold serve`` starts ``python -m twofold.ui.command.page_process --server PID --served-at
URL [play MODE/CODE]`` for each page (a command: it runs the command line, so the web server
starts it by name and never imports it). Before the app runs, this process asks to be stopped
when its server is gone, even by ``kill -9``: on Linux the kernel sends it SIGTERM the moment
its parent dies (``prctl(PR_SET_PDEATHSIG)``), and everywhere but Windows a watch notices
its parent change within :data:`WATCH_SECONDS`. SIGTERM reaches Textual's web driver, which
quits the app the way the page's closing does: the game is saved and its seat given back.
An app that has not ended :data:`GRACE_SECONDS` later is ended hard (its game was saved
after its last change anyway), so no page process outlives its server holding a seat.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence

from twofold.ui.app import links

#: prctl(2)'s option: the signal this process gets when its parent dies
PR_SET_PDEATHSIG = 1
#: how often the watch looks at this process's parent
WATCH_SECONDS = 0.5
#: how long a page's app may take to save and quit once its server is gone
GRACE_SECONDS = 10.0


def ask_for_parent_death_signal(signal_number: int) -> bool:
    """Have the kernel send ``signal_number`` when this process's parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal_number, 0, 0, 0)) == 0
    except (OSError, AttributeError):  # no libc with prctl: the watch alone does it
        return False


def watch_server(server: int, signalled: bool) -> None:
    """Wait until the parent is no longer ``server``; then stop this process, saved."""
    while os.getppid() == server:
        time.sleep(WATCH_SECONDS)
    if not signalled:
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(GRACE_SECONDS)
    os._exit(1)  # the app did not end in time: nobody can see it, and its game is saved


def end_with_server(server: int) -> bool:
    """Arrange for this process to end when ``server`` does; False if it already has."""
    if sys.platform == "win32":  # no parent changes to watch: the server's own stop ends it
        return True
    signalled = ask_for_parent_death_signal(signal.SIGTERM)
    if os.getppid() != server:  # gone before the request took hold: nobody to play for
        return False
    threading.Thread(target=watch_server, args=(server, signalled), daemon=True).start()
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="twofold.ui.command.page_process", add_help=False)
    parser.add_argument("--server", type=int, required=True)
    parser.add_argument("--served-at", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if not end_with_server(args.server):
        return 0
    os.environ[links.SERVED_AT] = args.served_at
    from twofold.ui.command.cli import main as twofold

    return twofold(args.command)


if __name__ == "__main__":
    sys.exit(main())
