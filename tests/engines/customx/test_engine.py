"""CustomX's engine on tiny random weights: cast views, scene clips, continuation, guidance rows, step reuse."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from PIL import Image  # noqa: E402

from studio.core.instruction import parse_instruction  # noqa: E402
from studio.core.model import CastMember, Location  # noqa: E402
from studio.engines.base import EngineConfig, EngineError, GenerationContext  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine, order_views  # noqa: E402
from studio.engines.customx.sampler import SamplerOptions, full_pass_steps, sample  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

SETTINGS = {"height": 32, "width": 48, "frames": 9, "steps": 2, "continuation_frames": 5, "vae_tiling": False}
INSTRUCTION = parse_instruction("Character: Aoi; Motion: run; Background: harbour; Camera: follow.")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> CustomXEngine:
    folder = tmp_path_factory.mktemp("checkpoints")
    write_tiny_checkpoints(folder)
    made = CustomXEngine(EngineConfig(checkpoints=folder), info=TEST_INFO)
    made.load()
    return made


def _views(folder: Path, count: int) -> tuple[str, ...]:
    paths = []
    for index in range(count):
        image = Image.new("RGBA", (20, 30), (0, 0, 0, 0))
        image.paste((200, 40 * index, 90, 255), (5, 5, 15, 25))
        path = folder / f"view{index}.png"
        image.save(path)
        paths.append(str(path))
    return tuple(paths)


def test_a_character_with_one_image_is_refused_with_the_reason(engine: CustomXEngine, tmp_path: Path) -> None:
    cast = (CastMember("a", "Aoi", reference_images=_views(tmp_path, 1)),)
    settings = TEST_INFO.settings.from_values(SETTINGS)
    with pytest.raises(EngineError, match="needs 4 reference views of Aoi.*Aoi has 1"):
        engine.predict(GenerationContext(cast=cast), INSTRUCTION, settings, 0)


def test_four_views_and_a_still_scene_condition_the_clip(engine: CustomXEngine, tmp_path: Path) -> None:
    settings = TEST_INFO.settings.from_values(SETTINGS)
    still = tmp_path / "harbour.png"
    Image.new("RGB", (64, 40), (10, 120, 200)).save(still)
    cast = (CastMember("a", "Aoi", reference_images=_views(tmp_path, 4)),)
    places = (Location("h", "Harbour", kind="image", image_path=str(still)),)
    with_views = engine.predict(GenerationContext(cast=cast, locations=places), INSTRUCTION, settings, 0)
    assert with_views.warnings == ()
    assert with_views.conditioning["views"] == list(cast[0].reference_images)
    assert with_views.conditioning["scene"] == str(still)
    grey = engine.predict(GenerationContext(), INSTRUCTION, settings, 0)
    assert len(grey.warnings) == 2 and "grey stand-in" in grey.warnings[0]
    a = engine.decode(with_views, settings, 3).frames
    b = engine.decode(grey, settings, 3).frames
    assert a.shape == b.shape == (9, 32, 48, 3)
    assert not np.array_equal(a, b), "the views and the scene reach the transformer"


def test_the_carried_latents_stay_through_every_step() -> None:
    torch.manual_seed(0)
    keep = torch.randn(1, 4, 2, 4, 6)
    seen = []

    def denoise(x: torch.Tensor, t: torch.Tensor, reuse: bool) -> torch.Tensor:
        seen.append(x[:1, :, :2].clone())
        return torch.randn_like(x)

    out = sample(denoise, torch.randn(1, 4, 3, 4, 6), SamplerOptions(steps=3, guidance=2.0), keep)
    torch.testing.assert_close(out[:, :, :2], keep)
    for step_input in seen:
        torch.testing.assert_close(step_input, keep)


def test_deepcache_runs_the_releases_22_full_passes_of_30() -> None:
    full = full_pass_steps(30)
    assert sorted(full) == [*range(11), 13, 16, 19, *range(22, 30)]
    assert len(full_pass_steps(20)) < 20


def test_separate_guidance_rows_match_one_masked_batch(engine: CustomXEngine) -> None:
    """Cutting each row's padding instead of masking it gives the same velocity."""
    torch.manual_seed(1)
    encoded = engine.encode_text("A character is running.", np.full((4, 32, 48, 3), 90, np.uint8), guided=True)
    assert not bool(encoded.mask.all()), "the rows have padding"
    x = torch.randn(2, 4, 3, 4, 6)
    t = torch.tensor([900.0, 900.0])
    views, scene = torch.randn(2, 4, 4, 4, 6), torch.randn(2, 8, 3, 4, 6)
    with torch.inference_mode():
        split = engine.velocity(x, t, encoded.text, encoded.mask, encoded.pooled, views, scene, reuse=False)
        batched = engine.velocity(x, t, encoded.text, encoded.mask, encoded.pooled, views, scene, reuse=False,
                                  batched=True)
    torch.testing.assert_close(split, batched, rtol=1e-4, atol=1e-5)


