"""Code, tests, config and docs say the reason itself, never "issue N" or "SPEC N": a reader
of the repository has neither the issue tracker nor the spec."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = re.compile(r"\b(issue|Issue|issues) [0-9]+\b|\bSPEC (§ ?|section )?[0-9]+")
#: the files a reader reads as the project's own words (CHANGELOG.md is history, left as is)
TRACKED = ["*.py", "*.c", "*.toml", "*.json", "*.yml", "Makefile", ".ci/*", "docs/*.md"]


def tracked_files() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", *TRACKED],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        pytest.skip("not a git checkout (an sdist): nothing to list")
    return listed


def test_no_file_cites_an_issue_number_or_a_spec_section() -> None:
    found = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the work tree, not yet in the index
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if REFERENCE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:80]}")
    assert not found, "say the reason instead:\n" + "\n".join(found)
