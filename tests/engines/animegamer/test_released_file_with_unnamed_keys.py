"""A released ``.bin`` whose dictionary has a key that is not text (a file from elsewhere)
is refused saying so: it read "5 is a Tensor, not a tensor", which contradicted itself."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.engines.animegamer.convert import convert_release  # noqa: E402
from studio.engines.animegamer.safe_load import UnsafeCheckpointError  # noqa: E402
from studio.engines.animegamer.sizes import TINY  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402

from .released_files import write_release  # noqa: E402


def test_a_key_that_is_not_text_is_named(tmp_path: Path) -> None:
    release = write_release(tmp_path / "release", TINY)
    mllm = release / layout.RELEASE_MLLM.format(name="Qiqi")
    state = torch.load(mllm, weights_only=True)
    state[5] = torch.zeros(1)
    torch.save(state, mllm)
    with pytest.raises(UnsafeCheckpointError) as raised:
        convert_release(release, tmp_path / "ck", size=TINY)
    assert f"{mllm} holds a key that is not text (5)" in raised.value.message
    assert "released file" in raised.value.hint
    assert not list((tmp_path / "ck").rglob("*.safetensors"))
