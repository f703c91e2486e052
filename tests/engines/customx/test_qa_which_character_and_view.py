"""Which character CustomX animates and what it says when one of its views is wrong: names
matched as turns match them, a stranger's name warned about, a character without views
animated as a grey stand-in (as the cast panel promises), the views it lacks and the view it
can't read named; odd but good views (four alike, of any size and shape) just work."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import EngineError

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.engines.base import EngineConfig, GenerationContext  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine, choose_member, order_views, side_named  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": 1, "continuation_frames": 5, "vae_tiling": False}
SIDES = ("front", "left", "back", "right")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> CustomXEngine:
    folder = tmp_path_factory.mktemp("checkpoints")
    write_tiny_checkpoints(folder)
    made = CustomXEngine(EngineConfig(checkpoints=folder), info=TEST_INFO)
    made.load()
    return made


def _views(folder: Path, sides: tuple[str, ...] = SIDES) -> tuple[str, ...]:
    """Pictures stored as the cast panel stores them (``back-view-<id>.png``)."""
    paths = []
    for index, side in enumerate(sides):
        path = folder / f"{side}-view-{index:04x}.png"
        Image.new("RGB", (20, 30), (40 * index, 120, 200)).save(path)
        paths.append(str(path))
    return tuple(paths)


def test_a_name_typed_another_way_is_the_same_character(tmp_path: Path) -> None:
    amelie = CastMember("a", "Am\u00e9lie Mori", reference_images=_views(tmp_path))
    other = CastMember("b", "Kai", reference_images=_views(tmp_path))
    chosen, warnings = choose_member((other, amelie), "  AME\u0301LIE   mori ", 4)
    assert chosen is not None and chosen.id == "a" and warnings == []


def test_a_stranger_named_by_the_turn_is_warned_about(tmp_path: Path) -> None:
    kai = CastMember("k", "Kai", reference_images=_views(tmp_path))
    chosen, warnings = choose_member((kai,), "Bob", 4)
    assert chosen is not None and chosen.name == "Kai"
    assert len(warnings) == 1 and "'Bob' is not in the cast" in warnings[0] and "animates Kai" in warnings[0]


def test_a_named_character_without_views_is_a_grey_stand_in_not_another_character(tmp_path: Path) -> None:
    bare = CastMember("b", "Bob")
    kai = CastMember("k", "Kai", reference_images=_views(tmp_path))
    chosen, warnings = choose_member((kai, bare), "bob", 4)
    assert chosen is None
    assert len(warnings) == 1 and "Bob has none" in warnings[0] and "grey stand-in" in warnings[0]


def test_the_views_a_character_lacks_are_named(tmp_path: Path) -> None:
    three = CastMember("a", "Aoi", reference_images=_views(tmp_path, ("front", "left", "right")))
    with pytest.raises(EngineError, match=r"Aoi has 3 \(front, left, right; the back view is missing\)"):
        choose_member((three,), "Aoi", 4)
    one = CastMember("a", "Aoi", reference_images=_views(tmp_path, ("back",)))
    with pytest.raises(EngineError, match=r"Aoi has 1 \(back; the front, left and right views are missing\)"):
        choose_member((one,), "Aoi", 4)


def test_sides_are_read_from_whole_words_only() -> None:
    assert [side_named(n) for n in ("mei_back.png", "MeiBack.png", "back-view-1a2b.png", "FRONT.png")] == [2, 2, 2, 0]
    assert [side_named(n) for n in ("bright.png", "backpack.png", "cleft.png", "frontleft.png")] == [None] * 4
    looks = ("/p/bright.png", "/p/backpack.png", "/p/cleft.png", "/p/upfront.png")
    assert order_views(looks) == looks, "names that only contain a side keep the author's order"


def test_an_unreadable_view_names_the_character_the_view_and_the_file(engine: CustomXEngine, tmp_path: Path) -> None:
    views = _views(tmp_path)
    Path(views[2]).write_text("this was never a picture")
    cast = (CastMember("a", "Aoi", reference_images=views),)
    instruction = parse_instruction("Character: Aoi; Motion: run.")
    with pytest.raises(EngineError) as raised:
        engine.predict(GenerationContext(cast=cast), instruction, SETTINGS, 0)
    assert raised.value.message.startswith("The back view of Aoi can't be used: ")
    assert views[2] in raised.value.message and "is not a picture" in raised.value.message
    assert "Choose the back view of Aoi again" in raised.value.hint
    assert Path(views[2]).read_text() == "this was never a picture", "nothing is changed"


def test_four_alike_views_of_any_size_and_shape_make_a_clip(engine: CustomXEngine, tmp_path: Path) -> None:
    shapes = {"front": (1, 1), "left": (400, 20), "back": (20, 400), "right": (1000, 999)}
    views = []
    for side, size in shapes.items():
        path = tmp_path / f"{side}-view-0.png"
        Image.new("RGB", size, (200, 60, 60)).save(path)
        views.append(str(path))
    cast = (CastMember("a", "Aoi", reference_images=tuple(views)),)
    instruction = parse_instruction("Character: Aoi; Motion: run.")
    prediction = engine.predict(GenerationContext(cast=cast), instruction, SETTINGS, 0)
    clip = engine.decode(prediction, SETTINGS, 0)
    assert clip.frames.shape == (9, 32, 48, 3) and clip.frames.dtype == np.uint8
    assert prediction.conditioning["views"] == views
