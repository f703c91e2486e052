"""A full-width space (U+3000) a Japanese author typed between sentences was made a narrow
space in the SRT, burned captions and sheets (``手を振る。 そして``). It now stays a
full-width space, and no line starts with one: a line break after it takes it away."""

from __future__ import annotations

from pathlib import Path

from studio.core import SetDuration, SetNarration
from studio.export import export_branch
from studio.export.drawing import caption_layout, wrap_text
from studio.export.spaces import single_spaced

from .helpers import Fixture, parse_srt

SPACE = "\u3000"
NARRATION = f"夜、美咲は公園で手を振る。{SPACE}そして、走り出した。{SPACE}{SPACE}「待って！」"


def test_srt_keeps_the_full_width_space(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SetNarration(story.nodes[0], NARRATION))
    story.project.apply(SetDuration(story.nodes[0], 8.0))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ja.srt").path.read_text(
        encoding="utf-8"))
    # more than two Japanese lines: two subtitles, cut at the sentence end before the last space
    bodies = [text.replace("\n", "") for _, _, text in entries[:2]]
    assert bodies == [f"<i>夜、美咲は公園で手を振る。{SPACE}そして、走り出した。</i>", "<i>「待って！」</i>"]
    assert " " not in "".join(bodies), "no narrow space in place of the full-width one"


def test_a_long_text_is_cut_into_subtitles_after_the_space_never_before(story: Fixture, tmp_path: Path) -> None:
    sentence = "美咲は友達と一緒に公園の長い道をゆっくりと歩いて帰りました。"  # 30 characters
    story.project.apply(SetNarration(story.nodes[0], SPACE.join([sentence] * 4)))
    story.project.apply(SetDuration(story.nodes[0], 30.0))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "long.srt").path.read_text(
        encoding="utf-8"))
    bodies = [text.removeprefix("<i>").removesuffix("</i>") for _, _, text in entries if text.startswith("<i>")]
    assert len(bodies) >= 4, bodies  # each 30-character sentence takes more than one subtitle
    lines = [line for body in bodies for line in body.split("\n")]
    assert all(not line.startswith(SPACE) for line in lines), lines
    assert "".join(lines).replace(SPACE, "") == sentence * 4


def test_drawn_lines_never_start_or_end_with_it() -> None:
    for room in range(4, 16):
        lines = wrap_text(NARRATION, len, room)
        assert not any(line.startswith(SPACE) or line.endswith(SPACE) for line in lines), (room, lines)
        assert "".join(lines).replace(SPACE, "") == NARRATION.replace(SPACE, "")
    _face, lines, _cut = caption_layout((320, 240), NARRATION)
    assert SPACE in "".join(lines) and " " not in "".join(lines)


def test_single_spaced() -> None:
    assert single_spaced(f"{SPACE} a{SPACE}{SPACE}b\t\nc{SPACE}") == f"a{SPACE}b c"
    assert single_spaced(f"a {SPACE}b") == "a b"  # a run of mixed spaces: one narrow space
    assert single_spaced(f"{SPACE}{SPACE}") == ""
