"""`make run` runs `kamishibai sample --keep-intact projects/sample.kamishibai` every time:
it made the sample only when the path was missing, so a sample cut short by a crash, or a
file that took its name, made every `make run` fail to open it. Now a damaged one is renamed
sample.damaged-DATE.kamishibai (never deleted, and said so) and a new sample is built; an
intact one, edited or not, is kept byte for byte, without loading the engines."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project

REPO = Path(__file__).resolve().parents[1]
ASIDE = re.compile(r"sample\.damaged-\d{4}-\d{2}-\d{2}(-\d+)?\.kamishibai")


def _sample(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = folder / "sample.kamishibai"
    assert main(["sample", "--no-generate", str(path)]) == 0
    capsys.readouterr()
    return path


def _keep_intact(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["sample", "--keep-intact", "--no-generate", str(path)]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _aside(folder: Path) -> Path:
    moved = [p for p in folder.iterdir() if p.name != "sample.kamishibai"]
    assert len(moved) == 1 and ASIDE.fullmatch(moved[0].name), moved
    return moved[0]


def _opens_as_the_sample(path: Path) -> None:
    with Project.open(path, read_only=True) as project:
        assert project.name == "Qiqi's first delivery" and len(project.tree.nodes) > 1


def test_a_truncated_sample_is_moved_aside_and_built_again(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = _sample(tmp_path, capsys)
    db = path / "project.db"
    with open(db, "r+b") as handle:  # a crash cut the file short
        handle.truncate(db.stat().st_size // 2)
    damaged = _files(path)
    out, err = _keep_intact(path, capsys)
    assert out.strip() == str(path)
    aside = _aside(tmp_path)
    assert f"{db} is damaged" in err and f"Moved {path} aside to {aside} (nothing was deleted)" in err, err
    assert _files(aside) == damaged
    _opens_as_the_sample(path)


def test_a_text_file_named_like_the_sample_is_kept_under_another_name(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sample.kamishibai"
    path.write_text("my notes, not a project\n", encoding="utf-8")
    _out, err = _keep_intact(path, capsys)
    aside = _aside(tmp_path)
    assert f"{path} is a file, not a project folder" in err and str(aside) in err, err
    assert aside.read_text(encoding="utf-8") == "my notes, not a project\n"
    _opens_as_the_sample(path)
    path.rename(tmp_path / "built")  # a second damaged copy on the same day gets a name of its own
    path.write_text("again\n", encoding="utf-8")
    _keep_intact(path, capsys)
    asides = [p for p in tmp_path.iterdir() if ASIDE.fullmatch(p.name)]
    assert sorted(p.read_text(encoding="utf-8") for p in asides) == ["again\n", "my notes, not a project\n"]
    assert [p.name for p in asides if p.name.endswith("-2.kamishibai")] == [f"{aside.stem}-2.kamishibai"]


def test_a_folder_without_its_database_is_moved_aside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _sample(tmp_path, capsys)
    (path / "project.db").unlink()
    _out, err = _keep_intact(path, capsys)
    assert f"{path} holds no project.db" in err, err
    assert (_aside(tmp_path) / "media").is_dir()
    _opens_as_the_sample(path)


def test_an_intact_edited_sample_is_kept_byte_for_byte(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _sample(tmp_path, capsys)
    with Project.open(path) as project:  # the user's edit
        project.database.set_meta("name", "My own story")
        project.database.conn.commit()
    before = _files(path)
    out, err = _keep_intact(path, capsys)
    assert (out.strip(), err) == (str(path), "")
    assert _files(path) == before
    assert [p.name for p in tmp_path.iterdir()] == ["sample.kamishibai"]


def test_an_intact_sample_is_checked_without_loading_the_engines(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = _sample(tmp_path, capsys)
    script = ("import sys\nfrom studio.cli import main\n"
              f"assert main(['sample', '--keep-intact', {str(path)!r}]) == 0\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'PIL', 'PySide6', 'torch')"
              " or m.startswith(('studio.composition', 'studio.worker', 'studio.engines'))))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=False,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [str(path), "[]"]


def test_make_run_asks_for_the_sample_every_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rule runs even when the path exists (it used to be made only when missing)."""
    path = tmp_path / "sample.kamishibai"
    path.write_text("damaged\n", encoding="utf-8")
    result = subprocess.run(["make", "-n", "run", f"SAMPLE={path}"], capture_output=True, text=True, cwd=REPO,
                            check=False)
    assert f"kamishibai sample --keep-intact {path}\n" in result.stdout, result.stdout + result.stderr
    assert path.read_text(encoding="utf-8") == "damaged\n"
