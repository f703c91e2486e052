"""The README and docs/ link to files that exist: the README's reference material moved into
docs/EXPORT.md, docs/CLI.md and docs/INSTRUCTIONS.md, whose links are relative to docs/; a
link left pointing at the old place (or at a page not written) would lead nowhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_relative_link_leads_to_a_file() -> None:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = [f"{page.relative_to(ROOT)}: {target}" for page in pages
              for target in LINK.findall(page.read_text(encoding="utf-8"))
              if "://" not in target and not (page.parent / target).exists()]
    assert not broken, broken


def test_the_readme_links_the_reference_pages() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("docs/EXPORT.md", "docs/CLI.md", "docs/INSTRUCTIONS.md", "CHANGELOG.md"):
        assert f"]({page})" in readme, page
