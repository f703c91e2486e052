"""Compose clips: scene layers through the camera, a shadow, the companion and the character.

Per frame the work is a few C-level Pillow operations on whole images (crop/paste of
the cached layers, pasting one small sprite, one resize when zooming) and one copy into
the output array; nothing loops over pixels in Python.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from studio.engines.base import CancelCheck, EngineError, Progress, ProgressCallback, check_cancelled
from studio.engines.sketch.camera import CameraFrame, camera_frame
from studio.engines.sketch.company import (
    FriendSpot,
    Role,
    along_gap,
    blend_from,
    carry_weight,
    friend_anim,
    friend_effect,
    friend_prop,
    role_for,
)
from studio.engines.sketch.figure import FigureSpec, draw_figure
from studio.engines.sketch.gait import WalkPath, is_gait, path_for, turning_pose
from studio.engines.sketch.look import Look, generated_look, look_from_params
from studio.engines.sketch.palette import Palette
from studio.engines.sketch.poses import ANIMS, Pose, PosePlan, level_speed, sample_pose, smoothstep
from studio.engines.sketch.scenery import BEDS, Bed, Scene, build_scene, image_scene, scene_tint
from studio.engines.sketch.seats import WIDE, Seat, StandingSeat, can_sit_for, draw_seat, standing_seats
from studio.engines.sketch.skeleton import HIP_HEIGHT
from studio.engines.sketch.small_props import draw_small_props
from studio.engines.sketch.spacing import FRIEND_SIZE, facing_gap, reach
from studio.engines.sketch.variation import MAX_SHOT, PropPlacement, variation_from
from studio.engines.sketch.vocabulary import (
    LOCATION_BY_NAME,
    MOTION_BY_NAME,
    CameraMode,
    Effect,
    Expression,
    MotionSpec,
    Prop,
    Setting,
)

FIGURE_SCALE = 0.42
"""Figure unit (about the standing height) as a fraction of the frame height."""
IMAGE_PAN_MARGIN = 0.3
COMPANION_HALF_WIDTH = 0.3
"""About half a figure's width (hair and arms included), in figure units."""
OWN_SEATS_GAP = 0.7
"""The least distance (figure units) between two sitters on a chair, a stool or a swing each."""
HEAD_ROOM = 0.82
"""Room a closer shot keeps above the hip for the head, its hair, a bow or a hat (figure units)."""
FEET_ROOM = 0.36
"""Room a closer shot keeps below the hip for the legs and the shadow (figure units)."""
SYMBOL_MARGIN = 0.05
"""Gap (figure units) a speech bubble or a symbol above the head keeps from the top of the shot."""
BUBBLE_ROOM = 0.28
"""Room a closer shot keeps above ``HEAD_ROOM`` for a speech or thought bubble over the head
(figure units), when it is tall enough: a narrow shot has no room beside the head for it."""
BUBBLE_SHOT = HEAD_ROOM + BUBBLE_ROOM + 0.2
"""The least height (figure units) a shot with a bubble shows: the head, the bubble over it and
the shoulders. Closer, the bubble could only be drawn over the face."""
BUBBLES = frozenset({Effect.SPEECH, Effect.THOUGHT})
PAIR_MARGIN = 0.08
"""Room (figure units) a closer shot keeps beyond the furthest reach of the character and a friend."""


SLEEPER_HEAD = 0.38
"""How far the head of a figure lying on its back is from the hip (figure units)."""


def on_a_bed(anim: str, scene: str, is_image: bool) -> Bed | None:
    """The bed a sleeper lies on: the scene's, where it draws one."""
    return BEDS.get(scene) if anim == "sleep" and not is_image else None


def bed_hip_x(bed: Bed, mid_shift: float, height: int, width: int, start_shift: float | None = None) -> float:
    """Where (frame widths from the left) the hip of a sleeper lying on ``bed`` is, with the
    mid layer shifted by ``mid_shift``: the head (towards the left, facing right) on the
    pillow, the hip on the mattress. The layer repeats every frame width: the bed is the copy
    whose middle is in the frame at ``start_shift`` (the clip's first frame), followed as the
    layer moves on."""
    first = mid_shift if start_shift is None else start_shift
    middle = bed.left + bed.length / 2
    left = (middle - first) % 1.0 - bed.length / 2 - (mid_shift - first)
    scale = figure_scale(height, width) / width
    hip = left + bed.pillow * height / width + SLEEPER_HEAD * scale
    return min(hip, left + bed.length - 0.1 * scale)


def figure_scale(height: int, width: int) -> float:
    """The figure unit in pixels for a frame of this size (narrow frames draw smaller figures)."""
    return FIGURE_SCALE * min(height, 1.25 * width)


