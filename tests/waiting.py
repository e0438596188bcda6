"""Waiting on a condition, never on a fixed sleep (a busy machine is slow): in an app test
(``until``), or on processes, servers and pages outside one (``wait_until``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey  # private: in no public Textual module

#: generous: the machine is shared, and a worker or a timer may be late (waiting longer
#: costs nothing where the condition comes)
WAIT_SECONDS = 45.0


async def until(
    pilot: Pilot[Any], condition: Callable[[], object], *, what: str = "", seconds: float = 0
) -> None:
    """Let the app run until ``condition()`` is true; fail saying ``what`` if it never is."""
    deadline = time.monotonic() + (seconds or WAIT_SECONDS)
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds or WAIT_SECONDS} s for {what or condition}")
        await pilot.pause(0.02)


async def footer_drawn(pilot: Pilot[Any], screen: Screen[Any] | None = None) -> None:
    """Wait for the footer keys of ``screen`` (the current one if None): Textual draws them
    after a refresh, and a key pressed or a snapshot taken sooner finds the footer empty."""
    await until(
        pilot,
        lambda: bool((screen or pilot.app.screen).query(FooterKey)),
        what="the footer's keys",
    )


def wait_until(check: Callable[[], Any], timeout: float = WAIT_SECONDS, step: float = 0.05) -> Any:
    """``check()`` once it is true, or its last false value after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def palette_options(pilot: Pilot[Any]) -> list[str]:
    """What the open command palette lists now (its search runs in a worker)."""
    found = pilot.app.screen.query(OptionList)
    if not found:
        return []
    options = found.first()
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def palette_lists(pilot: Pilot[Any], words: str) -> None:
    """Wait until the open command palette's list shows ``words``."""
    await until(
        pilot,
        lambda: any(words in option for option in palette_options(pilot)),
        what=f"{words!r} in the command palette",
    )


@dataclass(frozen=True)
class Told:
    """One notification an app was asked to show."""

    message: str
    title: str = ""
    severity: str = "information"


#: every notification each app was asked to show, in order (an expired one stays)
_TOLD: WeakKeyDictionary[App[Any], list[Told]] = WeakKeyDictionary()


def record_notifications(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep what every app is told through ``App.notify``, Textual's public way in (the
    suite's autouse fixture does this); :func:`notifications` reads it."""
    notify = App.notify

    def recording(self: App[Any], message: str, *, title: str = "", **options: Any) -> None:
        told = Told(str(message), str(title), str(options.get("severity", "information")))
        _TOLD.setdefault(self, []).append(told)
        notify(self, message, title=title, **options)

    monkeypatch.setattr(App, "notify", recording)


def notifications(app: App[Any]) -> list[Told]:
    """What ``app`` has been told to show so far."""
    return list(_TOLD.get(app, ()))


def notices(app: App[Any]) -> list[str]:
    """The messages of :func:`notifications`."""
    return [told.message for told in notifications(app)]
