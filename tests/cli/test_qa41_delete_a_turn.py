"""`kamishibai delete` removes a turn with its takes, as Delete in the window does (the same
document command): the turns below go only with --branch, it asks first unless --yes, the
story's start and unknown ids are refused, the takes' files go with them, and a project the
window holds is refused before anything is asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stop_midway import interrupt_once_said  # tests/ is on sys.path

from studio.storage import Project
from studio.storage.unused_media import UNUSED_TAKE_MIN_AGE_S

TURNS = ("Qiqi walks in the park", "Qiqi jumps in the park", "Qiqi sits in the park")


def kamishibai(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)


@pytest.fixture
def story(tmp_path: Path) -> Path:
    """Three turns in one branch, each with a take."""
    project = tmp_path / "s.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", *TURNS)
    assert played.returncode == 0, played.stderr
    return project


def _turns(project: Path) -> list[str]:
    """The turns' ids, top to bottom."""
    with Project.open(project, read_only=True) as opened:
        tree = opened.tree
        return [node.id for node in tree.descendants(tree.root_id)]


def _take_folders(project: Path) -> set[str]:
    return {entry.name for entry in (project / "media" / "takes").iterdir()}


def _takes_of(project: Path, node_ids: list[str]) -> set[str]:
    with Project.open(project, read_only=True) as opened:
        return {take.id for node_id in node_ids for take in opened.tree.takes_of(node_id)}


def test_a_turn_with_turns_below_needs_branch_and_an_answer(story: Path) -> None:
    first, second, third = _turns(story)
    folders = _take_folders(story)

    refused = kamishibai("delete", str(story), second, "--yes")
    assert refused.returncode == 2
    assert "has 1 turn below it" in refused.stderr and f"kamishibai delete {story} {second} --branch" in \
        refused.stderr, refused.stderr
    no_answer = kamishibai("delete", str(story), second, "--branch")  # standard input closed
    assert no_answer.returncode == 2 and "no answer came" in no_answer.stderr, no_answer.stderr
    declined = kamishibai("delete", str(story), second, "--branch", stdin="n\n")
    assert declined.returncode == 2
    assert "Delete turn 2 (" in declined.stderr and "and the 1 turn below it, with 2 takes?" in declined.stderr
    assert _turns(story) == [first, second, third] and _take_folders(story) == folders

    gone = _takes_of(story, [second, third])
    deleted = kamishibai("delete", str(story), second, "--branch", stdin="y\n")
    assert deleted.returncode == 0, deleted.stderr
    assert f"deleted turn 2 ({second}) and the 1 turn below it, with 2 takes" in deleted.stdout
    assert _turns(story) == [first]
    assert _take_folders(story) == folders - gone, "the deleted takes' files go with them"
    info = kamishibai("info", str(story))  # the clip left is whole, read back
    assert info.returncode == 0 and "1 clip checked, all sound" in info.stdout, info.stdout


def test_a_last_turn_is_deleted_at_once_with_yes(story: Path) -> None:
    first, second, third = _turns(story)
    its_takes = _takes_of(story, [third])
    deleted = kamishibai("delete", str(story), third[:6], "--yes", "--json")
    assert deleted.returncode == 0, deleted.stderr
    report = json.loads(deleted.stdout)
    assert report["deleted"] == third and report["turn"] == 3 and report["turns_below"] == []
    assert set(report["takes"]) == its_takes and len(its_takes) == 1
    assert _turns(story) == [first, second]


def test_the_start_an_unknown_id_and_a_take_id_are_refused(story: Path) -> None:
    turns = _turns(story)
    start = kamishibai("delete", str(story), "start", "--yes")
    assert start.returncode == 2 and "The story's start can't be deleted" in start.stderr, start.stderr
    unknown = kamishibai("delete", str(story), "zz99", "--yes")
    assert unknown.returncode == 2 and "No node 'zz99' in this project." in unknown.stderr
    take = sorted(_takes_of(story, [turns[2]]))[0]
    a_take = kamishibai("delete", str(story), take, "--yes")
    assert a_take.returncode == 2 and f"is the id of a take of turn {turns[2]}" in a_take.stderr, a_take.stderr
    assert _turns(story) == turns


def test_a_project_held_by_the_window_is_refused_before_asking(story: Path) -> None:
    turns = _turns(story)
    with Project.open(story):  # as the window holds it
        asked = kamishibai("delete", str(story), turns[2], "--wait", "0", stdin="y\n")
        at_once = kamishibai("delete", str(story), turns[2], "--yes", "--wait", "0")
    for refused in (asked, at_once):
        assert refused.returncode == 2
        assert "is being changed by" in refused.stderr, refused.stderr
        assert "[y/N]" not in refused.stderr
    assert _turns(story) == turns


def test_ctrl_c_at_the_question_deletes_nothing(story: Path) -> None:
    turns = _turns(story)
    running = subprocess.Popen([sys.executable, "-m", "studio", "delete", str(story), turns[1], "--branch"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    assert interrupt_once_said(running, b"[y/N]") == 130
    assert _turns(story) == turns


def test_ctrl_c_after_the_delete_leaves_the_files_to_the_next_opening(story: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.cli import main

    first, second, third = _turns(story)
    gone = _takes_of(story, [third])

    def stopped(_project: Project, _take_id: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Project, "remove_take_media", stopped)
    assert main(["delete", str(story), third, "--yes"]) == 130
    assert _turns(story) == [first, second], "the delete was stored"
    assert gone <= _take_folders(story)
    monkeypatch.undo()
    old = time.time() - UNUSED_TAKE_MIN_AGE_S - 60  # a later day: a take folder just written is left alone
    for take_id in gone:
        folder = story / "media" / "takes" / take_id
        for file in [*folder.iterdir(), folder]:
            os.utime(file, (old, old))
    with Project.open(story):  # the next opening for writing removes the files no take names
        pass
    assert not gone & _take_folders(story)


def test_queued_generations_of_deleted_turns_are_named_and_never_run(tmp_path: Path) -> None:
    project = tmp_path / "q.kamishibai"
    story = tmp_path / "q.txt"
    story.write_text("Qiqi walks\nQiqi runs\nQiqi sits\n")
    assert kamishibai("new", str(project)).returncode == 0
    assert kamishibai("import-demo", str(story), "--project", str(project)).returncode == 0
    assert kamishibai("fill", str(project)).returncode == 0
    first, second, third = _turns(project)
    jobs = {job["node"]: job["id"] for job in json.loads(kamishibai("queue", str(project), "--json").stdout)}
    deleted = kamishibai("delete", str(project), second, "--branch", "--yes")
    assert deleted.returncode == 0, deleted.stderr
    (said,) = [line for line in deleted.stdout.splitlines() if "queued generation" in line]
    assert said.strip().startswith("2 queued generations of these turns never run: the queue cancels them"), said
    assert jobs[second] in said and jobs[third] in said and jobs[first] not in said
    assert kamishibai("run-queue", str(project), "-q").returncode == 0
    after = {job["id"]: job["status"] for job in json.loads(kamishibai("queue", str(project), "--all",
                                                                        "--json").stdout)}
    assert after == {jobs[first]: "done", jobs[second]: "cancelled", jobs[third]: "cancelled"}
