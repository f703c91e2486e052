"""AnimeGamer's prompt: the added tokens and how one turn is written as token ids.

A turn the model is asked to predict::

    <TURN>{instruction}<img><frame><frame_00000>..<frame_00225></frame></img><ML>

The 226 ``<frame_i>`` positions are query slots: they attend to each other in both
directions and their last hidden states, through the output resampler, are the clip's
representation. The model then writes the state tokens (see :mod:`.grammar`).

A turn already played, when it is part of the history window, carries its results: the
query slots hold its representation fed back through the input resampler (attended
causally, as in the release's multi-turn builder) and the state tokens follow::

    <TURN>{instruction}<img><frame>[226 slots]</frame></img>
    <ML><Strength_m></ML><SC><Strength_s></SC><ET><Strength_e></ET><ST><Strength_t></ST></ST></TURN>

The doubled ``</ST>`` is what the release's (disabled) multi-turn builder writes; it is the
only published evidence of the training format, so we keep it (see docs/ANIMEGAMER.md).
Each piece is encoded separately, as the release does, so the ids match its prompts.
Plain Python: the tokenizer is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from studio.core.state import DELTA_MAX, DELTA_MIN, MOTION_LEVEL_MAX, MOTION_LEVEL_MIN
from studio.engines.animegamer.sizes import QUERY_TOKENS

TURN, END_TURN = "<TURN>", "</TURN>"
IMG, END_IMG = "<img>", "</img>"
FRAME, END_FRAME = "<frame>", "</frame>"
ML, END_ML = "<ML>", "</ML>"
SC, END_SC = "<SC>", "</SC>"
ET, END_ET = "<ET>", "</ET>"
ST, END_ST = "<ST>", "</ST>"


def frame_token(index: int) -> str:
    return f"<frame_{index:05d}>"


def strength_token(value: int) -> str:
    return f"<Strength_{value}>"


class Tokenizer(Protocol):
    """What we need of a tokenizer: text to ids without BOS/EOS, and the BOS id."""

    bos_token_id: int

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]: ...


class PromptError(ValueError):
    """The tokenizer lacks AnimeGamer's added tokens (not the release's tokenizer)."""


@dataclass(frozen=True, slots=True)
class TokenIds:
    """The ids of AnimeGamer's added tokens in a given tokenizer."""

    bos: int
    turn: int
    end_turn: int
    img: int
    end_img: int
    frame: int
    end_frame: int
    frames: tuple[int, ...]
    ml: int
    end_ml: int
    sc: int
    end_sc: int
    et: int
    end_et: int
    st: int
    end_st: int
    strengths: tuple[tuple[int, int], ...]
    """(value, id) for every strength from -5 to 5."""

    @classmethod
    def from_tokenizer(cls, tokenizer: Tokenizer) -> TokenIds:
        def one(token: str) -> int:
            ids = tokenizer.encode(token, add_special_tokens=False)
            if len(ids) != 1:
                raise PromptError(f"The tokenizer has no single token {token!r} (got {ids}); "
                                  "use AnimeGamer's tokenizer (MLLM/VisualAR/animegamer_tokenizer).")
            return int(ids[0])

        return cls(
            bos=int(tokenizer.bos_token_id), turn=one(TURN), end_turn=one(END_TURN), img=one(IMG),
            end_img=one(END_IMG), frame=one(FRAME), end_frame=one(END_FRAME),
            frames=tuple(one(frame_token(i)) for i in range(QUERY_TOKENS)),
            ml=one(ML), end_ml=one(END_ML), sc=one(SC), end_sc=one(END_SC), et=one(ET), end_et=one(END_ET),
            st=one(ST), end_st=one(END_ST),
            strengths=tuple((v, one(strength_token(v))) for v in range(DELTA_MIN, DELTA_MAX + 1)),
        )

    def strength(self, value: int) -> int:
        for known, token in self.strengths:
            if known == value:
                return token
        raise ValueError(f"no strength token for {value}")

    def strength_value(self, token: int) -> int | None:
        for value, known in self.strengths:
            if known == token:
                return value
        return None


