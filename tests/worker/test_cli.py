"""The generation subcommands: play, reroll, queue, run-queue."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.media import probe
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake_cli(monkeypatch, script: FakeScript) -> FakeScript:
    import studio.composition as composition

    monkeypatch.setattr(composition, "default_registry", lambda: fake_registry(script, "sketch", "fake"))
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")  # the fake engines share the test's script
    return script


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    Project.create(tmp_path / "story").close()
    return tmp_path / "story.kamishibai"


def _json_out(capsys) -> object:  # type: ignore[no-untyped-def]
    return json.loads(capsys.readouterr().out)


def test_play_extends_the_last_created_turn(folder: Path, fake_cli: FakeScript, capsys) -> None:
    nodes = []
    for i in range(3):
        assert main(["play", str(folder), "--instruction", f"turn {i}", "--seed", str(10 + i), "--json"]) == 0
        out = _json_out(capsys)
        assert out["job_status"] == "done" and out["seed"] == 10 + i
        assert Path(out["clip"]).is_file()
        nodes.append(out["node"])
    with Project.open(folder) as project:
        tree = project.tree
        assert [n.id for n in tree.path_to(nodes[-1])][1:] == nodes
        assert tree.state_of(nodes[-1]).as_dict() == out["state"]
    # an explicit parent (by prefix) forks
    assert main(["play", str(folder), "-i", "fork", "--parent", nodes[0][:6], "--setting", "frames=2"]) == 0
    text = capsys.readouterr().out
    assert "take" in text and "clip" in text
    with Project.open(folder) as project:
        assert len(project.tree.children(nodes[0])) == 2


def test_play_with_several_instructions_adds_one_turn_each_in_order(folder: Path, fake_cli: FakeScript,
                                                                     capsys) -> None:
    assert main(["play", str(folder), "-i", "first", "-i", "second", "-i", "third", "--seed", "4", "--json"]) == 0
    results = _json_out(capsys)
    assert isinstance(results, list) and [r["instruction"] for r in results] == ["first", "second", "third"]
    assert all(r["job_status"] == "done" and r["seed"] == 4 for r in results)
    assert fake_cli.order() == ["first", "second", "third"] and fake_cli.loads == 1  # one engine load for all
    with Project.open(folder) as project:
        assert [n.id for n in project.tree.path_to(results[-1]["node"])][1:] == [r["node"] for r in results]
    # a failing turn stops the rest and is not kept; the turns before it stay
    fake_cli.calls.clear()
    assert main(["play", str(folder), "-i", "fourth", "-i", "oops [oom]", "-i", "never", "--json"]) == 1
    out = _json_out(capsys)
    assert [r["job_status"] for r in out] == ["done", "failed"] and fake_cli.order() == ["fourth", "oops [oom]"]
    with Project.open(folder) as project:
        texts = [n.instruction.raw for n in project.tree.path_to(out[0]["node"])][1:]
        assert texts == ["first", "second", "third", "fourth"] and not project.tree.children(out[0]["node"])
    # a wrongly written instruction is refused before any turn is generated
    fake_cli.calls.clear()
    for bad in ("", "Character: Qiqi; Character: Mei"):
        assert main(["play", str(folder), "-i", "fifth", "-i", bad, "--json"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and "Instruction 2 of 2: The instruction" in captured.err
        assert "Nothing was generated." in captured.err and fake_cli.order() == []
    with Project.open(folder) as project:
        assert not project.tree.children(out[0]["node"])


def test_play_leaves_the_rest_of_the_queue_alone(folder: Path, fake_cli: FakeScript, capsys) -> None:
    with Project.open(folder) as project:
        service = GenerationService(project, fake_registry(fake_cli, "sketch"), default_engine="sketch",
                                    hosts=HostMode.IN_PROCESS)
        _, queued = service.generate(project.tree.root_id, "queued before", priority=5)
    # a new branch (the queued turn has no take yet: a turn under it would wait for it)
    assert main(["play", str(folder), "-i", "now", "--parent", "root", "--json"]) == 0
    assert fake_cli.order() == ["now"]
    capsys.readouterr()
    assert main(["queue", str(folder), "--json"]) == 0
    jobs = _json_out(capsys)
    assert [(j["id"], j["status"]) for j in jobs] == [(queued, "queued")]
    assert main(["queue", str(folder), "--all", "--json"]) == 0
    assert len(_json_out(capsys)) == 2
    assert main(["queue", str(folder)]) == 0
    assert queued in capsys.readouterr().out


def test_play_failure_is_a_studio_error(folder: Path, fake_cli: FakeScript, capsys) -> None:
    assert main(["play", str(folder), "-i", "oops [oom]"]) == 1
    err = capsys.readouterr().err
    assert "out of memory" in err and "hint" in err
    assert main(["play", str(folder), "-i", "x", "--engine", "nope"]) == 2
    assert main(["play", str(folder), "-i", "x", "--setting", "novalue"]) == 2
    assert main(["play", str(folder), "-i", "x", "--parent", "zzzz"]) == 2


def test_reroll_and_reroll_branch(folder: Path, fake_cli: FakeScript, capsys) -> None:
    # fixed seeds: the fake engine's deltas follow the seed, and the re-roll's (seed 3) must
    # differ from the chosen take's (seed 1) for the check of the state printed to mean anything
    for text in ("a", "b", "c"):
        assert main(["play", str(folder), "-i", text, "--seed", "1", "--json"]) == 0
    capsys.readouterr()
    with Project.open(folder) as project:
        a, b, c = [n.id for n in sorted(project.tree.nodes.values(), key=lambda n: n.created_at)][1:]
    fake_cli.calls.clear()
    assert main(["reroll", str(folder), b[:5], "--seed", "3", "--json"]) == 0
    [result] = _json_out(capsys)
    assert result["node"] == b and result["seed"] == 3
    assert fake_cli.order() == ["b"]
    with Project.open(folder) as project:  # the state printed is where this take leads, chosen or not
        tree = project.tree
        take = tree.takes[result["take"]]
        assert result["state"] == tree.state_before(b).apply(take.deltas).as_dict()
        chosen = tree.selected_take(b)
        assert chosen is not None and chosen.id != take.id and take.deltas != chosen.deltas
    fake_cli.calls.clear()
    assert main(["reroll", str(folder), a, "--branch", "--json"]) == 0
    results = _json_out(capsys)
    assert [r["node"] for r in results] == [a, b, c]
    assert fake_cli.order() == ["a", "b", "c"]
    with Project.open(folder) as project:
        assert project.tree.takes[results[2]["take"]].parent_take_id == results[1]["take"]
        assert len(project.tree.takes_of(b)) == 3


def test_run_queue_runs_everything_and_reports(folder: Path, fake_cli: FakeScript, capsys) -> None:
    with Project.open(folder) as project:
        service = GenerationService(project, fake_registry(fake_cli, "sketch"), default_engine="sketch",
                                    hosts=HostMode.IN_PROCESS)
        root = project.tree.root_id
        ok = [service.generate(root, f"turn {i}")[1] for i in range(3)]
        _, bad = service.generate(root, "bad [fail]")
        with project.database.transaction() as conn:  # pretend a crash interrupted one
            conn.execute("UPDATE jobs SET status='interrupted' WHERE id=?", (ok[2],))
    assert main(["run-queue", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "2 done, 1 failed" in err and "told to fail" in err
    assert main(["run-queue", str(folder)]) == 1, "an interrupted job is left: the queue is not done"
    assert "--requeue-interrupted" in capsys.readouterr().err
    assert main(["run-queue", str(folder), "--requeue-interrupted", "--quiet"]) == 0
    with Project.open(folder) as project:
        service = GenerationService(project, fake_registry(fake_cli, "sketch"), hosts=HostMode.IN_PROCESS)
        statuses = {j.id: j.status for j in service.jobs(include_finished=True)}
    assert [statuses[j] for j in ok] == [JobStatus.DONE] * 3 and statuses[bad] is JobStatus.FAILED


# -- the sketch engine, end to end ------------------------------------------------------




def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300, check=False)


@pytest.mark.slow
def test_play_eight_turns_with_the_sketch_engine(tmp_path: Path) -> None:
    from studio.engines.sketch import SketchEngine

    caps = SketchEngine.info.capabilities
    made = _kamishibai("new", str(tmp_path / "story"))
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "story.kamishibai"
    instructions = [
        "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
        "Character: Qiqi; Motion: run; Background: forest.",
        "Character: Qiqi; Motion: wave hand happily; Background: day town.",
        "Character: Qiqi; Motion: jump; Background: sunset beach.",
        "Character: Qiqi; Motion: eat bread; Background: bakery.",
        "Character: Qiqi; Motion: sleep; Background: night room.",
        "Character: Qiqi; Motion: walk slowly; Background: night town.",
        "Character: Qiqi; Motion: dance; Background: day meadow.",
    ]
    results = []
    for i, text in enumerate(instructions):
        done = _kamishibai("play", str(folder), "--instruction", text, "--seed", str(i), "--json")
        assert done.returncode == 0, done.stderr
        results.append(json.loads(done.stdout))
    with Project.open(folder) as project:
        tree = project.tree
        leaf = results[-1]["node"]
        branch = [n.id for n in tree.path_to(leaf)][1:]
        assert branch == [r["node"] for r in results]
        for index, node_id in enumerate(branch):
            take = tree.selected_take(node_id)
            assert take is not None and take.engine == "sketch"
            assert project.missing_media(take) == []
            info = probe(project.resolve(take.clip_path))
            assert (info.frames, info.height, info.width) == (caps.default_frames, *caps.default_size)
            assert info.fps == pytest.approx(caps.default_fps)
            if index:
                assert take.parent_take_id == tree.node(branch[index - 1]).selected_take_id
            assert results[index]["state"] == tree.state_of(node_id).as_dict()
    # and a smaller size through --setting
    done = _kamishibai("play", str(folder), "-i", "Character: Qiqi; Motion: sit.", "--setting", "frames=5",
                       "--setting", "width=96", "--setting", "height=64", "--json")
    assert done.returncode == 0, done.stderr
    info = probe(Path(json.loads(done.stdout)["clip"]))
    assert (info.frames, info.height, info.width) == (5, 64, 96)


def test_play_prints_the_change_in_points_as_the_window_shows_it(tmp_path: Path, capsys) -> None:
    """'stamina 45 (-5)' after a start of 50, not the engine's step '(-1)'."""
    folder = tmp_path / "p.kamishibai"
    assert main(["new", str(folder)]) == 0
    capsys.readouterr()
    assert main(["play", str(folder), "-i", "Character: Qiqi; Motion: quickly run; Background: day park.",
                 "--setting", "frames=4", "--setting", "width=96", "--setting", "height=64"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("state"))
    with Project.open(folder) as project:
        tree = project.tree
        turn = tree.child_ids(tree.root_id)[0]
        before, after = tree.state_before(turn), tree.state_of(turn)
    for stat, said in (("stamina", "stamina"), ("social", "social"), ("entertainment", "fun")):  # the window's word
        change = getattr(after, stat) - getattr(before, stat)
        assert f"{said} {getattr(after, stat)} ({change:+d})" in line, line


def test_play_on_a_turn_without_a_take_says_so(folder: Path, fake_cli: FakeScript, capsys) -> None:
    from studio.core import AddTurn

    with Project.open(folder) as project:  # a turn whose generation never ran (a killed play)
        project.apply(AddTurn(project.tree.root_id, "Qiqi runs", node_id="bare"))
    assert main(["play", str(folder), "-i", "Qiqi dances", "--json"]) == 0
    captured = capsys.readouterr()
    assert "the turn continued, bare ('Qiqi runs'), has no finished take" in captured.err
    assert json.loads(captured.out)["job_status"] == "done"
    assert main(["play", str(folder), "-i", "Qiqi sleeps", "--json"]) == 0  # its parent has a take now
    assert "no finished take" not in capsys.readouterr().err


def test_play_interrupted_keeps_the_turns_it_finished_and_not_the_one_it_stopped(
        folder: Path, fake_cli: FakeScript, capsys, monkeypatch) -> None:
    import studio.cli.generate_cmds as generate_cmds

    real_run_now = generate_cmds._run_now
    calls = []

    def interrupted_on_the_second(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl+C while the second turn is being generated
        return real_run_now(*args, **kwargs)

    monkeypatch.setattr(generate_cmds, "_run_now", interrupted_on_the_second)
    assert main(["play", str(folder), "-i", "first", "-i", "second", "-i", "third"]) == 130
    err = capsys.readouterr().err
    assert "the turn being generated was stopped. (The new turn was not kept.)" in err, err
    with Project.open(folder) as project:
        turns = [n for n in project.tree.nodes.values() if n.id != project.tree.root_id]
        assert [n.instruction.raw for n in turns] == ["first"]
