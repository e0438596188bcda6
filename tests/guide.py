"""The plugin guide, docs/plugins/ (a site: make docs), read by the tests that keep it true."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "plugins"


def pages() -> list[Path]:
    """Every page of the guide, the overview first."""
    return [GUIDE / "index.md", *sorted(p for p in GUIDE.rglob("*.md") if p.name != "index.md")]


def guide_text() -> str:
    """The whole guide as one text, page after page."""
    return "\n\n".join(page.read_text(encoding="utf-8") for page in pages())
