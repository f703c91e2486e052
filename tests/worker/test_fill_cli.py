"""`fill`, `import-demo --generate` and the story commands (say, narrate, story) on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.media import probe

DEMO = """Character: Qiqi; Motion: run; Background: day town.
> Qiqi: I'm late!
Qiqi eats bread slowly in the bakery at night
## branch after 1
Character: Yuzu; Motion: wave; Background: day street.
"""


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO)
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "story")]) == 0
    return tmp_path / "story.kamishibai"


def _jobs(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["queue", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_fill_queues_every_turn_without_a_take_parents_first_once(imported: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with Project.open(imported, read_only=True) as project:
        tree = project.tree
        first = tree.child_ids(tree.root_id)[0]
        free, yuzu = tree.child_ids(first)
    assert main(["fill", str(imported), "--leaf", free[:6]]) == 0
    assert "queued 2 turns without a take" in capsys.readouterr().out
    jobs = _jobs(imported, capsys)
    assert [j["node"] for j in jobs] == [first, free]
    assert jobs[1]["depends_on"] == jobs[0]["id"]  # the child waits for its parent
    assert main(["fill", str(imported)]) == 0  # every branch: only Yuzu's turn is new
    assert "queued 1 turn without a take" in capsys.readouterr().out
    jobs = _jobs(imported, capsys)
    assert [j["node"] for j in jobs] == [first, free, yuzu]
    assert jobs[2]["depends_on"] == jobs[0]["id"]
    assert main(["run-queue", str(imported), "--quiet"]) == 0
    assert main(["fill", str(imported)]) == 0
    assert "nothing to queue" in capsys.readouterr().out
    with Project.open(imported, read_only=True) as project:
        for node_id in (first, free, yuzu):
            take = project.tree.selected_take(node_id)
            assert take is not None and probe(project.resolve(take.clip_path)).frames > 0


def test_import_demo_generate_makes_every_clip_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO)
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "new"), "--generate", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "line 3: free text (no field names)" in out and "generating 3 turn(s)" in out
    with Project.open(tmp_path / "new.kamishibai", read_only=True) as project:
        turns = [n for n in project.tree.nodes.values() if not n.is_root]
        assert len(turns) == 3
        for node in turns:
            take = project.tree.selected_take(node.id)
            assert take is not None and project.resolve(take.clip_path).is_file()
    assert _jobs(tmp_path / "new.kamishibai", capsys) == []  # nothing left waiting


def test_say_narrate_and_story_set_the_fields_and_refuse_bad_ones(imported: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with Project.open(imported, read_only=True) as project:
        node = project.tree.child_ids(project.tree.root_id)[0]
    assert main(["say", str(imported), node, "Good morning!"]) == 0  # the speaker: the turn's character
    assert main(["say", str(imported), node, "--speaker", "Yuzu", "--at", "1", "Wait!"]) == 0
    assert main(["narrate", str(imported), node, "The town wakes up."]) == 0
    assert main(["story", str(imported), node, "--duration", "2.5", "--notes", "wide shot"]) == 0
    capsys.readouterr()
    assert main(["story", str(imported), node, "--json"]) == 0
    story = json.loads(capsys.readouterr().out)
    assert story["dialogue"] == [{"speaker": "Yuzu", "text": "Wait!"}, {"speaker": "Qiqi", "text": "I'm late!"},
                                 {"speaker": "Qiqi", "text": "Good morning!"}]
    assert (story["narration"], story["duration"], story["shot_notes"]) == ("The town wakes up.", 2.5, "wide shot")
    assert main(["story", str(imported), node, "--duration", "clip", "--clear-dialogue", "--json"]) == 0
    story = json.loads(capsys.readouterr().out)
    assert story["duration"] is None and story["dialogue"] == []
    assert main(["story", str(imported), node, "--duration", "-1"]) == 2
    assert "outside 0.1..600 s" in capsys.readouterr().err
    assert main(["say", str(imported), node, "  "]) == 2
    assert "empty" in capsys.readouterr().err


def test_start_state_and_state_scope(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fill", str(imported), "--run", "--quiet"]) == 0
    assert main(["start-state", str(imported), "--character", "Yuzu", "10", "20", "30"]) == 0
    with Project.open(imported, read_only=True) as project:
        tree = project.tree
        yuzu = next(n.id for n in tree.nodes.values() if n.instruction.character == "Yuzu")
        assert tree.state_before(yuzu).as_dict() == {"stamina": 10, "social": 20, "entertainment": 30}
        qiqi = tree.node(yuzu).parent_id
        assert qiqi is not None
        branch_state = tree.state_of(qiqi)
    assert main(["state-scope", str(imported), "branch"]) == 0
    with Project.open(imported, read_only=True) as project:
        assert project.tree.state_before(yuzu) == branch_state  # Yuzu continues from Qiqi's state
    with pytest.raises(SystemExit) as refused:
        main(["start-state", str(imported), "101", "0", "0"])
    assert refused.value.code == 2
    assert "from 0 to 100, not 101" in capsys.readouterr().err
