"""The mini engine behind the engine protocol: load, predict, decode, unload.

``predict`` runs the LM over the branch (its own earlier representations included) and
returns the state deltas, the motion level and the clip's representation; ``decode``
samples the video decoder from it with the take's seed and scales the 128 x 192 clip to
the settings' size. On the CPU it uses all cores but one unless the config says
otherwise, so that the window stays responsive.

The prediction is held to the sketch world's rules (:mod:`~studio.engines.mini.world_rules`): an
exhausted character's strenuous motion is drawn at level 2 at most, the deltas lie in the world's
range for the motion drawn, and a camera it does not move or a friend it does not draw is said.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from studio.core.instruction import Instruction, InstructionError, field_spans, parse_instruction, time_shown
from studio.core.model import CastMember, Location
from studio.core.speech import outside_quotes
from studio.core.state import DELTA_MAX, DELTA_MIN, CharacterState, StateDeltas
from studio.core.tree import subject_pronoun
from studio.engines.base import (
    CancelCheck,
    Clip,
    DeviceKind,
    DType,
    EngineConfig,
    EngineError,
    EngineLoadError,
    EngineSettings,
    GenerationContext,
    Prediction,
    Progress,
    ProgressCallback,
    Stage,
    check_cancelled,
    never_cancelled,
    no_progress,
)
from studio.engines.catalog.mini import (
    EDITED_HINT,
    INFO,
    NAME,
    VERSION,
    MiniSettings,
    edited_config_message,
    trained_edits,
)
from studio.engines.config import usable_cores
from studio.engines.continuity import CONTINUED_KEY, branch_setting, turn_setting
from studio.engines.install_hints import ENGINES_INSTALL
from studio.engines.mini import world_rules
from studio.engines.mini.completion import Completion, complete, english_turn, lm_text, not_done_warnings
from studio.engines.mini.config import REP_SPACE
from studio.engines.mini.data import LOCATION_NAMES, characters
from studio.engines.mini.rephrase import Rephrased, one_character, rephrase, rephrase_translated
from studio.engines.mini.sequence import PastTurn
from studio.engines.sketch.understanding import turn_in_english

if TYPE_CHECKING:  # torch and the runtime are imported by load (seconds): the module itself imports fast
    import torch

    from studio.engines.mini.runtime import MiniRuntime, TurnOutput

if INFO.capabilities.representation.space != REP_SPACE:  # the catalogue and the model must agree
    raise ImportError(f"mini catalogue space {INFO.capabilities.representation.space} != model space {REP_SPACE}")


def default_threads() -> int:
    """All cores but one (at least one), so that the window keeps a core: of the cores this
    process may run on, not the machine's (a container or ``taskset`` may allow fewer)."""
    return max(1, usable_cores() - 1)


def usable_threads(requested: int | None) -> int:
    """``requested`` CPU threads (None or below 1: :func:`default_threads`), at most the cores this
    process may run on: more never helps, and far more (``--threads 100000``) makes OpenMP fail to
    create its threads and abort the process."""
    cores = usable_cores()
    wanted = requested if requested is not None and requested >= 1 else default_threads()
    return max(1, min(wanted, cores))


IMPORTING = "importing torch (a few seconds, the first time)"
"""The first loading step's message: torch and the model's libraries take seconds to import,
and the bar says so before they are imported."""
LOAD_LABELS = ("config", "tokenizer", "LM weights", "LM", "decoder weights", "decoder")
"""What each of the runtime's loading steps read (``MiniRuntime.load_steps`` of them)."""


def _runtime_class() -> type[MiniRuntime]:
    """:class:`~studio.engines.mini.runtime.MiniRuntime`, imported now (with torch, transformers
    and diffusers); a missing library is an :class:`EngineLoadError` naming it."""
    try:
        from studio.engines.mini.runtime import MiniRuntime
    except ImportError as error:
        raise EngineLoadError(f"The mini engine's libraries can't be imported: {error}.",
                              hint=f"Install the engines' libraries {ENGINES_INSTALL}."
                              ) from None
    return MiniRuntime


