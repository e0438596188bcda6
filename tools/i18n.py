"""Catalog tooling (Babel): extract the player-visible strings, update and compile catalogs.

    python tools/i18n.py extract      # core/locale/twofold.pot from the source (babel.cfg)
    python tools/i18n.py update       # extract, then merge the template into every .po
    python tools/i18n.py init LANG    # start a new language's .po from the template
    python tools/i18n.py compile      # every .po -> its .mo (committed beside it)
    python tools/i18n.py check        # everything above is current and complete, or exit 1

The compiled ``.mo`` files are committed beside their ``.po`` files so an installed
twofold needs no Babel; ``tests/i18n`` fails when either is out of date.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "core" / "locale"
DOMAIN = "twofold"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
MAPPING = ROOT / "babel.cfg"
COMMENT_TAGS = ("Translators:",)
#: Babel's usual keywords, plus ``Nn_(singular, plural)`` and ``Np_(context, message)``:
#: marked for the catalog, translated later
KEYWORDS = {**DEFAULT_KEYWORDS, "Nn_": (1, 2), "Np_": ((1, "c"), 2)}
#: {name}, {name!r}, {0:>3} for str.format; %(name)s, %s, %r for %-formatting
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]+\)[a-z]|%[a-z]")

AUTHORS = "the twofold authors"
HEADER = (
    "# {what} for twofold.\n# This file is distributed under the same license as twofold (MIT).\n#"
)

MessageId = str | tuple[str, ...]


def extract_python_and_fstrings(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Iterable[str],
    options: dict[str, Any],
) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's Python extractor, plus ``_()`` calls inside f-strings, which its
    tokenizer reads as one string on Python 3.11 (``f"# {_('Help')}"``)."""
    data = fileobj.read()
    yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)
    try:
        tree = ast.parse(data)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for call in ast.walk(node):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            if call.func.id not in keywords or not call.args:
                continue
            messages = tuple(
                arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                for arg in call.args
            )
            yield call.lineno, call.func.id, messages[0] if len(messages) == 1 else messages, []


