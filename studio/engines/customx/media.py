"""Views, scene clips and previous clips as uint8 arrays of the clip's size.

No torch here. Views are composited on grey 128 (RGBA images keep their character and lose
their transparency, as the release prepares them) and fitted into the frame without
distortion; a scene given as a still image becomes a static clip; a scene clip is cut or
looped to the clip's length and resized; videos are read with ffmpeg (imageio-ffmpeg).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

GREY = 128
VIDEO_SUFFIXES = (".mp4", ".webm", ".mov", ".mkv", ".avi", ".gif")


class MediaInputError(ValueError):
    """An image or clip that can't be read (the message names the file)."""


def fit(image: object, height: int, width: int) -> np.ndarray:
    """A PIL image fitted into height x width on grey, aspect kept."""
    from PIL import Image

    assert isinstance(image, Image.Image)
    if image.mode in ("RGBA", "LA", "P"):
        rgba = image.convert("RGBA")
        canvas = Image.new("RGBA", rgba.size, (GREY, GREY, GREY, 255))
        image = Image.alpha_composite(canvas, rgba)
    image = image.convert("RGB")
    scale = min(width / image.width, height / image.height)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    image = image.resize(size, Image.Resampling.LANCZOS)
    frame = Image.new("RGB", (width, height), (GREY, GREY, GREY))
    frame.paste(image, ((width - size[0]) // 2, (height - size[1]) // 2))
    return np.asarray(frame, dtype=np.uint8)


def read_image(path: Path, height: int, width: int) -> np.ndarray:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            image.load()
            return fit(image, height, width)
    except (OSError, UnidentifiedImageError) as error:
        raise MediaInputError(f"{path} is not a readable image: {error}.") from None


def read_views(paths: Sequence[str], height: int, width: int) -> np.ndarray:
    """V x H x W x 3."""
    return np.stack([read_image(Path(p), height, width) for p in paths])


def grey(count: int, height: int, width: int) -> np.ndarray:
    return np.full((count, height, width, 3), GREY, dtype=np.uint8)


def read_video(path: Path, limit: int = 4096) -> np.ndarray:
    import imageio_ffmpeg

    frames: list[np.ndarray] = []
    try:
        reader = imageio_ffmpeg.read_frames(str(path), pix_fmt="rgb24")
        try:
            meta = next(reader)
            width, height = meta["size"]
            for buffer in reader:
                frames.append(np.frombuffer(buffer, dtype=np.uint8).reshape(height, width, 3))
                if len(frames) >= limit:
                    break
        finally:
            reader.close()
    except (RuntimeError, StopIteration, OSError, ValueError) as error:
        raise MediaInputError(f"{path} is not a readable video: {error}.") from None
    if not frames:
        raise MediaInputError(f"{path} holds no frames.")
    return np.stack(frames)


def resize_frames(frames: np.ndarray, height: int, width: int) -> np.ndarray:
    from PIL import Image

    if frames.shape[1:3] == (height, width):
        return frames
    return np.stack([fit(Image.fromarray(f), height, width) for f in frames])


def scene_clip(path: str, frames: int, height: int, width: int) -> np.ndarray:
    """T x H x W x 3: a video cut or looped to ``frames``, or a still image repeated."""
    source = Path(path)
    if source.suffix.lower() in VIDEO_SUFFIXES:
        video = read_video(source, limit=frames)
        index = np.arange(frames) % video.shape[0]
        return resize_frames(video[index], height, width)
    still = read_image(source, height, width)
    return np.repeat(still[None], frames, axis=0)


def mask_clip(frames: int, height: int, width: int) -> np.ndarray:
    """The scene path's mask clip: white where the scene may change (the whole frame)."""
    return np.full((frames, height, width, 3), 255, dtype=np.uint8)


def last_frames(path: Path, count: int, height: int, width: int) -> np.ndarray:
    video = read_video(path)
    if video.shape[0] < count:
        pad = np.repeat(video[:1], count - video.shape[0], axis=0)
        video = np.concatenate([pad, video])
    return resize_frames(video[-count:], height, width)
