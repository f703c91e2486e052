"""One turn of the MLLM: the prompt from the branch's history, the representation, the state.

The prompt is ``<s>`` + up to K finished turns + the turn to predict (see :mod:`.tokens`).
The 226 query slots of the new turn attend to each other in both directions; their final
hidden states through the output resampler are the clip's representation. The state
tokens are then decoded under their grammar (:mod:`.grammar`).

Two choices reproduce the release or follow its training code (see docs/ANIMEGAMER.md):

- ``readout``: ``release`` reads the last 226 positions of the prompt, as the release's
  script does (they end with ``</frame></img><ML>``, three positions past the slots);
  ``queries`` reads the 226 slots themselves, as its training code does.
- ``state_pass``: ``causal`` decodes the state after a second, causal pass over the new
  turn, as the release's script does; ``shared`` continues from the bidirectional pass
  (as in training, and one pass cheaper).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import torch

from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled
from studio.engines.animegamer.grammar import DecodedState, Scores, decode_state
from studio.engines.animegamer.kvcache import CachedPrefix, PrefixCache, crop
from studio.engines.animegamer.mllm import AnimeGamerMLLM, causal_mask
from studio.engines.animegamer.sizes import QUERY_TOKENS
from studio.engines.animegamer.tokens import TokenIds, Tokenizer, TurnState, TurnTokens, history_turn, query_turn


class Readout(StrEnum):
    RELEASE = "release"
    QUERIES = "queries"


class StatePass(StrEnum):
    CAUSAL = "causal"
    SHARED = "shared"


@dataclass(frozen=True, slots=True)
class HistoryTurn:
    """A finished turn of the branch, as the model reads it back."""

    instruction: str
    state: TurnState
    representation: np.ndarray


@dataclass(frozen=True, slots=True)
class TurnOptions:
    readout: Readout = Readout.RELEASE
    state_pass: StatePass = StatePass.CAUSAL
    reuse_cache: bool = True


@dataclass(frozen=True, slots=True)
class TurnResult:
    representation: np.ndarray
    """float32 [226, representation width]."""
    state: TurnState
    warnings: tuple[str, ...]
    prompt_tokens: int
    reused_tokens: int
    """Prompt positions taken from the KV cache instead of being run again."""
    history_turns: int


@dataclass(frozen=True, slots=True)
class _Segment:
    key: str
    tokens: TurnTokens | None
    representation: np.ndarray | None = None


class Predictor:
    """Runs turns on a loaded MLLM, keeping KV caches of the branches it has seen."""

    def __init__(self, model: AnimeGamerMLLM, tokenizer: Tokenizer, *, identity: str, cache_capacity: int = 4,
                 describe: Callable[[int], str] = str) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.ids = TokenIds.from_tokenizer(tokenizer)
        self.identity = identity
        """Names the weights (character and files): part of every cache key."""
        self.cache = PrefixCache(cache_capacity)
        self.describe = describe
        self.max_tokens = model.size.sliding_window

    # -- prompt ---------------------------------------------------------------------------
    def _history_segments(self, history: Sequence[HistoryTurn]) -> list[_Segment]:
        segments = []
        for turn in history:
            tokens = history_turn(self.tokenizer, self.ids, turn.instruction, turn.state)
            representation = np.ascontiguousarray(turn.representation, dtype=np.float32)
            digest = hashlib.sha1(repr((tokens.ids, tokens.slots)).encode())
            digest.update(representation.tobytes())
            segments.append(_Segment(digest.hexdigest(), tokens, representation))
        return segments

    def _fit(self, history: Sequence[HistoryTurn], query: TurnTokens) -> tuple[list[HistoryTurn], list[str]]:
        """The most recent turns that fit Mistral's attention window with the new turn."""
        kept = list(history)
        warnings: list[str] = []
        while kept:
            length = 1 + len(query) + sum(len(s.tokens or ()) for s in self._history_segments(kept))
            if length <= self.max_tokens:
                break
            kept.pop(0)
        if len(kept) < len(history):
            warnings.append(f"Only the last {len(kept)} turns fit the model's {self.max_tokens}-token window.")
        return kept, warnings

    # -- a turn ---------------------------------------------------------------------------
    def predict(self, history: Sequence[HistoryTurn], instruction: str, options: TurnOptions,
                progress: ProgressCallback, cancelled: CancelCheck) -> TurnResult:
        model = self.model
        query = query_turn(self.tokenizer, self.ids, instruction)
        fitted, warnings = self._fit(history, query)
        segments = [_Segment(f"bos:{self.identity}", None), *self._history_segments(fitted)]
        keys = [s.key for s in segments]
        prefix = self.cache.take(keys) if options.reuse_cache else None
        reused = prefix.length if prefix else 0
        if prefix is None:
            prefix = CachedPrefix((), (), model.new_cache())
        todo = segments[len(prefix.keys):]
        total = len(todo) + 1 + (1 if options.state_pass is StatePass.CAUSAL else 0) + 4
        step = 0

        def advance(message: str) -> None:
            nonlocal step
            step += 1
            progress(Progress(step, total, message))
            check_cancelled(cancelled)

        check_cancelled(cancelled)
        for segment in todo:  # BOS and the history turns not in the cache
            self._run_history(segment, prefix)
            advance("reading the branch" if segment.tokens else "starting the prompt")
        past = prefix.length
        hidden = self._run_query(query, prefix, bidirectional=True)
        representation = self._read(hidden, query, options.readout)
        advance("predicting the clip")
        if options.state_pass is StatePass.CAUSAL:
            crop(prefix.cache, past)
            hidden = self._run_query(query, prefix, bidirectional=False)
            advance("reading the turn for its state")
        state = self._decode_state(hidden, past + len(query), prefix, advance)
        crop(prefix.cache, past)
        if options.reuse_cache:
            self.cache.put(prefix)
        return TurnResult(representation, state.state, (*warnings, *state.warnings),
                          prompt_tokens=past + len(query), reused_tokens=reused, history_turns=len(fitted))

    def _run_history(self, segment: _Segment, prefix: CachedPrefix) -> None:
        model = self.model
        if segment.tokens is None:
            ids: tuple[int, ...] = (self.ids.bos,)
            embeddings = model.embed(ids)
        else:
            ids = segment.tokens.ids
            embeddings = model.embed(ids)
            start, stop = segment.tokens.slots
            assert segment.representation is not None
            embeddings[0, start:stop] = model.feed_back(torch.from_numpy(segment.representation))
        mask = causal_mask(len(ids), prefix.length, device=model.device, dtype=model.dtype)
        model.run(embeddings, mask, prefix.cache, prefix.length)
        prefix.keys = (*prefix.keys, segment.key)
        prefix.lengths = (*prefix.lengths, len(ids))

    def _run_query(self, query: TurnTokens, prefix: CachedPrefix, *, bidirectional: bool) -> torch.Tensor:
        model = self.model
        mask = causal_mask(len(query), prefix.length, block=query.slots if bidirectional else None,
                           device=model.device, dtype=model.dtype)
        return model.run(model.embed(query.ids), mask, prefix.cache, prefix.length)

    def _read(self, hidden: torch.Tensor, query: TurnTokens, readout: Readout) -> np.ndarray:
        if readout is Readout.QUERIES:
            start, stop = query.slots
        else:
            stop = hidden.shape[1]
            start = stop - QUERY_TOKENS
        out = self.model.read_out(hidden[0, start:stop])
        return np.ascontiguousarray(out.float().cpu().numpy())

    def _decode_state(self, hidden: torch.Tensor, position: int, prefix: CachedPrefix,
                      advance: Callable[[str], None]) -> DecodedState:
        model = self.model
        state = _Decoding(hidden, position)

        def next_scores(feed: list[int]) -> Scores:
            if feed:
                mask = causal_mask(len(feed), state.position, device=model.device, dtype=model.dtype)
                state.hidden = model.run(model.embed(feed), mask, prefix.cache, state.position)
                state.position += len(feed)
            scores: Scores = model.scores(state.hidden)
            advance("writing the state")
            return scores

        return decode_state(self.ids, next_scores, describe=self.describe,
                            favourite=lambda scores: int(torch.as_tensor(scores).argmax()))


@dataclass(slots=True)
class _Decoding:
    """Where the state decoding is: the last hidden states and the next position."""

    hidden: torch.Tensor
    position: int