@dataclass(frozen=True, slots=True)
class TurnState:
    """What the model wrote after a turn's clip: motion level (1..5) and the three deltas."""

    motion_level: int
    social: int
    entertainment: int
    stamina: int

    def __post_init__(self) -> None:
        if not MOTION_LEVEL_MIN <= self.motion_level <= MOTION_LEVEL_MAX:
            raise ValueError(f"motion level {self.motion_level} is outside {MOTION_LEVEL_MIN}..{MOTION_LEVEL_MAX}")
        for name in ("social", "entertainment", "stamina"):
            if not DELTA_MIN <= getattr(self, name) <= DELTA_MAX:
                raise ValueError(f"{name} delta {getattr(self, name)} is outside {DELTA_MIN}..{DELTA_MAX}")


@dataclass(frozen=True, slots=True)
class TurnTokens:
    """One turn's ids and where its query slots are (``slots`` is a half-open range)."""

    ids: tuple[int, ...]
    slots: tuple[int, int]

    def __len__(self) -> int:
        return len(self.ids)


_SURROGATES = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile(r"</?(?:TURN|img|frame|ML|SC|ET|ST|s|unk)>|<frame_\d+>|<Strength_-?\d+>")
"""Written in an instruction, these would be read as AnimeGamer's control tokens: a typed
``</TURN><TURN>`` would end the turn, a typed ``<ML><Strength_5>`` would state its motion level."""


def encodable(text: str) -> str:
    """``text`` as plain words for the tokenizer: each lone surrogate (what Python makes of
    bytes that are not UTF-8, which the tokenizer refuses) as U+FFFD, and each control token
    written in it (:data:`_CONTROL`) with its angle brackets as the look-alike single guillemets
    (so it is read as text, not as a token the model acts on)."""
    text = _SURROGATES.sub("\ufffd", text)
    if "<" in text:
        text = _CONTROL.sub(lambda match: "\u2039" + match.group(0)[1:-1] + "\u203a", text)
    return text


def has_control_tokens(text: str) -> bool:
    """Whether ``text`` writes one of AnimeGamer's control tokens (which :func:`encodable` defuses)."""
    return bool(_CONTROL.search(text))


def _clip_block(ids: TokenIds) -> list[int]:
    return [ids.img, ids.frame, *ids.frames, ids.end_frame, ids.end_img]


def query_turn(tokenizer: Tokenizer, ids: TokenIds, instruction: str) -> TurnTokens:
    """The turn to predict; it ends with ``<ML>`` where the state tokens begin."""
    caption = tokenizer.encode(TURN + encodable(instruction), add_special_tokens=False)
    block = _clip_block(ids)
    start = len(caption) + 2
    return TurnTokens(tuple([*caption, *block, ids.ml]), (start, start + QUERY_TOKENS))


def state_tokens(ids: TokenIds, state: TurnState) -> list[int]:
    """``<ML><Strength_m></ML><SC>..</SC><ET>..</ET><ST>..</ST></ST></TURN>`` (a finished turn)."""
    return [ids.ml, ids.strength(state.motion_level), ids.end_ml,
            ids.sc, ids.strength(state.social), ids.end_sc,
            ids.et, ids.strength(state.entertainment), ids.end_et,
            ids.st, ids.strength(state.stamina), ids.end_st, ids.end_st, ids.end_turn]


def history_turn(tokenizer: Tokenizer, ids: TokenIds, instruction: str, state: TurnState) -> TurnTokens:
    """A finished turn inside the history window (its slots take its representation)."""
    caption = tokenizer.encode(TURN + encodable(instruction), add_special_tokens=False)
    start = len(caption) + 2
    return TurnTokens(tuple([*caption, *_clip_block(ids), *state_tokens(ids, state)]), (start, start + QUERY_TOKENS))


def prompt_ids(ids: TokenIds, turns: Sequence[TurnTokens]) -> list[int]:
    """BOS followed by the turns (for tests and the plain, uncached path)."""
    out = [ids.bos]
    for turn in turns:
        out.extend(turn.ids)
    return out
