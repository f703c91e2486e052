"""A storyboard panel with more text than room (:func:`set_panel_text`): dialogue lines go
first (from the last, with an exact count), then the end of the narration (cut with "…");
the action, shot notes and state always stay; the second column fills before anything is
left out; nothing runs out of the panel's text box. Checked on the function's own output
with the sheets' real font metrics (PNG and PDF), and on real exports through the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.cli import main
from studio.core.state import CharacterState, StateDeltas
from studio.core.story import DialogueLine, StoryFields
from studio.export.branch import Turn, collect_branch
from studio.export.storyboard import (
    GUTTER,
    INK,
    LABEL_SCALE,
    LINE,
    MIN_TEXT_SIZE,
    MUTED,
    WIDE,
    Measure,
    PlacedLine,
    Rect,
    StoryboardLayout,
    TextStyle,
    set_panel_text,
)

from .helpers import build

ACTION = "Qiqi runs in the park, by day."
SENTENCE = "The wind off the harbour tugs at her hat as she runs. "
STATE = "Stamina 40 (-10) · Social 50 · Fun 55 (+5)"
EPS = 0.01


def make_turn(dialogue: list[str] | None = None, narration: str = "", notes: str = "") -> Turn:
    story = StoryFields(tuple(DialogueLine("Qiqi", text) for text in dialogue or []), narration, None, notes)
    return Turn(1, "node", "take", "Character: Qiqi; Motion: run; Background: day park.", CharacterState(40, 50, 55),
                StateDeltas(-2, 0, 1), Path("clip.mp4"), None, character="Qiqi", action=ACTION, story=story)


@pytest.fixture(params=["png", "pdf"])
def metrics(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Measure]:
    """The text widths a PNG sheet (150 dpi Pillow fonts) or a PDF sheet (reportlab) measures with."""
    layout = StoryboardLayout(3, WIDE)
    if request.param == "png":
        from studio.export.sheet_png import PngPage

        yield PngPage(layout).width
    else:
        from studio.export.sheet_pdf import PdfMetadata, PdfSheet

        yield PdfSheet(tmp_path / "metrics.pdf", layout, PdfMetadata("metrics")).width


@dataclass
class Block:
    label: str
    lines: list[str]
    column: int


def column_of(line: PlacedLine, columns: tuple[Rect, ...]) -> int:
    """The column a line is placed in: by its left edge, or its right edge for a right-aligned line."""
    return next(index for index, box in enumerate(columns)
                if abs((box.right if line.align == "right" else box.x) - line.x) < EPS)


def read_blocks(lines: list[PlacedLine], columns: tuple[Rect, ...]) -> tuple[str, list[Block]]:
    """The heading and the blocks of a panel's placed lines: a bold label starts a block (its
    lines follow, in this column or the next), a muted italic "… +N" line is a note."""
    heading, *rest = lines
    blocks: list[Block] = []
    for line in rest:
        column = column_of(line, columns)
        if line.style is TextStyle.BOLD and not line.text:
            continue
        if line.style is TextStyle.BOLD:
            blocks.append(Block(line.text, [], column))
        elif line.style is TextStyle.ITALIC and line.colour == MUTED and line.text.startswith("\u2026 +"):
            blocks.append(Block("", [line.text], column))
        else:
            assert blocks, f"a line before any label: {line.text!r}"
            blocks[-1].lines.append(line.text)
    return heading.text, blocks


def assert_inside(lines: list[PlacedLine], columns: tuple[Rect, ...], measure: Measure) -> None:
    """Every line within its column's box (the heading within all of them), lines never overlapping."""
    heading, *rest = lines
    assert measure(heading.text, heading.size, heading.style) <= columns[-1].right - columns[0].x + EPS
    assert heading.top >= columns[0].y - EPS
    last_bottom = dict.fromkeys(range(len(columns)), heading.top + heading.size * LINE)  # it spans the columns
    for line in rest:
        column = column_of(line, columns)
        box = columns[column]
        width = measure(line.text, line.size, line.style)
        left = line.x - width if line.align == "right" else line.x
        assert box.x - EPS <= left and left + width <= box.right + EPS, (line.text, width, box.w)
        assert line.top >= box.y - EPS and line.top + line.size * LINE <= box.bottom + EPS, (line.text, line.top)
        assert line.top >= last_bottom.get(column, box.y) - EPS, f"{line.text!r} overlaps the line above"
        last_bottom[column] = line.top + line.size * LINE


