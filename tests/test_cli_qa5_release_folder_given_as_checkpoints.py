"""AnimeGamer's release folder (what `kamishibai checkpoints convert` takes) given as
``--checkpoints`` (the folder of converted weights) is refused when the arguments are read,
saying it is the release folder and giving the convert command. QA: the engines listed
each of their converted files missing under it, and said to convert
"PATH/TO/AnimeGamer/checkpoints" without saying that this folder was that release."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main

COMMANDS = (
    ("doctor",),
    ("doctor", "--json"),
    ("checkpoints", "doctor"),
    ("play", "{project}", "-i", "Motion: wave.", "--engine", "mini"),
    ("eval", "mini"),
)
MARKS = ("AnimeGamer/MLLM-Qiqi/pytorch_model.bin", "AnimeGamer/VDM_Decoder-Sosuke/latest", "vae/3d-vae.pt",
         "Mistral-7B-Instruct-v0.1/config.json")


def _release(root: Path, mark: str = MARKS[0]) -> Path:
    """A release folder holding one of its files (each one alone says it is a release)."""
    (root / mark).parent.mkdir(parents=True)
    (root / mark).write_bytes(b"released")
    return root


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Missing" not in err
    return err


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_the_release_folder_is_named_with_the_command_to_convert_it(
        command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = _release(tmp_path / "AnimeGamer release")
    project = tmp_path / "story.kamishibai"
    err = _refused([*(part.format(project=project) for part in command), "--checkpoints", str(release)], capsys)
    assert f"'{release}' is AnimeGamer's release folder" in err, err
    assert f"kamishibai checkpoints convert '{release}' --checkpoints DIR" in err
    assert not project.exists() and not (release / "mini").exists(), "nothing was written"


@pytest.mark.parametrize("mark", MARKS)
def test_each_part_of_the_release_marks_it(mark: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = _release(tmp_path / "release", mark)
    assert "is AnimeGamer's release folder" in _refused(["doctor", "--checkpoints", str(release)], capsys)


def test_its_animegamer_folder_names_the_release(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = _release(tmp_path / "release")
    err = _refused(["doctor", "--checkpoints", str(release / "AnimeGamer")], capsys)
    assert f"is inside '{release}', which is AnimeGamer's release folder" in err, err
    assert f"kamishibai checkpoints convert {release} --checkpoints DIR" in err


def test_a_converted_folder_and_a_conversion_into_the_release_are_accepted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    converted = tmp_path / "checkpoints"
    (converted / "animegamer" / "vae").mkdir(parents=True)
    (converted / "animegamer" / "vae" / "vae.safetensors").write_bytes(b"")
    main(["doctor", "--checkpoints", str(converted)])
    assert "release folder" not in capsys.readouterr().err
    # where a conversion writes is not read as a release: it may be put anywhere
    release = _release(tmp_path / "release")
    main(["checkpoints", "convert", str(tmp_path / "nowhere"), "--checkpoints", str(release)])
    err = capsys.readouterr().err
    assert "release folder" not in err and "no such folder" in err, err
