"""An episode one frame long (a single turn whose duration is 0.1 s, at 8 fps) was summed up
as "1 frames"."""

from __future__ import annotations

from pathlib import Path

from studio.core import SetDuration
from studio.export import export_branch
from studio.storage import Project

from .helpers import COLOURS, add_turn


def test_a_one_frame_episode_says_1_frame(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "blink", name="Blink")
    try:
        turn = add_turn(project, project.tree.root_id, "Character: Qiqi; Motion: jump; Background: day town.",
                        COLOURS[0])
        project.apply(SetDuration(turn, 0.1))
        result = export_branch(project, turn, tmp_path / "blink.srt")
    finally:
        project.close()
    assert result.frames == 1
    assert ", 1 frame;" in result.summary(), result.summary()
