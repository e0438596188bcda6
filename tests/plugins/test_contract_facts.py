"""The contract states each fact once: the members of Rules, the names of each kind,
and no field twofold never reads without a warning."""

from __future__ import annotations

import warnings
from typing import Any, get_args

import pytest
import twofold_chainsum
import twofold_fibonacci

from tests.core.toy import TALLY, TallyRules
from twofold.core import plugins
from twofold.core._presentation import (
    AGGREGATES,
    COMMAND_ARGUMENTS,
    POWERUP_TARGETS,
    Aggregate,
    CommandArguments,
    PowerUpTarget,
)
from twofold.core._rules import CONTROLS, PLACES, RULES_MEMBERS, Controls, Mode, Place, Rules
from twofold.plugin import hookimpl

#: the Rules protocol as the plugin guide lists it
DOCUMENTED_MEMBERS = (
    "undo_depth",
    "new_game",
    "from_position",
    "parse",
    "apply",
    "undo",
    "is_over",
    "report",
    "announce",
    "read_board",
    "render_text",
    "stats",
)


def without(member: str) -> object:
    """Tally rules lacking one member of the protocol."""

    class Lacking:
        pass

    rules = TallyRules()
    lacking = Lacking()
    for name in DOCUMENTED_MEMBERS:
        if name != member:
            setattr(lacking, name, getattr(rules, name))
    return lacking


def test_rules_is_runtime_checkable_like_state() -> None:
    every = [mode.rules for mode in plugins.load().modes.values()]  # twofold's own
    assert len(every) >= 2
    every.append(TallyRules())
    for module in (twofold_fibonacci, twofold_chainsum):
        found: list[Mode] = []
        module.twofold_register_modes(register=found.append)
        every += [mode.rules for mode in found]
    assert all(isinstance(rules, Rules) for rules in every)
    assert not isinstance(object(), Rules)
    assert not isinstance(without("stats"), Rules)


def test_the_members_a_mode_needs_are_read_off_the_protocol() -> None:
    assert RULES_MEMBERS == DOCUMENTED_MEMBERS
    assert plugins.RULES_MEMBERS is RULES_MEMBERS


@pytest.mark.parametrize("member", DOCUMENTED_MEMBERS)
def test_rules_without_a_member_are_refused_by_name(member: str) -> None:
    lacking = without(member)
    assert not isinstance(lacking, Rules)

    class Plugin:
        @hookimpl
        def twofold_register_modes(self, register: Any) -> None:
            register(Mode(id="lacking", title="Lacking", rules=lacking))  # type: ignore[arg-type]

    registry = plugins.load([("lacking", Plugin())], entry_points_=[])
    [problem] = registry.problems
    assert "lacking" not in registry.modes
    assert problem.reason.endswith(f"has rules without {member}; skipped")


def test_each_list_of_names_is_its_literal() -> None:
    assert CONTROLS == get_args(Controls) == ("slide", "chain", "place")
    assert PLACES == get_args(Place) == ("cell", "column")
    assert get_args(CommandArguments) == COMMAND_ARGUMENTS
    assert get_args(Aggregate) == AGGREGATES
    assert get_args(PowerUpTarget) == POWERUP_TARGETS


class WithExtras:
    """A plugin written against the docs before extras was deprecated."""

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        register(Mode(id="extras", title="Extras", rules=TallyRules(), extras={"colour": "teal"}))


def test_a_plugin_passing_extras_is_warned_and_still_works() -> None:
    with pytest.warns(DeprecationWarning, match=r"Mode\.extras is deprecated.*Mode\.rules") as seen:
        registry = plugins.load([("extras", WithExtras())], entry_points_=[])
    # the warning points at the plugin's own Mode(...) call
    assert seen[0].filename == __file__
    assert registry.problems == []
    mode = registry.mode("extras")
    assert mode.extras == {"colour": "teal"}
    outcome = mode.rules.apply(mode.rules.new_game("KAF3Q0D0"), "add")
    assert outcome.changed


def test_a_mode_without_extras_warns_of_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mode = Mode(id="plain", title="Plain", rules=TallyRules())
    assert mode.extras == {} and TALLY.extras == {}
    with pytest.raises(TypeError):
        mode.extras["colour"] = "teal"  # type: ignore[index]
