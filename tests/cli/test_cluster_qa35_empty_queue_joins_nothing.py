"""`run-queue --cluster` with nothing to run says so without joining the render farm: it
used to start a local Ray instance (about 5 s of Ray's start-up lines) to say "nothing to
run". A queue holding work still joins it."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.worker.cluster.backend import RayCluster


class _JoinedError(Exception):
    pass


@pytest.fixture()
def no_join(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_cls: type, _spec: object) -> RayCluster:
        raise _JoinedError

    monkeypatch.setattr(RayCluster, "connect", classmethod(refuse))


def _story(tmp_path: Path) -> Path:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: forest.\n")
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "story")]) == 0
    return tmp_path / "story.kamishibai"


def test_an_empty_queue_is_said_without_joining(tmp_path: Path, no_join: None,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = _story(tmp_path)
    capsys.readouterr()
    assert main(["run-queue", str(path), "--cluster", "local", "--actors", "1"]) == 0
    assert capsys.readouterr().err.strip() == "nothing to run"


def test_a_queue_with_work_still_joins(tmp_path: Path, no_join: None, capsys: pytest.CaptureFixture[str]) -> None:
    path = _story(tmp_path)
    assert main(["fill", str(path)]) == 0
    capsys.readouterr()
    assert main(["run-queue", str(path), "--cluster", "local", "--actors", "1"]) != 0
    assert "_JoinedError" in capsys.readouterr().err, "the join was attempted"
