"""An empty ``--checkpoints`` (``--checkpoints "$DIR"`` with DIR unset) is refused when the
arguments are read. QA: it named the current folder, so `doctor` said "Missing
mini/config.json" and `checkpoints convert` would have written animegamer/ into whatever
folder the command ran in."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

COMMANDS = (
    ("doctor",),
    ("play", "{project}", "-i", "Motion: wave.", "--engine", "mini"),
    ("checkpoints", "doctor"),
    ("checkpoints", "doctor", "--engine", "customx"),
    ("checkpoints", "convert", "{project}"),
)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: " ".join(command[:4]))
def test_an_empty_checkpoints_folder_is_refused(command: tuple[str, ...], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    project = tmp_path / "story.kamishibai"
    args = [part.format(project=project) for part in command]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--checkpoints", ""])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --checkpoints: an empty path names no checkpoints folder" in err, err
    assert "Missing" not in err
    assert list(tmp_path.iterdir()) == [], "nothing was written"
