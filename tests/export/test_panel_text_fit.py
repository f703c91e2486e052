"""A storyboard panel with more text than room (:func:`set_turn_text`): the type shrinks, the
second column fills, and what still has no room goes on in continuation panels headed
"Turn 1 (continued)" (:func:`continue_panel_text`), the panel's last line saying where. No
text is left out any more (dialogue lines and the end of the narration were, before); the
action, shot notes and state stay beside the picture; nothing runs out of a panel's text
box. Checked on the functions' own output with the sheets' real font metrics (PNG and PDF),
and on real exports through the CLI."""

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
    LINE,
    MIN_TEXT_SIZE,
    MUTED,
    WIDE,
    Measure,
    PanelText,
    PlacedLine,
    Rect,
    StoryboardLayout,
    TextStyle,
    continue_panel_text,
    set_panel_text,
    set_turn_text,
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
        elif line.style is TextStyle.ITALIC and line.colour == MUTED:  # where the text goes on
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


def labels(blocks: list[Block]) -> list[str]:
    return [block.label for block in blocks]


def layout_of(panels: int) -> tuple[Rect, ...]:
    return StoryboardLayout(panels, WIDE).panel(0).text


def continuation_of(panels: int) -> tuple[Rect, ...]:
    return StoryboardLayout(panels, WIDE).continuation(panels - 1)


@dataclass
class Panel:
    heading: str
    blocks: list[Block]


def every_panel(columns: tuple[Rect, ...], turn: Turn, measure: Measure,
                later: tuple[Rect, ...] | None = None) -> tuple[list[Panel], float]:
    """The turn's panel and its continuation panels (in ``later``, else ``columns`` again),
    each checked to keep its lines inside its boxes; and the text size."""
    text: PanelText = set_turn_text(columns, turn, measure)
    panels: list[Panel] = []
    boxes = columns
    while True:
        assert_inside(text.lines, boxes, measure)
        heading, blocks = read_blocks(text.lines, boxes)
        panels.append(Panel(heading, blocks))
        if not text.rest:
            break
        assert blocks[-1].label == "" and blocks[-1].lines == ["continued in the next panel \u2192"]
        assert len(panels) < 100, "continuation panels that place nothing"
        boxes = later or columns
        text = continue_panel_text(boxes, turn, text.rest, text.size, measure)
    return panels, text.size


def all_blocks(panels: list[Panel]) -> list[Block]:
    return [block for panel in panels for block in panel.blocks if block.label or not block.lines[0].startswith(
        "continued")]


def text_of(panels: list[Panel], label: str) -> str:
    """All the lines of the blocks labelled ``label`` (or ``label (continued)``), and the unlabelled
    lines that follow them in the next column, squeezed of white space."""
    return squeezed(" ".join(" ".join(block.lines) for block in all_blocks(panels)
                             if block.label in (label, f"{label} (continued)")))


@pytest.mark.parametrize("panels", [1, 2, 3])
def test_long_narration_and_dialogue_go_on_in_continuation_panels(metrics: Measure, panels: int) -> None:
    narration = SENTENCE * 70  # 3,780 characters (a turn holds up to 4,000)
    shown, size = every_panel(layout_of(panels), make_turn(["I'm late!", "Wait for me!"], narration), metrics,
                              continuation_of(panels))
    assert size == MIN_TEXT_SIZE and len(shown) >= 2
    assert shown[0].heading == "Turn 1 · Qiqi"
    assert all(panel.heading == "Turn 1 (continued) · Qiqi" for panel in shown[1:])
    assert labels(shown[0].blocks)[:2] == ["ACTION", "QIQI STATE"]  # what is seen stays beside the picture
    assert [block.lines for block in all_blocks(shown) if block.label == "QIQI"] == [["I'm late!"], ["Wait for me!"]]
    narrated = squeezed(" ".join(" ".join(block.lines) for block in all_blocks(shown)
                                 if block.label in ("", "NARRATION", "NARRATION (continued)")))
    assert narrated == squeezed(narration)  # whole, in order: nothing cut
    assert not any("\u2026" in line for block in all_blocks(shown) for line in block.lines)


