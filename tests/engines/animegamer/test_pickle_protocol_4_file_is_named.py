"""A released file saved again with ``pickle_protocol=4`` holds only tensors, but PyTorch's
safe loader can't read that protocol ("Unsupported operand 149"). It was refused as holding
"a pickled object that is not a tensor", which is not what is wrong with it, after torch's
own warning asking to "file an issue" with PyTorch. The refusal now says what the file is,
and nothing in it runs either way."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.engines.animegamer.safe_load import UnsafeCheckpointError, load_weights  # noqa: E402


def test_a_protocol_4_file_of_tensors_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "pytorch_model.bin"
    torch.save({"a": torch.zeros(2), "b": torch.ones(3)}, path, pickle_protocol=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(UnsafeCheckpointError) as raised:
            load_weights(path)
    assert f"Refused {path}: it was saved with a pickle protocol that PyTorch's safe loader can't read" in \
        raised.value.message
    assert "not a tensor" not in raised.value.message and "as released" in raised.value.hint
    assert not [w for w in caught if "file an issue" in str(w.message)]


def test_a_protocol_2_file_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "pytorch_model.bin"
    torch.save({"a": torch.zeros(2)}, path)
    assert torch.equal(load_weights(path)["a"], torch.zeros(2))
