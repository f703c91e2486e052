"""`kamishibai export` of a branch whose clip files are missing or damaged said "Re-roll the
turn to make its clip again" (the window's words), leaving the user to find the turn's node id,
the command, and that a re-roll of a turn that later turns follow keeps its new take beside the
chosen one. It names each turn's commands now (`reroll`, and `use` of the new take where later
turns follow), with this project, and those commands, run as given, make the export work."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main


def _project(tmp_path: Path, capsys: pytest.CaptureFixture[str], turns: int) -> tuple[Path, list[dict]]:
    demo = tmp_path / "demo.txt"
    lines = [f"Character: Qiqi; Motion: {motion}; Background: day park." for motion in ("run", "jump", "sleep", "wave")]
    demo.write_text("\n".join(lines[:turns]) + "\n", encoding="utf-8")
    project = tmp_path / "my story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    assert main(["fill", str(project), "--run", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    nodes = [n for n in json.loads(capsys.readouterr().out)["nodes"] if n["parent"] is not None]
    return project, nodes


def _clip(node: dict) -> Path:
    take = next(t for t in node["takes"] if t["id"] == node["selected_take"])
    return Path(take["clip"])


def _hint(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    return next(line for line in err.splitlines() if line.startswith("  hint: "))


def _commands(hint: str) -> list[list[str]]:
    return [shlex.split(part)[1:] for part in hint.split("`")[1::2]]


def test_a_missing_clip_names_its_reroll_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, nodes = _project(tmp_path, capsys, turns=3)
    _clip(nodes[1]).unlink()
    out = tmp_path / "episode.mp4"
    assert main(["export", str(project), "--out", str(out)]) == EXIT_BAD_INPUT
    hint = _hint(capsys)
    quoted = shlex.quote(str(project))
    node = nodes[1]["id"]
    assert f"`kamishibai reroll {quoted} {node}` then `kamishibai use {quoted} {node} latest`" in hint
    assert "out of date" in hint
    assert "Re-roll the turn" not in hint, "the window's words are replaced, not repeated"
    for command in _commands(hint):
        assert main(command) == 0
    capsys.readouterr()
    assert main(["export", str(project), "--out", str(out), "--quiet"]) == 0
    assert out.stat().st_size > 0


def test_damaged_clips_name_every_command_and_the_media_folder(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    project, nodes = _project(tmp_path, capsys, turns=4)
    for node in (nodes[0], nodes[2], nodes[3]):
        _clip(node).write_bytes(b"not a video")
    out = tmp_path / "episode.mp4"
    assert main(["export", str(project), "--out", str(out)]) == EXIT_BAD_INPUT
    hint = _hint(capsys)
    named = [command[-1] for command in _commands(hint) if command[0] == "reroll"]
    assert named == [nodes[0]["id"], nodes[2]["id"], nodes[3]["id"]], hint
    used = [command[-2] for command in _commands(hint) if command[0] == "use"]
    assert used == [nodes[0]["id"], nodes[2]["id"]], "the last turn's new take is chosen by the re-roll itself"
    assert "media folder" in hint
    for command in _commands(hint):
        assert main(command) == 0
    capsys.readouterr()
    assert main(["export", str(project), "--out", str(out), "--quiet"]) == 0


def test_more_lost_clips_than_commands_shown_are_named_by_node(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    project, nodes = _project(tmp_path, capsys, turns=4)
    for node in nodes:
        _clip(node).unlink()
    # a video: subtitles and sheets are made without the lost clips (test_qa42_missing_clip_still_...)
    assert main(["export", str(project), "--out", str(tmp_path / "episode.mp4")]) == EXIT_BAD_INPUT
    hint = _hint(capsys)
    assert [command[-1] for command in _commands(hint) if command[0] == "reroll"] == [n["id"] for n in nodes[:3]]
    assert f"the same for node {nodes[3]['id']}" in hint, hint


def test_use_latest_chooses_the_newest_take(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a take number can also start another take's id ('2' of 202a904d8a): `use NODE 2` is refused
    # then, and a script that has just re-rolled a turn can't know the new id without reading it
    project, nodes = _project(tmp_path, capsys, turns=2)
    first = nodes[0]["id"]
    for _ in range(2):
        assert main(["reroll", str(project), first, "--json"]) == 0
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    node = next(n for n in json.loads(capsys.readouterr().out)["nodes"] if n["id"] == first)
    newest = node["takes"][-1]["id"]
    assert main(["use", str(project), first, "LATEST"]) == 0
    assert f"uses take {newest} (take 3 of 3)" in capsys.readouterr().out
