"""Guards of the command line against input that would damage files or do the wrong thing:
sketch-sheet's destination, an empty --character, project names of dots only,
import-demo's help and an empty project folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def kamishibai(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def _refused(result: subprocess.CompletedProcess[str], needle: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert needle in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("projects") / "sk.kamishibai"
    done = kamishibai("new", str(path))
    assert done.returncode == 0, done.stderr
    return path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# -- sketch-sheet -----------------------------------------------------------------------------


def test_sketch_sheet_never_writes_into_a_project(project: Path) -> None:
    before = _snapshot(project)
    for out in (project / "project.db", project / "sheet.png", project / "media" / "sheet.png"):
        for force in ((), ("--force",)):
            _refused(kamishibai("sketch-sheet", str(out), *force), "inside the project folder")
    assert _snapshot(project) == before, "the project is untouched"


def test_sketch_sheet_refuses_a_folder_named_as_a_project(tmp_path: Path) -> None:
    empty = tmp_path / "empty.kamishibai"
    empty.mkdir()
    _refused(kamishibai("sketch-sheet", str(empty / "sheet.png"), "--force"), "inside the project folder")
    assert not any(empty.iterdir())


@pytest.mark.parametrize("name", ["notes.md", "notes.txt", "motions", "motions.png.bak"])
def test_sketch_sheet_needs_a_png_name(tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    _refused(kamishibai("sketch-sheet", str(out)), ".png")
    assert not out.exists()
    out.write_text("my notes")
    _refused(kamishibai("sketch-sheet", str(out), "--force"), ".png")
    assert out.read_text() == "my notes", "--force doesn't make a non-PNG name right"


def test_sketch_sheet_refuses_a_missing_folder(tmp_path: Path) -> None:
    for out in (tmp_path / "missing" / "deeper" / "sheet.png", Path("/nonexist-kamishibai-qa/sheet.png")):
        _refused(kamishibai("sketch-sheet", str(out)), "does not exist")
        assert not out.parent.exists(), "no folder is created"


def test_sketch_sheet_replaces_a_file_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "motions.png"
    out.write_bytes(b"an older sheet")
    refused = kamishibai("sketch-sheet", str(out))
    _refused(refused, f"{out} already exists")
    assert "--force" in refused.stderr
    assert out.read_bytes() == b"an older sheet"
    done = kamishibai("sketch-sheet", str(out), "--force")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert [p.name for p in tmp_path.iterdir()] == ["motions.png"], "no partial file is left"


def test_sketch_sheet_help_names_force() -> None:
    result = kamishibai("sketch-sheet", "--help")
    assert result.returncode == 0 and "--force" in result.stdout


# -- start-state --character ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "   ", "\t"])
def test_start_state_refuses_an_empty_character(tmp_path: Path, name: str) -> None:
    path = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    before = json.loads(kamishibai("info", str(path), "--json").stdout)
    _refused(kamishibai("start-state", str(path), "--character", name, "0", "0", "0"), "--character is empty")
    _refused(kamishibai("start-state", str(path), "--character", name, "--new", "0", "0", "0"),
             "--character is empty")
    assert json.loads(kamishibai("info", str(path), "--json").stdout) == before
    tree = json.loads(kamishibai("tree", str(path), "--json").stdout)
    assert tree["nodes"][0]["state"] == {"stamina": 50, "social": 50, "entertainment": 50}, "nobody changed"
    everyone = kamishibai("start-state", str(path), "0", "0", "0")  # without --character: everyone, as before
    assert everyone.returncode == 0 and "every character" in everyone.stdout


@pytest.mark.parametrize(("name", "needle"), [
    ("Bob; Motion: run", "holds ';' or ':'"),
    ("Zed\u202eX", "U+202E, a right-to-left override"),
    ("Z" * 500, "500 characters long"),
])
def test_start_state_new_refuses_a_name_no_turn_could_act_with(tmp_path: Path, name: str, needle: str) -> None:
    """A start state is only read for a turn's character: one stored under a name no
    instruction can hold would be set and never used."""
    path = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    before = kamishibai("tree", str(path), "--json").stdout
    _refused(kamishibai("start-state", str(path), "--character", name, "--new", "1", "2", "3"), needle)
    assert kamishibai("tree", str(path), "--json").stdout == before, "no start state was stored"
    done = kamishibai("start-state", str(path), "--character", "Hana Mori", "--new", "1", "2", "3")
    assert done.returncode == 0, done.stderr


def test_import_demo_skip_bad_with_nothing_to_import_creates_no_project(tmp_path: Path) -> None:
    """Every line bad: --skip-bad imports nothing, so no project folder is left behind, and
    the hint doesn't suggest the --skip-bad that was given."""
    demo = tmp_path / "bad.txt"
    demo.write_text("Character: ; Motion: x\n???\n", encoding="utf-8")
    folder = tmp_path / "new.kamishibai"
    _refused(kamishibai("import-demo", "--project", str(folder), str(demo), "--skip-bad"), "nothing was imported")
    assert not folder.exists()
    assert "use --skip-bad" not in kamishibai("import-demo", "--project", str(folder), str(demo), "--skip-bad").stderr


