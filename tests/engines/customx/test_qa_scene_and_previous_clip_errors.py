"""A location's scene clip or the previous turn's clip that can't be read is refused in one line
that says which of the two it is, names the file and what to do (never ffmpeg's banner and
build options); a real clip still reads back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.engines.customx import media

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.core.model import Location  # noqa: E402
from studio.engines.base import EngineConfig, EngineError, GenerationContext, PreviousClip  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": 1, "continuation_frames": 5, "vae_tiling": False}
INSTRUCTION = parse_instruction("Character: Aoi; Motion: run; Background: harbour.")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> CustomXEngine:
    folder = tmp_path_factory.mktemp("checkpoints")
    write_tiny_checkpoints(folder)
    made = CustomXEngine(EngineConfig(checkpoints=folder), info=TEST_INFO)
    made.load()
    return made


def _write_clip(path: Path, frames: int) -> None:
    import imageio_ffmpeg

    writer = imageio_ffmpeg.write_frames(str(path), (48, 32), fps=8, macro_block_size=16, quality=9)
    writer.send(None)
    for index in range(frames):
        writer.send(np.full((32, 48, 3), 30 * index, np.uint8).tobytes())
    writer.close()


@pytest.mark.parametrize(("make", "said"), [
    (lambda p: p.write_text("a text file named like a video"), "is not a readable video: Invalid data"),
    (lambda p: p.mkdir(), "is not a file"),
    (lambda p: None, "is missing"),
])
def test_a_bad_video_is_refused_in_one_line_naming_it(tmp_path: Path, make: object, said: str) -> None:
    path = tmp_path / "scene.mp4"
    make(path)  # type: ignore[operator]
    with pytest.raises(media.MediaInputError) as raised:
        media.read_video(path)
    message = str(raised.value)
    assert str(path) in message and said in message, message
    assert "\n" not in message and "ffmpeg version" not in message and "configuration" not in message


def test_a_real_clip_is_looped_to_the_turns_length(tmp_path: Path) -> None:
    path = tmp_path / "waves.mp4"
    _write_clip(path, 3)
    clip = media.scene_clip(str(path), 7, 32, 48)
    assert clip.shape == (7, 32, 48, 3)
    np.testing.assert_array_equal(clip[3], clip[0])
    assert clip[2].mean() > clip[0].mean() + 30, "the frames follow the file's"


def test_a_damaged_scene_clip_says_it_is_the_locations(engine: CustomXEngine, tmp_path: Path) -> None:
    fake = tmp_path / "harbour.mp4"
    fake.write_text("not a video")
    harbour = Location("h", "Harbour", params={"scene_clip": str(fake)})
    prediction = engine.predict(GenerationContext(locations=(harbour,)), INSTRUCTION, SETTINGS, 0)
    with pytest.raises(EngineError) as raised:
        engine.decode(prediction, SETTINGS, 0)
    assert raised.value.message.startswith("The scene of this turn's location can't be used: ")
    assert str(fake) in raised.value.message and "\n" not in raised.value.message
    assert "Location from image or video" in raised.value.hint
    assert fake.read_text() == "not a video"


def test_a_missing_previous_clip_says_to_re_roll_the_previous_turn(engine: CustomXEngine, tmp_path: Path) -> None:
    gone = tmp_path / "take" / "clip.mp4"
    previous = PreviousClip(path=gone, frame_count=9, fps=8.0, engine="customx")
    prediction = engine.predict(GenerationContext(previous_clip=previous), INSTRUCTION, SETTINGS, 0)
    with pytest.raises(EngineError) as raised:
        engine.decode(prediction, SETTINGS, 0)
    expected = f"The previous turn's clip, which this one continues, can't be used: {gone} is missing."
    assert raised.value.message == expected
    assert "Re-roll the previous turn" in raised.value.hint
