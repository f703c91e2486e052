"""The sketch world's scene clips: a default location's background through a camera path, no characters."""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.base import EngineError
from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.defaults import load_default_world
from studio.engines.sketch.render import compose_background
from studio.engines.sketch.scene_clip import SceneShot, camera_of, location_of, render_scene_clip
from studio.engines.sketch.scenery import build_scene
from studio.engines.sketch.vocabulary import CameraMode

SMALL = {"frames": 9, "height": 48, "width": 80}


def test_every_default_location_has_a_scene_clip() -> None:
    for location in load_default_world():
        name = location_of(location.params, location.name)
        assert name is not None, location.name
        clip = render_scene_clip(SceneShot(name, "day", CameraMode.PAN, **SMALL))
        assert clip.shape == (9, 48, 80, 3) and clip.dtype == np.uint8


def test_a_static_clip_is_the_background_without_characters() -> None:
    clip = render_scene_clip(SceneShot("park", "sunset", CameraMode.STATIC, **SMALL))
    scene = build_scene("park", "sunset", 48, 80)
    expected = np.asarray(compose_background(scene, camera_frame(CameraMode.STATIC, 0.0, 0.0, 1), 80, False)
                          .convert("RGB"))
    for frame in clip:
        np.testing.assert_array_equal(frame, expected)


@pytest.mark.parametrize("camera", [CameraMode.PAN, CameraMode.FOLLOW, CameraMode.ZOOM, CameraMode.ORBIT])
def test_moving_cameras_move_the_world_and_are_deterministic(camera: CameraMode) -> None:
    shot = SceneShot("town", "day", camera, **SMALL)
    clip = render_scene_clip(shot)
    assert not np.array_equal(clip[0], clip[-1]), f"{camera} moves"
    np.testing.assert_array_equal(clip, render_scene_clip(shot))


def test_the_camera_field_picks_the_path() -> None:
    assert camera_of("slow orbit around her") is CameraMode.ORBIT
    assert camera_of("follow") is CameraMode.FOLLOW
    assert camera_of("tracking shot") is CameraMode.FOLLOW
    assert camera_of("") is CameraMode.STATIC
    assert camera_of("handheld") is CameraMode.STATIC


def test_unknown_locations_and_sizes_are_refused_by_name() -> None:
    with pytest.raises(EngineError, match="no location 'harbour'"):
        SceneShot("harbour")
    with pytest.raises(EngineError, match="time of day"):
        SceneShot("town", "dawn")
    with pytest.raises(EngineError, match="out of range"):
        SceneShot("town", frames=0)
    assert location_of({}, "Harbour") is None
    assert location_of({"scene": "beach"}, "my beach") == "beach"