def test_every_dialogue_line_stays_in_order(metrics: Measure) -> None:
    narration = SENTENCE * 8
    spoken = [f"line number {index} of the long talk" for index in range(1, 31)]
    shown, _size = every_panel(layout_of(3), make_turn(spoken, narration, "Wide shot, slow pan."), metrics,
                               continuation_of(3))
    assert len(shown) >= 2
    assert [block.lines[0] for block in all_blocks(shown) if block.label == "QIQI"] == spoken
    assert labels(shown[0].blocks)[:3] == ["ACTION", "SHOT NOTES", "QIQI STATE"]
    assert text_of(shown, "NARRATION") == squeezed(narration)


def test_one_panel_fills_the_second_column_before_going_on(metrics: Measure) -> None:
    """25 lines of dialogue and a narration on a page of one panel: the text flows on into the
    second column before any of it goes to a continuation panel."""
    narration = SENTENCE * 21
    spoken = [f"line {index} of the talk" for index in range(1, 26)]
    shown, _size = every_panel(layout_of(1), make_turn(spoken, narration), metrics, continuation_of(1))
    assert {block.column for block in shown[0].blocks} == {0, 1}
    assert [block.lines[0] for block in all_blocks(shown) if block.label == "QIQI"] == spoken
    assert "NARRATION" in labels(all_blocks(shown))


def test_one_panel_with_many_dialogue_lines_only_uses_both_columns(metrics: Measure) -> None:
    spoken = [f"line {index} of the talk" for index in range(1, 10)]
    columns = layout_of(1)
    text = set_turn_text(columns, make_turn(spoken), metrics)
    assert not text.rest
    assert_inside(text.lines, columns, metrics)
    _heading, blocks = read_blocks(text.lines, columns)
    assert [block.lines[0] for block in blocks if block.label == "QIQI"] == spoken
    assert labels(blocks)[-2:] == ["ACTION", "QIQI STATE"]
    assert {block.column for block in blocks if block.label == "QIQI"} == {0, 1}


@pytest.mark.parametrize("panels", [1, 3])
def test_cjk_narration_goes_on_whole(metrics: Measure, panels: int) -> None:
    narration = "港から吹く風が、走る彼女の帽子を引っ張る。" * 120
    shown, _size = every_panel(layout_of(panels), make_turn(["遅れちゃう！"], narration, "ロングショット"), metrics,
                               continuation_of(panels))
    assert len(shown) >= 2
    narrated = squeezed("".join("".join(block.lines) for block in all_blocks(shown)
                                if block.label in ("", "NARRATION", "NARRATION (continued)")))
    assert narrated == squeezed(narration)
    assert [block.lines for block in all_blocks(shown) if block.label == "SHOT NOTES"] == [["ロングショット"]]


def test_huge_shot_notes_go_on_with_their_label_again(metrics: Measure) -> None:
    notes = "Slow pan from the harbour to the clock tower, then a tilt up to the sky. " * 60
    narration = SENTENCE * 20
    shown, _size = every_panel(layout_of(3), make_turn(["Hi!"], narration, notes), metrics, continuation_of(3))
    assert "SHOT NOTES (continued)" in labels(shown[1].blocks)
    assert text_of(shown, "SHOT NOTES") == squeezed(notes)
    assert text_of(shown, "NARRATION") == squeezed(narration)
    assert text_of(shown, "QIQI STATE") == squeezed(STATE)


def test_a_box_of_a_few_lines_still_loses_nothing(metrics: Measure) -> None:
    box = Rect(10, 10, 150, 60)
    narration = SENTENCE * 20
    shown, _size = every_panel((box,), make_turn(["Hi"], narration, "Wide shot."), metrics)
    assert len(shown) > 3
    assert text_of(shown, "NARRATION") == squeezed(narration)
    assert [block.lines for block in all_blocks(shown) if block.label == "QIQI"] == [["Hi"]]
    assert text_of(shown, "SHOT NOTES") == squeezed("Wide shot.")


