"""``checkpoints convert --tokenizer`` takes the tokenizer's folder. Given the file
``tokenizer.model`` itself it said ".../tokenizer.model/tokenizer.model is missing.", and
given a folder that is not there ".../tokenizer.model is missing.", with no hint either time.
Both name the option and what it was given, before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.engines.animegamer.sizes import TINY
from tests.engines.animegamer.released_files import write_release


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_release(tmp_path_factory.mktemp("tokenizer option") / "release", TINY)


@pytest.mark.parametrize(("given", "said"), [("animegamer_tokenizer/tokenizer.model", "is a file, not a folder."),
                                             ("no such tokenizer", ": no such folder.")])
def test_the_tokenizer_option_must_name_a_folder(release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 given: str, said: str) -> None:
    tokenizer = release / given
    code = main(["checkpoints", "convert", str(release), "--size", "tiny", "--tokenizer", str(tokenizer),
                 "--checkpoints", str(tmp_path / "ck")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"--tokenizer {tokenizer}{'' if said.startswith(':') else ' '}{said}" in err
    assert "Give the folder that holds tokenizer.model" in err
    assert not (tmp_path / "ck").exists()
