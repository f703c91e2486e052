"""``--checkpoints`` naming a file (a weights file given instead of its folder) is refused
when the arguments are read, saying it is a file and not a checkpoints folder (QA: the
engines looked for their files under it and said "Missing FILE/mini/config.json", which
hid the mistake)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

COMMANDS = (
    ("doctor",),
    ("play", "{project}", "-i", "Motion: wave.", "--engine", "mini"),
    ("run-queue", "{project}"),
    ("eval", "mini"),
    ("checkpoints", "doctor"),
    ("checkpoints", "convert", "{project}"),
)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: " ".join(command[:2]))
def test_a_file_given_as_the_checkpoints_folder_is_named_as_such(
        command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    weights = tmp_path / "model weights.safetensors"
    weights.write_bytes(b"not a folder")
    project = tmp_path / "story.kamishibai"
    args = [part.format(project=project) for part in command]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--checkpoints", str(weights)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --checkpoints: '{weights}' is a file, not a checkpoints folder" in err, err
    assert "Missing" not in err
    assert weights.read_bytes() == b"not a folder"
    assert not project.exists(), "nothing was written"


def test_a_folder_still_to_be_made_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["checkpoints", "doctor", "--checkpoints", str(tmp_path / "not yet")])
    assert "not a checkpoints folder" not in capsys.readouterr().err
