"""twofold.testing, the plugin authors' test kit, run over every built-in and example mode.

This is what a plugin author's own test does (``check_mode(mode)``), and twofold holds
its own games to it too; the kit is also checked to catch what it promises to catch.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.core.toy import TALLY
from tests.guide import guide_text
from twofold.core._events import Fell, Merged
from twofold.core._presentation import Gauge, Statistic
from twofold.core._rules import Outcome
from twofold.testing import (
    check_events,
    check_fields,
    check_mode,
    check_no_foreign_words,
    check_registers,
    check_undo_never_rerolls,
)

from .test_contract import REGISTRY


@pytest.mark.parametrize("mode_id", sorted(REGISTRY.modes))
def test_every_mode_keeps_the_whole_contract(mode_id: str) -> None:
    check_mode(REGISTRY.mode(mode_id), actions=120)


# -- the kit catches what it says it catches -------------------------------------------------


class Adding(type(TALLY.rules)):  # type: ignore[misc]
    """The tally as a slide mode: every direction adds."""

    def parse(self, text: str) -> str:
        return "undo" if text.strip().lower() in ("u", "undo") else "add"


class Misdrawing(Adding):
    def apply(self, state: Any, action: str) -> Outcome:
        outcome = super().apply(state, action)
        return Outcome(outcome.state, (Fell((0, 0), (0, 0), 2),))


class Rerolling(Adding):
    """Each apply takes the next number of a counter kept outside the state: a reroll."""

    calls = 0

    def apply(self, state: Any, action: str) -> Outcome:
        Rerolling.calls += 1
        outcome = super().apply(replace(state, draws=Rerolling.calls), action)
        return Outcome(outcome.state, (Merged((0, 0), max(1, outcome.state.value)),))


@pytest.mark.parametrize(
    ("check", "mode", "fragment"),
    [
        (check_events, replace(TALLY, rules=Misdrawing()), "lands on its own cell"),
        (check_undo_never_rerolls, replace(TALLY, rules=Rerolling()), "undo rerolled"),
        (check_events, replace(TALLY, rules=Adding()), None),
        (check_fields, replace(TALLY, statistics=(Statistic("spins", "Spins"),)), "'spins'"),
        (check_fields, replace(TALLY, gauges=(Gauge("spins", "Spins"),)), "gets no value"),
        (check_no_foreign_words, replace(TALLY, help="Like 2048, only smaller."), "2048"),
        (check_registers, replace(TALLY, id="two words"), "not usable"),
    ],
)
def test_the_kit_fails_a_mode_that_breaks_the_contract(
    check: Any, mode: Any, fragment: str | None
) -> None:
    if fragment is None:
        check(mode)  # the tally as it is keeps this part of the contract
        return
    with pytest.raises(AssertionError, match=fragment):
        check(mode)


def test_every_public_name_of_the_kit_is_in_the_plugin_docs() -> None:
    import twofold.testing

    docs = guide_text()
    assert [name for name in twofold.testing.__all__ if f"`{name}" not in docs] == []
    # each is importable from the package itself, whichever of its modules holds it
    assert [name for name in twofold.testing.__all__ if name not in vars(twofold.testing)] == []


def test_the_kit_fails_a_mode_the_app_reports_an_error_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from twofold.testing import check_in_the_app
    from twofold.ui.app.app import TwofoldApp

    mounted = TwofoldApp.on_mount

    def complaining(self: TwofoldApp) -> None:
        mounted(self)
        self.notify("the mode broke", severity="error")

    monkeypatch.setattr(TwofoldApp, "on_mount", complaining)
    with pytest.raises(AssertionError, match=r"the app says .*the mode broke"):
        check_in_the_app(REGISTRY.mode("2048"))
