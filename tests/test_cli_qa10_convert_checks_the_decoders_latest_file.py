"""``VDM_Decoder-<Char>/latest`` names the step folder whose decoder is converted. One that
is not text stopped the conversion with an internal error (UnicodeDecodeError), and one naming
``../../VDM_Decoder-Sosuke/1000`` converted Sosuke's decoder as Qiqi's without a word. Both
are refused naming the file and what to write into it, before anything is written, and
``checkpoints doctor --source`` lists the same problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout
from tests.engines.animegamer.released_files import write_release


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_release(tmp_path_factory.mktemp("latest") / "rel ease", TINY, characters=("qiqi", "sosuke"))


@pytest.mark.parametrize(("content", "said"), [
    (b"\xff\xfe\x00bad", "is not text"),
    (b"../../VDM_Decoder-Sosuke/1000\n", "names '../../VDM_Decoder-Sosuke/1000', which is not a step folder"),
])
def test_a_bad_latest_file_is_refused_naming_it(release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                content: bytes, said: str) -> None:
    latest = release / layout.RELEASE_DECODER_DIR.format(name="Qiqi") / "latest"
    before = latest.read_bytes()
    latest.write_bytes(content)
    try:
        code = main(["checkpoints", "convert", str(release), "--checkpoints", str(tmp_path / "ck"),
                     "--size", "tiny"])
        err = capsys.readouterr().err
        assert code == 2, err
        assert f"{latest} {said}" in err and "internal error" not in err
        assert "Nothing was written" in err and "Write the step folder's name into it" in err
        assert not list((tmp_path / "ck").rglob("*.safetensors"))

        assert main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "ck")]) == 1
        out = capsys.readouterr().out
        assert f"MISSING {latest} — Qiqi's decoder: {latest} {said}" in out
    finally:
        latest.write_bytes(before)


def test_a_good_latest_file_still_converts(release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checkpoints", "convert", str(release), "--checkpoints", str(tmp_path / "ck"), "--size", "tiny",
                 "--character", "qiqi"]) == 0
    assert (tmp_path / "ck" / "animegamer" / "qiqi" / layout.MODEL_FILE).is_file()
