"""What ``import-demo`` says about a file it can't import: an empty file is not called
"1 malformed line(s)" (nor sent to --skip-bad), and a Background that names only a time of
day is not called missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_demo

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n\n", "## branch after 0\n"])
def test_a_file_without_turns_says_so_and_does_not_suggest_skip_bad(project: Project, tmp_path: Path,
                                                                     text: str) -> None:
    demo = tmp_path / "story.txt"
    demo.write_text(text)
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert "holds no turns" in caught.value.message
    assert "malformed" not in caught.value.message
    assert "--skip-bad" not in caught.value.hint
    assert "Character:" in caught.value.hint
    assert len(project.tree.nodes) == 1, "nothing imported"


def test_the_cli_names_an_empty_file_and_makes_no_project(tmp_path: Path) -> None:
    demo = tmp_path / "empty.txt"
    demo.write_text("")
    target = tmp_path / "story.kamishibai"
    done = subprocess.run([sys.executable, "-m", "studio", "import-demo", str(demo), "--project", str(target)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "holds no turns" in done.stderr
    assert "malformed" not in done.stderr and "--skip-bad" not in done.stderr
    assert "Traceback" not in done.stderr
    assert not target.exists()


@pytest.mark.parametrize("background", ["night", "Night.", "sunset"])
def test_a_background_of_only_a_time_of_day_is_named_not_called_missing(project: Project, tmp_path: Path,
                                                                         background: str) -> None:
    demo = tmp_path / "story.txt"
    demo.write_text(f"Character: Qiqi; Motion: jump; Background: {background}\n")
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    (number, reason), = caught.value.problems
    assert number == 1
    assert "missing" not in reason
    assert "only a time of day" in reason and "place" in reason
    assert len(project.tree.nodes) == 1


def test_a_background_with_a_place_still_imports(project: Project, tmp_path: Path) -> None:
    demo = tmp_path / "story.txt"
    demo.write_text("Character: Qiqi; Motion: jump; Background: night town\n"
                    "Character: Qiqi; Motion: run\n")
    with pytest.raises(DemoImportError) as caught:
        import_demo(project, demo)
    assert caught.value.problems == [(2, "missing 'Background:' in 'Character: Qiqi; Motion: run'")]
    result = import_demo(project, demo, skip_bad=True)
    assert project.tree.node(result.node_ids[0]).instruction.background == "town"
