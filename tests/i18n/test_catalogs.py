"""The catalogs hold every player-visible string, translated, and compiled as committed.

Extraction reads the source the way ``tools/i18n.py`` does (Babel, ``babel.cfg``); a
string wrapped in ``_()`` anywhere in core, ui or variants that a catalog lacks fails here.
"""

from __future__ import annotations

import gettext

import pytest

from tools import i18n as tooling
from twofold.core import _i18n as i18n


@pytest.fixture(scope="module")
def template() -> tooling.Catalog:
    return tooling.extract()


def test_the_template_is_current(template: tooling.Catalog) -> None:
    committed = tooling.message_keys(tooling.read_catalog(tooling.TEMPLATE))
    extracted = tooling.message_keys(template)
    assert sorted(map(str, extracted - committed)) == [], "run: python tools/i18n.py update"
    assert sorted(map(str, committed - extracted)) == [], "run: python tools/i18n.py update"


def test_there_is_a_second_language() -> None:
    assert "de" in i18n.available_languages()
    assert [p.parent.parent.name for p in tooling.po_files()] == ["de"]


@pytest.mark.parametrize("po", tooling.po_files(), ids=lambda p: p.parent.parent.name)
def test_every_string_is_translated(po: tooling.Path, template: tooling.Catalog) -> None:
    catalog = tooling.read_catalog(po, locale=po.parent.parent.name)
    problems = tooling.translation_problems(catalog, tooling.message_keys(template))
    assert problems == []


@pytest.mark.parametrize("po", tooling.po_files(), ids=lambda p: p.parent.parent.name)
def test_the_compiled_catalog_matches_its_source(po: tooling.Path) -> None:
    assert tooling.mo_matches(po), "run: python tools/i18n.py compile"


def test_the_compiled_catalog_loads_with_gettext() -> None:
    translation = gettext.translation(
        i18n.DOMAIN, localedir=i18n.LOCALE_DIR, languages=["de"], fallback=False
    )
    assert translation.gettext("Quit") == "Ende"
    assert translation.ngettext("{count} day", "{count} days", 2) == "{count} Tage"
    assert translation.pgettext("key", "space") != "space"


def test_placeholders_are_compared() -> None:
    assert tooling.placeholders("{a} and {b!r} at {c:>3} 100%% %(x)s %s") == sorted(
        ["{a}", "{b!r}", "{c:>3}", "%(x)s", "%s"]
    )
    assert tooling.placeholders("{{literal}}") == []
