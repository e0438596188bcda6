"""The app's terminal: it must be there to start, and its going away ends the app, saved.

``twofold`` and ``twofold play MODE`` draw on a terminal (Textual reads keys from stdin and
draws on stderr). Started with none, as from a script or a pipe, they say in one line to
use a line mode instead (exit status 2), rather than wait for keys that never come.

Once running, the terminal can go away under the app: its window is closed (a hangup), or
its stdin reaches its end (a served page's server is gone). The app then saves every game
and exits, rather than spin on a dead terminal holding its seat. A hangup is not always
signalled to the app (``make play``: make takes the SIGHUP and waits for its child), so the
app also looks at stdin a few times a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from twofold.core._i18n import _

#: the exit status of ``twofold`` started with no terminal, as for any usage mistake
NO_TERMINAL = 2
#: the exit status when the terminal went away (128 + SIGHUP, as a shell reports a hangup)
HUNG_UP = 129
#: how often stdin is looked at, in seconds
WATCH_SECONDS = 0.2
#: how long the app may take to end normally once saved, before the process just ends
EXIT_GRACE_SECONDS = 1.0
#: stdin's state when its terminal (or pipe) is gone: hung up, failed, or closed
GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


def missing_terminal() -> str | None:
    """The line to say when the app cannot run here for want of a terminal, or None."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return None  # a page of ``twofold serve``: its driver talks to the server, not a tty
    for name, stream in (("stdin", sys.stdin), ("stderr", sys.stderr)):
        if stream is None or not _isatty(stream):
            return "twofold: " + _(
                "the app needs a terminal, and {stream} is not one; for pipes, scripts and "
                "screen readers use a line mode: twofold play MODE --plain (or --json)"
            ).format(stream=name)
    return None


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or not a file
        return False


def stdin_gone(poller: Any) -> bool:
    """Whether stdin has hung up, failed or been closed (``poller`` watches fd 0)."""
    try:
        return any(events & GONE for _fd, events in poller.poll(0))
    except OSError:
        return True


def watch(app: Any, on_gone: Callable[[], None]) -> None:
    """Call ``on_gone`` once, on the app's loop, when its terminal goes away.

    Call it from the running app (its ``on_mount``); a headless app (tests) is not watched.
    """
    if app.is_headless:
        return
    called = False

    def gone() -> None:
        nonlocal called
        if not called:
            called = True
            on_gone()

    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, gone)
    try:
        descriptor = sys.__stdin__.fileno() if sys.__stdin__ is not None else 0
        poller = select.poll()
        poller.register(descriptor, select.POLLHUP)
    except (AttributeError, ValueError, OSError):
        return

    def look() -> None:
        if stdin_gone(poller):
            gone()

    app.set_interval(WATCH_SECONDS, look)


def end_soon(status: int = HUNG_UP) -> None:
    """End the process after EXIT_GRACE_SECONDS if the app has not ended by then.

    Once the games are saved, the app ends normally; but restoring a dead terminal can
    block on its writes, and nothing must keep the process (and its seat) alive.
    """
    timer = threading.Timer(EXIT_GRACE_SECONDS, os._exit, (status,))
    timer.daemon = True
    timer.start()
