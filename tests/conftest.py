"""Suite-wide fixtures: no test ever touches the real player's data, every test reads English.

The conventions every test here follows (the README's "Test" section says the same):

- an app or other ``async`` test is an ``async def`` test function; pytest-asyncio runs it
  (``asyncio_mode = "auto"`` in pyproject.toml), one event loop per test; it waits on a
  condition (tests/waiting.py), never on a fixed sleep;
- ``twofold_home`` (a fresh TWOFOLD_HOME) and ``english`` (the language and its variables)
  are autouse: a test asks for ``twofold_home`` by name only when it needs the path;
- the suite sees twofold's own modes only, whatever plugins the developer has installed
  (``TWOFOLD_NO_PLUGINS=1``, in the suite and every process it starts): a test registers
  the plugins it plays (``plugins.load(extra)``); one that loads entry points beyond
  twofold's own (its own fakes, or what is installed) asks for ``other_entry_points``;
- a test that takes seconds of its own is marked ``slow``; tests/browser marks its own
  tests ``browser`` (and keeps them on one xdist worker);
- the suite runs on several processes (``make test``: pytest-xdist), in any order: a test
  owns its files (``tmp_path``), its ports (port 0) and any module state it changes
  (``monkeypatch``); ``--order reversed`` and ``--order random:SEED`` run it in another
  order to show that.
"""

from __future__ import annotations

import gc
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.waiting import record_notifications
from twofold.core import _i18n as i18n
from twofold.core import plugins

#: ``TWOFOLD_TESTS=thorough``: ten times the hypothesis examples and the fuzzed files
THOROUGH = os.environ.get("TWOFOLD_TESTS", "") == "thorough"

# A busy machine must not fail a property: no per-example deadline, no "too slow to generate".
settings.register_profile("twofold", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", settings.get_profile("twofold"), max_examples=1000)
settings.load_profile("thorough" if THOROUGH else "twofold")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--order",
        default="collected",
        metavar="collected|reversed|random:SEED",
        help="run the tests in collection order, reversed, or shuffled by an integer seed "
        "(the same seed gives the same order, on every xdist worker)",
    )


def shuffle_seed(order: str) -> int | None:
    """The seed of ``random:SEED``; None for the other orders; UsageError for a bad one."""
    if order in ("collected", "reversed"):
        return None
    kind, _, seed = order.partition(":")
    if kind != "random" or not seed.strip().lstrip("-").isdigit():
        raise pytest.UsageError(
            f"--order {order!r}: use collected, reversed or random:SEED (SEED an integer)"
        )
    return int(seed)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--order``: the same tests in another order (each xdist worker computes the same)."""
    order = config.getoption("order")
    seed = shuffle_seed(order)
    if order == "reversed":
        items.reverse()
    elif seed is not None:
        # the files in a shuffled order, and the tests of each file shuffled: a file's tests
        # stay together, so a module fixture (the browser tests' server) starts once
        rng = random.Random(seed)
        files: dict[Path, list[pytest.Item]] = {}
        for item in items:
            files.setdefault(item.path, []).append(item)
        groups = list(files.values())
        rng.shuffle(groups)
        for group in groups:
            rng.shuffle(group)
        items[:] = [item for group in groups for item in group]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Collect garbage less often than Python's default: an app test makes some 100,000
    objects, and the default (a pass every 700) spent a quarter of its time collecting;
    what every test imported is frozen out of the collector's way for good."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker's end is its own. pytest collects garbage five times after the worker has
    reported; on a busy machine, over the heap of a few hundred app tests, that outlasted the
    five seconds execnet gives a worker before it sends it SIGINT, and the KeyboardInterrupt
    landed in hypothesis's gc callback (a PytestUnraisableExceptionWarning after make test).
    So the garbage is collected now, before the report, what lives is frozen, and the
    worker, its results sent, lets SIGINT go by (its controller still takes a ctrl+c)."""
    if not hasattr(session.config, "workerinput"):
        return
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def pytest_report_header(config: pytest.Config) -> str | None:
    order = config.getoption("order")
    return None if order == "collected" else f"test order: {order}"


def pytest_configure(config: pytest.Config) -> None:
    """English everywhere, whatever the machine's locale or the player's stored language:
    strings made at import time, every test, and every subprocess a test starts."""
    shuffle_seed(config.getoption("order"))  # a bad --order stops the run before collection
    for variable in i18n.LANGUAGE_VARIABLES:
        os.environ.pop(variable, None)
    os.environ["LANG"] = "C.UTF-8"
    i18n.set_language("en")
    # twofold's own modes only, before any test module asks for the registry at import
    os.environ[plugins.DISABLE_VARIABLE] = "1"


@pytest.fixture(autouse=True)
def twofold_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty TWOFOLD_HOME for every test."""
    home = tmp_path / "twofold-home"
    home.mkdir()
    monkeypatch.setenv("TWOFOLD_HOME", str(home))
    monkeypatch.setenv(plugins.DISABLE_VARIABLE, "1")  # whatever a test before it set
    plugins.reset()
    yield home
    plugins.reset()


@pytest.fixture
def other_entry_points(twofold_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """For a test that loads entry points beyond twofold's own, its own fakes or every
    plugin installed: ``TWOFOLD_NO_PLUGINS`` is off for it."""
    monkeypatch.delenv(plugins.DISABLE_VARIABLE, raising=False)


@pytest.fixture(autouse=True)
def notifications(monkeypatch: pytest.MonkeyPatch) -> None:
    """What an app is told to show is kept for the test: ``tests.waiting.notifications``."""
    record_notifications(monkeypatch)


@pytest.fixture(autouse=True)
def english(twofold_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts and ends in English, whatever the machine's locale or a test set."""
    for variable in i18n.LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    i18n.set_language("en")
    yield
    i18n.set_language("en")