def squeezed(text: str) -> str:
    return "".join(text.split())


def assert_cut_narration(block: Block, narration: str) -> None:
    assert block.lines and block.lines[-1].endswith("\u2026"), block.lines
    shown = squeezed(" ".join(block.lines))[:-1]
    assert shown and squeezed(narration).startswith(shown)
    assert len(shown) < len(squeezed(narration))


def labels(blocks: list[Block]) -> list[str]:
    return [block.label for block in blocks]


def layout_of(panels: int) -> tuple[Rect, ...]:
    return StoryboardLayout(panels, WIDE).panel(0).text


@pytest.mark.parametrize("panels", [1, 2, 3])
def test_long_narration_and_dialogue_keeps_narration_action_and_state(metrics: Measure, panels: int) -> None:
    narration = SENTENCE * 70  # 3,780 characters (a turn holds up to 4,000)
    columns = layout_of(panels)
    lines, size = set_panel_text(columns, make_turn(["I'm late!", "Wait for me!"], narration), metrics)
    assert size == MIN_TEXT_SIZE
    assert_inside(lines, columns, metrics)
    heading, blocks = read_blocks(lines, columns)
    assert heading == "Turn 1 · Qiqi"
    assert labels(blocks) == ["", "NARRATION", "ACTION", "QIQI STATE"]
    assert blocks[0].lines == ["\u2026 +2 more dialogue lines"]
    assert_cut_narration(blocks[1], narration)
    assert blocks[2].lines == [ACTION]
    assert " ".join(blocks[3].lines) == STATE
    if panels == 1:  # the narration fills the first column and goes on in the second
        assert {blocks[1].column, blocks[3].column} == {0, 1}


def test_dialogue_lines_go_from_the_last_with_an_exact_count(metrics: Measure) -> None:
    """Enough room for the narration and some of the dialogue: the first lines stay, the
    note counts the lines left out (not blocks), the narration is whole."""
    narration = SENTENCE * 8
    spoken = [f"line number {index} of the long talk" for index in range(1, 31)]
    columns = layout_of(3)
    lines, _size = set_panel_text(columns, make_turn(spoken, narration, "Wide shot, slow pan."), metrics)
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    kept = [block.lines[0] for block in blocks if block.label == "QIQI"]
    assert 0 < len(kept) < 30 and kept == spoken[:len(kept)]
    assert labels(blocks)[len(kept):] == ["", "NARRATION", "ACTION", "SHOT NOTES", "QIQI STATE"]
    assert blocks[len(kept)].lines == [f"\u2026 +{30 - len(kept)} more dialogue lines"]
    assert squeezed(" ".join(blocks[len(kept) + 1].lines)) == squeezed(narration)
    assert blocks[len(kept) + 3].lines == ["Wide shot, slow pan."]


@pytest.mark.parametrize("panels", [2, 3])
def test_huge_narration_without_dialogue_is_cut_with_an_ellipsis(metrics: Measure, panels: int) -> None:
    narration = SENTENCE * 60  # about 3,200 characters
    columns = layout_of(panels)
    lines, _size = set_panel_text(columns, make_turn(narration=narration, notes="Wide shot."), metrics)
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    assert labels(blocks) == ["NARRATION", "ACTION", "SHOT NOTES", "QIQI STATE"]
    assert_cut_narration(blocks[0], narration)
    assert blocks[1].lines == [ACTION] and blocks[2].lines == ["Wide shot."]
    assert not any("more" in line.text for line in lines if line.colour == MUTED and line.style is TextStyle.ITALIC)
    # the narration was cut only as far as needed: one more of its lines would not fit
    bottom = max(line.top + line.size * LINE for line in lines)
    assert columns[-1].bottom - bottom < MIN_TEXT_SIZE * LINE


