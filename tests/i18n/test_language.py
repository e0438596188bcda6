"""Which language twofold speaks: the setting, else the environment, else English."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from twofold.core import _i18n as i18n
from twofold.core._i18n import _
from twofold.core.settings import Settings
from twofold.core.store import open_store
from twofold.ui.command import argparse_language


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT"}, "de"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "de_CH.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, "de"),
        ({"LANGUAGE": "en:de", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_MESSAGES": "de_DE@euro"}, "de"),
    ],
)
def test_the_environment_names_the_language(environ: dict[str, str], expected: str) -> None:
    assert i18n.environment_language(environ) == expected


def test_the_setting_comes_before_the_environment() -> None:
    assert i18n.resolve_language("de", {"LANG": "en_US.UTF-8"}) == "de"
    assert i18n.resolve_language("en", {"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.resolve_language("", {"LANG": "de_DE.UTF-8"}) == "de"
    # a language without a catalog falls back to the environment, then English
    assert i18n.resolve_language("xx", {"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.resolve_language("xx", {}) == "en"


def test_set_language_switches_every_string() -> None:
    assert _("Quit") == "Quit"
    assert i18n.set_language("de") == "de"
    assert i18n.current_language() == "de"
    assert _("Quit") == "Ende"
    assert i18n.ngettext("{count} day", "{count} days", 1) == "{count} Tag"
    assert i18n.ngettext("{count} day", "{count} days", 3) == "{count} Tage"
    assert i18n.pgettext("key", "space") == "Leertaste"
    assert i18n.set_language("en") == "en"
    assert _("Quit") == "Quit"


def test_no_language_means_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.set_language(None) == "de"
    assert _("Settings") == "Einstellungen"


def test_the_stored_setting_is_read_without_opening_the_store() -> None:
    assert i18n.stored_language() == ""
    store = open_store()
    store.save_settings(Settings(language="de"))
    store.close()
    assert i18n.stored_language() == "de"


def test_the_first_translation_uses_the_stored_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store()
    store.save_settings(Settings(language="de"))
    store.close()
    # private: i18n's first translation is lazy, and only forgetting it makes it first again
    monkeypatch.setattr(i18n, "_translation", None)
    assert _("Help") == "Hilfe"


def test_a_damaged_database_leaves_the_environment_in_charge(
    twofold_home: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from twofold.core.store import DB_NAME
    from twofold.core.store.files import data_dir

    (data_dir() / DB_NAME).write_bytes(b"not a database at all" * 100)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    # private: as above, the lazy first translation made again
    monkeypatch.setattr(i18n, "_translation", None)
    assert i18n.stored_language() == ""
    assert _("Help") == "Hilfe"
    # and the file is left for the store to deal with
    assert (data_dir() / DB_NAME).read_bytes().startswith(b"not a database")


def test_retranslate_brings_fixed_strings_into_the_current_language() -> None:
    english = _("New game")
    i18n.set_language("de")
    german = _("New game")
    assert i18n.retranslate(english) == "Neues Spiel"
    i18n.set_language("en")
    assert i18n.retranslate(german) == "New game"
    assert i18n.retranslate("no such message") == "no such message"
    assert i18n.retranslate("") == ""


def test_untranslated_messages_are_noted() -> None:
    i18n.set_language("de")
    _("Quit")
    _("a message no catalog has")
    assert i18n.missing() == {"a message no catalog has"}
    i18n.set_language("en")
    _("another message no catalog has")
    assert i18n.missing() == frozenset()


def test_argparse_speaks_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    argparse_language.install()  # what the command line does first (twofold.ui.command.cli.main)
    i18n.set_language("de")
    parser = argparse.ArgumentParser(prog="demo")
    parser.add_argument("count", type=int)
    help_text = parser.format_help()
    assert help_text.startswith("Aufruf: demo")
    assert "Positionsargumente" in help_text
    assert "diese Hilfe zeigen und beenden" in help_text
    with pytest.raises(SystemExit):
        parser.parse_args(["x"])
    assert "ungültiger int-Wert" in capsys.readouterr().err
    i18n.set_language("en")
    assert parser.format_help().startswith("usage: demo")


def test_languages_are_named_in_their_own_words() -> None:
    assert i18n.available_languages() == ["en", "de"]
    assert i18n.language_name("de") == "Deutsch"
    assert i18n.language_name("en") == "English"


def test_a_plugin_brings_its_own_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="de", domain="myplugin")
    catalog.add("Fibonacci Daily", "Fibonacci des Tages")
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "myplugin.mo").open("wb") as file:
        write_mo(file, catalog)
    # private: the process's plugin domains, emptied for this test alone (no public reset)
    monkeypatch.setattr(i18n, "_domains", {})
    i18n.add_domain("myplugin", tmp_path / "locale")
    i18n.set_language("de")
    assert _("Fibonacci Daily") == "Fibonacci des Tages"
    assert _("Quit") == "Ende"
    assert i18n.missing() == frozenset()
    i18n.set_language("en")
    assert _("Fibonacci Daily") == "Fibonacci Daily"


def test_a_translation_remembers_its_english_even_when_two_share_a_word() -> None:
    i18n.set_language("de")
    undo, back = _("Undo"), _("Back")
    assert undo == back == "Zurück"
    i18n.set_language("en")
    assert (i18n.retranslate(undo), i18n.retranslate(back)) == ("Undo", "Back")
    assert _(undo) == "Undo"
    # formatting gives a plain string, and a copy forgets the msgid
    assert type(_("Score {score}").format(score=3)) is str
    import copy
    import pickle

    assert type(copy.copy(undo)) is str
    assert pickle.loads(pickle.dumps(undo)) == "Zurück"