def companion_gap(anim: str, look: Look, prop: Prop, friend: Look, seated: bool, seat: str = "") -> float:
    """How far the friend stands (or sits) in front of the character, in figure units: measured
    on the two drawn figures so that they never overlap (see :mod:`spacing`); close for a hug.
    Two chairs (stools, swings) stand side by side, not one in the other."""
    gap = facing_gap(anim, look, prop, friend, friend_anim(anim), friend_prop(anim, prop), seated)
    return max(gap, OWN_SEATS_GAP) if seat and Seat(seat) not in WIDE else gap


def pair_reach(anim: str, motion: MotionSpec, look: Look, friend: Look, seated: bool, seat: str, height: int,
               width: int, ahead: bool = False) -> tuple[tuple[float, float], float]:
    """((behind, ahead), along): how far the character doing ``anim`` and the friend drawn with
    it reach together from the character's hip, in figure units along the way it faces, and how
    far behind it a friend coming along is drawn: the anim's gap, shortened in a narrow frame so
    that the friend, half a frame's width behind at most, stays in the picture. A friend who
    comes along ``ahead`` of the character (see ``ClipPlan.along``) is that far in front of it:
    ``along`` is then negative."""
    scale = figure_scale(height, width)
    sitting = (seated or anim == "sit_seat") and friend_anim(anim) != "sit_seat"
    mine = reach(look, motion.prop, anim, seated)
    theirs = reach(friend, friend_prop(anim, motion.prop), friend_anim(anim), sitting)
    if role_for(anim) == Role.ALONG:
        half = 0.5 * width / scale
        along = min(along_gap(anim), max(along_gap(""), half - theirs[1 if ahead else 0] - PAIR_MARGIN))
        along = -along if ahead else along
        return (max(mine[0], along + theirs[0]), max(mine[1], theirs[1] - along)), along
    gap = companion_gap(anim, look, motion.prop, friend, seated, seat)
    return (mine[0], max(mine[1], gap + theirs[0] * FRIEND_SIZE)), 0.0


def seated_anim(anim: str, seat: str) -> str:
    """The anim drawn for ``anim`` on ``seat`` ('' for none): sitting on a seat, legs hanging."""
    return "sit_seat" if anim == "sit" and seat else anim


def seat_from(cond: Mapping[str, Any], anim: str, key: str = "seat") -> str:
    """The stored seat of a seated take ('' for the ground, for motions not done seated and for
    anything unknown)."""
    seat = str(cond.get(key, "") or "")
    return seat if can_sit_for(anim) and seat in {s.value for s in Seat} else ""