class MiniEngine:
    info = INFO
    name = NAME
    version = VERSION

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config if config is not None else EngineConfig()
        self.threads = usable_threads(self.config.threads)
        self._runtime: MiniRuntime | None = None

    @staticmethod
    def load_steps() -> int:
        """The steps :meth:`load` reports: importing the libraries, then the runtime's own."""
        return 1 + len(LOAD_LABELS)

    @property
    def loaded(self) -> bool:
        return self._runtime is not None

    def _device(self, stage: Stage) -> torch.device:
        import torch

        place = self.config.place(stage)
        if place.kind is DeviceKind.CUDA and not torch.cuda.is_available():
            raise EngineError(f"The mini engine's {stage.value} stage is placed on {place.device}, but torch sees "
                              "no CUDA device.", hint="Use device 'cpu'.")
        return torch.device(place.device)

    def _dtype(self, device: torch.device) -> torch.dtype:
        import torch

        from studio.engines.mini.runtime import default_decoder_dtype

        chosen = self.config.dtype
        if chosen is DType.AUTO:
            return default_decoder_dtype(device)
        return {DType.FLOAT32: torch.float32, DType.FLOAT16: torch.float16, DType.BFLOAT16: torch.bfloat16}[chosen]

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        """Import torch and the runtime (reported first: seconds on a first load), then read the
        checkpoint folder, one reported step per file read or network built."""
        total = self.load_steps()
        if self.loaded:
            progress(Progress(total, total, "ready"))
            return
        check_cancelled(cancelled)
        progress(Progress(0, total, IMPORTING))
        runtime = _runtime_class()
        import torch

        progress(Progress(1, total, "imported torch"))
        check_cancelled(cancelled)
        torch.set_num_threads(self.threads)
        folder = self.config.engine_folder(NAME)
        decoder_device = self._device(Stage.DECODE)

        def step(k: int) -> None:
            progress(Progress(1 + k, total, f"loading the {LOAD_LABELS[k - 1]}"))

        try:
            self._runtime = runtime.load(folder, self._device(Stage.PREDICT), decoder_device,
                                         self._dtype(decoder_device), step, cancelled)
            edits = trained_edits(folder, None)  # every field, now that the weights were found to fit
            if edits:
                raise EngineLoadError(edited_config_message(folder, edits) + ".", hint=EDITED_HINT)
        except BaseException:
            self.unload()
            raise

    def unload(self) -> None:
        was_cuda = self._runtime is not None and "cuda" in (self._runtime.lm_device.type,
                                                            self._runtime.decoder_device.type)
        self._runtime = None
        gc.collect()
        if was_cuda:
            import torch

            torch.cuda.empty_cache()

    def _ready(self) -> MiniRuntime:
        if self._runtime is None:
            raise EngineLoadError("The mini engine is not loaded.", hint="Load it first.")
        import torch

        torch.set_num_threads(self.threads)
        return self._runtime

    # predict --------------------------------------------------------------------------------------
    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        check_cancelled(cancelled)
        if not isinstance(instruction, Instruction):
            raise EngineError(f"predict needs an Instruction, got {type(instruction).__name__}.")
        from studio.engines.mini import weights
        from studio.engines.mini.runtime import PREDICT_STEPS, TurnQuery

        options = MiniSettings.coerce(settings)
        runtime = self._ready()
        spec = INFO.capabilities.representation
        window = min(options.history_window, runtime.config.lm.history)
        cast = [member.name for member in context.cast if isinstance(member, CastMember) and member.name.strip()]
        names = [" ".join(name.split()) for name in (*cast, *(place.name for place in context.locations
                                                            if isinstance(place, Location)))]
        # turns written in Japanese, in the English words it learnt: what a turn continues from them too
        members = [*cast, *(name for name in characters() if name not in cast)]  # whom a Character field names
        branch = [dataclasses.replace(turn, instruction=_lm_turn(turn.instruction, names, members).instruction)
                  for turn in context.history]
        earlier = branch_setting(branch)
        # no turn has named anyone yet: the first of the cast acts, as the story and the sketch engine say
        started = not earlier.character and bool(cast)
        going_on = earlier.character or (cast[0] if cast else characters()[0])
        if started:
            earlier = dataclasses.replace(earlier, character=cast[0])
        history = []
        for turn in branch[-window:] if window else ():
            own = turn.representation_space == spec.space and turn.representation is not None \
                and tuple(turn.representation.shape) == spec.shape
            past = complete(turn.instruction, turn_setting(turn), cast).text  # as it was read (or as it was meant)
            history.append(PastTurn(text=past, level=turn.motion_level,
                                    deltas=(turn.deltas.stamina, turn.deltas.social, turn.deltas.entertainment),
                                    representation=np.asarray(turn.representation, dtype=np.float32) if own else None))
        state = context.state
        # words it never learnt, in the sketch world's words it did; one character, of several or for a pronoun
        rephrased = _lm_turn(instruction, names, members, going_on)
        english = rephrased.instruction
        # "She waves at Yuzu" goes on with the branch's character: Yuzu is who she is with, not who acts
        pronoun = not english.character.strip() and any(subject_pronoun(outside_quotes(turn.free_text), members)
                                                        for turn in (instruction, english))
        completion = complete(english, dataclasses.replace(earlier, character=going_on) if pronoun else earlier,
                              () if pronoun else cast)
        # an exhausted character's strenuous motion is drawn at level 2 at most, as the sketch world's rule says
        query = TurnQuery(text=completion.text, state=(state.stamina, state.social, state.entertainment),
                          history=tuple(history), level_caps=world_rules.level_caps(state.stamina))

        def step(k: int) -> None:
            progress(Progress(k, PREDICT_STEPS, "predicting the state" if k < PREDICT_STEPS else "predicted"))

        out = runtime.predict([query], temperature=options.temperature, seed=int(seed), step=step,
                              cancelled=cancelled)[0]
        conditioning: dict[str, Any] = {"engine": NAME, "engine_version": VERSION, "level": out.level,
                                        "history_used": len(history)}
        conditioning.update(out.reading)  # what the model understood (the studio's chips; a sketch turn continues it)
        if out.motions:  # what the decoder's candidates are judged against
            conditioning["motions"] = {name: probability for name, probability in out.motions}
        if completion.filled.as_dict():  # what the turn continued from the branch (the next turns continue it)
            conditioning[CONTINUED_KEY] = completion.filled.as_dict()
        # what it does not know, found as the sketch engine reads the turn (a Japanese word it has no English for
        # is warned about as written)
        read_as = english if rephrased.replaced else turn_in_english(instruction, names)
        warnings = [*rephrased.warnings, *_warnings(read_as, dict(out.reading), completion, context.locations,
                                                    written=instruction, started=started)]
        misread = _misread_warnings(completion, dict(out.reading), started)
        warnings += misread + _drawn_warnings(read_as, dict(out.reading), misread)
        warnings += not_done_warnings(instruction, names)  # "'走らない' is a motion not done", as the sketch says
        warnings += _no_place_warnings(instruction, names, cast, dict(out.reading))
        held = _held_to_the_world(instruction, names, members, completion.setting.character or going_on, rephrased,
                                  out, state, warnings)
        warnings += held.warnings
        unread = _unread_warning(english, completion, runtime.vocab.unread_from(completion.text,
                                                                                  runtime.config.lm.max_instruction),
                                 runtime.config.lm.max_instruction)
        if unread:
            warnings.append(unread)
        if options.candidates > 1 and runtime.critic is None:
            warnings.append(f"the motion critic ({weights.CRITIC}) is not in the checkpoint folder, so one candidate "
                            f"was made, not {options.candidates}")
        deltas = world_rules.within_world(varied_deltas(out.deltas, options.temperature, int(seed), state),
                                          held.ranges)
        return Prediction(deltas=StateDeltas(*deltas), motion_level=out.level,
                          representation=out.representation.astype(np.float32),
                          warnings=tuple(dict.fromkeys(warnings)), conditioning=conditioning)

    # decode ---------------------------------------------------------------------------------------
    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        check_cancelled(cancelled)
        if not isinstance(prediction, Prediction):
            raise EngineError(f"decode needs a Prediction, got {type(prediction).__name__}.")
        options = MiniSettings.coerce(settings)
        runtime = self._ready()
        spec = INFO.capabilities.representation
        rep = np.asarray(prediction.representation, dtype=np.float32)
        if rep.shape != spec.shape:
            raise EngineError(f"The prediction's representation is {rep.shape}, not the mini engine's {spec.shape}.",
                              hint="Predict the turn again with the mini engine.")
        if not np.isfinite(rep).all():
            bad = int(rep.size - np.isfinite(rep).sum())
            raise EngineError(f"The prediction's representation holds {bad:,} value(s) that are not numbers (NaN or "
                              "infinite): a damaged take or a failed prediction.",
                              hint="Predict the turn again with the mini engine.")
        total = options.steps + 1
        shown: dict[int, np.ndarray] = {}

        def preview(k: int, frames: np.ndarray) -> None:
            shown[k] = frames

        def step(k: int) -> None:
            progress(Progress(k, total, f"denoising {k}/{options.steps}", preview=shown.pop(k, None)))

        motions = predicted_motions(prediction)
        frames = runtime.decode(rep[None], [prediction.motion_level], [int(seed)], steps=options.steps,
                                guidance=options.guidance, candidates=options.candidates,
                                motions=[motions] if motions else None, step=step, cancelled=cancelled,
                                preview=preview if progress is not no_progress else None)[0]
        out = resize_frames(frames, options.frames, options.height, options.width)
        progress(Progress(total, total, "decoded"))
        return Clip(frames=out, fps=options.fps)


