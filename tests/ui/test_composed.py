"""The app's screens are composed of parts, not mixed from them (issue 32): no class of the
app has two or more twofold bases, so no part shares a screen's ``self``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import twofold.ui.app


def test_no_class_of_the_app_is_built_from_two_twofold_classes() -> None:
    mixed = []
    for module in pkgutil.walk_packages(twofold.ui.app.__path__, "twofold.ui.app."):
        for name, cls in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            ours = [b for b in cls.__bases__ if b.__module__.startswith("twofold.")]
            if cls.__module__ == module.name and len(ours) >= 2:
                mixed.append(f"{module.name}.{name}({', '.join(b.__name__ for b in ours)})")
    assert mixed == []