def test_one_panel_fills_the_second_column_before_leaving_dialogue_out(metrics: Measure) -> None:
    """25 lines of dialogue and a narration on a page of one panel: the dialogue flows on into
    the second column, the narration after it (split between the columns if need be), and only
    what neither column holds is left out."""
    narration = SENTENCE * 21  # whole, it fits the first column, not what the second has left
    spoken = [f"line {index} of the talk" for index in range(1, 26)]
    columns = layout_of(1)
    lines, _size = set_panel_text(columns, make_turn(spoken, narration), metrics)
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    kept = [block for block in blocks if block.label == "QIQI"]
    assert kept and [block.lines[0] for block in kept] == spoken[:len(kept)]
    assert {block.column for block in blocks} == {0, 1}
    rest = labels(blocks)[len(kept):]
    assert rest[-3:] == ["NARRATION", "ACTION", "QIQI STATE"]
    assert squeezed(" ".join(next(b for b in blocks if b.label == "NARRATION").lines)) == squeezed(narration)
    if len(kept) < 25:
        assert rest[0] == "" and blocks[len(kept)].lines == [f"\u2026 +{25 - len(kept)} more dialogue lines"]
        # full: one more dialogue line (a label and a line) would not have fitted
        size = MIN_TEXT_SIZE
        spare = min(box.bottom for box in columns) - max(line.top + line.size * LINE for line in lines)
        assert spare < size * LABEL_SCALE * LINE + size * LINE + size * 0.55


def test_one_panel_with_many_dialogue_lines_only_uses_both_columns(metrics: Measure) -> None:
    spoken = [f"line {index} of the talk" for index in range(1, 10)]
    columns = layout_of(1)
    lines, _size = set_panel_text(columns, make_turn(spoken), metrics)
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    assert [block.lines[0] for block in blocks if block.label == "QIQI"] == spoken
    assert labels(blocks)[-2:] == ["ACTION", "QIQI STATE"]
    assert {block.column for block in blocks if block.label == "QIQI"} == {0, 1}


@pytest.mark.parametrize("panels", [1, 3])
def test_cjk_narration_is_cut_with_an_ellipsis(metrics: Measure, panels: int) -> None:
    narration = "港から吹く風が、走る彼女の帽子を引っ張る。" * 120
    columns = layout_of(panels)
    lines, _size = set_panel_text(columns, make_turn(["遅れちゃう！"], narration, "ロングショット"), metrics)
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    assert labels(blocks) == ["", "NARRATION", "ACTION", "SHOT NOTES", "QIQI STATE"]
    assert blocks[0].lines == ["\u2026 +1 more dialogue line"]
    assert_cut_narration(blocks[1], narration)
    assert blocks[3].lines == ["ロングショット"]


def test_huge_shot_notes_are_cut_never_left_out(metrics: Measure) -> None:
    """Were even the action, notes and state too long, the longest is cut, no block dropped."""
    notes = "Slow pan from the harbour to the clock tower, then a tilt up to the sky. " * 60
    narration = SENTENCE * 20
    columns = layout_of(3)
    lines, _size = set_panel_text(columns, make_turn(["Hi!"], narration, notes), metrics)
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    assert labels(blocks) == ["", "NARRATION", "ACTION", "SHOT NOTES", "QIQI STATE"]
    assert blocks[1].lines[-1].endswith("\u2026") and blocks[3].lines[-1].endswith("\u2026")
    assert blocks[2].lines == [ACTION] and " ".join(blocks[4].lines) == STATE


def test_a_box_too_small_for_a_line_of_each_block_says_how_many_lines_it_left_out(metrics: Measure) -> None:
    box = Rect(10, 10, 150, 60)
    lines, _size = set_panel_text((box,), make_turn(["Hi"], SENTENCE * 20, "Wide shot."), metrics)
    assert_inside(lines, (box,), metrics)
    _heading, blocks = read_blocks(lines, (box,))
    assert labels(blocks)[:3] == ["", "NARRATION", "ACTION"]
    assert blocks[1].lines[-1].endswith("\u2026")
    shown = sum(1 for block in blocks[1:-1] if block.label in ("SHOT NOTES", "QIQI STATE"))
    assert blocks[-1].label == "" and blocks[-1].lines == [f"\u2026 +{2 - shown} more line{'s' * (shown == 0)}"]


