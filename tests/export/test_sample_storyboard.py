"""The sample story, generated and exported as a storyboard PDF, rendered by poppler's
pdftoppm: page count, a picture in every panel, the story's words on the page. The pages
are kept in test-output/ to be looked at."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.composition import DEFAULT_ENGINE, create_sample_project, default_registry
from studio.export import ExportOptions, export_branch
from studio.export.storyboard import StoryboardLayout
from studio.worker import GenerationService

pypdf = pytest.importorskip("pypdf")
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
DPI = 72


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils (pdftoppm)")
def test_the_sample_storyboard_has_a_picture_in_every_panel_and_the_stories_words(tmp_path: Path) -> None:
    with create_sample_project(tmp_path / "sample") as project:
        service = GenerationService(project, default_registry(), default_engine=DEFAULT_ENGINE)
        service.start()
        try:
            tree = project.tree
            for leaf in tree.leaves_under(tree.root_id):
                service.fill(leaf.id)
            assert service.wait_idle(120)
        finally:
            service.stop()
        leaf = project.tree.leaves_under(project.tree.root_id)[0]
        out = tmp_path / "sample.pdf"
        result = export_branch(project, leaf.id, out, options=ExportOptions(panels_per_page=3))
        first = project.tree.selected_take(project.tree.path_to(leaf.id)[1].id)
        assert first is not None
        with Image.open(project.resolve(first.poster_path)) as poster:
            aspect = poster.height / poster.width
    assert result.pages == 2 and result.turns == 5
    assert len(pypdf.PdfReader(str(out)).pages) == 2
    text = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(out)).pages)
    for words in ("Qiqi's first delivery", "The bakery said before noon. I can make it!", "YUZU",
                  "There you are! The cake for the clock tower is ready.", "NARRATION",
                  "Qiqi gently sits on the railing in the town, by day.", "Page 2 of 2", "Turn 2 · Qiqi · 3 s"):
        assert words in text, words
    assert "Character:" not in text and "Motion:" not in text

    OUTPUT.mkdir(exist_ok=True)
    prefix = OUTPUT / "sample-storyboard"
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), str(out), str(prefix)], check=True, capture_output=True,
                   timeout=120)
    layout = StoryboardLayout(3, aspect)
    pages = sorted(OUTPUT.glob("sample-storyboard-*.png"))
    assert len(pages) == 2
    for page_index, page in enumerate(pages):
        with Image.open(page) as image:
            pixels = np.asarray(image.convert("RGB")).astype(int)
        assert abs(pixels.shape[0] - 842) <= 1 and abs(pixels.shape[1] - 595) <= 1  # A4 portrait at 72 dpi
        for slot in range(min(3, 5 - 3 * page_index)):
            box = layout.panel(slot).picture
            inner = pixels[round(box.y) + 3:round(box.bottom) - 3, round(box.x) + 3:round(box.right) - 3]
            assert inner.std() > 20, f"page {page_index + 1}, panel {slot + 1} is empty"
            colours = len(np.unique(inner.reshape(-1, 3), axis=0))
            assert colours > 200, f"page {page_index + 1}, panel {slot + 1} holds {colours} colours: not a picture"
            text_box = layout.panel(slot).text[0]
            words = pixels[round(text_box.y):round(text_box.y) + 60, round(text_box.x):round(text_box.right)]
            assert (words.sum(axis=2) < 300).any(), "the panel's text is drawn"
        if page_index == 1:  # two panels on the last page: the third slot stays white
            empty = layout.panel(2).picture
            assert pixels[round(empty.y):round(empty.bottom), round(empty.x):round(empty.right)].min() > 240
