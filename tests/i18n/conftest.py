"""Every test here starts and ends in English, whatever the machine's locale says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from twofold.core import i18n


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for variable in i18n.LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    i18n.set_language("en")
    yield
    i18n.set_language("en")
