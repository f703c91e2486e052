"""Every cast name of a Character field typed in another case is captioned as the cast spells
it, in the export (SRT, sheets, burned captions) and in the window's words for a turn (the
queue's rows, the branch comparison): "QIQI and YUZU" read "Qiqi and YUZU" in the export (only
the acting character was respelled) and "QIQI and YUZU" in the window."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from studio.core import AddCastMember, CastMember
from studio.export import export_branch
from studio.storage import Project
from studio.ui.episode.branch_compare import action_text
from studio.ui.job_labels import job_title

from .helpers import COLOURS, add_turn, parse_srt

TEXT = "Character: QIQI and YUZU; Motion: dance; Background: park."


def _story(tmp_path: Path) -> tuple[Project, str]:
    project = Project.create(tmp_path / "story", name="Shouted names")
    for name in ("Qiqi", "Yuzu"):
        project.apply(AddCastMember(CastMember(id=name.lower(), name=name)))
    node = add_turn(project, project.tree.root_id, TEXT, COLOURS[0])
    return project, node


def test_the_export_spells_both_names_as_the_cast_does(tmp_path: Path) -> None:
    project, node = _story(tmp_path)
    out = tmp_path / "episode.srt"
    export_branch(project, node, out)
    [(_start, _end, text)] = parse_srt(out.read_text(encoding="utf-8"))
    assert text == "Qiqi and Yuzu dance in the park."


def test_the_windows_words_for_the_turn_spell_both_names_as_the_cast_does(tmp_path: Path) -> None:
    project, node = _story(tmp_path)
    tree = project.tree
    assert action_text(tree, node) == "Qiqi and Yuzu dance in the park."
    job = SimpleNamespace(label="Generate", kind="generate", node_id=node, take_id="", status=None)
    assert job_title(job, tree) == "Generate turn 1 · Qiqi and Yuzu dance in the park."


def test_a_name_outside_the_cast_keeps_its_letters(tmp_path: Path) -> None:
    project, _node = _story(tmp_path)
    node = add_turn(project, project.tree.root_id, "Character: QIQI and HANA; Motion: dance; Background: park.",
                    COLOURS[1])
    assert action_text(project.tree, node) == "Qiqi and HANA dance in the park."
