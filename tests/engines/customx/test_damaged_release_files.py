"""CustomX's released files damaged or missing: the converter's errors are StudioErrors (the
command reports them as errors, not internal ones) that name the file."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

from studio.core.errors import StudioError  # noqa: E402
from studio.engines.customx.convert import ConversionError, read_tensors  # noqa: E402


def test_a_conversion_error_is_a_studio_error_and_still_a_value_error() -> None:
    assert issubclass(ConversionError, StudioError) and issubclass(ConversionError, ValueError)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConversionError, match=r"Missing .*lora\.safetensors"):
        read_tensors(tmp_path / "lora.safetensors")


@pytest.mark.parametrize("name", ["vae.safetensors", "folder/model-00001.safetensors"])
def test_a_corrupt_safetensors_file_is_named(tmp_path: Path, name: str) -> None:
    from safetensors.torch import save_file

    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    save_file({"w": torch.zeros(64)}, str(path))
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(ConversionError, match="is not a readable safetensors file") as raised:
        read_tensors(path if name.startswith("vae") else path.parent)
    assert str(path) in raised.value.message and raised.value.hint


def test_a_truncated_pickle_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "mp_rank_00_model_states.pt"
    torch.save({"module": {"w": torch.zeros(4096)}}, path)
    path.write_bytes(path.read_bytes()[:2000])
    with pytest.raises(ConversionError, match="mp_rank_00_model_states.pt"):
        read_tensors(path)