def _lm_turn(instruction: Instruction, names: Sequence[str], cast: Sequence[str] = (), going_on: str = "") -> Rephrased:
    """``instruction`` as the LM reads it: in the English words the sketch engine reads a Japanese,
    Chinese or Korean turn in (:func:`english_turn`), or, an English turn, with what the sketch
    engine understands in words the LM never learnt put in the words it learnt
    (:func:`~studio.engines.mini.rephrase.rephrase`); the English words of a Japanese, Chinese or
    Korean turn are rephrased so too, where they still hold words the LM never learnt or the sketch
    reads the turn as written otherwise (:func:`~studio.engines.mini.rephrase.rephrase_translated`),
    but for a motion said not to be done (the LM reads its own words for it: :func:`lm_text`). A
    turn it reads word for word is itself.

    A Character field that names several characters names the one who acts, and one that is a
    pronoun names ``going_on`` (the character the branch goes on with), or is left out when that
    is '' (a turn of the branch: it goes on as it was read then): :func:`one_character`, ``cast``
    being the names a Character field is read with. Its warnings are the sketch engine's for
    those names, and say that the mini model draws no second character."""
    english = english_turn(instruction, names)
    if english is not instruction and lm_text(english) != english.raw:
        return _one_character(Rephrased(english), cast, going_on)
    rephrased = rephrase(instruction, names) if english is instruction \
        else rephrase_translated(instruction, english, names)
    rephrased = _one_character(rephrased, cast, going_on)
    if not rephrased.replaced:
        return rephrased
    try:  # its fields as the LM's text now says them, for what reads the turn after
        return dataclasses.replace(rephrased, instruction=parse_instruction(rephrased.instruction.raw))
    except InstructionError:
        return rephrased


