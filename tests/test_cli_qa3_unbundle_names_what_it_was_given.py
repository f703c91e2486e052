"""`kamishibai unbundle` with a bundle named in capitals, a folder, a missing file or empty names.

QA: `unbundle STORY.ZIP` unpacked to `STORY.ZIP.kamishibai` (`bundle` reads `.ZIP` as the
suffix it appends); a bundle named `.zip` ended in "internal error: ValueError: Invalid name
''"; a folder or a missing file both read "is not a readable bundle: it does not exist or is
not a file"; and an empty destination unpacked beside the bundle as if none was given."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project


@pytest.fixture
def bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A bundle of a two-turn story, in a folder of its own."""
    project = import_demo_project(tmp_path, monkeypatch)
    out = tmp_path / "bundles"
    out.mkdir()
    assert main(["bundle", str(project), str(out / "STORY.ZIP")]) == 0
    capsys.readouterr()
    return out / "STORY.ZIP"


def _turns(path: Path) -> int:
    with Project.open(path, read_only=True) as project:
        return len(project.tree.nodes) - 1


def test_a_bundle_named_in_capitals_unpacks_under_its_name(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bundle.is_file()  # `bundle` kept the suffix as written
    assert main(["unbundle", str(bundle)]) == 0
    assert capsys.readouterr().out.strip() == str(bundle.with_name("STORY.kamishibai"))
    assert _turns(bundle.with_name("STORY.kamishibai")) == 2
    assert not bundle.with_name("STORY.ZIP.kamishibai").exists()


def test_a_bundle_named_only_zip_unpacks_without_an_internal_error(bundle: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    hidden = bundle.rename(bundle.with_name(".zip"))
    assert main(["unbundle", str(hidden)]) == 0, capsys.readouterr().err
    assert _turns(Path(capsys.readouterr().out.strip())) == 2


def test_a_folder_a_missing_file_and_empty_names_are_said_as_such(bundle: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    before = sorted(p.name for p in bundle.parent.iterdir())
    cases = [
        ([str(bundle.parent)], "is a folder, not a bundle"),
        ([str(tmp_path / "story.kamishibai")], "is a project folder, not a bundle"),
        ([str(bundle.with_name("missing.zip"))], "No bundle at"),
        ([""], "The bundle path is empty"),
        ([str(bundle), ""], "The destination is empty"),
    ]
    for arguments, message in cases:
        assert main(["unbundle", *arguments]) == 2, arguments
        err = capsys.readouterr().err
        assert message in err and "does not exist or is not a file" not in err, (arguments, err)
    assert sorted(p.name for p in bundle.parent.iterdir()) == before  # nothing unpacked
