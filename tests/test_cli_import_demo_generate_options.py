"""`import-demo` checks everything it is given before it imports: an unknown --engine or
--device for --generate used to be refused only after the turns were written (exit status 2,
the turns imported anyway, so running the corrected command imported every turn twice), and
a --parent for a project still to be made left a new empty project behind. --engine and
--device without --generate did nothing at all; they are refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DEMO = ("Character: Qiqi; Motion: run; Background: day town.\n"
        "Character: Yuzu; Motion: wave; Background: night park.\n")


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


def _refused(result: subprocess.CompletedProcess[str], needle: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert needle in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def _turns(project: Path) -> int:
    done = kamishibai("tree", str(project), "--json")
    assert done.returncode == 0, done.stderr
    return len(json.loads(done.stdout)["nodes"]) - 1


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    path = tmp_path / "demo.txt"
    path.write_text(DEMO, encoding="utf-8")
    return path


@pytest.mark.parametrize(("options", "needle"), [
    (("--engine", "nosuch"), "Unknown engine 'nosuch'"),
    (("--device", "bogus"), "Unknown device 'bogus'"),
])
def test_a_bad_generate_option_imports_nothing_into_an_existing_project(tmp_path: Path, demo: Path,
                                                                        options: tuple[str, str],
                                                                        needle: str) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    _refused(kamishibai("import-demo", str(demo), "--project", str(project), "--generate", *options), needle)
    assert _turns(project) == 0, "the turns were imported although the command failed"


@pytest.mark.parametrize("options", [("--engine", "nosuch", "--generate"), ("--device", "bogus", "--generate"),
                                     ("--parent", "abc123")])
def test_a_refused_import_makes_no_new_project(tmp_path: Path, demo: Path, options: tuple[str, ...]) -> None:
    done = kamishibai("import-demo", str(demo), "--project", str(tmp_path / "new"), *options)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "internal error" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.txt"]


def test_a_parent_for_a_new_project_is_refused_with_the_reason(tmp_path: Path, demo: Path) -> None:
    _refused(kamishibai("import-demo", str(demo), "--project", str(tmp_path / "new"), "--parent", "abc123"),
             "a new project has no turn but the story's start")
    done = kamishibai("import-demo", str(demo), "--project", str(tmp_path / "new"), "--parent", "root")
    assert done.returncode == 0, done.stderr
    assert _turns(tmp_path / "new.kamishibai") == 2


@pytest.mark.parametrize(("options", "needle"), [
    (("--engine", "sketch"), "--engine only applies with --generate"),
    (("--device", "cpu"), "--device only applies with --generate"),
    (("--engine", "sketch", "--device", "cpu"), "--engine and --device only apply with --generate"),
])
def test_generate_options_without_generate_are_refused(tmp_path: Path, demo: Path, options: tuple[str, ...],
                                                       needle: str) -> None:
    _refused(kamishibai("import-demo", str(demo), "--project", str(tmp_path / "story"), *options), needle)
    assert not (tmp_path / "story.kamishibai").exists()


def test_generate_with_a_good_engine_still_imports_and_generates(tmp_path: Path, demo: Path) -> None:
    project = tmp_path / "story.kamishibai"
    done = kamishibai("import-demo", str(demo), "--project", str(project), "--generate", "--engine", "sketch",
                      "--device", "cpu", "-q")
    assert done.returncode == 0, done.stderr
    nodes = json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"][1:]
    assert [len(node["takes"]) for node in nodes] == [1, 1]