def test_a_reusing_step_runs_only_the_last_block(engine: CustomXEngine) -> None:
    transformer = engine._transformer
    calls = []
    hooks = [block.register_forward_hook(lambda *_a, i=i: calls.append(i))
             for i, block in enumerate([*transformer.transformer_blocks, *transformer.single_transformer_blocks])]
    try:
        x, views = torch.randn(1, 4, 3, 4, 6), torch.randn(1, 4, 4, 4, 6)
        text, mask, pooled = torch.randn(1, 5, 32), torch.ones(1, 5), torch.randn(1, 16)
        with torch.inference_mode():
            transformer.forget()
            transformer(x, torch.tensor([900.0]), text, mask, pooled, views, None)
            full = len(calls)
            transformer(x, torch.tensor([800.0]), text, mask, pooled, views, None, reuse=True)
    finally:
        for hook in hooks:
            hook.remove()
        transformer.forget()
    assert full == 3 and calls[full:] == [2]


def test_views_named_by_side_are_put_in_order() -> None:
    named = ("/p/aoi_back.png", "/p/aoi_front.png", "/p/aoi_right.png", "/p/aoi_left.png")
    assert order_views(named) == ("/p/aoi_front.png", "/p/aoi_left.png", "/p/aoi_back.png", "/p/aoi_right.png")
    unnamed = ("/p/1.png", "/p/2.png", "/p/3.png", "/p/4.png")
    assert order_views(unnamed) == unnamed


def test_a_default_location_without_a_clip_is_rendered_by_the_sketch_world(engine: CustomXEngine,
                                                                           tmp_path: Path) -> None:
    settings = TEST_INFO.settings.from_values(SETTINGS)
    cast = (CastMember("a", "Aoi", reference_images=_views(tmp_path, 4)),)
    places = (Location("t", "town", params={"scene": "town"}), Location("b", "beach", params={"scene": "beach"}))
    turn = parse_instruction("Character: Aoi; Motion: run; Background: beach; Time: sunset; Camera: pan.")
    prediction = engine.predict(GenerationContext(cast=cast, locations=places), turn, settings, 0)
    assert prediction.warnings == ()
    assert prediction.conditioning["scene"] == ""
    assert prediction.conditioning["scene_world"] == {"location": "beach", "time": "sunset", "camera": "pan"}
    scene = engine._scene(prediction.conditioning, TEST_INFO.settings.coerce(settings))
    assert scene.shape == (9, 32, 48, 3) and not np.array_equal(scene[0], scene[-1]), "the camera pans"
    assert engine.decode(prediction, settings, 3).frames.shape == (9, 32, 48, 3)


def test_a_location_of_its_own_comes_before_the_built_in_world(tmp_path: Path) -> None:
    from studio.engines.customx.engine import choose_scene

    still = tmp_path / "beach.png"
    Image.new("RGB", (8, 8), (1, 2, 3)).save(still)
    mine = Location("m", "beach", kind="image", params={"scene": "beach"}, image_path=str(still))
    turn = parse_instruction("Motion: run; Background: beach.")
    assert choose_scene((mine,), turn)[:2] == (str(still), {})
    source, world, notes = choose_scene((), parse_instruction("Motion: run; Background: shrine; Camera: orbit."))
    assert (source, world["location"], world["camera"], notes) == ("", "shrine", "orbit", [])
    assert "grey scene" in choose_scene((), parse_instruction("Motion: run; Background: moon."))[2][0]
