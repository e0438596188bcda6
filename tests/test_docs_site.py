"""The docs build as a site with no warning (mkdocs build --strict, as make docs and CI do)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None,
    reason="the docs extra is not installed (make test installs it; CI runs make docs)",
)
def test_the_docs_build_strictly(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=170,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    reference = tmp_path / "plugins" / "reference"
    api = "".join(
        (reference / page / "index.html").read_text(encoding="utf-8") for page in ("api", "mode")
    )
    for name in ("CONTRACT_VERSION", "check_stones", "value_words", "Verdict", "cascade"):
        assert name in api, f"the reference has no {name}"
    # every field, from its docstring: Mode's, Outcome's, Hint's, Verdict's; every check
    for said in ("seconds of play after which the game ends", "the state after the action",
                 "the suggested command", "why the last cell cannot join", "check_proof",
                 "check_environment", "check_masks", "check_reachable", "RulesBase"):  # fmt: skip
        assert said in api, f"the reference does not say {said!r}"
