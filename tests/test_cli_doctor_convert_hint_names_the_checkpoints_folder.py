"""`doctor --checkpoints DIR` tells how to convert AnimeGamer's weights into DIR: the command it
gave left out `--checkpoints`, and followed as written it converted into the default folder,
where this doctor (and the studio started with `--checkpoints DIR`) never looks."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from studio.cli import main


def test_the_convert_command_names_the_folder_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "my weights"
    folder.mkdir()  # an empty folder: a folder that is not there is refused as such
    main(["doctor", "--checkpoints", str(folder)])
    out = capsys.readouterr().out
    hints = [line.strip() for line in out.splitlines() if "kamishibai checkpoints convert PATH/TO" in line]
    assert hints, out
    command = hints[0].split("Convert the released weights: ", 1)[1].split(" (see", 1)[0]
    words = shlex.split(command)
    assert words[:4] == ["kamishibai", "checkpoints", "convert", "PATH/TO/AnimeGamer/checkpoints"]
    assert words[4:] == ["--checkpoints", str(folder)]
