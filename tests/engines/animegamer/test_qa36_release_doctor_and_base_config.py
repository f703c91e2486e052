"""Following the docs with a release folder: ``checkpoints doctor --source SRC --checkpoints
DIR`` prints the convert command that writes where the engine will look (it printed a
placeholder without ``--checkpoints``, which converted into another folder), flags a release
that would not convert (a Mistral file cut short, a config.json of another model, the
tokenizer elsewhere), and the converter refuses a Mistral folder whose config.json describes
another model before reading it (Mistral v0.2's shapes fit, so it was converted silently)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.cli import main  # noqa: E402
from studio.engines.animegamer.convert import ConversionError, convert_release  # noqa: E402
from studio.engines.animegamer.sizes import TINY  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402

from .released_files import write_release  # noqa: E402


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """A release whose MLLM file holds only the trained weights (Mistral is read too)."""
    return write_release(tmp_path / "release", TINY, trained_only=True)


def _mistral_config(release: Path, **fields: object) -> Path:
    path = release / layout.RELEASE_BASE_DIR / "config.json"
    path.write_text(json.dumps({"architectures": ["MistralForCausalLM"], **fields}))
    return path


@pytest.mark.parametrize(("fields", "said"), [
    ({"hidden_size": TINY.mllm.hidden, "rope_theta": 1_000_000.0}, "rope_theta 1000000.0"),  # v0.2: same shapes
    ({"rope_parameters": {"rope_type": "default", "rope_theta": 1e6}}, "rope_theta 1000000.0"),
    ({"num_hidden_layers": 40}, "num_hidden_layers 40"),
])
def test_a_mistral_folder_of_another_model_is_refused_naming_its_config(
        tmp_path: Path, release: Path, fields: dict[str, object], said: str) -> None:
    config = _mistral_config(release, **fields)
    checkpoints = tmp_path / "checkpoints"
    with pytest.raises(ConversionError) as raised:
        convert_release(release, checkpoints, size=TINY)
    assert str(config) in raised.value.message and said in raised.value.message
    assert "version 0.1" in raised.value.hint and "Nothing was written for Qiqi" in raised.value.hint
    assert not (checkpoints / "animegamer" / "qiqi").exists()
    assert not (checkpoints / "animegamer" / layout.BASE_FILE).exists()


def test_a_config_of_the_right_model_converts(tmp_path: Path, release: Path) -> None:
    m = TINY.mllm
    _mistral_config(release, hidden_size=m.hidden, intermediate_size=m.intermediate, num_hidden_layers=m.layers,
                    num_attention_heads=m.heads, num_key_value_heads=m.kv_heads, vocab_size=m.base_vocabulary,
                    rope_theta=10000.0, sliding_window=4096)
    convert_release(release, tmp_path / "checkpoints", size=TINY)
    assert layout.complete_characters(tmp_path / "checkpoints" / "animegamer") == ["qiqi"]


def test_the_doctor_prints_the_command_that_converts_where_the_engine_looks(
        tmp_path: Path, release: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["checkpoints", "doctor", "--source", "release", "--checkpoints", "my ck"]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("No character is complete: convert the release with `")
    command = shlex.split(last.split("`")[1])
    assert command == ["kamishibai", "checkpoints", "convert", "release", "--checkpoints", "my ck"]
    assert main([*command[1:], "--size", "tiny"]) == 0  # the command as printed (tiny: the test's weights)
    capsys.readouterr()
    assert main(["checkpoints", "doctor", "--checkpoints", "my ck"]) == 0
    assert "Ready: Qiqi." in capsys.readouterr().out


def test_the_doctors_json_has_the_command(release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ck = str(tmp_path / "ck")
    assert main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", ck, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["convert_command"] == ["kamishibai", "checkpoints", "convert", str(release), "--checkpoints", ck]
    assert all(row["problem"] is None for row in data["release"])


def test_a_cut_short_mistral_file_is_flagged_before_converting(
        release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = release / layout.RELEASE_BASE_DIR / "model.safetensors"
    base.write_bytes(base.read_bytes()[:-1000])
    assert main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "ck")]) == 1
    out = capsys.readouterr().out
    assert f"DAMAGED {base} — a file of Mistral-7B-Instruct-v0.1" in out and "Download it again." in out
    assert "can't be converted as it is" in out and "checkpoints convert" not in out.splitlines()[-1]


def test_a_config_of_another_model_is_flagged_by_the_doctor(
        release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _mistral_config(release, rope_theta=1e6)  # the released size is checked: 10000
    assert main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "ck")]) == 1
    out = capsys.readouterr().out
    assert f"DAMAGED {release / layout.RELEASE_BASE_DIR} — Mistral-7B-Instruct-v0.1" in out
    assert f"{config} describes another model than Mistral-7B-Instruct-v0.1: rope_theta 1000000.0 where " \
           "Mistral-7B-Instruct-v0.1 has 10000" in out


def test_a_tokenizer_elsewhere_is_listed_and_the_command_asks_for_it(
        release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (release / "animegamer_tokenizer").rename(tmp_path / "tokenizer elsewhere")
    assert main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", str(tmp_path / "ck")]) == 1
    out = capsys.readouterr().out
    assert f"MISSING {release / 'animegamer_tokenizer'} — AnimeGamer's tokenizer" in out
    assert "--tokenizer PATH/TO/MLLM/VisualAR/animegamer_tokenizer`." in out


def test_a_character_whose_latest_file_is_bad_is_left_out_of_the_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = write_release(tmp_path / "two", TINY, characters=("qiqi", "sosuke"))
    (release / layout.RELEASE_DECODER_DIR.format(name="Qiqi") / "latest").write_text("../elsewhere")
    ck = str(tmp_path / "ck")
    assert main(["checkpoints", "doctor", "--source", str(release), "--checkpoints", ck]) == 1
    command = shlex.split(capsys.readouterr().out.strip().splitlines()[-1].split("`")[1])
    assert command[-2:] == ["--character", "sosuke"]
    assert main([*command[1:], "--size", "tiny"]) == 0
    assert layout.complete_characters(Path(ck) / "animegamer") == ["sosuke"]


def test_a_release_of_another_size_is_said_before_its_weights_are_listed(tmp_path: Path, release: Path) -> None:
    with pytest.raises(ConversionError) as raised:  # tiny weights converted at the released size
        convert_release(release, tmp_path / "checkpoints")
    first = raised.value.message.splitlines()[1]
    mllm = release / layout.RELEASE_MLLM.format(name="Qiqi")
    assert first.startswith(f"  {mllm} (")
    assert first.endswith("of another model size than the full-size model being converted (not the files of "
                          "AnimeGamer's release?); the weights that don't fit:")
