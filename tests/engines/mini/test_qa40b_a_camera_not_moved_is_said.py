"""The mini model does not move the camera: its clip for "Qiqi laughs in the park, zoom camera" is
the clip without the zoom (its first and last frames differ by as little as without it, where the
sketch's zoom changes the whole frame), though the LM reads the camera words of its training texts.
So a camera the sketch world moves is said not to be drawn (but the one it follows a walk outdoors
with unasked, which the model learnt from its clips). Before, it was left out silently."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.rephrase import rephrase
from tests.engines.mini.qa40b_shipped import CAST, predict, shipped_engine


def test_the_lm_still_reads_the_camera_words() -> None:
    told = rephrase(parse_instruction("The camera zooms in as Qiqi smiles"), CAST).instruction.raw
    assert told == "Qiqi laughs, zoom camera"


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


@pytest.mark.parametrize(("text", "shown"), [
    ("The camera zooms in as Qiqi smiles", "zoom"),
    ("Character: Qiqi; Motion: wave; Background: park; Camera: pan left", "pan"),
    ("Qiqi dances in the park, orbit camera", "orbit"),
    ("Character: Qiqi; Motion: read; Camera: zoom out", "zoom out"),
    ("Character: Qiqi; Motion: read; Background: library; Camera: follow", "follow"),
])
def test_a_camera_the_mini_does_not_move_is_said(engine, text: str, shown: str) -> None:  # type: ignore[no-untyped-def]
    warnings = predict(engine, text).warnings
    assert f"the mini model does not move the camera; '{shown}' is not drawn" in warnings, warnings


@pytest.mark.parametrize("text", ["Qiqi laughs in the park", "Taro looks around, camera static",
                                  "Qiqi runs in the park", "Qiqi walks close to Yuzu",
                                  "Character: Qiqi; Motion: walk; Background: park; Camera: follow"])
def test_no_camera_or_a_still_one_is_not_warned_about(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    assert not any("move the camera" in w for w in predict(engine, text).warnings)


def test_the_clip_with_a_zoom_is_the_clip_without(engine) -> None:  # type: ignore[no-untyped-def]
    """What the warning rests on: the camera words change the clip by next to nothing."""
    import numpy as np

    from studio.engines.catalog.mini import MiniSettings

    settings = MiniSettings.from_values({"steps": 2, "height": 128, "width": 192})
    clips = [engine.decode(predict(engine, text, seed=3), settings, 3).frames.astype(np.float32)
             for text in ("Qiqi laughs in the park", "Qiqi laughs in the park, zoom camera")]
    change = [float(np.abs(clip[-1] - clip[0]).mean()) for clip in clips]
    assert change[1] < 2 * change[0] + 2, change
    assert float(np.abs(clips[1] - clips[0]).mean()) < 4