def _one_character(rephrased: Rephrased, cast: Sequence[str], going_on: str) -> Rephrased:
    """``rephrased`` with its Character field naming one character (:func:`one_character`), and
    the warnings for the names it leaves out."""
    named = one_character(rephrased.instruction, cast, going_on)
    if named is None:
        return rephrased
    return Rephrased(named.instruction, (*rephrased.replaced, "character"),
                     (*rephrased.warnings, *named.warnings(cast)))


@dataclasses.dataclass(frozen=True, slots=True)
class HeldToTheWorld:
    """What the sketch world's rules say of a turn the LM predicted (:mod:`~studio.engines.mini.world_rules`)."""

    ranges: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None
    """The (low, high) the world gives each delta for the motion drawn (None: the LM read no motion)."""
    warnings: tuple[str, ...]
    """An exhausted character's lowered level, a camera not moved, friends not drawn."""


def _held_to_the_world(instruction: Instruction, names: Sequence[str], cast: Sequence[str], actor: str,
                       rephrased: Rephrased, out: TurnOutput, state: CharacterState,
                       said: Sequence[str]) -> HeldToTheWorld:
    """The world's range of deltas for what the LM drew (``out``: its motion, place and time of day,
    at the level it is drawn at) from ``state``, and the warnings of the world's rules for the turn
    (``instruction`` as written; ``actor``: who is drawn; ``said``: the warnings already given, a
    friend not drawn being said once): the level an exhausted ``actor`` is lowered to, a camera the
    mini model does not move, the others of ``cast`` named with ``actor``, who are not drawn."""
    from studio.engines.sketch.understanding import read_turn

    english = turn_in_english(instruction, names)
    reading = read_turn(instruction, (), names, stand_ins=True)  # as the sketch engine reads it
    drawn = dict(out.reading)
    motion = drawn.get("motion", "")
    # a friend the model read as the one who acts is drawn (and its misreading said): not said to be left out
    read_as = str(drawn.get("character", "")).casefold()
    friends = [name for name in world_rules.friends_named(english, actor, cast) if name.casefold() != read_as]
    warnings = world_rules.tired_warnings(motion, out.asked_level, state.stamina, actor) if out.asked_level else []
    warnings += world_rules.camera_warnings(reading, motion, drawn.get("location", ""))
    warnings += world_rules.friend_warnings(friends, actor, (*said, *rephrased.warnings))
    together = reading.together or bool(friends) or ("character" in rephrased.replaced and any(
        " is not drawn: the mini model draws one character" in warning for warning in rephrased.warnings))
    ranges = world_rules.world_range(motion, out.level, drawn.get("location", ""), drawn.get("time_of_day", ""),
                                     state, together) if motion else None
    return HeldToTheWorld(ranges, tuple(warnings))


