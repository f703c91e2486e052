"""The sketch engine: a procedural anime world behind the Engine protocol.

``predict`` reads the instruction, applies the world rules and makes every seeded choice
(facing, start position, animation phase); all of it goes into the prediction's
conditioning. ``decode`` only renders that conditioning, so a stored take re-decodes to
the same frames, and the next turn can continue from the stored end pose.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PIL import Image

from studio.core.instruction import Instruction
from studio.core.joined_names import character_names
from studio.core.model import CastMember, Location
from studio.core.speech import is_script_line, outside_quotes
from studio.core.state import written_key
from studio.core.tree import SEVERAL, field_actor, field_pronoun, motion_subject, subject_pronoun
from studio.engines.base import (
    CancelCheck,
    Clip,
    DeviceKind,
    EngineConfig,
    EngineError,
    EngineSettings,
    EngineVocabulary,
    GenerationContext,
    Prediction,
    Progress,
    ProgressCallback,
    check_cancelled,
    never_cancelled,
    no_progress,
)
from studio.engines.catalog.sketch import INFO, NAME, VERSION, SketchSettings
from studio.engines.sketch.camera import PAN_DISTANCE, ZOOM_MAX, camera_frame
from studio.engines.sketch.company import FriendSpot, Role, friend_anim, friend_prop, grounded, role_for
from studio.engines.sketch.continuation import continue_variation, end_props, end_scroll, end_shot
from studio.engines.sketch.defaults import load_default_cast
from studio.engines.sketch.gait import STAGE_MARGIN, WalkPath, is_gait, path_for
from studio.engines.sketch.look import Look, generated_look, look_from_params
from studio.engines.sketch.no_one import an_animal, done_to_no_one
from studio.engines.sketch.offer import live_vocabulary
from studio.engines.sketch.poses import ANIMS, Pose, PosePlan, end_pose, sample_pose
from studio.engines.sketch.render import (
    COMPANION_HALF_WIDTH,
    ClipRenderer,
    anim_phase,
    bed_hip_x,
    companion_gap,
    figure_scale,
    friend_end,
    on_a_bed,
    plan_from_conditioning,
    seated_anim,
)
from studio.engines.sketch.representation import build_representation
from studio.engines.sketch.rules import RuleInput, predict_deltas, tired_level
from studio.engines.sketch.seats import (
    MAX_STANDING,
    WIDE,
    Seat,
    StandingSeat,
    can_sit_for,
    seat_named,
    standing_seats,
    stays_seated,
)
from studio.engines.sketch.settings import camera_override
from studio.engines.sketch.spacing import friend_behind, reach
from studio.engines.sketch.text import MAX_ANALYSED_CHARS, first_read, reading_translation, tokenise
from studio.engines.sketch.understanding import (
    Reading,
    as_read,
    builtin_location,
    default_camera,
    default_location_for,
    read_turn,
    turn_in_english,
    without_speech,
)
from studio.engines.sketch.variation import FRAMINGS, variation_for
from studio.engines.sketch.vocabulary import (
    DEFAULT_LOCATION,
    LOCATION_BY_NAME,
    MOTION_BY_NAME,
    CameraMode,
    MotionSpec,
    Prop,
    Setting,
)

ENGINE_NAME = NAME
ENGINE_VERSION = VERSION

STAGE_LIMIT = 0.36
"""How far from the centre (in frame widths) a character may walk with a still camera."""
FRIEND_MARGIN = 0.1
"""Room (figure units) a new take keeps between a friend facing the character and the frame's edge."""


SUPPORTS = frozenset({Prop.LADDER, Prop.RAILING, Prop.BROOM_RIDE})
"""Props that hold the character up: a ladder, a railing, a flying broom."""


def _unsupported(pose: Pose | None, prev: Mapping[str, Any], motion: MotionSpec) -> Pose | None:
    """The previous end pose, back on the ground when what held it up is gone.

    The ladder, railing or broom of the previous turn is not drawn in the next one; starting
    from the raised pose would leave the character floating in the air, sinking slowly.
    """
    before = MOTION_BY_NAME.get(str(prev.get("motion", "")))
    if pose is None or before is None or before.prop not in SUPPORTS or before.prop == motion.prop or pose.y <= 0:
        return pose
    return replace(pose, y=0.0)