def test_text_that_fits_is_neither_cut_nor_noted(metrics: Measure) -> None:
    columns = layout_of(3)
    lines, size = set_panel_text(columns, make_turn(["I'm late!"], "The town wakes up.", "Wide."), metrics)
    assert size > MIN_TEXT_SIZE
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    assert labels(blocks) == ["QIQI", "NARRATION", "ACTION", "SHOT NOTES", "QIQI STATE"]
    assert not any("\u2026" in line.text for line in lines)
    assert [line.colour for line in lines if line.text == "The town wakes up."] == [INK]


# -- real exports through the CLI --------------------------------------------------------------


def _project(tmp_path: Path, narration: str, dialogue: list[str]) -> tuple[Path, str]:
    fixture = build(tmp_path)
    path, node = fixture.project.path, fixture.nodes[0]
    fixture.project.close()
    assert main(["narrate", str(path), node, narration]) == 0
    for text in dialogue:
        assert main(["say", str(path), node, text]) == 0
    return path, node


@pytest.mark.parametrize(("panels", "narration", "dialogue"),
                         [(3, SENTENCE * 30, ["I'm late!", "Wait for me!"]), (2, SENTENCE * 60, []),
                          (1, SENTENCE * 70, ["I'm late!", "Wait for me!"])])
def test_pdf_export_keeps_narration_action_and_state(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      panels: int, narration: str, dialogue: list[str]) -> None:
    pypdf = pytest.importorskip("pypdf")
    path, node = _project(tmp_path, narration, dialogue)
    out = tmp_path / "board.pdf"
    assert main(["export", str(path), "--leaf", node, "--out", str(out), "--panels", str(panels), "-q"]) == 0
    capsys.readouterr()
    text = pypdf.PdfReader(str(out)).pages[0].extract_text()
    flat = " ".join(text.split())
    for expected in ("Turn 1 · Qiqi", "NARRATION", "The wind off the harbour", "ACTION",
                     "Qiqi gently waves 1 in the town, by day.", "QIQI STATE", "Stamina", "Social", "Fun"):
        assert expected in flat, expected
    assert "\u2026" in flat  # the narration's cut
    assert "more lines" not in flat
    if dialogue:
        assert f"\u2026 +{len(dialogue)} more dialogue lines" in flat


def test_png_export_draws_the_kept_blocks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.export.sheet_png import DPI, PngPage
    from studio.storage import Project

    narration = SENTENCE * 30
    path, node = _project(tmp_path, narration, ["I'm late!", "Wait for me!"])
    out = tmp_path / "board.png"
    assert main(["export", str(path), "--leaf", node, "--out", str(out), "--panels", "3", "-q"]) == 0
    capsys.readouterr()
    project = Project.open(path)
    try:
        turn = next(turn for turn in collect_branch(project, node).turns if turn.node_id == node)
    finally:
        project.close()
    layout = StoryboardLayout(3, 64 / 96)  # the fixture's clips are 96 x 64
    columns = layout.panel(0).text
    page = PngPage(layout)
    lines, _size = set_panel_text(columns, turn, page.width)  # what draw_page draws on the PNG
    _heading, blocks = read_blocks(lines, columns)
    assert labels(blocks) == ["", "NARRATION", "ACTION", "QIQI STATE"]
    assert_cut_narration(blocks[1], narration)
    scale = DPI / 72
    with Image.open(out) as image:
        pixels = np.asarray(image.convert("L"))
    for line in lines:
        if line.text in ("ACTION", "QIQI STATE", "NARRATION") or line.text.startswith("Stamina"):
            width = page.width(line.text, line.size, line.style)
            box = pixels[round(line.top * scale):round((line.top + line.size * LINE) * scale),
                         round(line.x * scale):round((line.x + width) * scale)]
            assert box.size and box.min() < 160, f"{line.text!r} is not drawn where the layout puts it"
    gutter = pixels[round(columns[0].bottom * scale) + 2:round((columns[0].bottom + GUTTER) * scale) - 2,
                    round(columns[0].x * scale):round(columns[0].right * scale)]
    assert gutter.size and gutter.min() > 200, "text runs out of the panel's box"
