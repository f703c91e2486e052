"""Subtitles existed only as SRT; sites and browsers (an HTML ``<track>``) take WebVTT. A
``.vtt`` export now writes the SRT's subtitles as WebVTT: the same cues at the same times (a
full stop before the milliseconds), the same lines and italics, ``&`` escaped."""

from __future__ import annotations

import re
from pathlib import Path

from studio.cli import main
from studio.core import AddDialogueLine, SetNarration
from studio.export import export_branch

from .helpers import Fixture, parse_srt


def _vtt_cues(text: str) -> list[tuple[float, float, str]]:
    assert text.startswith("WEBVTT\n\n"), text[:20]
    cues = []
    for block in text.split("\n\n")[1:]:
        lines = block.strip("\n").splitlines()
        match = re.fullmatch(r"(\d+):(\d+):(\d+)\.(\d{3}) --> (\d+):(\d+):(\d+)\.(\d{3})", lines[1])
        assert match, block
        v = [int(x) for x in match.groups()]
        cues.append((v[0] * 3600 + v[1] * 60 + v[2] + v[3] / 1000, v[4] * 3600 + v[5] * 60 + v[6] + v[7] / 1000,
                     "\n".join(lines[2:])))
    return cues


def test_a_vtt_export_holds_the_srts_cues(story: Fixture, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    story.project.apply(SetNarration(story.nodes[0], "The town wakes up."))
    story.project.apply(AddDialogueLine(story.nodes[1], "Qiqi", "Bread & butter <now>!"))
    srt = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ep.srt").path.read_text("utf-8"))
    path, leaf = story.project.path, story.leaf
    story.project.close()
    assert main(["export", str(path), "--leaf", leaf, "--out", str(tmp_path / "ep.vtt"), "--quiet"]) == 0
    vtt = _vtt_cues((tmp_path / "ep.vtt").read_text(encoding="utf-8"))
    assert [(start, end) for start, end, _ in vtt] == [(start, end) for start, end, _ in srt]
    assert [text.replace("&amp;", "&") for _, _, text in vtt] == [text for _, _, text in srt]
    assert vtt[0][2] == "<i>The town wakes up.</i>" and "Bread &amp; butter" in vtt[1][2]
