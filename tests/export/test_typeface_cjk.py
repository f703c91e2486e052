"""Japanese text is drawn in a Japanese design, Chinese in a Chinese one, Korean in a Korean
one, where the machine has Noto Sans CJK: kanji used to come from Droid Sans Fallback (the
chain's first CJK font, Chinese in design) whatever the text's language.

This machine has no Noto Sans CJK (and must not get it): the collection is made here, from
Droid Sans Fallback's glyphs for a few characters, one face for each language named as Noto
Sans CJK names them, each face squeezed by its own amount, so which face drew a character
shows in the pixels. The choice itself is also checked with font file lists faked at the
boundary where the machine's fonts are found."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from studio.export import drawing, typeface
from studio.export.drawing import caption_layout, caption_patch, font_file, load_typeface
from studio.export.typeface import Typeface, chinese_script, fallback_font_files, language_face, text_language

CHARACTERS = "美咲は東京へ行く今天很學校這这国國"
SQUEEZE = {"JP": 0.5, "KR": 0.6, "SC": 0.7, "TC": 0.8}
"""How narrow each made face draws its glyphs (Droid Sans Fallback's own: 1)."""


def _droid() -> Path:
    found = [path for path in fallback_font_files() if path.name.startswith("DroidSansFallback")]
    if not found:
        pytest.skip("needs Droid Sans Fallback (fonts-droid-fallback) for glyphs to build a collection from")
    return found[0]


def _regular() -> Path:
    path = font_file(False)
    if path is None:
        pytest.skip("needs a TrueType font (DejaVu Sans)")
    return path


def _face_bytes(source: Path, family: str, squeeze: float) -> bytes:
    """One font of Droid Sans Fallback's glyphs for :data:`CHARACTERS`, named ``family``, its
    outlines ``squeeze`` times as wide."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(source))
    subsetter = subset.Subsetter()
    subsetter.populate(text=CHARACTERS)
    subsetter.subset(font)
    names = font["name"]
    for name_id in (1, 4, 16, 17):
        names.removeNames(nameID=name_id)
    names.setName(family, 1, 3, 1, 0x409)
    glyphs = font["glyf"]
    for glyph_name in font.getGlyphOrder():
        glyph = glyphs[glyph_name]
        if glyph.numberOfContours > 0:  # composites follow their squeezed parts
            glyph.coordinates.scale((squeeze, 1))
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _collection(folder: Path, families: list[str], name: str = "NotoSansCJK-Regular.ttc") -> Path:
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.ttCollection import TTCollection

    collection = TTCollection()
    collection.fonts = [TTFont(io.BytesIO(_face_bytes(_droid(), family, SQUEEZE.get(family[-2:], 1.0))))
                        for family in families]
    path = folder / name
    collection.save(str(path))
    return path


@pytest.fixture
def noto(tmp_path: Path) -> Path:
    """A Noto Sans CJK collection, its faces in the order fonts-noto-cjk has them."""
    return _collection(tmp_path, [f"Noto Sans CJK {tag}" for tag in ("JP", "KR", "SC", "TC")])


def _face(*fallbacks: Path) -> Typeface:
    regular = _regular()
    return Typeface(ImageFont.truetype(str(regular), 40), regular, 40, fallbacks)


def _cjk_font(face: Typeface, text: str, context: str = "") -> tuple[str, int]:
    """(file name, face index) of the font that draws the CJK characters of ``text``."""
    fonts = {(Path(font.path).name, font.index) for font, run in face.runs(text, context)
             if any(char in CHARACTERS for char in run)}
    assert len(fonts) == 1, fonts
    return fonts.pop()


def test_the_language_picks_the_face(noto: Path) -> None:
    face = _face(_droid(), noto)
    assert _cjk_font(face, "美咲: 東京へ行く") == (noto.name, 0)  # JP
    assert _cjk_font(face, "Qiqi: 美咲は東京へ") == (noto.name, 0)  # Japanese with an English name
    assert _cjk_font(face, "今天很美") == (noto.name, 2)  # SC
    assert _cjk_font(face, "這學校很美") == (noto.name, 3)  # TC
    assert _cjk_font(face, "안녕 學校") == (noto.name, 1)  # KR (the hanja; this Droid has no Hangul)
    # a line of kanji alone: the caption it is a line of decides
    assert _cjk_font(face, "東京", context="美咲: 東京へ行く") == (noto.name, 0)
    assert _cjk_font(face, "東京") == (noto.name, 3 if chinese_script("東京") == "zh-Hant" else 2)
    # Latin text: the export's font, in one run
    assert [run for _font, run in face.runs("Qiqi waves")] == ["Qiqi waves"]


def test_without_noto_the_chain_is_as_before(tmp_path: Path) -> None:
    droid = _droid()
    assert _cjk_font(_face(droid), "美咲: 東京へ行く") == (droid.name, 0)
    # a collection that is not Noto Sans CJK's: no face is preferred, Droid Sans Fallback still first
    other = _collection(tmp_path, ["Some Sans JP Style", "Other Sans"])
    assert _cjk_font(_face(droid, other), "美咲: 東京へ行く") == (droid.name, 0)


def _ink(face: Typeface, text: str) -> int:
    """How many pixels ``text`` inks, drawn with ``face``."""
    image = Image.new("L", (400, 80), 0)
    face.draw(ImageDraw.Draw(image), (10, 10), text, 255)
    return int((np.asarray(image) > 64).sum())


def test_drawn_japanese_takes_the_japanese_face(noto: Path) -> None:
    """Drawn for real: the faces' glyphs differ in width, so the ink says which drew them."""
    droid = _droid()
    with_noto, alone = _face(droid, noto), _face(droid)
    for text, tag in (("美咲は東京へ", "JP"), ("今天很美", "SC"), ("這學校很美", "TC")):
        assert _ink(with_noto, text) == pytest.approx(_ink(alone, text) * SQUEEZE[tag], rel=0.1), (text, tag)


def test_language_face_with_faked_files(monkeypatch: pytest.MonkeyPatch) -> None:
    fonts = Path("/fonts")
    droid, collection = fonts / "DroidSansFallbackFull.ttf", fonts / "NotoSansCJK-Regular.ttc"
    seen: list[Path] = []

    def faces(path: Path) -> dict[str, int]:
        seen.append(path)
        return {"ja": 0, "ko": 1, "zh-Hans": 2, "zh-Hant": 3}

    monkeypatch.setattr(typeface, "collection_faces", faces)
    chain = (droid, collection)
    assert [language_face(language, chain) for language in ("ja", "zh-Hans", "zh-Hant", "ko")] == [
        (collection, 0), (collection, 2), (collection, 3), (collection, 1)]
    assert set(seen) == {collection}
    # a font of the language's own comes before the collection
    japanese = fonts / "NotoSansCJKjp-Regular.otf"
    assert language_face("ja", (*chain, japanese)) == (japanese, 0)
    assert language_face("ko", (*chain, fonts / "NotoSansKR-Regular.otf")) == (fonts / "NotoSansKR-Regular.otf", 0)
    # none: the chain stays as it is
    assert language_face("ja", (droid,)) is None
    monkeypatch.setattr(typeface, "collection_faces", lambda path: {})
    assert language_face("ja", chain) is None


def test_text_language() -> None:
    assert text_language("美咲: こんにちは") == "ja"
    assert text_language("今天天气很好") == "zh-Hans"
    assert text_language("今天天氣很好") == "zh-Hant"
    assert text_language("안녕하세요, Qiqi") == "ko"
    assert text_language("Qiqi meets 美咲 at the station") is None
    assert text_language("Qiqi waves") is None
    assert text_language("東京", "東京へ行く") == "ja"
    assert chinese_script("人大") == "zh-Hans"  # nothing to tell them apart by: Simplified


@pytest.fixture
def noto_installed(noto: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The export's typefaces built with the made collection among the machine's fonts."""
    droid = _droid()
    monkeypatch.setattr(drawing, "fallback_font_files", lambda: (droid, noto))
    load_typeface.cache_clear()
    caption_layout.cache_clear()
    yield noto
    load_typeface.cache_clear()
    caption_layout.cache_clear()


def test_a_burned_caption_is_drawn_in_the_japanese_face(noto_installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "美咲: 東京へ行く"
    face, lines, cut = caption_layout((640, 360), text)
    assert not cut and "".join(lines) == text
    assert _cjk_font(face, lines[0], text) == (noto_installed.name, 0)
    patch = caption_patch((640, 360), text)
    assert patch is not None
    japanese_ink = int((patch.rgba[..., 3] > 200).sum())
    load_typeface.cache_clear()
    caption_layout.cache_clear()
    droid = _droid()
    monkeypatch.setattr(drawing, "fallback_font_files", lambda: (droid,))
    before = caption_patch((640, 360), text)
    assert before is not None
    assert japanese_ink != int((before.rgba[..., 3] > 200).sum())
    assert not np.array_equal(patch.rgba, before.rgba)
