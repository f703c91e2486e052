"""A clip that ffmpeg can't decode was reported with ffmpeg's last line as it is: its
internal prefix (``[out#0/rawvideo @ 0x55...]``) passed on, and a second full stop after its
own ("...received no packets.."). The message now quotes ffmpeg's words alone, as one
sentence; export's ``decode_turn`` (which takes "Can't decode " off) reads as well."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.storage import ffmpeg
from studio.storage.ffmpeg import MediaError, as_clause, ffmpeg_words


def undecodable_clip(tmp_path: Path) -> Path:
    """An mp4 whose container is whole but whose pictures are zeros."""
    path = tmp_path / "clip.mp4"
    frames = np.random.default_rng(0).integers(0, 255, (8, 48, 64, 3), dtype=np.uint8)
    ffmpeg.encode_mp4(path, frames, 8, 17)
    data = bytearray(path.read_bytes())
    start = data.find(b"mdat") + 44
    data[start:len(data) - 200] = bytes(len(data) - 200 - start)
    path.write_bytes(bytes(data))
    return path


def test_a_decode_failure_quotes_ffmpegs_words_as_one_sentence(tmp_path: Path) -> None:
    path = undecodable_clip(tmp_path)
    with pytest.raises(MediaError) as refused:
        list(ffmpeg.decode_frames(path, (64, 48)))
    message = refused.value.message
    assert message.startswith(f"Can't decode {path}: ")
    assert "[" not in message and "@ 0x" not in message
    assert message.endswith(".") and not message.endswith("..")


@pytest.mark.parametrize(("line", "words"), [
    ("[out#0/rawvideo @ 0x55f82e386a00] Nothing was written.", "Nothing was written."),
    ("[h264 @ 0x5581c0] [mov,mp4,m4a,3gp,3g2,mj2 @ 0x1f] error while decoding MB 3 4", "error while decoding MB 3 4"),
    ("[in#0/mov,mp4,m4a,3gp,3g2,mj2 @ 0x55] moov atom not found", "moov atom not found"),
    ("Error opening input: Invalid data found", "Error opening input: Invalid data found"),
    ("a file named [mine] is missing", "a file named [mine] is missing"),
])
def test_component_prefixes_are_taken_off(line: str, words: str) -> None:
    assert ffmpeg_words(line) == words


@pytest.mark.parametrize(("text", "sentence"), [
    ("no packets.", "no packets."), ("Conversion failed!", "Conversion failed!"), ("exit status 1", "exit status 1."),
])
def test_ffmpegs_words_end_in_one_stop(text: str, sentence: str) -> None:
    assert as_clause(text) == sentence