def test_text_that_fits_is_neither_cut_nor_continued(metrics: Measure) -> None:
    columns = layout_of(3)
    lines, size = set_panel_text(columns, make_turn(["I'm late!"], "The town wakes up.", "Wide."), metrics)
    assert size > MIN_TEXT_SIZE
    assert_inside(lines, columns, metrics)
    _heading, blocks = read_blocks(lines, columns)
    assert labels(blocks) == ["QIQI", "NARRATION", "ACTION", "SHOT NOTES", "QIQI STATE"]
    assert not any("\u2026" in line.text or "continued" in line.text for line in lines)
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
def test_pdf_export_keeps_every_word(tmp_path: Path, capsys: pytest.CaptureFixture[str], panels: int,
                                     narration: str, dialogue: list[str]) -> None:
    pypdf = pytest.importorskip("pypdf")
    path, node = _project(tmp_path, narration, dialogue)
    out = tmp_path / "board.pdf"
    assert main(["export", str(path), "--leaf", node, "--out", str(out), "--panels", str(panels), "-q"]) == 0
    capsys.readouterr()
    pages = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(out)).pages]
    first = pages[0]
    for expected in ("Turn 1 · Qiqi", "ACTION", "Qiqi gently waves 1 in the town, by day.", "QIQI STATE", "Stamina",
                     "Social", "Fun", "continued"):
        assert expected in first, expected
    whole = " ".join(pages)
    assert "Turn 1 (continued) · Qiqi" in whole and "NARRATION" in whole
    assert "more lines" not in whole and "more dialogue" not in whole and "\u2026" not in whole
    for word in ("wind", "harbour", "tugs", "runs."):  # every sentence of it, whichever panel it ends in
        assert whole.count(word) == narration.count(word), word
    for line in dialogue:
        assert line in whole
    assert f"Page {len(pages)} of {len(pages)}" in pages[-1]


def test_png_export_draws_every_panel_on_its_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.export.sheet_png import DPI, PngPage
    from studio.export.storyboard import lay_out_sheet
    from studio.storage import Project

    narration = SENTENCE * 30  # the turn's panel and a continuation panel below it
    path, node = _project(tmp_path, narration, ["I'm late!", "Wait for me!"])
    out = tmp_path / "board.png"
    assert main(["export", str(path), "--leaf", node, "--out", str(out), "--panels", "3", "-q"]) == 0
    capsys.readouterr()
    project = Project.open(path)
    try:
        turns = list(collect_branch(project, node).turns)
    finally:
        project.close()
    layout = StoryboardLayout(3, 64 / 96)  # the fixture's clips are 96 x 64
    page = PngPage(layout)
    sheet = lay_out_sheet(layout, turns, page.width)  # what the export draws on the PNG pages
    assert [[panel.continued for panel in panels] for panels in sheet] == [[False, True]]
    files = [out]  # one page, in the file named
    scale = DPI / 72
    for drawn, file in zip(sheet, files, strict=True):
        with Image.open(file) as image:
            pixels = np.asarray(image.convert("L"))
        for panel in drawn:
            for line in panel.lines:
                if line.text in ("ACTION", "QIQI STATE", "NARRATION", "QIQI") or line.text.startswith(
                        ("Stamina", "Turn", "continued")):
                    width = page.width(line.text, line.size, line.style)
                    box = pixels[round(line.top * scale):round((line.top + line.size * LINE) * scale),
                                 round(line.x * scale):round((line.x + width) * scale)]
                    assert box.size and box.min() < 160, f"{line.text!r} is not drawn where the layout puts it"
    columns = layout.panel(0).text
    with Image.open(files[0]) as image:
        pixels = np.asarray(image.convert("L"))
    gutter = pixels[round(columns[0].bottom * scale) + 2:round((columns[0].bottom + GUTTER) * scale) - 2,
                    round(columns[0].x * scale):round(columns[0].right * scale)]
    assert gutter.size and gutter.min() > 200, "text runs out of the panel's box"
