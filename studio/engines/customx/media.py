"""Views, scene clips and previous clips as uint8 arrays of the clip's size.

No torch here. Views are composited on grey 128 (RGBA images keep their character and lose
their transparency, as the release prepares them) and fitted into the frame without
distortion; a scene given as a still image becomes a static clip; a scene clip is cut or
looped to the clip's length and resized; videos are read with ffmpeg (imageio-ffmpeg).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.core.picture_modes import eight_bit

GREY = 128
VIDEO_SUFFIXES = (".mp4", ".webm", ".mov", ".mkv", ".avi", ".gif")


class MediaInputError(ValueError):
    """An image or clip that can't be read (the message names the file)."""


MAX_PIXELS = 1024 * 1024 * 1024 // 4 // 3
"""Most pixels of a picture decoded here (89.5 megapixels, Pillow's own guard against
decompression bombs); a JPEG is decoded at the fraction of its size that still fits."""


def fit(image: object, height: int, width: int) -> np.ndarray:
    """A PIL image fitted into height x width on grey, aspect kept."""
    from PIL import Image

    assert isinstance(image, Image.Image)
    image = eight_bit(image)
    if image.mode == "RGBA":
        canvas = Image.new("RGBA", image.size, (GREY, GREY, GREY, 255))
        image = Image.alpha_composite(canvas, image)
    image = image.convert("RGB")
    scale = min(width / image.width, height / image.height)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    image = image.resize(size, Image.Resampling.LANCZOS)
    frame = Image.new("RGB", (width, height), (GREY, GREY, GREY))
    frame.paste(image, ((width - size[0]) // 2, (height - size[1]) // 2))
    return np.asarray(frame, dtype=np.uint8)


def read_image(path: Path, height: int, width: int) -> np.ndarray:
    """``path`` turned upright as its EXIF orientation says (a phone's portrait photo is stored
    sideways), its first frame when it is animated, fitted into height x width on grey."""
    import warnings

    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        if not path.exists():
            raise MediaInputError(f"{path} is missing.")
        if not path.is_file():
            raise MediaInputError(f"{path} is not a file.")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                if image.format == "JPEG":
                    image.draft(None, (max(height, width) * 2, max(height, width) * 2))
                if image.width * image.height > MAX_PIXELS:
                    raise MediaInputError(f"{path} is {image.width:,} x {image.height:,} pixels; the limit is "
                                          f"{MAX_PIXELS / 1e6:.1f} megapixels.")
                image.load()
                upright = ImageOps.exif_transpose(image)
                return fit(upright if upright is not None else image, height, width)
    except MediaInputError:
        raise
    except Image.DecompressionBombError:
        raise MediaInputError(f"{path} declares more pixels than the limit of {MAX_PIXELS / 1e6:.1f} "
                              f"megapixels.") from None
    except UnidentifiedImageError:
        raise MediaInputError(f"{path} is not a picture (PNG, JPEG, WebP, BMP or GIF).") from None
    except (OSError, ValueError, SyntaxError) as error:
        reason = getattr(error, "strerror", None) or error
        raise MediaInputError(f"{path} is not a readable image: {reason}.") from None


def grey(count: int, height: int, width: int) -> np.ndarray:
    return np.full((count, height, width, 3), GREY, dtype=np.uint8)


def read_video(path: Path, limit: int = 4096) -> np.ndarray:
    """Up to ``limit`` frames of ``path`` (T x H x W x 3); a file that isn't there or isn't a
    video is refused in one line that names it (never ffmpeg's whole log)."""
    import imageio_ffmpeg

    if not path.exists():
        raise MediaInputError(f"{path} is missing.")
    if not path.is_file():
        raise MediaInputError(f"{path} is not a file.")
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
        raise MediaInputError(f"{path} is not a readable video: {ffmpeg_reason(error)}.") from None
    if not frames:
        raise MediaInputError(f"{path} holds no frames.")
    return np.stack(frames)


def ffmpeg_reason(error: BaseException) -> str:
    """The line of ffmpeg's log that says what went wrong ("Invalid data found when processing
    input"), not the version banner and build options printed before it."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for line in reversed(lines):
        if line.lower().startswith("error opening input files:"):
            return line.split(":", 1)[1].strip().rstrip(".")
    told = [line for line in lines if "error" in line.lower() or "invalid" in line.lower()]
    reason = told[-1] if told else (lines[0] if lines else type(error).__name__)
    return reason.rstrip(".")


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
