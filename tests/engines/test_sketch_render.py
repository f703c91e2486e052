"""Rendering: determinism, the whole motion x location x time grid, continuation, cancel, cast and images."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core.instruction import Instruction, parse_instruction
from studio.core.model import CastMember, Location
from studio.engines.base import Cancelled, GenerationContext, Progress
from studio.engines.sketch.vocabulary import LOCATIONS, MOTIONS, TIMES_OF_DAY

from .sketch_helpers import MEDIUM, SMALL, as_turn, options, predict, render

QIQI_TOWN = "Character: Qiqi; Motion: gently sit on railing; Background: day town."


def test_same_inputs_give_identical_frames(engine) -> None:  # type: ignore[no-untyped-def]
    _, a = render(engine, QIQI_TOWN, seed=7)
    _, b = render(engine, QIQI_TOWN, seed=7)
    assert a.frames.tobytes() == b.frames.tobytes()
    _, c = render(engine, QIQI_TOWN, seed=8)
    assert a.frames.tobytes() != c.frames.tobytes()


def test_clip_shape_and_defaults(engine) -> None:  # type: ignore[no-untyped-def]
    pred, clip = render(engine, "Character: Qiqi; Motion: wave; Background: day park.", settings={})
    assert clip.frames.shape == (17, 480, 720, 3)
    assert clip.frames.dtype == np.uint8
    assert clip.fps == 8.0
    assert pred.representation.shape == (226, 64) and pred.representation.dtype == np.float32
    # The character is drawn: frames differ from each other for a moving motion.
    assert not np.array_equal(clip.frames[0], clip.frames[8])


@pytest.mark.parametrize("location", [loc.name for loc in LOCATIONS])
def test_every_motion_renders_everywhere_at_every_time(engine, location: str) -> None:  # type: ignore[no-untyped-def]
    for time_of_day in TIMES_OF_DAY:
        for motion in MOTIONS:
            text = f"Character: Qiqi; Motion: {motion.name}; Background: {time_of_day} {location}."
            pred, clip = render(engine, text, settings=SMALL)
            assert pred.warnings == (), (text, pred.warnings)
            assert pred.conditioning["motion"] == motion.name
            assert clip.frames.shape == (2, 32, 48, 3)


@pytest.mark.parametrize("camera", ["static", "pan", "follow", "zoom", "orbit"])
def test_every_camera_renders_and_moves(engine, camera: str) -> None:  # type: ignore[no-untyped-def]
    settings = {**MEDIUM, "frames": 5, "camera": camera}
    _, clip = render(engine, "Character: Qiqi; Motion: idle; Background: day town.", settings=settings)
    if camera != "static":
        # Background pixels far from the character change when the camera moves.
        assert not np.array_equal(clip.frames[0, :, :10], clip.frames[-1, :, :10]), camera


def test_continues_from_previous_end_pose_in_same_location(engine) -> None:  # type: ignore[no-untyped-def]
    first = predict(engine, "Character: Qiqi; Motion: gently lie down; Background: day grass.")
    history = (as_turn(first, "lie down"),)
    second = engine.predict(GenerationContext(history=history),
                            parse_instruction("Character: Qiqi; Motion: wave; Background: day grass."),
                            options(MEDIUM), 1)
    cond = second.conditioning
    assert cond["continued"] is True
    assert cond["start_pose"] == first.conditioning["end_pose"]
    assert cond["start_x"] == pytest.approx(first.conditioning["end_x"], abs=1e-6)
    assert cond["facing"] == first.conditioning["facing"]
    # The first frame of the new clip shows the old end pose: it matches the old last frame closely.
    last = engine.decode(first, options(), 0).frames[-1].astype(np.int16)
    start = engine.decode(second, options(), 1).frames[0].astype(np.int16)
    assert np.abs(last - start).mean() < 2.0
    # No location given: the turn stays where it was, and still continues.
    third = engine.predict(GenerationContext(history=(*history, as_turn(second, "wave"))),
                           parse_instruction("Qiqi jumps"), options(MEDIUM), 2)
    assert third.conditioning["location"] == "grass" and third.conditioning["continued"] is True


def test_new_location_starts_fresh(engine) -> None:  # type: ignore[no-untyped-def]
    first = predict(engine, "Character: Qiqi; Motion: gently lie down; Background: day grass.")
    second = engine.predict(GenerationContext(history=(as_turn(first, "x"),)),
                            parse_instruction("Character: Qiqi; Motion: wave; Background: day town."),
                            options(MEDIUM), 1)
    assert second.conditioning["continued"] is False
    assert second.conditioning["start_pose"] == {}


def test_cancel_is_honoured_within_one_frame(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, QIQI_TOWN, settings={**MEDIUM, "frames": 12})
    seen: list[Progress] = []
    flag = {"cancel": False}

    def progress(p: Progress) -> None:
        seen.append(p)
        if p.step == 3:
            flag["cancel"] = True

    with pytest.raises(Cancelled):
        engine.decode(pred, options(), 0, progress, lambda: flag["cancel"])
    assert seen[-1].step == 3
    with pytest.raises(Cancelled):
        engine.predict(GenerationContext(), parse_instruction(QIQI_TOWN), options(MEDIUM), 0,
                       cancelled=lambda: True)


def test_progress_is_monotone_and_complete(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, QIQI_TOWN, settings={**MEDIUM, "frames": 9})
    seen: list[Progress] = []
    engine.decode(pred, options(), 0, seen.append)
    steps = [p.step for p in seen]
    assert steps == sorted(steps) and steps[-1] == 9
    assert all(p.total == 9 for p in seen)


def test_long_instruction_is_cut_with_warning_and_fast(engine) -> None:  # type: ignore[no-untyped-def]
    text = "Character: Qiqi; Motion: run " + "very " * 2000 + "; Background: day town."
    assert len(text) > 10_000
    start = time.perf_counter()
    pred, _clip = render(engine, text, settings=SMALL)
    assert time.perf_counter() - start < 2.0
    assert any("characters long" in w for w in pred.warnings)
    free = "Qiqi " + "blah " * 2500
    pred = predict(engine, free, settings=SMALL)
    assert any("characters long" in w for w in pred.warnings)


@pytest.mark.parametrize("text", ["🙂🧹✨🌙", "قيقي تطير فوق المدينة", "קיקי רצה", "Character: 🐱; Motion: 🏃",
                                  "Motion: fly 🧹 on broomstick ✨; Background: night sky 🌙", "\u202e\u200f\x00"])
def test_emoji_and_rtl_text(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    _pred, clip = render(engine, text, settings=SMALL)
    assert clip.frames.shape == (2, 32, 48, 3)


def test_emoji_do_not_hide_known_words(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Character: Qiqi; Motion: fly 🧹 on broomstick ✨; Background: night sky 🌙", settings=SMALL)
    assert pred.conditioning["motion"] == "fly on broomstick" and pred.conditioning["time_of_day"] == "night"


def test_empty_instruction_is_idle_with_warning(engine) -> None:  # type: ignore[no-untyped-def]
    pred, _clip = render(engine, "", settings=SMALL)
    assert pred.conditioning["motion"] == "idle"
    assert "empty instruction, shown as 'idle'" in pred.warnings
    pred = engine.predict(GenerationContext(), Instruction(raw="   "), options(SMALL), 0)
    assert pred.conditioning["motion"] == "idle"


def test_unknown_character_gets_generated_look(engine) -> None:  # type: ignore[no-untyped-def]
    pred, _clip = render(engine, "Character: Zorblax; Motion: wave; Background: day town.")
    assert "'Zorblax' not in the cast, drawn with a generated look" in pred.warnings
    again, _clip2 = render(engine, "Character: Zorblax; Motion: wave; Background: day town.")
    assert again.conditioning["look"] == pred.conditioning["look"]
    other = predict(engine, "Character: Mirabel; Motion: wave; Background: day town.")
    assert other.conditioning["look"] != pred.conditioning["look"]


def test_cast_member_params_change_pixels(engine) -> None:  # type: ignore[no-untyped-def]
    text = "Character: Hiro; Motion: wave; Background: day town."
    red = CastMember(id="h", name="hiro", params={"hair_color": "#ff0000", "outfit_color": "#00ff00",
                                                  "hair_style": "spiky", "accessory": "hat"})
    blue = CastMember(id="h", name="Hiro", params={"hair_color": "#0000ff", "outfit_color": "#ffffff",
                                                   "hair_style": "long", "accessory": "none"})
    p1, c1 = render(engine, text, cast=(red,))
    p2, c2 = render(engine, text, cast=(blue,))
    assert p1.warnings == () and p2.warnings == ()
    assert c1.frames.tobytes() != c2.frames.tobytes()
    assert p1.conditioning["look"]["hair_color"] == "#ff0000"
    # The red hair is visible somewhere in the frame.
    px = c1.frames[0].reshape(-1, 3).astype(int)
    assert ((px[:, 0] > 200) & (px[:, 1] < 60) & (px[:, 2] < 60)).any()


def test_bad_cast_params_warn_and_fall_back(engine) -> None:  # type: ignore[no-untyped-def]
    member = CastMember(id="x", name="Kai", params={"hair_color": "not-a-colour", "hair_style": "mohawk"})
    pred, _ = render(engine, "Character: Kai; Motion: wave", cast=(member,), settings=SMALL)
    assert any("hair_color" in w for w in pred.warnings)
    assert any("'mohawk'" in w for w in pred.warnings)


def _stripes(path: Path) -> Path:
    arr = np.zeros((90, 160, 3), dtype=np.uint8)
    arr[:, :, 0] = 250
    arr[::10, :, 1] = 250
    Image.fromarray(arr).save(path)
    return path


def test_image_location_uses_the_image(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    image = _stripes(tmp_path / "bg.png")
    loc = Location(id="l1", name="Grandma's Porch", kind="image", params={"scene": "town"}, image_path=str(image))
    pred, clip = render(engine, "Character: Qiqi; Motion: wave; Background: day Grandma's Porch.", locations=(loc,))
    assert pred.warnings == ()
    assert pred.conditioning["image_path"] == str(image)
    corner = clip.frames[0, :8, :8].reshape(-1, 3).astype(int)
    assert (corner[:, 0] > 200).all() and (corner[:, 2] < 40).all()
    for camera in ("pan", "follow", "zoom", "orbit"):
        _, moved = render(engine, "Character: Qiqi; Motion: run; Background: Grandma's Porch.", locations=(loc,),
                          settings={**MEDIUM, "camera": camera})
        assert moved.frames.shape == (4, 64, 96, 3)


def test_unreadable_image_warns_and_falls_back(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"this is not a png")
    loc = Location(id="l2", name="Shed", kind="image", params={}, image_path=str(bad))
    pred, clip = render(engine, "Character: Qiqi; Motion: wave; Background: Shed", locations=(loc,))
    assert any(w.startswith("background image for 'Shed' could not be read: ") and w.endswith("drawn as 'town'")
               for w in pred.warnings), pred.warnings
    assert pred.conditioning["image_path"] == ""
    assert clip.frames.shape == (4, 64, 96, 3)
    missing = Location(id="l3", name="Cellar", kind="image", params={"scene": "library"},
                       image_path=str(tmp_path / "nope.jpg"))
    pred = predict(engine, "Qiqi walks in the Cellar", locations=(missing,))
    assert any("background image for 'Cellar' could not be read" in w and "drawn as 'library'" in w
               for w in pred.warnings)