def _no_place_warnings(instruction: Instruction, names: Sequence[str], cast: Sequence[str],
                       understood: Mapping[str, Any]) -> list[str]:
    """The sketch engine's warnings for the names ``instruction`` (as written) gives as its place
    that are no place of its world ("walks at the theatre", "runs in Mordor"), saying the place
    the mini model drew instead (``understood``). A word of a cast member's name (the story's, or
    the mini model's own) is someone, not a place."""
    from studio.engines.sketch.text import tokenise
    from studio.engines.sketch.understanding import read_turn

    places = [name for name in names if name not in cast]
    reading = read_turn(instruction, places, cast, stand_ins=True)
    people = {word for name in (*cast, *characters()) for word in tokenise(name)}
    drawn = understood.get("location")
    shown = f"shown as '{drawn}'" if isinstance(drawn, str) and drawn else "the mini model draws one of its own"
    return [f"'{place}' is no place of this world, {shown}" for place in reading.unknown_places
            if not set(tokenise(place)) & people]


def _drawn_warnings(instruction: Instruction, understood: Mapping[str, Any], misread: Sequence[str]) -> list[str]:
    """Where the model drew another motion, or another place, than the sketch engine reads without
    doubt (no warning of its own) in ``instruction`` (the turn as the model read it): "the mini
    model's motion is drawn as 'talk' though the turn reads 'run'". A place already warned about
    in ``misread`` is not said twice."""
    from studio.engines.sketch.understanding import Reading, read_location, read_motion

    warnings = []
    motion = Reading()
    read_motion(instruction, motion)
    drawn = understood.get("motion")
    if not motion.warnings and motion.motion.name != "idle" and isinstance(drawn, str) and drawn \
            and drawn != motion.motion.name:
        warnings.append(f"the mini model's motion is drawn as '{drawn}' though the turn reads "
                        f"'{motion.motion.name}' (re-roll, or write it as 'Motion: {motion.motion.name}')")
    place = Reading()
    read_location(instruction, place, ())
    shown = understood.get("location")
    if not place.warnings and place.location_given and place.location in LOCATION_NAMES \
            and isinstance(shown, str) and shown and shown != place.location \
            and not any("read the place as" in w for w in misread):
        warnings.append(f"the mini model's place is drawn as '{shown}' though the turn reads "
                        f"'{place.location}' (re-roll, or write it as 'Background: {place.location}')")
    return warnings


