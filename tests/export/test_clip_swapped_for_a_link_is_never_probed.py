"""Export reads each clip of the branch twice: first to learn its frames, size and rate (the
probe, and before it a check that this user may read it), then to make the video. The second
read went through the file opened without following a link; the first opened the clip by its
path, so a clip swapped for a link to a file outside the project after the branch was
collected had that file read by ffmpeg (and its permissions checked) before the export
stopped. Both reads now open the clip the same way: such a link is refused, naming the turn,
and the file outside is never handed to ffmpeg."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.export import ExportError, ExportOptions
from studio.export import plan as export_plan
from studio.export.api import export_task
from studio.export.branch import collect_branch
from studio.storage.ffmpeg import StreamInfo
from studio.storage.media import write_clip
from tests.user_limits import as_a_user

from .helpers import FPS, FRAMES, SIZE, Fixture, clip_frames

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A sound clip outside the project: were it read, the export would go on with it."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    write_clip(folder / "secret.mp4", clip_frames((250, 130, 10), FRAMES, SIZE), FPS)
    return folder / "secret.mp4"


def _clip_of(story: Fixture, turn: int) -> Path:
    take = story.project.tree.selected_take(story.nodes[turn])
    assert take is not None
    return story.project.path / take.clip_path


def _swap_for_link(path: Path, target: Path) -> None:
    path.unlink()
    os.symlink(target, path)


def _recording_probe(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files export's probe reads from now on (each name ffmpeg is given, resolved)."""
    read: list[Path] = []
    probe = export_plan.probe

    def recorded(path: Path) -> StreamInfo:
        read.append(Path(os.path.realpath(path)))
        return probe(path)

    monkeypatch.setattr(export_plan, "probe", recorded)
    return read


@pytest.mark.parametrize("fmt", ["mp4", "srt"])
def test_a_clip_swapped_for_a_link_is_refused_before_it_is_probed(story: Fixture, tmp_path: Path, outside: Path,
                                                                    monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    out = tmp_path / "out" / f"episode.{fmt}"
    out.parent.mkdir()
    job = export_task(story.project, story.leaf, out, ExportOptions())  # the branch is collected (checked) here
    read = _recording_probe(monkeypatch)
    _swap_for_link(_clip_of(story, 1), outside)
    with pytest.raises(ExportError) as raised:
        job(lambda _progress: None, lambda: False)
    message = raised.value.message
    assert f"turn 2 (node {story.nodes[1]}" in message and "link to a file outside the project" in message, message
    assert raised.value.remake == (story.nodes[1],)
    assert outside.resolve() not in read, "the file outside the project was handed to ffmpeg"
    if fmt == "mp4":  # (a text export reads the studio's own clips' lengths from their index, not ffmpeg)
        assert _clip_of(story, 0).resolve() in read, "the other turns' clips were probed"
    assert list(out.parent.iterdir()) == []


def test_the_probe_reads_the_opened_file_not_the_path(story: Fixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: an intact branch is probed as before, each clip through the file opened
    from the project folder (a name of the descriptor, which reaches that very file)."""
    read = _recording_probe(monkeypatch)
    branch = collect_branch(story.project, story.leaf)
    names: list[str] = []
    probe = export_plan.probe

    def named(path: Path) -> StreamInfo:
        names.append(str(path))
        return probe(path)

    monkeypatch.setattr(export_plan, "probe", named)
    infos = [export_plan._probe_turn(turn) for turn in branch.turns]
    assert all(isinstance(info, StreamInfo) and info.frames == FRAMES for info in infos), infos
    assert read == [turn.clip.resolve() for turn in branch.turns]
    assert not set(names) & {str(turn.clip) for turn in branch.turns}, names


CHECK_AFTER_SWAP = """
import json, os, sys
from pathlib import Path
from studio.export import ExportError
from studio.export.branch import collect_branch
from studio.export.errors import clip_permission_error
from studio.export.plan import _probe_turn
from studio.storage import Project

project_path, leaf, secret = sys.argv[1:]
with Project.open(Path(project_path), read_only=True) as project:
    turn = collect_branch(project, leaf).turns[1]
os.unlink(turn.clip)
os.symlink(secret, turn.clip)
denied = clip_permission_error(turn.clip, turn.label, turn.media_root, turn.clip_rel)
refused = _probe_turn(turn)
print(json.dumps({"denied": denied.message if denied else None,
                  "refused": refused.message if isinstance(refused, ExportError) else None,
                  "hint": refused.hint if isinstance(refused, ExportError) else None}))
"""


def test_the_permission_check_does_not_follow_a_link_swapped_in(story: Fixture, tmp_path: Path) -> None:
    """The check that this user may read the clip opens it as the probe does: a link to a
    file in a folder this user may not enter is not followed (that said "no permission" and
    hinted at a chmod of a folder outside the project); the probe then refuses the link."""
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "clip.mp4").write_bytes(b"")
    project = str(story.project.path)
    story.project.close()
    blocked.chmod(0)
    try:
        done = subprocess.run(as_a_user([sys.executable, "-c", CHECK_AFTER_SWAP, project, story.leaf,
                                         str(blocked / "clip.mp4")]),
                              capture_output=True, text=True, timeout=120, cwd=REPO)
    finally:
        blocked.chmod(0o755)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["denied"] is None, said
    assert said["refused"] and "turn 2" in said["refused"], said
    assert "link to a file outside the project" in said["refused"] and "chmod" not in said["hint"], said
