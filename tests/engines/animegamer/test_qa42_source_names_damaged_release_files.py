"""`checkpoints doctor --source` names a released file that won't convert, from its bytes only
(nothing is unpickled): a pytorch_model.bin cut short, an HTML page saved as 3d-vae.pt. Both were
"found", and the doctor recommended a conversion that then failed. The download's top folder
(which holds checkpoints/AnimeGamer/...) is refused naming the subfolder to give."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("torch")

from studio.cli import main
from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout

from .released_files import write_release


@pytest.fixture
def release(tmp_path: Path) -> Path:
    root = tmp_path / "release"
    write_release(root, TINY, characters=("qiqi",))
    return root


def test_a_cut_file_and_a_web_page_are_damaged(release: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    mllm = release / layout.RELEASE_MLLM.format(name="Qiqi")
    os.truncate(mllm, mllm.stat().st_size // 2)
    vae = release / layout.RELEASE_VAE
    vae.write_text("<html><body>Access denied</body></html>", encoding="utf-8")
    main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert f"DAMAGED {mllm} — Qiqi's MLLM" in out, out
    assert f"{mllm} is cut short" in out, out
    assert f"DAMAGED {vae} — the VAE" in out and "is a web page (HTML)" in out, out
    assert "kamishibai checkpoints convert" not in out.split("Release files:")[1], out


def test_a_whole_release_is_found_and_converts(release: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert "DAMAGED" not in out, out
    assert f"found   {release / layout.RELEASE_VAE}" in out, out


@pytest.mark.parametrize("command", [["checkpoints", "doctor", "--source"], ["checkpoints", "convert"]])
def test_the_download_root_names_its_checkpoints_folder(release: Path, tmp_path: Path, command: list[str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "download"
    root.mkdir()
    release.rename(root / "checkpoints")
    assert main([*command, str(root), "--checkpoints", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "holds the release's checkpoints folder, not the release's files themselves" in err, err
    assert f"Give {root / 'checkpoints'} instead." in err, err
    assert not (tmp_path / "out" / "animegamer").exists()
