"""The options of `kamishibai checkpoints` that name a release folder (convert's SRC,
doctor's --source, convert-customx's --llava and --clip) refuse a file or a path that is
not there, naming the option (QA: `checkpoints doctor --source FILE` listed every release
file as MISSING under it and `checkpoints convert FILE` said no character was found under
it, which hid the mistake)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main


@pytest.fixture
def weights(tmp_path: Path) -> Path:
    path = tmp_path / "pytorch_model.bin"
    path.write_bytes(b"weights")
    return path


@pytest.mark.parametrize("command", [
    ("checkpoints", "convert", "{weights}"),
    ("checkpoints", "doctor", "--source", "{weights}"),
    ("checkpoints", "doctor", "--json", "--source", "{weights}"),
    ("checkpoints", "doctor", "--engine", "customx", "--source", "{weights}"),
])
def test_a_file_given_as_the_release_folder_is_named_as_such(
        command: tuple[str, ...], weights: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    option = "SRC" if "convert" in command else "--source"
    checkpoints = tmp_path / "checkpoints"
    code = main([part.format(weights=weights) for part in command] + ["--checkpoints", str(checkpoints)])
    out, err = capsys.readouterr()
    assert code == 2
    assert f"{option} {weights} is a file, not a folder." in err, err
    assert out == "" and "MISSING" not in err
    assert not checkpoints.exists(), "nothing was written"


def test_a_missing_release_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checkpoints", "doctor", "--source", str(tmp_path / "nowhere")]) == 2
    assert f"--source {tmp_path / 'nowhere'}: no such folder." in capsys.readouterr().err


def test_a_file_given_for_a_customx_model_folder_is_named_as_such(
        weights: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checkpoints = tmp_path / "checkpoints"
    code = main(["checkpoints", "convert-customx", "--transformer", str(weights), "--vae", str(weights),
                 "--llava", str(weights), "--clip", str(tmp_path), "--checkpoints", str(checkpoints)])
    assert code == 2
    assert f"--llava {weights} is a file, not a folder." in capsys.readouterr().err
    assert not checkpoints.exists()