def varied_deltas(deltas: tuple[int, int, int], temperature: float, seed: int,
                  state: CharacterState) -> tuple[int, int, int]:
    """The LM's deltas with the sketch world's seeded variation at ``temperature`` (0: as they are).

    The LM learnt the world's rule, without the variation the world adds from each take's
    seed (it can't be read from the text), and it is sure of it: sampling its own choices at a
    temperature up to 2 almost never changes a delta. So above 0 each non-zero delta moves one
    step down or up, as the world's does, with a chance of ``temperature / 4`` each way (1: the
    world's own, a quarter each way; 2: every delta moves), never flipping or zeroing it and
    never lifting a gain above the world's cap (+1 for a stat already at 90 or more). The same
    seed always varies a turn the same way."""
    if temperature <= 0:
        return deltas
    from studio.engines.sketch.rules import gain_cap

    digest = hashlib.sha256(f"{int(seed)}:mini-state-variation".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    chance = min(0.5, temperature / 4)
    caps = (DELTA_MAX, gain_cap(state.social), gain_cap(state.entertainment))
    out = []
    for value, cap in zip(deltas, caps, strict=True):
        draw = rng.random()  # one draw per stat, moved or not: each stat's variation depends on the seed alone
        step = -1 if draw < chance else 1 if draw < 2 * chance else 0
        if value == 0 or step == 0:
            out.append(value)
            continue
        moved = max(1, value + step) if value > 0 else min(-1, value + step)
        out.append(max(DELTA_MIN, min(max(cap, value), moved)))
    return out[0], out[1], out[2]


def predicted_motions(prediction: Prediction) -> tuple[tuple[str, float], ...]:
    """The LM's likely motions from the prediction's conditioning (``motions``: name ->
    probability), keeping only well-formed entries; empty when there are none (a prediction
    of another version, or edited by hand), and the decoder then keeps its first candidate."""
    found = prediction.conditioning.get("motions") if isinstance(prediction.conditioning, Mapping) else None
    if not isinstance(found, Mapping):
        return ()
    out = []
    for name, probability in found.items():
        if isinstance(name, str) and isinstance(probability, (int, float)) and not isinstance(probability, bool) \
                and np.isfinite(probability) and probability > 0:
            out.append((name, float(probability)))
    return tuple(out)


def resize_frames(frames: torch.Tensor, count: int, height: int, width: int) -> np.ndarray:
    """uint8 (T, H, W, 3) -> ``count`` frames picked evenly, scaled to ``height`` x ``width``."""
    import torch
    import torch.nn.functional as F  # noqa: N812

    index = torch.linspace(0, frames.shape[0] - 1, count).round().long()
    chosen = frames[index]
    if tuple(chosen.shape[1:3]) != (height, width):
        # uint8 in channels-last memory: torch's fast path (about 20 ms for 17 frames to 480 x 720 on one core)
        x = chosen.permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
        down = height < x.shape[2] or width < x.shape[3]
        x = F.interpolate(x, size=(height, width), mode="bilinear", align_corners=False, antialias=down)
        chosen = x.permute(0, 2, 3, 1)
    return np.ascontiguousarray(chosen.numpy())


def _warnings(instruction: Instruction, understood: Mapping[str, Any], completion: Completion | None = None,
              places: Sequence[Location] = (), written: Instruction | None = None, started: bool = False
              ) -> list[str]:
    """What the model has never seen: characters (drawn as one it knows: the turn's own, one of
    the story's cast named in its text, or the one it continues from the branch, as
    ``completion`` says), a place of the project with a picture of its own (``places``: the
    model draws only the places it learnt), motions and places outside the sketch world it
    learnt, and a Time field naming none of its times of day (found with that world's
    vocabulary). A warning names what the model itself read there (``understood``: its
    auxiliary heads' readings, the studio's chips) when it has one, else the nearest word the
    world knows by name. ``instruction`` is the turn as the model read it; a warning quotes a field
    as ``written`` (a turn written in Japanese, read in English: :func:`english_turn`). ``started``:
    no earlier turn named anyone, and the character filled in is the first of the cast."""
    from studio.engines.sketch.understanding import Reading, read_instruction, read_location, read_motion, read_time

    def quoted(name: str) -> str:
        said = getattr(written, name, "") if written is not None else ""
        return said if said.strip() else str(getattr(instruction, name))

    warnings = []
    own = completion.own.character if completion is not None else ""
    continued = completion.filled.character if completion is not None else ""
    name = " ".join(instruction.character.split()) or " ".join(own.split()) or " ".join(continued.split())
    if name and name.casefold() not in {c.casefold() for c in characters()}:
        whose = "" if instruction.character.strip() else " (named in the turn's text)" if own.strip() \
            else _FIRST_OF_CAST if started else " (this turn continues it from the earlier turns)"
        drawn = understood.get("character")
        instead = f" instead: '{drawn}'" if isinstance(drawn, str) and drawn else ""
        warnings.append(f"'{name}' is not a character the mini model knows{whose}; it draws one of its cast{instead}")
    reading = Reading()
    if instruction.motion.strip():
        read_motion(instruction, reading)  # it warns only when the words match none of the world's motions
        if reading.warnings:
            warnings.append(_unlearnt(quoted("motion"), "motion", understood.get("motion"), reading.motion.name))
    elif any(w.startswith("no motion") for w in read_instruction(instruction, []).warnings):
        warnings.append("no motion the mini model knows by name in this instruction; it chooses one itself")
    if instruction.time_of_day.strip():
        reading = Reading()
        read_time(instruction, reading)  # it warns only when the words name none of the world's times
        if reading.warnings:
            warnings.append(_unlearnt(quoted("time_of_day"), "time of day", understood.get("time_of_day"),
                                      reading.time))
    pictured = _pictured_place(instruction, completion, places)
    if pictured is not None:
        warnings.append(_picture_warning(pictured, understood.get("location"),
                                         continued=completion is not None and completion.filled.location != ""))
    elif instruction.background.strip():
        reading = Reading()
        read_location(instruction, reading, ())
        if reading.warnings:
            warnings.append(_unlearnt(quoted("background"), "place", understood.get("location"), reading.location))
    return warnings


def _pictured_place(instruction: Instruction, completion: Completion | None,
                    places: Sequence[Location]) -> Location | None:
    """The project's place with a picture of its own that the turn names (in its Background field
    or its text), or continues from the branch; None when it names none."""
    from studio.engines.sketch.understanding import Reading, read_location

    pictured = {place.name: place for place in places
                if isinstance(place, Location) and place.name.strip() and place.kind == "image"}
    if not pictured:
        return None
    reading = Reading()
    read_location(instruction, reading, list(pictured))
    if reading.location in pictured:
        return pictured[reading.location]
    if completion is None or not completion.filled.location:
        return None
    continued = completion.filled.location.casefold()
    return next((place for name, place in pictured.items() if name.casefold() == continued), None)


def _picture_warning(place: Location, read_as: object, *, continued: bool) -> str:
    whose = " (this turn continues it from the earlier turns)" if continued else ""
    drawn = f"it read it as '{read_as}'" if isinstance(read_as, str) and read_as else "it draws one of its own"
    return (f"'{place.name}' is a place of this project with its own picture{whose}; the mini model does not use "
            f"pictures, it draws the places it learnt: {drawn}")


def _unread_warning(instruction: Instruction, completion: Completion, start: int | None, limit: int) -> str:
    """What the model did not read of the text it was given (``completion.text``, from ``start``
    on), naming the fields of ``instruction`` that lie there, or ''."""
    if start is None:
        return ""
    head = f"the mini model reads the first {limit} tokens of an instruction"
    if start >= completion.base_length:  # only what was added from the branch
        added = [label for label, name in _LABELS if getattr(completion.filled, name, "")]
        return (f"{head}; the {_listed(added).lower()} that this turn continues from the earlier turns did not fit "
                "after its text (shorten it, or name them in it)")
    rest = instruction.raw[start:]
    spans = _field_spans(instruction)
    fields = [label for label, (_at, end) in spans.items() if end > start]
    words = len(rest.split())
    missed = f"; the {_listed(fields)} {'was' if len(fields) == 1 else 'were'} not read in full" if fields else ""
    # moving the motion forward helps only when something else comes before it
    late = "Motion" in fields and any(at < spans["Motion"][0] for label, (at, _end) in spans.items()
                                      if label != "Motion")
    advice = "shorten it, or put the motion first" if late else "shorten it"
    return (f"{head}; it did not read the last {words} word{'s' if words != 1 else ''}, from "
            f"'{_excerpt(rest)}'{missed} ({advice})")


_LABELS = (("Character", "character"), ("Background", "location"), ("Time", "time_of_day"))
_SPAN_LABELS = {"character": "Character", "motion": "Motion", "background": "Background", "time": "Time"}


def _listed(labels: list[str]) -> str:
    """'Character', 'Character and Motion', 'Character, Motion and Background'."""
    return " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)


def _field_spans(instruction: Instruction) -> dict[str, tuple[int, int]]:
    """Where ``instruction.raw`` states its character, motion, background and time of day, as
    (start, end) by label: a ``Key: value`` field's own value where it has one (the time inside
    the background when it is said there), else the first place the parsed value appears as
    whole words; a field it does not state is left out."""
    raw = instruction.raw
    spans = {_SPAN_LABELS[name]: span for name, span in field_spans(raw).items() if name in _SPAN_LABELS}
    values = {"Character": instruction.character, "Motion": instruction.motion,
              "Background": instruction.background, "Time": instruction.time_of_day}
    for label, value in values.items():
        if label in spans:
            continue
        inside = spans.get("Background", (0, len(raw))) if label == "Time" else (0, len(raw))
        found = _first_said(raw, value, *inside) or (_first_said(raw, value, 0, len(raw)) if label == "Time" else None)
        if found is not None:
            spans[label] = found
    return spans


def _first_said(text: str, words: str, start: int, end: int) -> tuple[int, int] | None:
    """The first place ``text[start:end]`` says ``words`` as whole words (any spacing, any case)."""
    if not words.split():
        return None
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(word) for word in words.split()) + r"(?!\w)"
    found = re.compile(pattern, re.IGNORECASE).search(text, start, end)
    return found.span() if found is not None else None


