"""An engine's own weights folder given where its checkpoints folder goes (ck/animegamer,
ck/customx, checkpoints/mini) is refused with one message by `play`, `doctor`, `checkpoints
doctor` and the conversion, and by Settings in the same words. The AnimeGamer folder (weights
in character subfolders) passed, and the doctors listed ck/animegamer/animegamer/... missing and
suggested a conversion that nested the files a level deeper; Settings accepted checkpoints/mini."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main


def _animegamer(parent: Path) -> Path:
    folder = parent / "animegamer"
    (folder / "qiqi").mkdir(parents=True)
    (folder / "qiqi" / "model.json").write_text("{}", encoding="utf-8")
    (folder / "vae").mkdir()
    (folder / "vae" / "vae.safetensors").write_bytes(b"\0" * 16)
    return folder


def _customx(parent: Path) -> Path:
    folder = parent / "customx"
    folder.mkdir(parents=True)
    (folder / "model.json").write_text("{}", encoding="utf-8")
    return folder


@pytest.mark.parametrize("args", [
    ["doctor"],
    ["checkpoints", "doctor"],
    ["play", "STORY", "-i", "Qiqi waves.", "--engine", "animegamer"],
])
def test_the_animegamer_folder_is_refused(tmp_path: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    folder = _animegamer(tmp_path / "ck")
    if "STORY" in args:
        assert main(["new", str(tmp_path / "story")]) == 0
        args = [str(tmp_path / "story.kamishibai") if a == "STORY" else a for a in args]
    capsys.readouterr()
    assert main([*args, "--checkpoints", str(folder)]) == 2
    captured = capsys.readouterr()
    err = captured.err
    refused = f"--checkpoints {folder} is the animegamer engine's own weights folder, not a checkpoints folder."
    assert refused in err, err
    assert f"Give the folder that holds it: --checkpoints {tmp_path / 'ck'}" in err, err
    assert "animegamer/animegamer" not in captured.out + err


def test_the_customx_folder_is_refused_by_its_doctor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _customx(tmp_path / "ck")
    assert main(["checkpoints", "doctor", "--engine", "customx", "--checkpoints", str(folder)]) == 2
    captured = capsys.readouterr()
    assert f"--checkpoints {folder} is the customx engine's own weights folder" in captured.err, captured.err
    assert "customx/customx" not in captured.out


@pytest.mark.parametrize("make", [_animegamer, _customx])
def test_settings_refuses_it_in_the_same_words(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    from studio.composition import ENGINE_INFOS
    from studio.ui.dialogs.settings_dialog import checkpoints_problem

    folder = make(tmp_path / "ck")
    name = folder.name
    problem = checkpoints_problem(str(folder), "", ENGINE_INFOS)
    assert problem == (f"The checkpoints folder {folder} is the {name} engine's own weights folder, not a "
                       f"checkpoints folder. Choose the folder that holds it: {tmp_path / 'ck'}"), problem
    assert checkpoints_problem(str(tmp_path / "ck"), "", ENGINE_INFOS) == ""


def test_settings_refuses_the_shipped_mini_folder(tmp_path: Path) -> None:
    from studio.composition import ENGINE_INFOS
    from studio.shipped import shipped
    from studio.ui.dialogs.settings_dialog import checkpoints_problem

    mini = shipped("checkpoints") / "mini"
    assert "is the mini engine's own weights folder" in checkpoints_problem(str(mini), "", ENGINE_INFOS)