@dataclass(frozen=True, slots=True)
class ClipPlan:
    """Everything decode needs, read back from a prediction's conditioning."""

    motion: MotionSpec
    level: int
    scene: str
    time: str
    camera: CameraMode
    zoom_out: bool
    look: Look
    height: int
    width: int
    frames: int
    fps: float
    facing: int
    start_x: float
    travel: float
    pose_plan: PosePlan
    image_path: str = ""
    companion_look: Look | None = None
    framing: float = 1.0
    props: tuple[PropPlacement, ...] = ()
    gait: bool = False
    """The travel comes from the stepping (:mod:`gait`); False for takes made before it did."""
    stage: float = 0.0
    """How far from the camera's centre a walker may go before turning round (0: no limit)."""
    scroll: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Where the far, mid and near layers start (frame widths): where the previous clip in the
    same place left them, so the scenery continues instead of jumping back."""
    start_surface: float = 0.0
    """How high above the floor (frame heights) the clip starts: the top of the bed the previous
    clip ended sleeping on; the character comes down to the floor as its start pose blends out."""
    seat: str = ""
    """The seat a sitter sits on ('' : the ground); see :mod:`seats`."""
    seats: tuple[StandingSeat, ...] = ()
    """Seats earlier turns in this place left standing (the one the previous clip ended sitting on
    among them: the character gets up from it), where they stand in this clip."""
    pair: tuple[float, float] | None = None
    """How far (figure units, from the character's hip, behind and ahead of the way it faces)
    the character and the friend drawn with it reach together: what a closer shot keeps in view
    (see :func:`pair_reach`); None without a friend."""
    along: float = 0.0
    """How far behind the character (figure units) a friend coming along is drawn; negative when
    they come along ahead of it: a friend carried on from the previous turn in front of a walker
    who can only walk their way (the edge of the stage is behind it) keeps in front rather than
    pass through the walker to get behind it."""
    friend_start: FriendSpot | None = None
    """Where the same friend was at the end of the previous turn in this place (x in frame widths
    from the centre of this clip's first frame): they blend from there into their place here."""

    @property
    def duration(self) -> float:
        return self.frames / self.fps


def _num(cond: Mapping[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = cond.get(key, default)
    if value is None:
        raise EngineError(f"The sketch prediction has no {key!r}; re-run predict for this take.")
    try:
        out = kind(value)
    except (TypeError, ValueError):
        raise EngineError(f"The sketch prediction's {key!r} is not a number: {value!r}.") from None
    if isinstance(out, float) and not math.isfinite(out):
        raise EngineError(f"The sketch prediction's {key!r} is not finite.")
    return out


def plan_from_conditioning(cond: Mapping[str, Any]) -> ClipPlan:
    """Validate stored conditioning; raises EngineError with a clear message when unusable."""
    motion = MOTION_BY_NAME.get(str(cond.get("motion", "")))
    if motion is None:
        raise EngineError(f"The sketch prediction names an unknown motion {cond.get('motion')!r}.",
                          hint="Re-run predict with this engine version.")
    scene = str(cond.get("scene", "town"))
    if scene not in LOCATION_BY_NAME:
        scene = "town"
    time = str(cond.get("time_of_day", "day"))
    if time not in ("day", "sunset", "night"):
        time = "day"
    try:
        camera = CameraMode(str(cond.get("camera", "static")))
    except ValueError:
        camera = CameraMode.STATIC
    height, width = _num(cond, "height", int), _num(cond, "width", int)
    frames, fps = _num(cond, "frames", int), _num(cond, "fps", float)
    if not (32 <= height <= 2160 and 32 <= width <= 2160 and 1 <= frames <= 240 and 0 < fps <= 120):
        raise EngineError(f"The sketch prediction has an invalid size {height}x{width}, {frames} frames at {fps} fps.")
    level = max(1, min(5, _num(cond, "level", int, 3)))
    look_params = cond.get("look", {})
    look, _ = look_from_params(look_params if isinstance(look_params, Mapping) else {})
    start = Pose.from_dict(cond.get("start_pose"))
    variation = variation_from(cond)
    seat = seat_from(cond, motion.anim)
    pose_plan = PosePlan(
        anim=seated_anim(motion.anim, seat), level=level, duration=frames / fps, phase=_num(cond, "phase", float, 0.0),
        amplitude_jitter=_num(cond, "amplitude", float, 1.0), start=start, hold=bool(cond.get("hold", False)),
        tempo=variation.tempo, lead=variation.lead, seated=bool(seat) and motion.anim != "sit",
    )
    companion = _companion_look(cond) if motion.companion and not cond.get("no_one") \
        else _named_friend_look(cond, pose_plan.anim)
    pair, along = pair_reach(pose_plan.anim, motion, look, companion, pose_plan.seated, seat, height, width,
                             bool(cond.get("friend_ahead", False))) \
        if companion is not None and role_for(pose_plan.anim) != Role.ABSENT else (None, 0.0)
    stage = min(1.0, max(0.0, _num(cond, "stage", float, 0.0)))
    # A zoomed-in shot carried on in the same place is closer than a take's own framing can be.
    shot = min(MAX_SHOT, max(variation.framing, _num(cond, "shot", float, variation.framing)))
    return ClipPlan(
        motion=motion, level=level, scene=scene, time=time, camera=camera, zoom_out=bool(cond.get("zoom_out", False)),
        look=look, height=height, width=width, frames=frames, fps=fps,
        facing=1 if _num(cond, "facing", int, 1) >= 0 else -1, start_x=_num(cond, "start_x", float, 0.0),
        travel=_num(cond, "travel", float, 0.0), pose_plan=pose_plan, image_path=str(cond.get("image_path", "")),
        companion_look=companion, framing=shot, props=variation.props,
        gait=bool(cond.get("gait", False)) and is_gait(motion.anim), stage=stage, scroll=scroll_from(cond),
        start_surface=min(0.5, max(0.0, _num(cond, "start_surface", float, 0.0))) if start is not None else 0.0,
        seat=seat, seats=_seats_from(cond, start is not None), pair=pair, along=along,
        friend_start=FriendSpot.from_params(cond.get("friend_start")) if pair is not None else None,
    )


def friend_target(plan: ClipPlan, path: WalkPath | None, gap: float, screen_x: float, t: float
                  ) -> tuple[FriendSpot, PosePlan]:
    """Where the friend of ``plan``'s character is at clip fraction ``t`` (x in pixels before any
    zoom, from the character's hip at ``screen_x``) and the plan of their poses, before any
    carrying on from the previous turn: in front of the character ``gap`` figure units away,
    facing them, or beside it, a little behind, coming along in step (through a walker's turn
    the friend passes behind it as both face the viewer)."""
    anim = plan.pose_plan.anim
    scale = figure_scale(plan.height, plan.width)
    if role_for(anim) == Role.ALONG:  # in step with the character (the feet stay planted)
        pplan = replace(plan.pose_plan, start=None)
        facing = path.facing(t) if path is not None else plan.facing
        if path is None:
            return FriendSpot(screen_x - facing * plan.along * scale, facing, sample_pose(pplan, t), 1.0), pplan
        turn = path.turn(t)
        pose = turning_pose(sample_pose(pplan, path.clock(t)), turn)
        return FriendSpot(screen_x - facing * (1.0 - turn) * plan.along * scale, facing, pose, 1.0), pplan
    seated = (plan.pose_plan.seated or anim == "sit_seat") and friend_anim(anim) != "sit_seat"
    pplan = PosePlan(friend_anim(anim), 2, plan.duration, phase=plan.pose_plan.phase + 0.3, seated=seated)
    return FriendSpot(screen_x + plan.facing * gap * scale, -plan.facing, sample_pose(pplan, t), FRIEND_SIZE), pplan


def friend_end(plan: ClipPlan) -> FriendSpot | None:
    """Where the friend drawn with the character is at the end of the clip (x in frame widths
    from the centre of the last frame, which is where the next clip's frame starts, as the
    character's ``end_x``); None when no friend is drawn."""
    anim = plan.pose_plan.anim
    if plan.companion_look is None or role_for(anim) == Role.ABSENT or on_a_bed(plan.motion.anim, plan.scene, False):
        return None
    path = path_for(plan.pose_plan, plan.frames, plan.camera, plan.facing, plan.start_x,
                    figure_scale(plan.height, plan.width) / plan.width, plan.stage) if plan.gait else None
    travelled = path.offset(1.0) if path is not None else plan.travel
    cam = camera_frame(plan.camera, 1.0, travelled, plan.facing, plan.zoom_out)
    gap = companion_gap(anim, plan.look, plan.motion.prop, plan.companion_look, plan.pose_plan.seated, plan.seat) \
        if role_for(anim) == Role.FACING else 0.0
    spot = friend_target(plan, path, gap, (plan.start_x + travelled - cam.cam_x + 0.5) * plan.width, 1.0)[0]
    return replace(spot, x=spot.x / plan.width - 0.5)


def _seats_from(cond: Mapping[str, Any], from_pose: bool) -> tuple[StandingSeat, ...]:
    """The seats standing in the place: ``seats`` as stored; a take made before seats were kept
    for more than one turn has only ``start_seat``, under the character where the clip starts."""
    if "seats" in cond:
        return standing_seats(cond.get("seats"))
    left = seat_from(cond, "sit", "start_seat") if from_pose else ""
    return (StandingSeat(Seat(left), (_num(cond, "start_x", float, 0.0),)),) if left else ()


def _companion_look(cond: Mapping[str, Any]) -> Look:
    """The friend's look: the cast member's own look when the instruction named one from the
    cast, otherwise one made up from the take's seed (and so from takes made before friends
    were looked up)."""
    stored = cond.get("companion_look")
    if isinstance(stored, Mapping) and stored:
        return look_from_params(stored)[0]
    return generated_look(f"friend-{cond.get('companion_seed', 0)}")


def _named_friend_look(cond: Mapping[str, Any], anim: str) -> Look | None:
    """The look of a cast member named besides the character ("Qiqi waves at Yuzu"), for a
    motion that doesn't bring a friend of its own; None when nobody was named or when a second
    figure is not drawn with this motion (see :mod:`company`)."""
    stored = cond.get("companion_look")
    if not cond.get("companion") or not isinstance(stored, Mapping) or not stored:
        return None
    return look_from_params(stored)[0] if role_for(anim) != Role.ABSENT else None


def scroll_from(cond: Mapping[str, Any]) -> tuple[float, float, float]:
    """The stored start of the scenery layers; anything unusable means the scene's own start."""
    raw = cond.get("scroll")
    if not isinstance(raw, list | tuple) or len(raw) != 3:
        return 0.0, 0.0, 0.0
    try:
        values = [float(v) for v in raw]
    except (TypeError, ValueError):
        return 0.0, 0.0, 0.0
    if not all(math.isfinite(v) for v in values):
        return 0.0, 0.0, 0.0
    return values[0] % 1.0, values[1] % 1.0, values[2] % 1.0


def frame_times(frames: int) -> list[float]:
    return [0.0] if frames == 1 else [i / (frames - 1) for i in range(frames)]


def anim_phase(plan: PosePlan, t: float) -> float:
    anim = ANIMS.get(plan.anim, ANIMS["idle"])
    if not anim.loop:
        return plan.phase + t
    return plan.phase + t * plan.duration * anim.rate * level_speed(plan.level) * plan.tempo


def load_scene(plan: ClipPlan) -> tuple[Scene, bool]:
    """The scene to draw on, and whether it is the user's image (False: built-in fallback)."""
    if plan.image_path:
        try:
            mtime = os.stat(plan.image_path).st_mtime_ns
            return image_scene(plan.image_path, mtime, plan.time, plan.height, plan.width, IMAGE_PAN_MARGIN), True
        except Exception:
            pass
    return build_scene(plan.scene, plan.time, plan.height, plan.width), False


def compose_background(scene: Scene, cam: CameraFrame, width: int, is_image: bool) -> Image.Image:
    """The scene seen through the camera (RGB, before the character is added)."""
    if is_image:
        margin = scene.sky.width - width
        s = cam.layer_shifts[3] if cam.layer_shifts[3] else cam.layer_shifts[1]
        offset = round(margin / 2 + margin / 2 * math.tanh(2.0 * s))
        return scene.sky.crop((offset, 0, offset + width, scene.sky.height))
    frame = scene.sky.copy()  # the sky is at infinity: it never moves
    for band, shift in zip(scene.bands, cam.layer_shifts[1:], strict=True):
        band.paste_onto(frame, round(shift * width))
    return frame


@lru_cache(maxsize=64)
def _shadow_sprite(rx: int, ry: int, alpha: int) -> Image.Image:
    sprite = Image.new("RGBA", (2 * rx + 1, 2 * ry + 1), (20, 20, 40, 0))
    ImageDraw.Draw(sprite).ellipse([0, 0, 2 * rx, 2 * ry], fill=(20, 20, 40, alpha))
    return sprite


def _paste_shadow(img: Image.Image, x: float, y: float, rx: float, ry: float, alpha: int) -> None:
    """A soft ground shadow, pasted with its own alpha as mask (drawing RGBA would overwrite)."""
    sprite = _shadow_sprite(max(1, round(rx)), max(1, round(ry)), alpha)
    img.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), sprite)


def _tint(plan: ClipPlan, scene: Scene, is_image: bool) -> tuple[float, float, float]:
    setting = Setting.OUTDOOR if is_image else scene.setting
    tint = scene_tint(setting, plan.time)
    # Characters are lit a little more than the scenery so they stay readable at night.
    red, green, blue = (1.0 - (1.0 - c) * 0.7 for c in tint)
    return red, green, blue


class ClipRenderer:
    """Renders the frames of one :class:`ClipPlan`."""

    def __init__(self, plan: ClipPlan) -> None:
        self.plan = plan
        self.scene, self.is_image = load_scene(plan)
        self.scale = figure_scale(plan.height, plan.width)
        tint = _tint(plan, self.scene, self.is_image)
        self.scene_light = scene_tint(Setting.OUTDOOR if self.is_image else self.scene.setting, plan.time)
        m = plan.motion
        self.spec = FigureSpec(plan.look, Palette.build(plan.look, tint), m.prop, m.effect, m.expression, m.anim)
        self.companion_spec: FigureSpec | None = None
        anim = plan.pose_plan.anim
        self.friend_role = role_for(anim)
        self.seated = plan.pose_plan.seated or anim == "sit_seat"
        """Sitting on a seat: a friend facing the character sits too, on it or on their own."""
        self.gap = 0.0
        self.along = plan.along
        self.pair = plan.pair
        if plan.companion_look is not None and self.friend_role != Role.ABSENT:
            self.companion_spec = FigureSpec(plan.companion_look, Palette.build(plan.companion_look, tint),
                                             friend_prop(anim, m.prop), friend_effect(anim, m.effect),
                                             Expression.HAPPY, friend_anim(anim))
            if self.friend_role == Role.FACING:
                self.gap = companion_gap(anim, plan.look, m.prop, plan.companion_look, plan.pose_plan.seated,
                                         plan.seat)
        self.ground_y = self.scene.ground_frac * plan.height
        self._bg_key: tuple[int, ...] | None = None
        self._bg: Image.Image | None = None
        self.supersample = 2 if self.scale < 260 else 1
        self.bed = on_a_bed(m.anim, plan.scene, self.is_image)
        self.path: WalkPath | None = None
        if plan.gait:
            self.path = path_for(plan.pose_plan, plan.frames, plan.camera, plan.facing, plan.start_x,
                                 self.scale / plan.width, plan.stage)

    def travelled(self, t: float) -> float:
        return self.path.offset(t) if self.path is not None else self.plan.travel * t

    def facing_at(self, t: float) -> int:
        """Where the character faces at clip fraction ``t`` (a walker turns round at the stage's edge;
        a sleeper on a bed lies with the head on the pillow, at the bed's left end)."""
        if self.bed is not None:
            return 1
        return self.path.facing(t) if self.path is not None else self.plan.facing

    def hip_screen_x(self, t: float) -> float:
        """The hip's x in pixels before any zoom at clip fraction ``t`` (pose offsets aside)."""
        plan = self.plan
        if self.bed is not None:  # on the bed, which moves with the mid layer
            shift, first = self.camera_at(t).layer_shifts[2], self.camera_at(0.0).layer_shifts[2]
            return bed_hip_x(self.bed, shift, plan.height, plan.width, first) * plan.width
        cam = camera_frame(plan.camera, t, self.travelled(t), plan.facing, plan.zoom_out)
        return (plan.start_x + self.travelled(t) - cam.cam_x + 0.5) * plan.width

    def surface_at(self, t: float) -> float:
        """The row the character stands or lies on at clip fraction ``t``: the floor, the top of
        the bed it sleeps in, or, getting up from the bed it slept in, the bed's top lowered to
        the floor at the pace the start pose blends into the motion."""
        plan = self.plan
        if self.bed is not None:
            return self.ground_y - self.bed.top * plan.height
        if plan.start_surface and plan.pose_plan.blend > 0:
            return self.ground_y - plan.start_surface * plan.height * (1.0 - smoothstep(t / plan.pose_plan.blend))
        return self.ground_y

    def camera_at(self, t: float) -> CameraFrame:
        """The camera at ``t``, its layer shifts counted from where this clip's scenery starts."""
        cam = camera_frame(self.plan.camera, t, self.travelled(t), self.plan.facing, self.plan.zoom_out)
        if self.is_image or self.plan.scroll == (0.0, 0.0, 0.0):
            return cam
        far, mid, near = self.plan.scroll
        sky, *layers = cam.layer_shifts
        return replace(cam, layer_shifts=(sky, layers[0] + far, layers[1] + mid, layers[2] + near))

    def placement(self, index: int) -> tuple[float, int, Pose]:
        """(the hip's x in pixels before any zoom, the way the figure faces, its pose) in frame ``index``."""
        plan = self.plan
        t = frame_times(plan.frames)[index]
        cam = camera_frame(plan.camera, t, self.travelled(t), plan.facing, plan.zoom_out)
        pose = self.pose_at(t)
        if cam.yaw:
            pose = replace(pose, yaw=pose.yaw + cam.yaw)
        facing = self.facing_at(t)
        return self.hip_screen_x(t) + facing * pose.x * self.scale, facing, pose

    def background(self, cam: CameraFrame) -> Image.Image:
        key = tuple(round(s * self.plan.width) for s in cam.layer_shifts)
        if key != self._bg_key or self._bg is None:
            self._bg = compose_background(self.scene, cam, self.plan.width, self.is_image)
            self._bg_key = key
        return self._bg.copy()

    def pose_at(self, t: float) -> Pose:
        if self.path is not None:  # a walker pauses its step and turns while it turns round
            return turning_pose(sample_pose(self.plan.pose_plan, self.path.clock(t)), self.path.turn(t))
        return sample_pose(self.plan.pose_plan, t)

    def frame(self, index: int) -> np.ndarray:
        plan = self.plan
        t = frame_times(plan.frames)[index]
        travelled = self.travelled(t)
        cam = camera_frame(plan.camera, t, travelled, plan.facing, plan.zoom_out)
        img = self.background(self.camera_at(t))
        if plan.props:
            draw_small_props(img, plan.props, cam.layer_shifts[3], self.ground_y, self.scale, self.scene_light)
        screen_x = self.hip_screen_x(t)
        x, facing, pose = self.placement(index)
        phase = anim_phase(plan.pose_plan, t)
        seconds = t * plan.duration
        hip_y = self.surface_at(t) - (HIP_HEIGHT + pose.y) * self.scale
        self._shadow(img, screen_x, pose, self.surface_at(t))
        for standing in plan.seats:  # left by earlier turns here; they stay put as the camera moves
            hips = [((hx - cam.cam_x + 0.5) * plan.width, plan.facing) for hx in standing.hips]
            draw_seat(img, standing.seat, hips, self.ground_y, self.scale, self.scene_light)
        if plan.seat:
            self._seat(img, x, screen_x, facing, t)
        # A friend beside a railing sitter stands in front of the railing, on the roof, not in it.
        in_front = plan.motion.prop == Prop.RAILING
        if self.companion_spec is not None and not in_front:
            self._companion(img, screen_x, seconds, t)
        zoom = self._zoom(cam)
        box = self._zoom_box(zoom, self._shot_centre(t), hip_y) if zoom > 1.0001 else None
        left, top, right, _ = box if box is not None else (0.0, 0.0, float(plan.width), 0.0)
        room = ((x - left) / self.scale - SYMBOL_MARGIN, (hip_y - top) / self.scale - SYMBOL_MARGIN,
                (right - x) / self.scale - SYMBOL_MARGIN)
        room = self._room_beside_the_friend(room, x, screen_x, t)
        sprite, (ax, ay) = draw_figure(self.spec, pose, facing, self.scale, phase, seconds, self.supersample, room)
        img.paste(sprite, (round(x - ax), round(hip_y - ay)), sprite)
        if self.companion_spec is not None and in_front:
            self._companion(img, screen_x, seconds, t)
        if box is not None:
            img = img.resize(img.size, Image.Resampling.BILINEAR, box=box)
        return np.asarray(img)

    def _room_beside_the_friend(self, room: tuple[float, float, float], x: float, screen_x: float,
                                t: float) -> tuple[float, float, float]:
        """``room`` (left, up, right, figure units) with the side of a friend facing the
        character ending where the friend begins: a bubble or a shout beside the head goes on
        the other side (or over the head) instead of over the friend's face."""
        if self.companion_spec is None or self.friend_role != Role.FACING or self.plan.companion_look is None:
            return room
        friend = self.companion_spec
        seated = self.seated and friend.anim != "sit_seat"
        near = reach(self.plan.companion_look, friend.prop, friend.anim, seated)[1] * FRIEND_SIZE
        free = (self.friend_at(screen_x, t)[0].x - x) / self.scale
        left, up, right = room
        if free > 0:
            return left, up, min(right, free - near - SYMBOL_MARGIN)
        return min(left, -free - near - SYMBOL_MARGIN), up, right

    def _zoom(self, cam: CameraFrame) -> float:
        """How much closer than the whole frame the shot is: the camera's zoom times the take's
        shot size, but never so close that a bubble has no room over the head."""
        zoom = cam.zoom * self.plan.framing
        if self.plan.motion.effect in BUBBLES:
            zoom = min(zoom, max(1.0, self.plan.height / (BUBBLE_SHOT * self.scale)))
        if self.pair is not None:  # the friend stays in the shot: no closer than shows both
            width = (sum(self.pair) + 2 * PAIR_MARGIN) * self.scale
            zoom = min(zoom, max(1.0, self.plan.width / width))
        return zoom

    def _shot_centre(self, t: float) -> float:
        """Where a closer shot is centred at clip fraction ``t`` (pixels).

        The centre glides at an even pace from where the shot frames the character at the
        start to where it frames it at the end. Centring on the character frame by frame
        would make a still camera chase a walker and then stop dead where the shot meets
        the edge of the scene.
        """
        plan = self.plan
        if self.path is not None and self.path.turns:
            # A walk that turns round is framed still, on the middle of the ground it covers.
            xs = [(plan.start_x + self.travelled(u) - camera_frame(plan.camera, u, self.travelled(u), plan.facing,
                                                                   plan.zoom_out).cam_x + 0.5) * plan.width
                  for u in frame_times(plan.frames)]
            half = plan.width / max(1.0, plan.framing) / 2
            return min(max((min(xs) + max(xs)) / 2, half), plan.width - half)
        ends: list[float] = []
        for edge in (0.0, 1.0):
            cam = camera_frame(plan.camera, edge, self.travelled(edge), plan.facing, plan.zoom_out)
            x = self.hip_screen_x(edge)  # a sleeper's bed moves with the mid layer, not with the camera
            if self.pair is not None:  # the middle of the character and the friend
                x += self.facing_at(edge) * (self.pair[1] - self.pair[0]) / 2 * self.scale
            half = plan.width / max(1.0, self._zoom(cam)) / 2
            ends.append(min(max(x, half), plan.width - half))
        return ends[0] + (ends[1] - ends[0]) * t

    def _shadow(self, img: Image.Image, x: float, pose: Pose, surface: float) -> None:
        if self.scene.setting == Setting.SKY and not self.is_image:
            return
        lift = max(0.0, pose.y)
        k = max(0.3, 1.0 - lift * 1.2)
        rx = 0.26 * self.scale * k * (1.6 if abs(pose.rot) > 45 else 1.0)
        ry = 0.05 * self.scale * k
        _paste_shadow(img, x, surface, rx, ry, int(70 * k))

    def companion_x(self, x: float, t: float) -> float:
        """The friend's place (hip x, pixels before any zoom) in this clip when the character's
        is ``x`` at clip fraction ``t``: where their seat stands (see :func:`friend_target`)."""
        return friend_target(self.plan, self.path, self.gap, x, t)[0].x

    def friend_at(self, x: float, t: float) -> tuple[FriendSpot, PosePlan]:
        """Where the friend is drawn at clip fraction ``t`` (x in pixels before any zoom) when the
        character's hip is at ``x``, and the plan of their poses: their place in this clip, or on
        the way there from where the previous turn left them."""
        target, pplan = friend_target(self.plan, self.path, self.gap, x, t)
        start = self.plan.friend_start
        if start is None:
            return target, pplan
        cam = camera_frame(self.plan.camera, t, self.travelled(t), self.plan.facing, self.plan.zoom_out)
        start = replace(start, x=(start.x - cam.cam_x + 0.5) * self.plan.width)
        return blend_from(start, target, carry_weight(t, self.plan.pose_plan.blend)), pplan

    def _companion(self, img: Image.Image, x: float, seconds: float, t: float) -> None:
        assert self.companion_spec is not None
        plan = self.plan
        spot, pplan = self.friend_at(x, t)
        if self.friend_role == Role.FACING and self.seated and plan.seat and Seat(plan.seat) not in WIDE:
            # a chair, stool or swing each: the friend's stands where they sit in this clip
            draw_seat(img, Seat(plan.seat), [(self.companion_x(x, t), -plan.facing)], self.ground_y,
                      self.scale * FRIEND_SIZE, self.scene_light)
        cx, facing, pose, size = spot.x, spot.facing, spot.pose, self.scale * spot.size
        sprite, (ax, ay) = draw_figure(self.companion_spec, pose, facing, size, anim_phase(pplan, t), seconds,
                                       self.supersample)
        hip_y = self.ground_y - (HIP_HEIGHT + pose.y) * size
        k = max(0.3, 1.0 - max(0.0, pose.y) * 1.2)
        if self.scene.setting != Setting.SKY or self.is_image:
            _paste_shadow(img, cx, self.ground_y, 0.24 * size * k, 0.045 * size * k, int(60 * k))
        img.paste(sprite, (round(cx - ax), round(hip_y - ay)), sprite)

    def _seat(self, img: Image.Image, x: float, screen_x: float, facing: int, t: float) -> None:
        """The seat under the sitter (and under a friend sitting with them on a bench or a sofa)."""
        hips = [(x, facing)]
        seat = Seat(self.plan.seat)
        if self.companion_spec is not None and self.friend_role == Role.FACING and self.seated and seat in WIDE:
            hips.append((self.companion_x(screen_x, t), -facing))
        draw_seat(img, seat, hips, self.ground_y, self.scale, self.scene_light)

    def _zoom_box(self, zoom: float, cx: float, cy: float) -> tuple[float, float, float, float]:
        """The part of the frame (left, top, right, bottom) a closer shot around (cx, cy), the
        hip, shows: the head keeps its room above it (a close shot of a jump or a climb cut the
        head off when the hip sat at a fixed height in it), and the feet their room below it
        when the shot is tall enough for both."""
        w, h = self.plan.width, self.plan.height
        cw, ch = w / zoom, h / zoom
        left = min(max(0.0, cx - cw / 2), w - cw)
        # A bubble over the head needs room above it; it goes beside the head when the shot is wide.
        over = BUBBLE_ROOM if self.plan.motion.effect in BUBBLES and cw < 1.5 * self.scale else 0.0
        head = (HEAD_ROOM + over) * self.scale
        top = cy - max(ch * 0.45, head)
        top = max(top, min(cy + FEET_ROOM * self.scale - ch, cy - head))
        top = min(max(0.0, top), h - ch)
        return left, top, left + cw, top + ch

    def render(self, progress: ProgressCallback, cancelled: CancelCheck) -> np.ndarray:
        plan = self.plan
        out = np.empty((plan.frames, plan.height, plan.width, 3), dtype=np.uint8)
        for i in range(plan.frames):
            check_cancelled(cancelled)
            out[i] = self.frame(i)
            progress(Progress(i + 1, plan.frames, f"frame {i + 1}/{plan.frames}"))
        return out