def _seeded(seed: int, *parts: object) -> random.Random:
    digest = hashlib.sha256(":".join(str(p) for p in (seed, *parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _script_speaker(instruction: Instruction, members: tuple[CastMember, ...]) -> str:
    """The member who speaks a script line of ``instruction`` ('Aoi: "I am home"' -> Aoi), as
    the story tree credits the turn; '' when no member speaks one."""
    for key, value in instruction.extra:
        found = _find_member(key, members)
        if found is not None and is_script_line(value):
            return found.name
    return ""


def _first_named(text: str, members: tuple[CastMember, ...], besides: str = "") -> str:
    """The member ``text`` names first ("Aoi waves at Qiqi" -> Aoi), as the story tree reads
    a turn's acting character; '' when none is named. ``besides`` (a name) is never the answer:
    with the acting character there, it finds who they are with ("Aoi waves at Qiqi" -> Qiqi)."""
    named = _named_in_order(text, members, besides)
    return named[0] if named else ""


def _named_in_order(text: str, members: tuple[CastMember, ...], besides: str | tuple[str, ...] = ()) -> list[str]:
    """The members ``text`` names, in the order it first names them (the first member listed
    wins a tie), each once (:func:`written_key`), those in ``besides`` (a name or names) left out."""
    words = tokenise(text)
    skip = {written_key(name) for name in ((besides,) if isinstance(besides, str) else besides) if name}
    first: dict[str, int] = {}
    for i, word in enumerate(words):
        first.setdefault(word, i)
    found: dict[str, tuple[int, int, str]] = {}
    for order, member in enumerate(members):
        key = written_key(member.name) if member.name else ""
        if not key or key in skip or key in found:
            continue
        keys = set(tokenise(member.name))
        if keys and keys <= first.keys():
            found[key] = (min(first[k] for k in keys), order, member.name)
    return [name for _, _, name in sorted(found.values())]


def _first_present(text: str, members: tuple[CastMember, ...], besides: str) -> str:
    """The member ``text`` names first who is there: names said to be away ("waits for Taro
    with Yuzu" -> Yuzu, see :func:`_named_as_absent`) are passed over; '' when none is."""
    for name in _named_in_order(text, members, besides):
        if not _named_as_absent(text, name) and not _own_clause_verb(text, name):
            return name
    return ""


OWN_CLAUSE_LEADS = frozenset({"while", "whilst", "as", "meanwhile"})
"""Words before a name that start a clause of its own ("runs while Yuzu sleeps"): the name does
something else than the character, at the same time."""


def _own_clause_verb(text: str, name: str) -> str:
    """The word after the first mention of ``name`` in ``text`` when that mention is the subject
    of a clause of its own ("Qiqi runs while Yuzu sleeps" -> 'sleeps'), '' otherwise: such a
    cast member does their own motion, not the character's with them."""
    words, keys = tokenise(text), tokenise(name)
    for i in range(len(words)):
        if keys and words[i:i + len(keys)] == keys:
            after = i + len(keys)
            if i > 0 and words[i - 1] in OWN_CLAUSE_LEADS and after < len(words) and \
                    words[after] not in ("and", "or", "to", "with"):
                return words[after] if words[after] not in ("is", "was", "keeps") or after + 1 >= len(words) \
                    else f"{words[after]} {words[after + 1]}"
            return ""
    return ""


ABSENT_AFTER = frozenset({"about", "for", "without", "miss", "misses", "missing", "missed"})
"""Words before a name that say the person is not there: "thinks about Yuzu", "waits for Yuzu",
"walks without Yuzu", "misses Yuzu"."""


def _named_as_absent(text: str, name: str) -> bool:
    """Whether the first mention of ``name`` in ``text`` comes right after a word in :data:`ABSENT_AFTER`."""
    words, keys = tokenise(text), tokenise(name)
    for i, word in enumerate(words):
        if keys and word == keys[0]:
            return i > 0 and words[i - 1] in ABSENT_AFTER
    return False


def also_named(text: str, members: tuple[CastMember, ...], drawn: tuple[str, ...]) -> list[str]:
    """Members ``text`` names who are not in ``drawn`` and not named as someone absent
    ("Qiqi waves at Yuzu and Taro", drawing Qiqi and Yuzu -> ['Taro']), in the order named."""
    return [name for name in _named_in_order(text, members, drawn)
            if not _named_as_absent(text, name) and not _own_clause_verb(text, name)]


_LATIN_NEXT_TO_WIDE = re.compile(r"(?<=[A-Za-z\u00c0-\u024f])(?=[^\W\d_A-Za-z\u00c0-\u024f])"
                                 r"|(?<=[^\W\d_A-Za-z\u00c0-\u024f])(?=[A-Za-z\u00c0-\u024f])")


def _scripts_apart(text: str) -> str:
    """``text`` with a space where a Latin word meets a Japanese, Chinese or Korean one, so that
    a cast name written straight before a particle or verb is a word ("Qiqiは走る", "Qiqi在公园")."""
    return _LATIN_NEXT_TO_WIDE.sub(" ", text)


def _field_names(field: str, names: list[str]) -> list[str]:
    """The names a Character field joins (:func:`character_names`), less pronouns: one stands for
    the character of the turn before ("she and Yuzu": Yuzu is who she is with)."""
    return [name for name in character_names(field, names) if not field_pronoun(name, names)]


def _joined_friend(names: list[str], actor: str, members: tuple[CastMember, ...]) -> tuple[str, list[str]]:
    """For a Character field naming several (``names``: "Qiqi and Yuzu"), ``actor`` acting: the
    friend drawn with them (the first other one of the cast) and a warning for each other name,
    by name: one outside the cast, one more than the one friend the engine draws, or one
    named again ("Qiqi and Qiqi": drawn once)."""
    keys = [written_key(name) for name in names]
    warnings = [f"'{name}' is named more than once in the Character field: drawn once"
                for index, name in enumerate(names) if keys[index] in keys[:index]]
    names = [name for index, name in enumerate(names) if keys[index] not in keys[:index]]
    others = [name for name in names if written_key(name) != written_key(actor)]
    friend = next((member.name for name in others if (member := _find_member(name, members)) is not None), "")
    for name in others:
        if _find_member(name, members) is None:
            warnings.append(f"'{name}' is not in the cast: drawn only {actor}" + (f" with {friend}" if friend else "")
                            + f"; add {name} to the cast to draw them too")
        elif written_key(name) != written_key(friend):
            warnings.append(f"'{name}' is not drawn: the sketch engine draws one friend with {actor} "
                            f"('{friend}', named first); name '{name}' in a turn of their own")
    return friend, warnings


def _unknown_place_warnings(reading: Reading, context: GenerationContext, location: str) -> list[str]:
    """Warnings for the names the instruction gives as its place that are no place of the world
    ("runs in Mordor" drew the place of the turn before without a word), ``location`` being
    where the turn is drawn instead. A name of the cast (the project's or the default one) is
    someone, not a place. (A name the text opens with that is no one of the cast is the
    story's to point out: :func:`studio.core.subject.unlisted_subject`.)"""
    members = (*(m for m in context.cast if isinstance(m, CastMember)), *load_default_cast())
    out: list[str] = []
    for place in reading.unknown_places:
        if not _of_the_cast(place, members):
            out.append(f"'{place}' is no place of this world, shown as '{location}'")
    return out


def _of_the_cast(name: str, members: tuple[CastMember, ...]) -> bool:
    """Whether a word of ``name`` is a word of a cast member's name ("Tanaka" of "Mr Tanaka", and back)."""
    words = set(tokenise(name))
    return any(words & set(tokenise(member.name)) for member in members)


def _find_member(name: str, members: tuple[CastMember, ...]) -> CastMember | None:
    """The cast member ``name`` names, as the story matches names (:func:`written_key`: case,
    spacing and how the accents are encoded don't matter; "Ame\u0301lie" is Amélie)."""
    key = written_key(name)
    for member in members:
        if written_key(member.name) == key:
            return member
    return None


class SketchEngine:
    """Procedural draft engine: instant, deterministic, CPU only."""

    info = INFO
    name = ENGINE_NAME
    version = ENGINE_VERSION

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config if config is not None else EngineConfig()
        self._loaded = False

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        check_cancelled(cancelled)
        for stage, place in self.config.placements().items():
            if place.kind is not DeviceKind.CPU:
                raise EngineError(f"The sketch engine runs on the CPU only, not {place} ({stage.value}).",
                                  hint="Use device 'cpu'.")
        self._loaded = True
        progress(Progress(1, 1, "ready"))

    def unload(self) -> None:
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    # predict --------------------------------------------------------------------------------
    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        check_cancelled(cancelled)
        if not isinstance(instruction, Instruction):
            raise EngineError(f"predict needs an Instruction, got {type(instruction).__name__}.")
        options = SketchSettings.coerce(settings)
        seed = int(seed)
        progress(Progress(0, 3, "reading the instruction"))
        prev: Mapping[str, Any] = context.history[-1].conditioning if context.history else {}
        if not isinstance(prev, Mapping):
            prev = {}
        user_locations = {loc.name: loc for loc in context.locations if isinstance(loc, Location) and loc.name}
        names = [m.name for m in (*context.cast, *load_default_cast()) if isinstance(m, CastMember) and m.name]
        reading = read_turn(instruction, list(user_locations), names, stand_ins=True)
        # Each field is read as far as its limit as written (as_read: read_turn said what was cut).
        # A turn written in Japanese or Chinese is read in English words, its names set apart
        # (see japanese.py, chinese.py),
        # as far as its text as written is read (text.reading_translation).
        limited, _cuts = as_read(instruction)
        english = turn_in_english(limited, (*names, *user_locations))
        translated, instruction = english is not limited, english
        warnings = list(reading.warnings)
        motion = reading.motion

        with reading_translation(translated):
            character, look, look_warnings, named_friend = self._character(reading, instruction, limited, context,
                                                                           prev)
            warnings += look_warnings
            location = reading.location or str(prev.get("location") or "") or default_location_for(motion)
            scene, image_path, is_image = self._location(location, user_locations, warnings)
            warnings += _unknown_place_warnings(reading, context, location if location in user_locations else scene)
            setting = Setting.OUTDOOR if is_image else LOCATION_BY_NAME[scene].setting
            time = reading.time or str(prev.get("time_of_day") or "") or "day"
            if time not in ("day", "sunset", "night"):
                time = "day"
            image_print = _picture_print(image_path) if image_path else ""
            continued = bool(prev) and prev.get("location") == location and _same_picture(prev, image_path, image_print)
            seat = self._seat(instruction, motion, setting) \
                or _seat_kept(instruction, motion, prev, continued and prev.get("time_of_day") == time)
            if setting == Setting.SKY:  # nothing to stand a seat on: a sitter sits on the clouds
                seat = ""
            anim = seated_anim(motion.anim, seat)
            friend, friend_look, friend_warnings = self._friend(instruction, character, context, named_friend)
            together = bool(friend) or reading.together  # done with someone: a social gain (rules)
            # "hugs her pillow", "talks to herself": no friend is made up, and no social gain
            no_one = "" if friend or reading.together else done_to_no_one(without_speech(instruction.free_text)[0],
                                                                            motion)
            if an_animal(no_one):
                friend_warnings = [*friend_warnings, f"'{no_one}' is not drawn: the sketch world draws no animals"]
            if friend and not motion.companion and role_for(anim) == Role.ABSENT:
                friend_warnings = [f"'{friend}' is not drawn: the sketch engine shows one character when they "
                                   f"{motion.name}; name them in a turn of their own"]
                friend, friend_look = "", None
            warnings += friend_warnings
            reading.level, tired = tired_level(motion, reading.level, context.state.stamina, character)
            warnings += tired
        camera = camera_override(options) or reading.camera or default_camera(motion, setting)
        check_cancelled(cancelled)
        progress(Progress(1, 3, "applying world rules"))

        spec = LOCATION_BY_NAME.get(scene)
        deltas, reasons = predict_deltas(
            RuleInput(motion, reading.level, time, bool(spec and spec.busy), bool(spec and spec.leisure),
                      context.state, together, alone=bool(no_one)), seed)

        start_pose = _unsupported(Pose.from_dict(prev.get("end_pose")), prev, motion) if continued else None
        start_pose = _out_of_the_water(start_pose, prev, motion)
        rng = _seeded(seed, motion.name, location, time)
        facing = (1 if _number(prev.get("end_facing", prev.get("facing", 1)), 1.0) >= 0 else -1) if continued \
            else rng.choice((1, -1))
        start_x = _number(prev.get("end_x", 0.0), 0.0) if continued else rng.uniform(-0.08, 0.08)
        start_x = round(max(-0.45, min(0.45, start_x)), 6)  # as stored: decode retraces a walk from it
        # The same friend named again in the same place carries on from where they were.
        carried = _friend_carried(prev, friend, motion) if start_pose is not None else None
        if carried is not None:
            facing = _facing_for_the_friend(carried, role_for(anim), facing, start_x)
        gait = is_gait(motion.anim)
        if not gait:
            facing, travel = self._travel(motion, reading.level, options, camera, facing, start_x)
        seated = bool(seat) and motion.anim != "sit"
        # Who faces the character: the cast member named, or the friend a talk brings along.
        facing_friend = (friend_look if friend_look is not None else generated_look(f"friend-{seed % 7}")) \
            if ((motion.companion and not no_one) or friend) and role_for(anim) == Role.FACING else None
        gap = companion_gap(anim, look, motion.prop, facing_friend, seated, seat) if facing_friend is not None \
            else 0.0
        if facing_friend is not None:
            behind = friend_behind(facing_friend, friend_anim(anim), friend_prop(anim, motion.prop),
                                   seated or anim == "sit_seat")
            my_back = reach(look, motion.prop, anim, seated)[0]
            facing = self._face_the_friend(gap + behind, options, facing, start_x)
            if not continued:
                start_x = self._make_room_for_the_friend(gap + behind, my_back, options, facing, start_x)
        hold = (continued and prev.get("anim") == motion.anim and not ANIMS[motion.anim].loop
                and str(prev.get("seat", "") or "") == seat)
        variation = variation_for(seed, indoor=setting == Setting.INDOOR, sky=setting == Setting.SKY)
        # The same place at the same time of day: the scenery, its props and the shot size go
        # on from the previous clip instead of cutting to a new picture of the same place.
        same_place = continued and not is_image and prev.get("time_of_day") == time
        scroll = (0.0, 0.0, 0.0)
        if same_place:
            variation, scroll = continue_variation(variation, prev, keep_framing=not reading.camera)
        bed = on_a_bed(motion.anim, scene, is_image)
        if bed is not None:  # a sleeper lies on the bed (head on the pillow), not on the floor beside it
            # (The sleeper is drawn facing right; a moving camera goes left, bringing the bed, which
            # is at the left of the room, towards the middle of the frame.)
            facing = -1 if camera in (CameraMode.PAN, CameraMode.ORBIT) else 1
            first = camera_frame(camera, 0.0, 0.0, facing, reading.zoom_out)
            at = bed_hip_x(bed, first.layer_shifts[2] + scroll[1], options.height, options.width)
            travel, start_x = 0.0, round(at - 0.5 + first.cam_x, 6)
        start_surface = _bed_left(start_pose, prev) if bed is None and continued and not is_image else 0.0
        phase = round(rng.random(), 6)
        amplitude = round(rng.uniform(0.92, 1.08), 6)
        if continued and prev.get("anim") == motion.anim and ANIMS[motion.anim].loop:
            phase = round(_number(prev.get("end_phase", phase), phase) % 1.0, 6)  # the cycle goes on
        pose_plan = PosePlan(anim=anim, level=reading.level, duration=options.frames / options.fps,
                             phase=phase, amplitude_jitter=amplitude,
                             start=start_pose, hold=hold, tempo=variation.tempo, lead=variation.lead,
                             seated=seated)
        stage = 0.0
        path: WalkPath | None = None
        if gait:
            facing, start_x, stage, path = self._walk(pose_plan, options, camera, facing, start_x, continued,
                                                      reading.zoom_out, variation.framing)
            travel, end_facing = path.end, path.facing(1.0)
        else:
            end_facing = facing
        # A walker that turned round paused its step meanwhile: its cycle ends that much earlier.
        clock_end = path.clock(1.0) if path is not None else 1.0
        last = sample_pose(pose_plan, clock_end) if path is not None else end_pose(pose_plan)
        end_cam = camera_frame(camera, 1.0, travel, facing, reading.zoom_out)
        if end_cam.yaw:  # an orbit ends with the character seen turned: the next clip starts from that
            last = replace(last, yaw=((last.yaw + end_cam.yaw + 180.0) % 360.0) - 180.0)
        end_x = start_x + travel - end_cam.cam_x
        if bed is not None:  # the sleeper lies where the bed is at the end (it moves with the mid layer)
            end_facing = 1
            start_shift = camera_frame(camera, 0.0, 0.0, facing, reading.zoom_out).layer_shifts[2] + scroll[1]
            end_x = bed_hip_x(bed, end_cam.layer_shifts[2] + scroll[1], options.height, options.width,
                              start_shift) - 0.5
        # Seats earlier turns here sat on stay where they stand; this turn's own joins them.
        unit = figure_scale(options.height, options.width) / options.width
        # (On a user's picture too: the picture has no scroll or ground props to carry on, but
        # seats stand in the stage's coordinates, as the characters do.)
        seats_stay = continued and prev.get("time_of_day") == time
        here = _seats_here(prev, seats_stay, continued, start_pose, start_x, seat)
        mine = _own_seats(seat, start_x, facing * gap * unit if facing_friend is not None else None)
        check_cancelled(cancelled)
        progress(Progress(2, 3, "building the representation"))

        representation = build_representation(
            motion=motion, level=reading.level, scene=scene, setting=setting, is_image=is_image, time=time,
            camera=camera, zoom_out=reading.zoom_out, state=context.state, deltas=deltas, look=look, facing=facing,
            start_x=start_x, travel=travel, continued=continued, pose_plan=pose_plan,
            aspect=options.width / options.height, offset_at=path.offset if path is not None else None)
        conditioning: dict[str, Any] = {
            "engine": ENGINE_NAME, "engine_version": ENGINE_VERSION,
            "character": character, "look": look.to_params(),
            "motion": motion.name, "anim": motion.anim, "family": motion.family.value, "level": reading.level,
            "adverb": reading.adverb, "location": location, "scene": scene, "setting": setting.value,
            "image_path": image_path, "image_print": image_print, "time_of_day": time, "camera": camera.value,
            "zoom_out": reading.zoom_out,
            "height": options.height, "width": options.width, "frames": options.frames, "fps": options.fps,
            "facing": facing, "start_x": round(start_x, 6), "travel": round(travel, 6), "end_x": round(end_x, 6),
            "phase": pose_plan.phase, "amplitude": pose_plan.amplitude_jitter, "hold": hold,
            "continued": continued, "start_pose": start_pose.as_dict() if start_pose else {},
            "end_pose": last.as_dict(), "companion_seed": seed % 7, "rules": reasons,
            "companion": friend, "companion_look": friend_look.to_params() if friend_look is not None else {},
            **({"no_one": no_one} if no_one else {}),  # a talk or hug done to no one: no friend drawn
            "gait": gait, "stage": round(stage, 6), "end_facing": end_facing, "start_surface": round(start_surface, 6),
            "end_phase": round(anim_phase(pose_plan, clock_end) % 1.0, 6),
            "seat": seat, "start_seat": _seat_left(start_pose, prev, seat) if bed is None else "",
            "seats": [s.to_params() for s in here],
            "end_seats": [s.moved(end_cam.cam_x).to_params() for s in (*here, *mine)][-MAX_STANDING:],
            "scroll": [round(v, 6) for v in scroll], "end_scroll": end_scroll(scroll, end_cam),
            "end_props": end_props(variation, end_cam), "end_shot": end_shot(variation, end_cam),
            **variation.to_conditioning(),
        }
        if variation.framing > max(FRAMINGS):  # a zoomed-in shot carried on: closer than a take's own framing
            conditioning["shot"] = variation.framing
        if carried is not None:
            conditioning["friend_start"] = carried.to_params()
            if role_for(anim) == Role.ALONG and _friend_side(carried, start_x) == facing:
                conditioning["friend_ahead"] = True  # the stage's edge turned the walker towards the friend
        end = friend_end(plan_from_conditioning(conditioning))
        if end is not None:
            conditioning["friend_end"] = end.to_params()
        progress(Progress(3, 3, "predicted"))
        return Prediction(deltas=deltas, motion_level=reading.level, representation=representation,
                          warnings=tuple(dict.fromkeys(warnings)), conditioning=conditioning)

    def _character(self, reading: Reading, instruction: Instruction, written: Instruction,
                   context: GenerationContext, prev: Mapping[str, Any]) -> tuple[str, Look, list[str], str]:
        """Who acts, as the story tree says (:meth:`~studio.core.tree.StoryTree.acting_character`),
        their look, warnings, and the friend the turn names with them: the second of a Character
        field naming several ("Qiqi and Yuzu"), or for "They ..." the previous turn's friend.
        ``written`` is the turn before its translation: a pronoun is read as written."""
        cast = tuple(m for m in context.cast if isinstance(m, CastMember))
        defaults = load_default_cast()
        members = (*cast, *defaults)
        names = [member.name for member in members]
        name = field_actor(reading.character, names)
        pronoun = field_pronoun(reading.character, names)  # "Character: she" goes on as "She runs" does
        friend, warnings = _joined_friend(_field_names(reading.character, names), name, members)
        pronoun = pronoun or ("" if name else (subject_pronoun(outside_quotes(written.free_text), names)
                                               or subject_pronoun(outside_quotes(instruction.free_text), names)))
        if not name and not pronoun:  # '"Hi Yuzu!" says Aoi' draws Aoi: a name said in quotes is no one in the turn
            text = _scripts_apart(first_read(outside_quotes(instruction.free_text)))
            name = (_first_named(text, cast) or _script_speaker(instruction, cast)  # the project's cast first
                    or _first_named(text, defaults) or _script_speaker(instruction, defaults))
        if not name and not pronoun:  # "Motion: Yuzu reads a book": the clause's own subject
            name = (motion_subject(written.motion, [m.name for m in cast])
                    or motion_subject(written.motion, [m.name for m in defaults]))
        if pronoun == SEVERAL:  # "They laugh together": the two of the turn before
            friend = str(prev.get("companion") or "")
        if not name:
            name = str(prev.get("character") or "") or (cast[0].name if cast else defaults[0].name)
        found = _find_member(name, cast) or _find_member(name, defaults)
        if found is None:
            return name, generated_look(name), [f"'{name}' not in the cast, drawn with a generated look",
                                                *warnings], friend
        params = found.params if isinstance(found.params, Mapping) else {}
        look, look_warnings = look_from_params(params, found.name)
        return found.name, look, [*look_warnings, *warnings], friend

    @staticmethod
    def _seat(instruction: Instruction, motion: MotionSpec, setting: Setting) -> str:
        """The seat a sitter sits on ("sits on a bench" -> 'bench', "eats lunch on a bench" ->
        'bench'); '' on the ground, and for motions that can't be done seated."""
        if not can_sit_for(motion.anim):
            return ""
        seat = seat_named(_seat_parts(instruction), indoor=setting == Setting.INDOOR)
        return seat.value if seat is not None else ""

    @staticmethod
    def _friend(instruction: Instruction, character: str, context: GenerationContext, named: str = ""
                ) -> tuple[str, Look | None, list[str]]:
        """The cast member the character is with ("Qiqi talks with Yuzu" -> Yuzu, drawn as the
        cast draws Yuzu); ('', None, []) when the instruction names nobody else from the cast,
        or names them as someone who is not there ("thinks about Yuzu", "waits for Yuzu").
        ``named`` (:meth:`_character`: "Character: Qiqi and Yuzu" -> Yuzu) comes first in a
        Character field, and last after "They": a friend the text names is who "they" are.

        The place is left out of the search: a location may be named after a character."""
        cast = tuple(m for m in context.cast if isinstance(m, CastMember))
        defaults = load_default_cast()
        # a name said in quotes, or in a script line's words, is talked to or about, not drawn
        # ('Qiqi says "Yuzu is late"', 'Qiqi: "Yuzu is coming"')
        fields = [first_read(v, MAX_ANALYSED_CHARS) for _, v in instruction.extra if not is_script_line(v)]
        parts = [instruction.motion, instruction.adverb, instruction.free_text, *fields]
        # a Latin name written against Japanese is a word of its own ("YuzuとTaroが歩く")
        text = _scripts_apart(first_read(outside_quotes(" ; ".join(p for p in parts if p))))
        name = _first_present(text, cast, character) or _first_present(text, defaults, character)
        if named and (instruction.character.strip() or not name) and written_key(named) != written_key(character):
            name = named
        found = (_find_member(name, cast) or _find_member(name, defaults)) if name else None
        busy = [f"'{other}' is not drawn: {other} {verb} meanwhile, and the sketch engine draws a friend only "
                f"joining in {character}'s motion; name '{other}' in a turn of their own"
                for other in _named_in_order(text, (*cast, *defaults), (character,))
                if (verb := _own_clause_verb(text, other))]
        if found is None:
            return "", None, busy
        params = found.params if isinstance(found.params, Mapping) else {}
        look, warnings = look_from_params(params, found.name)
        warnings = [*busy, *warnings]
        for other in also_named(text, (*cast, *defaults), (character, found.name)):
            warnings.append(f"'{other}' is not drawn: the sketch engine draws one friend with {character} "
                            f"('{found.name}', named first); name '{other}' in a turn of their own")
        return found.name, look, warnings

    def _location(self, name: str, user_locations: Mapping[str, Location], warnings: list[str]
                  ) -> tuple[str, str, bool]:
        """(built-in scene, image path or '', uses the image) for a location name."""
        loc = user_locations.get(name)
        if loc is None:
            return (name if name in LOCATION_BY_NAME else DEFAULT_LOCATION), "", False
        params = loc.params if isinstance(loc.params, Mapping) else {}
        wanted = str(params.get("scene") or loc.name).strip().lower()
        scene = wanted if wanted in LOCATION_BY_NAME else ""
        if not scene:
            scene = builtin_location(wanted) or DEFAULT_LOCATION
        if loc.kind != "image":
            return scene, "", False
        problem = _image_problem(loc.image_path)
        if problem:
            warnings.append(f"background image for '{loc.name}' could not be read: {problem}; drawn as '{scene}'")
            return scene, "", False
        return scene, loc.image_path, True

    @staticmethod
    def _travel(motion: MotionSpec, level: int, settings: SketchSettings, camera: CameraMode, facing: int,
                start_x: float) -> tuple[int, float]:
        """Direction and distance (frame widths) of the character's move over the clip."""
        if motion.travel <= 0:
            return facing, 0.0
        dist = motion.travel * (0.4 + 0.2 * level) * settings.frames / settings.fps
        if camera == CameraMode.FOLLOW:
            return facing, facing * dist
        # A pan slides the camera along with the character, but only so far: past that the
        # character would leave the frame, so it stops at the stage's edge like a still shot.
        reach = STAGE_LIMIT + (PAN_DISTANCE if camera == CameraMode.PAN else 0.0)
        ahead = reach - facing * start_x
        behind = reach + facing * start_x
        if dist > ahead and behind > ahead:
            facing = -facing
            ahead = behind
        return facing, facing * min(dist, max(0.0, ahead))

    @staticmethod
    def _walk(plan: PosePlan, settings: SketchSettings, camera: CameraMode, facing: int, start_x: float,
              continued: bool, zoom_out: bool, framing: float) -> tuple[int, float, float, WalkPath]:
        """(facing, start x, stage limit, path) of a walker, whose travel comes from its steps.

        A still camera keeps it on the stage: it walks on when there is room ahead, turns
        the other way when there is room behind, starts at one side and crosses when the walk
        fits the stage (a new place), and otherwise turns round at the edge and comes back.
        A walk that turns round is framed still, so it must fit the closest shot of the clip.
        """
        unit = figure_scale(settings.height, settings.width) / settings.width
        frames = settings.frames

        def path(face: int, x: float, limit: float) -> WalkPath:
            return path_for(plan, frames, camera, face, x, unit, limit)

        if camera == CameraMode.FOLLOW:
            return facing, start_x, 0.0, path(facing, start_x, 0.0)
        reach = STAGE_LIMIT - STAGE_MARGIN
        free = path(facing, start_x, 0.0)

        def on_screen(p: WalkPath, face: int, x: float) -> tuple[float, float]:
            """The walker's leftmost and rightmost place in the frame (a pan moves the frame along)."""
            xs = [x + p.offset(t) - camera_frame(camera, t, p.offset(t), face, zoom_out).cam_x for t in p.times]
            return min(xs), max(xs)

        def fits(p: WalkPath, face: int, x: float) -> bool:
            low, high = on_screen(p, face, x)
            return -reach <= low and high <= reach

        # A walk that fits the stage needs no limit (0): it never gets near the edge.
        if fits(free, facing, start_x):
            return facing, start_x, 0.0, free
        flipped = path(-facing, start_x, 0.0)
        if fits(flipped, -facing, start_x):
            return -facing, start_x, 0.0, flipped
        if not continued:
            crossing = round(start_x - sum(on_screen(free, facing, start_x)) / 2, 6)
            if fits(free, facing, crossing):
                return facing, crossing, 0.0, path(facing, crossing, 0.0)
        closest = framing * (ZOOM_MAX if camera == CameraMode.ZOOM else 1.08 if camera == CameraMode.ORBIT else 1.0)
        limit = round(min(STAGE_LIMIT, 0.5 / closest - COMPANION_HALF_WIDTH * unit), 6)
        if not continued:
            start_x = max(-limit, min(limit, start_x))
        return facing, start_x, limit, path(facing, start_x, limit)

    @staticmethod
    def _face_the_friend(room: float, settings: SketchSettings, facing: int, start_x: float) -> int:
        """Turn to the side with room for the friend who stands in front of the character, who
        reaches ``room`` figure units (the gap and the friend's back) from the character's hip.

        At the edge of the stage (where a walk may have ended) the friend would stand
        half outside the frame; the character turns around and meets them on the inside.
        """
        scale = figure_scale(settings.height, settings.width) / settings.width
        reach = room * scale
        ahead, behind = abs(start_x + facing * reach), abs(start_x - facing * reach)
        return -facing if ahead > 0.5 and behind < ahead else facing

    @staticmethod
    def _make_room_for_the_friend(room: float, behind: float, settings: SketchSettings, facing: int,
                                  start_x: float) -> float:
        """Where a character starts, in a new place, so that the friend facing them is in the
        frame: where it was when the two fit, otherwise with the middle of the pair (the
        character's back to the friend's, ``behind`` and ``room`` figure units from its hip) in
        the middle of the frame. A portrait frame is too narrow for a pair centred on one of them."""
        scale = figure_scale(settings.height, settings.width) / settings.width
        low, high = sorted((start_x - facing * behind * scale, start_x + facing * room * scale))
        edge = 0.5 - FRIEND_MARGIN * scale
        if -edge < low and high < edge:
            return start_x
        return round(start_x - (low + high) / 2, 6)

    # decode ---------------------------------------------------------------------------------
    def vocabulary(self) -> EngineVocabulary:
        """Motion phrases, locations, camera words and adverbs this engine understands."""
        return live_vocabulary()

    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        """Render the prediction. Deterministic: every seeded choice was made in predict."""
        check_cancelled(cancelled)
        if not isinstance(prediction, Prediction):
            raise EngineError(f"decode needs a Prediction, got {type(prediction).__name__}.")
        plan = plan_from_conditioning(prediction.conditioning)
        frames = ClipRenderer(plan).render(progress, cancelled)
        return Clip(frames=frames, fps=plan.fps)


def _number(value: Any, default: float) -> float:
    """A stored number, or ``default`` when it is missing or not a finite number."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        return default
    return out if math.isfinite(out) else default


def _out_of_the_water(pose: Pose | None, prev: Mapping[str, Any], motion: MotionSpec) -> Pose | None:
    """No start pose after a swim when this turn isn't one: the character has left the water.

    Blending from the swimming pose would start the clip with the character lying flat on the
    dry ground and getting up over a third of it; it starts standing instead.
    """
    if pose is None or prev.get("anim") != "swim" or motion.anim == "swim":
        return pose
    return None


def _friend_carried(prev: Mapping[str, Any], friend: str, motion: MotionSpec) -> FriendSpot | None:
    """Where the previous clip left ``friend`` (its ``friend_end``), when it drew the same cast
    member (:func:`written_key`); None for anyone else, and for a friend the previous turn
    didn't name. Like the character, a friend held up by a broom the new turn doesn't draw is
    back on the ground, and one who was swimming starts afresh on land."""
    before = str(prev.get("companion") or "")
    if not friend or not before or written_key(before) != written_key(friend):
        return None
    spot = FriendSpot.from_params(prev.get("friend_end"))
    if spot is None or _out_of_the_water(spot.pose, prev, motion) is None:
        return None
    return grounded(spot) if _unsupported(spot.pose, prev, motion) is not spot.pose else spot


def _facing_for_the_friend(carried: FriendSpot, role: Role, facing: int, start_x: float) -> int:
    """Which way the character faces so that the friend it carries on with keeps their side of it:
    towards them when they stand in front (:attr:`Role.FACING`), away from them when they come
    along behind (:attr:`Role.ALONG`). Facing the other way, the friend's blend into their new
    place would slide them through the character's body."""
    side = _friend_side(carried, start_x)
    if not side or role == Role.ABSENT:
        return facing
    return side if role == Role.FACING else -side


def _friend_side(carried: FriendSpot, start_x: float) -> int:
    """Which side of the character (at ``start_x``) the friend carried on starts on: 1 (right),
    -1 (left), or 0 right where the character is."""
    return 0 if carried.x == start_x else 1 if carried.x > start_x else -1


def _bed_left(pose: Pose | None, prev: Mapping[str, Any]) -> float:
    """How high (frame heights) the bed the previous turn ended sleeping on is; 0 when it didn't.

    Starting this turn's blend from the lying pose at floor height would drop the sleeper from
    the bed to the floor in the first frame: the clip starts on the bed instead, and comes down
    to the floor as the pose blends into this turn's motion (see ``ClipRenderer.surface_at``).
    """
    bed = on_a_bed(str(prev.get("anim", "")), str(prev.get("scene", "")), bool(prev.get("image_path")))
    return bed.top if pose is not None and bed is not None else 0.0


def _seat_left(pose: Pose | None, prev: Mapping[str, Any], seat: str) -> str:
    """The seat the previous turn ended sitting on, when this turn starts from that pose and
    doesn't sit on the same kind of seat: it stays drawn where it stands, so the character
    gets up from it instead of from thin air at the seat's height."""
    sat = pose is not None and can_sit_for(str(prev.get("anim", "")))
    left = str(prev.get("seat", "") or "") if sat else ""
    return left if left in {s.value for s in Seat} and left != seat else ""


def _seat_parts(instruction: Instruction) -> list[str]:
    """The parts of ``instruction`` that name a seat or say the character stays on it, as far as
    each is read (:func:`~studio.engines.sketch.text.first_read`: further for the English of
    a Japanese turn; the extra fields are never put into English)."""
    fields = [instruction.motion, without_speech(instruction.free_text)[0]]
    return [first_read(p) for p in fields if p] + [first_read(v, MAX_ANALYSED_CHARS) for _, v in instruction.extra if v]


def _seat_kept(instruction: Instruction, motion: MotionSpec, prev: Mapping[str, Any], same_place: bool) -> str:
    """The seat the previous turn ended sitting on, for a turn in the same place at the same time
    of day that names no seat but does a motion done seated ("sits on a chair", then "writes a
    letter"): the character stays on it. '' when the motion is done standing (the character gets
    up from the seat as the motion blends in) and when the text says the character stands, gets
    up or is on the ground."""
    if not same_place or not can_sit_for(motion.anim):
        return ""
    if not stays_seated(_seat_parts(instruction)):
        return ""
    return _seat_left(Pose.from_dict(prev.get("end_pose")), prev, "")


SAME_SPOT = 0.02
"""How close (frame widths) a seat left standing is to where this turn sits to be the same seat."""


def _seats_here(prev: Mapping[str, Any], same_place: bool, continued: bool, pose: Pose | None, start_x: float,
                seat: str) -> list[StandingSeat]:
    """The seats standing in the place as this turn starts, in its coordinates: all that earlier
    turns in the same place (and time of day) left, or, with the time of day changed or from a
    take made before seats were kept, the one the character gets up from. The seat this turn sits
    on again, where it stands, is drawn under the sitter instead."""
    if same_place and "end_seats" in prev:
        here = list(standing_seats(prev.get("end_seats")))
    elif continued:
        left = _seat_left(pose, prev, "")
        here = [StandingSeat(Seat(left), (start_x,))] if left else []
    else:
        here = []
    return [s for s in here if not (s.seat.value == seat and abs(s.hips[0] - start_x) < SAME_SPOT)]


def _own_seats(seat: str, start_x: float, friend_at: float | None) -> list[StandingSeat]:
    """This turn's seat (and the friend's, sitting facing the character) as left standing: one
    bench or sofa under both, or a chair, stool or swing each."""
    if not seat:
        return []
    kind = Seat(seat)
    if friend_at is None:
        return [StandingSeat(kind, (start_x,))]
    if kind in WIDE:
        return [StandingSeat(kind, (start_x, start_x + friend_at))]
    return [StandingSeat(kind, (start_x,)), StandingSeat(kind, (start_x + friend_at,))]


def _picture_print(path: str) -> str:
    """A short fingerprint of a background picture's bytes ('' when it can't be read).

    The take records it beside the picture's absolute path: a project moved or copied to another
    folder changes the path, not the picture, and the next turn should still go on from where
    the character stood."""
    digest = hashlib.blake2b(digest_size=8)
    try:
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def _same_picture(prev: Mapping[str, Any], image_path: str, image_print: str) -> bool:
    """Whether this turn is drawn on the same background picture (or on none) as the turn before."""
    was_path = str(prev.get("image_path", "") or "")
    if not image_path or not was_path:
        return image_path == was_path
    was_print = str(prev.get("image_print", "") or "")
    if was_print and image_print:
        return was_print == image_print
    return was_path == image_path  # a take from before prints were recorded


def _image_problem(path: str) -> str:
    """'' when ``path`` is a readable image, else a short reason."""
    if not path:
        return "no image file is set"
    if not os.path.isfile(path):
        return f"{path} does not exist"
    try:
        with Image.open(path) as img:
            img.verify()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:200]
    return ""
