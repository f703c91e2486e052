#!/usr/bin/env python3
"""A stand-in for the ``ffmpeg`` executable on benchmark machines that have none (the GPU
machine used for ``bench cluster`` has OpenCV but no ffmpeg, and the bundled one of
imageio-ffmpeg is too big to bring along).

It understands only what the studio's clip encoder sends (raw RGB frames on stdin:
``-f rawvideo -pix_fmt rgb24 -s WxH -framerate N/D -i pipe:0 ... OUTPUT``) and writes an
MPEG-4 Part 2 mp4 with OpenCV instead of H.264 with x264. The clip encode costs a little
less than x264's; benchmark notes say when it was used. Never used by the app.
"""

from __future__ import annotations

import sys
from fractions import Fraction


def main(argv: list[str]) -> int:
    import cv2
    import numpy as np

    def value(flag: str) -> str:
        return argv[argv.index(flag) + 1]

    if "-s" not in argv or "pipe:0" not in argv:
        print(f"opencv_ffmpeg: unsupported call {argv}", file=sys.stderr)
        return 1
    width, height = (int(v) for v in value("-s").split("x"))
    fps = float(Fraction(value("-framerate"))) if "-framerate" in argv else 8.0
    target = argv[-1]
    writer = cv2.VideoWriter(target, cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
    if not writer.isOpened():
        print(f"opencv_ffmpeg: can't write {target}", file=sys.stderr)
        return 1
    size = width * height * 3
    stream = sys.stdin.buffer
    while True:
        data = stream.read(size)
        if len(data) < size:
            break
        frame = np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)
        writer.write(cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
    writer.release()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