# -- names of dots only -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["..", "...", "..kamishibai", "...kamishibai", "x/..", ". .", "."])
def test_new_refuses_a_name_of_dots(tmp_path: Path, name: str) -> None:
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    (work / "x").mkdir()
    _refused(kamishibai("new", name, cwd=work), "has no name to give the project folder")
    made = [p for p in tmp_path.rglob("*") if "kamishibai" in p.name]
    assert not made, made


@pytest.mark.parametrize("name", ["..", "..kamishibai"])
def test_sample_and_unbundle_refuse_a_project_name_of_dots(tmp_path: Path, project: Path, name: str) -> None:
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    bundle = tmp_path / "story.zip"
    assert kamishibai("bundle", str(project), str(bundle)).returncode == 0
    _refused(kamishibai("sample", name, "--no-generate", cwd=work), "has no name to give the project folder")
    if name == "..":  # an existing folder: the bundle is unpacked inside it, under the bundle's name
        unpacked = kamishibai("unbundle", str(bundle), name, cwd=work)
        assert unpacked.returncode == 0, unpacked.stderr
        assert [p for p in tmp_path.rglob("*") if "kamishibai" in p.name] == [tmp_path / "a" / "story.kamishibai"]
        return
    _refused(kamishibai("unbundle", str(bundle), name, cwd=work), "has no name to give the project folder")
    made = [p for p in tmp_path.rglob("*") if "kamishibai" in p.name]
    assert not made, made


@pytest.mark.parametrize("name", ["...", "..kamishibai"])
def test_import_demo_refuses_a_project_name_of_dots(tmp_path: Path, demo_file: Path, name: str) -> None:
    _refused(kamishibai("import-demo", str(demo_file), "--project", name, cwd=tmp_path),
             "has no name to give the project folder")
    assert [p.name for p in tmp_path.iterdir()] == []


# -- import-demo ------------------------------------------------------------------------------


def test_import_demo_help_documents_the_extensions() -> None:
    result = kamishibai("import-demo", "--help")
    assert result.returncode == 0
    text = result.stdout
    assert "## branch after N" in text and "> NAME: text" in text
    for field in ("> narration:", "> duration:", "> notes:"):
        assert field in text, field
    assert "as one branch" not in text
    listed = kamishibai("--help").stdout
    assert "as one branch" not in listed


def test_import_demo_fills_an_existing_empty_project_folder(tmp_path: Path, demo_file: Path) -> None:
    folder = tmp_path / "x.kamishibai"
    folder.mkdir()
    result = kamishibai("import-demo", str(demo_file), "--project", str(folder))
    assert result.returncode == 0, result.stderr
    assert "imported 8 turns" in result.stdout
    info = json.loads(kamishibai("info", str(folder), "--json").stdout)
    assert info["turns"] == 8
    again = kamishibai("import-demo", str(demo_file), "--project", str(folder))  # now a project: added to it
    assert again.returncode == 0, again.stderr
    assert json.loads(kamishibai("info", str(folder), "--json").stdout)["turns"] == 16


def test_import_demo_still_refuses_a_folder_that_is_not_a_project(tmp_path: Path, demo_file: Path) -> None:
    folder = tmp_path / "x.kamishibai"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    _refused(kamishibai("import-demo", str(demo_file), "--project", str(folder)), "project.db")
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
