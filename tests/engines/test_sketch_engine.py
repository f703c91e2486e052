"""The sketch engine as an Engine: protocol, settings, representation, defaults, contact sheet."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember, Location
from studio.engines.base import (
    Engine,
    EngineConfig,
    EngineError,
    GenerationContext,
    Prediction,
    SettingsError,
)
from studio.engines.catalog.sketch import INFO as SKETCH_INFO
from studio.engines.catalog.sketch import SketchSettings
from studio.engines.registry import EngineRegistry
from studio.engines.sketch import (
    ENGINE_NAME,
    SketchEngine,
    load_default_cast,
    load_default_world,
    render_contact_sheet,
)
from studio.engines.sketch.representation import REPRESENTATION_SHAPE
from studio.engines.sketch.vocabulary import LOCATIONS, MOTIONS

from .sketch_helpers import SMALL, options, predict


def test_protocol_and_capabilities() -> None:
    engine = SketchEngine()
    assert isinstance(engine, Engine)
    assert engine.info.name == ENGINE_NAME == "sketch"
    assert engine.info.version
    caps = engine.info.capabilities
    assert caps.devices == ("cpu",) and not caps.needs_gpu
    assert (caps.default_size, caps.default_frames, caps.default_fps) == ((480, 720), 17, 8.0)
    defaults = SketchSettings()
    assert (defaults.height, defaults.width, defaults.frames, defaults.fps) == (480, 720, 17, 8.0)
    assert not engine.loaded
    engine.load()
    assert engine.loaded
    engine.unload()
    assert not engine.loaded
    with pytest.raises(EngineError, match="CPU only"):
        SketchEngine(EngineConfig.parse("cuda:0")).load()


def test_registry_can_create_it() -> None:
    registry = EngineRegistry()
    registry.register(SKETCH_INFO)
    assert isinstance(registry.create("sketch"), SketchEngine)
    assert registry.check("sketch") == []
    on_gpu = EngineConfig.parse("cuda:0")
    assert registry.check("sketch", on_gpu) == []  # a CPU engine stays on the CPU when GPUs are chosen
    assert registry.create("sketch", on_gpu).config.device.kind.value == "cpu"


@pytest.mark.parametrize(("settings", "message"), [
    ({"height": 10}, "from 32 to 2160"), ({"width": 5000}, "from 32 to 2160"),
    ({"frames": 0}, "from 1 to 240"), ({"frames": 241}, "from 1 to 240"), ({"frames": "many"}, "whole"),
    ({"height": 100.5}, "whole"), ({"fps": 0}, "fps"), ({"fps": "fast"}, "fps"), ({"camera": "dutch"}, "camera"),
    ({"width": 721}, "even number of pixels, got 721"), ({"height": 99}, "even number of pixels"),
])
def test_bad_settings_raise_clear_errors(engine, settings, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SettingsError, match=message):
        engine.predict(GenerationContext(), parse_instruction("Motion: wave"), options(settings), 0)


def test_settings_are_used(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Motion: wave", settings={"height": 40, "width": 100, "frames": 3, "fps": 12})
    clip = engine.decode(pred, options(), 0)
    assert clip.frames.shape == (3, 40, 100, 3) and clip.fps == 12.0


def test_conditioning_is_json_and_enough_to_decode(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Character: Qiqi; Motion: quickly flying on broomstick; Background: day sky.")
    text = json.dumps(pred.conditioning, allow_nan=False)

    def plain(value: object) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return isinstance(value, (str, int, float))

    assert plain(dict(pred.conditioning))
    restored = Prediction(deltas=pred.deltas, motion_level=pred.motion_level, representation=pred.representation,
                          conditioning=json.loads(text))
    assert np.array_equal(engine.decode(pred, options(), 0).frames, engine.decode(restored, options(), 0).frames)
    for key in ("motion", "location", "time_of_day", "camera", "look", "start_pose", "end_pose", "height", "width",
                "frames", "fps", "level"):
        assert key in pred.conditioning


def test_decode_rejects_broken_conditioning(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, "Motion: wave")
    for broken in ({}, {**pred.conditioning, "motion": "moonwalk"}, {**pred.conditioning, "height": "tall"},
                   {**pred.conditioning, "frames": 100000}):
        bad = Prediction(deltas=pred.deltas, motion_level=pred.motion_level, representation=pred.representation,
                         conditioning=broken)
        with pytest.raises(EngineError):
            engine.decode(bad, options(), 0)


def test_representation_layout(engine) -> None:  # type: ignore[no-untyped-def]
    a = predict(engine, "Character: Qiqi; Motion: run; Background: day town.")
    b = predict(engine, "Character: Qiqi; Motion: sleep; Background: night bedroom.")
    c = predict(engine, "Character: Qiqi; Motion: run; Background: day town.")
    for pred in (a, b):
        rep = pred.representation
        assert rep.shape == REPRESENTATION_SHAPE == (226, 64)
        assert rep.dtype == np.float32 and np.isfinite(rep).all()
    assert np.array_equal(a.representation, c.representation)
    assert not np.allclose(a.representation[0], b.representation[0])  # motion row
    assert not np.allclose(a.representation[5], b.representation[5])  # time row
    assert a.representation[2, 0] == pytest.approx(a.motion_level / 5)
    assert a.representation[7, 3:6] == pytest.approx([v / 5 for v in a.deltas.as_dict().values()])
    # The character's patches carry the motion code; the rest don't.
    assert np.abs(a.representation[30:, 48:]).sum() > 0


def test_default_cast_and_world() -> None:
    cast = load_default_cast()
    names = [m.name for m in cast]
    assert "Qiqi" in names and "Sosuke" in names and len(cast) >= 5
    assert all(isinstance(m, CastMember) for m in cast)
    qiqi = cast[names.index("Qiqi")]
    assert qiqi.params["accessory"] == "bow" and qiqi.params["outfit_accent"].lower().startswith("#d")
    world = load_default_world()
    assert all(isinstance(loc, Location) and loc.kind == "builtin" for loc in world)
    assert {loc.name for loc in world} == {loc.name for loc in LOCATIONS}
    raw = json.loads((Path(__file__).resolve().parents[2] / "resources" / "cast.json").read_text())
    assert all({"id", "name", "params", "reference_images"} <= set(item) for item in raw)


def test_default_cast_members_render_without_warnings(engine) -> None:  # type: ignore[no-untyped-def]
    for member in load_default_cast():
        pred = predict(engine, f"Character: {member.name}; Motion: wave; Background: day park.", settings=SMALL,
                       cast=load_default_cast())
        assert pred.warnings == (), (member.name, pred.warnings)


def test_world_location_names_resolve(engine) -> None:  # type: ignore[no-untyped-def]
    world = load_default_world()
    for loc in world:
        pred = predict(engine, f"Character: Qiqi; Motion: walk; Background: {loc.name}", settings=SMALL,
                       locations=world)
        assert pred.warnings == () and pred.conditioning["scene"] == loc.name


def test_contact_sheet(tmp_path: Path) -> None:
    out = render_contact_sheet(tmp_path / "sheet.png", size=(48, 72))
    assert out.is_file()
    with Image.open(out) as img:
        cols = 8
        rows = -(-len(MOTIONS) // cols)
        assert img.width == cols * 72
        assert img.height == rows * (48 + 16)
        arr = np.asarray(img.convert("RGB"))
        assert arr.std() > 20
