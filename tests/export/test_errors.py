"""Bad input and failures: clear ExportErrors, no partial output, the project untouched."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from studio.core import AddTurn, SelectTake
from studio.engines.base import Cancelled, Progress
from studio.export import ExportError, ExportOptions, export_branch, export_task
from studio.storage.ffmpeg import FrameEncoder

from .helpers import Fixture, project_fingerprint, stored_content, video_facts

REPO = Path(__file__).resolve().parents[2]


def leftovers(folder: Path) -> list[str]:
    """Everything in ``folder`` except the fixture project."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".kamishibai"))


def test_leaf_at_the_root_is_an_empty_branch(story: Fixture, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no turns"):
        export_branch(story.project, story.root, tmp_path / "e.mp4")
    assert leftovers(tmp_path) == []


def test_project_without_turns(tmp_path: Path) -> None:
    from studio.storage import Project

    with Project.create(tmp_path / "empty") as project, pytest.raises(ExportError, match="no turns"):
        export_branch(project, project.tree.root_id, tmp_path / "e.pdf")


def test_unknown_node(story: Fixture, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="nope"):
        export_branch(story.project, "nope", tmp_path / "e.mp4")


def test_turn_without_a_take_names_the_node(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(AddTurn(story.leaf, "Motion: sleep.", node_id="ungenerated"))
    with pytest.raises(ExportError, match="ungenerated") as info:
        export_branch(story.project, "ungenerated", tmp_path / "e.mp4")
    assert "turn 4" in str(info.value)
    story.project.apply(SelectTake(story.nodes[1], None))
    with pytest.raises(ExportError, match=story.nodes[1]):
        export_branch(story.project, story.leaf, tmp_path / "e.srt")
    assert leftovers(tmp_path) == []


def test_missing_clip_names_the_node(story: Fixture, tmp_path: Path) -> None:
    take = story.project.tree.selected_take(story.nodes[1])
    assert take is not None
    story.project.resolve(take.clip_path).unlink()
    for name in ("e.mp4", "e.otio"):  # a sheet is made without it (test_qa42_missing_clip_still_gives_...)
        with pytest.raises(ExportError, match=story.nodes[1]) as info:
            export_branch(story.project, story.leaf, tmp_path / name)
        assert "missing" in str(info.value)
    assert leftovers(tmp_path) == []


def test_unreadable_clip_names_the_node(story: Fixture, tmp_path: Path) -> None:
    take = story.project.tree.selected_take(story.nodes[2])
    assert take is not None
    story.project.resolve(take.clip_path).write_bytes(b"not a video at all")
    with pytest.raises(ExportError, match=story.nodes[2]):
        export_branch(story.project, story.leaf, tmp_path / "e.mp4")
    assert leftovers(tmp_path) == []


def test_a_cut_short_clip_in_a_png_sheet_is_one_sentence(story: Fixture, tmp_path: Path) -> None:
    """QA: without its poster, a sheet reads the clip's first frame; a clip cut short said
    "... frames can be read.." (the reader's sentence, then the sheet's period)."""
    take = story.project.tree.selected_take(story.nodes[1])
    assert take is not None
    assert take.poster_path
    story.project.resolve(take.poster_path).unlink()
    clip = story.project.resolve(take.clip_path)
    data = clip.read_bytes()
    clip.write_bytes(data[: len(data) * 2 // 3])
    for name in ("e.png", "e.pdf"):
        with pytest.raises(ExportError, match=story.nodes[1]) as info:
            export_branch(story.project, story.leaf, tmp_path / name)
        message = info.value.message
        assert "is cut short" in message and message.endswith("can be read."), message
        assert ".." not in message, message
    assert leftovers(tmp_path) == []


def test_bad_options_and_names(story: Fixture, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="format"):
        export_branch(story.project, story.leaf, tmp_path / "e.doc")
    with pytest.raises(ExportError, match="Unknown export format"):
        export_branch(story.project, story.leaf, tmp_path / "e.mp4", fmt="avi")
    with pytest.raises(ExportError, match="crossfade"):
        export_branch(story.project, story.leaf, tmp_path / "e.mp4", options=ExportOptions(crossfade=1.0))
    with pytest.raises(ExportError, match="even"):
        export_branch(story.project, story.leaf, tmp_path / "e.mp4", options=ExportOptions(size=(101, 64)))
    with pytest.raises(ExportError):
        ExportOptions(panels_per_page=4)
    with pytest.raises(ExportError):
        ExportOptions(size=(4, 4))
    assert leftovers(tmp_path) == []


def test_destination_folder_missing_or_a_file(story: Fixture, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        export_branch(story.project, story.leaf, tmp_path / "nowhere" / "e.mp4")
    (tmp_path / "plain").write_text("x")
    with pytest.raises(ExportError, match="not a folder"):
        export_branch(story.project, story.leaf, tmp_path / "plain" / "e.mp4")
    (tmp_path / "taken.mp4").mkdir()
    with pytest.raises(ExportError, match="folder of that name"):
        export_branch(story.project, story.leaf, tmp_path / "taken.mp4")


def _run_isolated(script: str, *, drop_root_powers: bool = False, fsize_limit: int | None = None) -> str:
    """Run ``script`` in a fresh interpreter; returns its stdout."""
    prefix = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {str(REPO)!r})

        def limit_file_size():
            limit = {fsize_limit!r}
            if limit:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    """)
    command = [sys.executable, "-c", prefix + textwrap.dedent(script)]
    if drop_root_powers:
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return done.stdout


EXPORT_SCRIPT = """
    from studio.storage import Project
    from studio.export import ExportError, ExportOptions, export_branch
    project = Project.open({project!r}, read_only=True)
    limit_file_size()  # after opening: SQLite's index file must not hit the limit
    try:
        export_branch(project, {leaf!r}, {out!r}, options=ExportOptions({options}))
        print("OK")
    except ExportError as error:
        print("ExportError:", error)
    finally:
        project.close()
"""


def test_read_only_destination(story: Fixture, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        script = EXPORT_SCRIPT.format(project=str(story.project.path), leaf=story.leaf,
                                      out=str(locked / "e.mp4"), options="overlay=True")
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                pytest.skip("running as root without setpriv: a read-only folder can't be simulated")
            output = _run_isolated(script, drop_root_powers=True)
        else:
            output = _run_isolated(script)
        assert output.startswith("ExportError: Can't write to"), output
        assert "Permission denied" in output or "permission" in output.lower()
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


def test_disk_full_mid_export_leaves_nothing(story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = project_fingerprint(story.project)
    real_write = FrameEncoder.write
    calls = {"n": 0}

    def failing_write(self: FrameEncoder, frame: object) -> None:
        calls["n"] += 1
        if calls["n"] > 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(self, frame)  # type: ignore[arg-type]

    monkeypatch.setattr(FrameEncoder, "write", failing_write)
    with pytest.raises(ExportError, match="disk is full"):
        export_branch(story.project, story.leaf, tmp_path / "full.mp4", options=ExportOptions(overlay=True))
    assert calls["n"] == 6
    assert leftovers(tmp_path) == []
    assert project_fingerprint(story.project) == before


def test_file_size_limit_in_a_real_process(story: Fixture, tmp_path: Path) -> None:
    """ffmpeg itself hits the limit (RLIMIT_FSIZE, as on a nearly full disk)."""
    before = stored_content(story.project.path)
    out = tmp_path / "big.mp4"
    script = EXPORT_SCRIPT.format(project=str(story.project.path), leaf=story.leaf, out=str(out),
                                  options="size=(640, 480), overlay=True, title='Big', crf=0")
    output = _run_isolated(script, fsize_limit=4_000)
    assert output.startswith("ExportError: A file-size limit (ulimit -f) was reached"), output
    assert "ulimit -f unlimited" in output, "the hint says how to raise the limit"
    assert leftovers(tmp_path) == []
    assert stored_content(story.project.path) == before


@pytest.mark.parametrize("options", [ExportOptions(), ExportOptions(overlay=True)], ids=["copy", "encode"])
def test_cancel_leaves_nothing(story: Fixture, tmp_path: Path, options: ExportOptions) -> None:
    seen: list[Progress] = []

    def cancelled() -> bool:
        return len(seen) >= 2

    with pytest.raises(Cancelled):
        export_branch(story.project, story.leaf, tmp_path / "c.mp4", options=options, progress=seen.append,
                      cancelled=cancelled)
    assert leftovers(tmp_path) == []


def test_keyboard_interrupt_leaves_nothing(story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: FrameEncoder, frame: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(FrameEncoder, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        export_branch(story.project, story.leaf, tmp_path / "k.webm")
    assert leftovers(tmp_path) == []


def test_failed_export_keeps_an_existing_file(story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "keep.mp4"
    export_branch(story.project, story.leaf, out)
    data = out.read_bytes()

    def failing(self: FrameEncoder, frame: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FrameEncoder, "write", failing)
    with pytest.raises(ExportError):
        export_branch(story.project, story.leaf, out, options=ExportOptions(overlay=True))
    assert out.read_bytes() == data
    assert leftovers(tmp_path) == ["keep.mp4"]


def test_exports_never_modify_the_project(story: Fixture, tmp_path: Path) -> None:
    before = project_fingerprint(story.project)
    for name, options in [("a.mp4", ExportOptions()), ("b.mp4", ExportOptions(overlay=True, crossfade=0.25)),
                          ("c.pdf", ExportOptions()), ("d.png", ExportOptions()), ("e.srt", ExportOptions()),
                          ("f.otio", ExportOptions()), ("g.gif", ExportOptions())]:
        export_branch(story.project, story.leaf, tmp_path / name, options=options)
    assert project_fingerprint(story.project) == before
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir()), "no work folders left"


def test_export_task_runs_on_a_worker_thread(story: Fixture, tmp_path: Path) -> None:
    job = export_task(story.project, story.leaf, tmp_path / "t.mp4", ExportOptions(overlay=True))
    results: list[object] = []
    progress: list[Progress] = []
    thread = threading.Thread(target=lambda: results.append(job(progress.append, lambda: False)))
    thread.start()
    thread.join(60)
    assert results and results[0].used_stream_copy is False  # type: ignore[attr-defined]
    assert video_facts(tmp_path / "t.mp4").frames == sum(story.frames)
    assert progress and progress[-1].step == progress[-1].total


def test_export_task_checks_the_branch_up_front(story: Fixture, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no turns"):
        export_task(story.project, story.root, tmp_path / "t.mp4", ExportOptions())
