"""The sketch engine's action-aware representation: a (226, 64) float32 array.

It mirrors AnimeGamer's layout (30 "text" tokens + 196 image-patch tokens of a 14 x 14
grid, there 1920 wide) at width 64, so the ``mini`` model can be trained to predict it.
Rows (all values deterministic given the prediction):

====== =========================================================================================
row    content
====== =========================================================================================
0      motion identity: a fixed unit vector per motion name
1      motion family: a fixed unit vector per family
2      motion level: col 0 = level / 5, cols 1-5 one-hot level, cols 8-63 sinusoidal code
3      location: a fixed unit vector per built-in scene (image locations use their fallback scene)
4      setting (outdoor / indoor / sky): a fixed unit vector; col 63 = 1 for a user's image
5      time of day: a fixed unit vector per time
6      camera: a fixed unit vector per camera mode; col 63 = 1 for zoom out
7      state: cols 0-2 state before / 100, 3-5 deltas / 5, 6-8 state after / 100
8      character: cols 0-14 hair, eye, skin, outfit, accent RGB / 255; 15-20 hair style one-hot;
       21-22 outfit style one-hot; 23-28 accessory one-hot; 29 facing; 30 start x; 31 travel;
       32 continued-from-previous flag
9-29   pose trajectory, 21 samples at t = 0, 0.05 ... 1: cols 0-15 the pose (angles / 180,
       offsets, squash - 1), 16 t, 17 character x in frame widths, 18 camera x, 19 zoom - 1
30-225 patches, row-major over a 14 x 14 grid of the frame: cols 0-31 2-D sin/cos position,
       cols 32-47 location code (+ above the ground line, - below), cols 48-63 motion code
       times the fraction of the clip the character covers that patch
====== =========================================================================================
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from studio.core.state import CharacterState, StateDeltas
from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.look import Accessory, HairStyle, Look, OutfitStyle
from studio.engines.sketch.poses import POSE_FIELDS, PosePlan, sample_pose
from studio.engines.sketch.render import FIGURE_SCALE
from studio.engines.sketch.scenery import GROUND_FRACTION
from studio.engines.sketch.skeleton import HIP_HEIGHT
from studio.engines.sketch.vocabulary import CameraMode, MotionSpec, Setting

TOKENS = 226
TEXT_TOKENS = 30
GRID = 14
WIDTH = 64
TRAJECTORY_ROWS = 21
REPRESENTATION_SHAPE = (TOKENS, WIDTH)


@lru_cache(maxsize=512)
def embedding(key: str, dim: int = WIDTH) -> np.ndarray:
    """A fixed unit vector for ``key`` (seeded from its SHA-256, the same on every machine)."""
    seed = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")
    vec = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    vec /= np.linalg.norm(vec) or 1.0
    vec.setflags(write=False)
    return vec


def _sincos(value: float, dim: int, base: float = 100.0) -> np.ndarray:
    half = dim // 2
    freqs = base ** (-np.arange(half, dtype=np.float32) / max(1, half))
    return np.concatenate([np.sin(value * freqs), np.cos(value * freqs)]).astype(np.float32)


def _one_hot(index: int, size: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def build_representation(*, motion: MotionSpec, level: int, scene: str, setting: Setting, is_image: bool, time: str,
                         camera: CameraMode, zoom_out: bool, state: CharacterState, deltas: StateDeltas,
                         look: Look, facing: int, start_x: float, travel: float, continued: bool,
                         pose_plan: PosePlan, aspect: float, offset_at: Callable[[float], float] | None = None
                         ) -> np.ndarray:
    """Assemble the (226, 64) array described in the module docstring.

    ``offset_at`` is how far the character has moved at clip fraction t (a walker's steps set
    it); without it the character moves ``travel`` at an even pace.
    """
    rep = np.zeros(REPRESENTATION_SHAPE, dtype=np.float32)
    rep[0] = embedding(f"motion:{motion.name}")
    rep[1] = embedding(f"family:{motion.family.value}")
    rep[2, 0] = level / 5.0
    rep[2, 1:6] = _one_hot(level - 1, 5)
    rep[2, 8:] = _sincos(float(level), WIDTH - 8)
    rep[3] = embedding(f"location:{scene}")
    rep[4] = embedding(f"setting:{setting.value}")
    rep[4, 63] = 1.0 if is_image else 0.0
    rep[5] = embedding(f"time:{time}")
    rep[6] = embedding(f"camera:{camera.value}")
    rep[6, 63] = 1.0 if zoom_out else 0.0
    after = state.apply(deltas)
    rep[7, 0:3] = [v / 100.0 for v in state.as_dict().values()]
    rep[7, 3:6] = [v / 5.0 for v in deltas.as_dict().values()]
    rep[7, 6:9] = [v / 100.0 for v in after.as_dict().values()]
    colors = [look.hair_color, look.eye_color, look.skin_color, look.outfit_color, look.outfit_accent]
    rep[8, 0:15] = [c / 255.0 for rgb in colors for c in rgb]
    rep[8, 15:21] = _one_hot(list(HairStyle).index(look.hair_style), 6)
    rep[8, 21:23] = _one_hot(list(OutfitStyle).index(look.outfit_style), 2)
    rep[8, 23:29] = _one_hot(list(Accessory).index(look.accessory), 6)
    rep[8, 29:33] = [float(facing), start_x, travel, 1.0 if continued else 0.0]

    ground = GROUND_FRACTION[setting]
    occupancy = np.zeros((GRID, GRID), dtype=np.float32)
    rows = np.arange(GRID, dtype=np.float32)
    for i in range(TRAJECTORY_ROWS):
        t = i / (TRAJECTORY_ROWS - 1)
        pose = sample_pose(pose_plan, t)
        moved = offset_at(t) if offset_at is not None else travel * t
        cam = camera_frame(camera, t, moved, facing, zoom_out)
        x = start_x + moved - cam.cam_x
        vec = pose.vector()
        row = rep[9 + i]
        for j, name in enumerate(POSE_FIELDS):
            v = vec[j]
            if name in ("x", "y"):
                row[j] = v
            elif name == "squash":
                row[j] = v - 1.0
            else:
                row[j] = v / 180.0
        row[16:20] = [t, x, cam.cam_x, cam.zoom - 1.0]
        # Patches the figure covers: a box around the hip, in frame fractions.
        hip_y = ground - (HIP_HEIGHT + pose.y) * FIGURE_SCALE
        top, bottom = hip_y - 0.66 * FIGURE_SCALE, hip_y + HIP_HEIGHT * FIGURE_SCALE
        half_w = 0.3 * FIGURE_SCALE / max(aspect, 1e-3)
        cx = 0.5 + x
        col_hit = np.abs((rows + 0.5) / GRID - cx) <= half_w + 0.5 / GRID
        row_hit = ((rows + 0.5) / GRID >= top - 0.5 / GRID) & ((rows + 0.5) / GRID <= bottom + 0.5 / GRID)
        occupancy += np.outer(row_hit, col_hit).astype(np.float32)
    occupancy /= TRAJECTORY_ROWS

    patches = rep[TEXT_TOKENS:]
    patches[:, 0:32] = _patch_positions()
    above = np.where((np.arange(GRID) + 0.5) / GRID < ground, 1.0, -1.0).astype(np.float32)
    patches[:, 32:48] = np.repeat(above, GRID)[:, None] * embedding(f"location:{scene}", 16)[None, :]
    patches[:, 48:64] = occupancy.reshape(-1)[:, None] * embedding(f"motion:{motion.name}", 16)[None, :]
    return rep


@lru_cache(maxsize=1)
def _patch_positions() -> np.ndarray:
    """2-D sin/cos position of each of the 196 patches (16 dims for the row, 16 for the column)."""
    out = np.zeros((GRID * GRID, 32), dtype=np.float32)
    for r in range(GRID):
        for c in range(GRID):
            out[r * GRID + c, 0:16] = _sincos(r + 0.5 * math.pi, 16, base=30.0)
            out[r * GRID + c, 16:32] = _sincos(c + 0.5 * math.pi, 16, base=30.0)
    out.setflags(write=False)
    return out