_FIRST_OF_CAST = " (the first of the cast, who acts while no turn has named anyone)"


def _misread_warnings(completion: Completion, understood: Mapping[str, Any], started: bool = False) -> list[str]:
    """Where the model's reading of the character, place or time differs from what the turn names
    (or continues from the earlier turns): another name or place in the free text can pull the
    reading away from the fields. Only names and places the model knows are compared; the others
    are warned about in :func:`_warnings`. ``started``: the character is the first of the cast,
    no earlier turn having named anyone."""
    expected, warnings = completion.setting, []
    known = {name.casefold() for name in characters()}

    def said(field: str, value: str) -> str:
        if getattr(completion.own, field):
            return f"the turn names '{value}'"
        if started and field == "character":
            return f"'{value}' acts{_FIRST_OF_CAST}"
        return f"the turn continues '{value}' from the earlier turns"

    def read(key: str) -> str:
        value = understood.get(key)
        return value if isinstance(value, str) else ""

    if expected.character.casefold() in known and read("character") \
            and read("character").casefold() != expected.character.casefold():
        warnings.append(f"the mini model read the character as '{read('character')}', though "
                        f"{said('character', expected.character)}; another name in the text can mislead it: "
                        "leave it out, or re-roll")
    places = {name.casefold(): name for name in LOCATION_NAMES}  # a place named as the model names it
    place = places.get(expected.location.casefold(), "")
    if place and read("location") and read("location") != place:
        warnings.append(f"the mini model read the place as '{read('location')}', though {said('location', place)}; "
                        "another place in the text can mislead it: leave it out, or re-roll")
    time = time_shown(expected.time_of_day)
    if time and read("time_of_day") and read("time_of_day") != time:
        warnings.append(f"the mini model read the time of day as '{read('time_of_day')}', though "
                        f"{said('time_of_day', expected.time_of_day)}; another time in the text can mislead it: "
                        "leave it out, or re-roll")
    return warnings


def _excerpt(text: str, most: int = 40) -> str:
    """The first ``most`` characters of ``text``, its spaces collapsed, '…' where it was cut."""
    words = " ".join(text.split())
    return words if len(words) <= most else words[:most - 1] + "\u2026"


def _unlearnt(words: str, what: str, read_as: object, nearest: str) -> str:
    if isinstance(read_as, str) and read_as:
        return f"'{_excerpt(words)}' is not a {what} the mini model learnt; it read it as '{read_as}'"
    return (f"'{_excerpt(words)}' is not a {what} the mini model learnt; the nearest it knows by name "
            f"is '{nearest}', and the clip may show another")