def extract() -> Catalog:
    """A template catalog of every string marked in the source babel.cfg names."""
    with MAPPING.open(encoding="utf-8") as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    method_map = [
        (pattern, extract_python_and_fstrings if method == "python" else method)
        for pattern, method in method_map
    ]
    catalog = Catalog(
        project=DOMAIN,
        domain=DOMAIN,
        header_comment=HEADER.format(what="Translations template"),
        copyright_holder=AUTHORS,
        charset="utf-8",
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT,
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    ):
        catalog.add(
            message,
            None,
            [(filename, lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


MessageKey = tuple[MessageId, str | None]


def message_keys(catalog: Catalog) -> set[MessageKey]:
    """Every (msgid, context) of a catalog, leaving out the header."""
    return {(message.id, message.context) for message in catalog if message.id}


def po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=DOMAIN)


def write_catalog(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    # no line numbers, so an edit elsewhere in a file does not touch every catalog
    write_po(buffer, catalog, width=96, sort_output=True, include_lineno=False)
    data = buffer.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def write_template() -> Catalog:
    template = extract()
    if TEMPLATE.exists():
        # keep the old creation date when nothing changed, so the file does not churn
        old = read_catalog(TEMPLATE)
        if _entries(old) == _entries(template):
            template.creation_date = old.creation_date
    write_catalog(TEMPLATE, template)
    return template


def _entries(catalog: Catalog) -> list[tuple[MessageKey, list[str]]]:
    return sorted(
        (((m.id, m.context), sorted({f for f, _ in m.locations})) for m in catalog if m.id),
        key=lambda entry: str(entry[0]),
    )


def update() -> None:
    template = write_template()
    for path in po_files():
        catalog = read_catalog(path, locale=path.parent.parent.name)
        catalog.update(template, update_creation_date=False)
        write_catalog(path, catalog)


def init(language: str) -> Path:
    template = write_template()
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        raise SystemExit(f"{path} exists; use update")
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        project=DOMAIN,
        header_comment=HEADER.format(what=f"Translations ({language})"),
        copyright_holder=AUTHORS,
        last_translator=AUTHORS,
        language_team=AUTHORS,
        charset="utf-8",
        fuzzy=False,
    )
    catalog.update(template)
    write_catalog(path, catalog)
    return path


def compiled(path: Path) -> bytes:
    """The .mo bytes for the .po at ``path`` (fuzzy entries left out, as gettext does)."""
    catalog = read_catalog(path, locale=path.parent.parent.name)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> list[Path]:
    written = []
    for path in po_files():
        mo = path.with_suffix(".mo")
        data = compiled(path)
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            written.append(mo)
    return written


# -- checks (used by tests/i18n) -----------------------------------------------------------


def placeholders(text: str) -> list[str]:
    """The format fields of a message, sorted; translations must keep exactly these."""
    return sorted(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def _texts(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def translation_problems(catalog: Catalog, wanted: Iterable[MessageKey]) -> list[str]:
    """What is missing, untranslated, fuzzy or has wrong placeholders in ``catalog``."""
    problems = []
    language = catalog.locale_identifier or "?"
    for msgid, context in sorted(wanted, key=str):
        message: Message | None = catalog.get(msgid, context=context)
        key = msgid if isinstance(msgid, str) else msgid[0]
        if context:
            key = f"{context}|{key}"
        if message is None:
            problems.append(f"{language}: missing {key!r}")
            continue
        strings = _texts(message.string)
        if not strings or not all(strings):
            problems.append(f"{language}: untranslated {key!r}")
        elif message.fuzzy:
            problems.append(f"{language}: fuzzy {key!r}")
        else:
            expected = placeholders(msgid if isinstance(msgid, str) else msgid[0])
            for text in strings:
                if placeholders(text) != expected and not (
                    # a singular may say "one" instead of its number
                    isinstance(msgid, tuple) and set(placeholders(text)) <= set(expected)
                ):
                    problems.append(
                        f"{language}: {key!r} has {placeholders(text)}, wants {expected}"
                    )
    return problems


def mo_matches(path: Path) -> bool:
    """Whether the committed .mo beside ``path`` holds what the .po says."""
    mo = path.with_suffix(".mo")
    if not mo.exists():
        return False
    with mo.open("rb") as file:
        committed = read_mo(file)
    with io.BytesIO(compiled(path)) as file:
        fresh = read_mo(file)
    return _mo_messages(committed) == _mo_messages(fresh)


def _mo_messages(catalog: Catalog) -> dict[tuple[object, str | None], object]:
    def frozen(value: object) -> object:
        return tuple(value) if isinstance(value, list) else value

    return {(frozen(m.id), m.context): frozen(m.string) for m in catalog if m.id}


def check() -> list[str]:
    template = extract()
    wanted = message_keys(template)
    problems = []
    if not TEMPLATE.exists() or message_keys(read_catalog(TEMPLATE)) != wanted:
        problems.append(f"{TEMPLATE.relative_to(ROOT)} is out of date: run tools/i18n.py update")
    for path in po_files():
        catalog = read_catalog(path, locale=path.parent.parent.name)
        problems.extend(translation_problems(catalog, wanted))
        if not mo_matches(path):
            problems.append(f"{path.with_suffix('.mo').relative_to(ROOT)} is out of date")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="twofold's translation catalogs")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract")
    commands.add_parser("update")
    commands.add_parser("compile")
    commands.add_parser("check")
    init_parser = commands.add_parser("init")
    init_parser.add_argument("language")
    args = parser.parse_args(argv)
    if args.command == "extract":
        template = write_template()
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(message_keys(template))} messages")
    elif args.command == "update":
        update()
        print("updated", ", ".join(str(p.relative_to(ROOT)) for p in po_files()))
    elif args.command == "init":
        print("created", init(args.language).relative_to(ROOT))
    elif args.command == "compile":
        for mo in compile_all():
            print("compiled", mo.relative_to(ROOT))
    else:
        problems = check()
        for problem in problems:
            print(problem)
        if problems:
            return 1
        print("catalogs are current and complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
