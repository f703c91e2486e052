"""The mini LM's own tokenizer (byte-pair encoding trained with the ``tokenizers`` library)
and the special tokens of its sequences.

State tokens follow AnimeGamer (``<ML>`` motion level, ``<SC>`` social, ``<ET>``
entertainment, ``<ST>`` stamina), each followed by one value token: ``<L1>`` .. ``<L5>``
for the level, ``<d-5>`` .. ``<d+5>`` for a delta. The state a turn starts from is given
as three ``<vN>`` tokens (N = 0, 5, ... 100). ``<r>`` marks where an earlier turn's
representation is fed in, ``<q>`` the query tokens whose outputs are the next clip's
representation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from studio.core.state import DELTA_MAX, DELTA_MIN, MOTION_LEVEL_MAX, MOTION_LEVEL_MIN, STATE_MAX, STATE_MIN

if TYPE_CHECKING:
    from tokenizers import Tokenizer

PAD, UNK, BOS = "<pad>", "<unk>", "<bos>"
TURN, NOW, INSTR, STATE, REP, QUERY = "<turn>", "<now>", "<instr>", "<state>", "<r>", "<q>"
ML, SC, ET, ST = "<ML>", "<SC>", "<ET>", "<ST>"
STATE_FIELDS: tuple[tuple[str, str], ...] = (("social", SC), ("entertainment", ET), ("stamina", ST))
"""The order AnimeGamer writes the deltas in (after the motion level)."""
LEVEL_TOKENS = tuple(f"<L{level}>" for level in range(MOTION_LEVEL_MIN, MOTION_LEVEL_MAX + 1))
DELTA_TOKENS = tuple(f"<d{value:+d}>" for value in range(DELTA_MIN, DELTA_MAX + 1))
VALUE_TOKENS = tuple(f"<v{value}>" for value in range(STATE_MIN, STATE_MAX + 1, 5))
SPECIAL_TOKENS: tuple[str, ...] = (PAD, UNK, BOS, TURN, NOW, INSTR, STATE, REP, QUERY, ML, SC, ET, ST,
                                   *LEVEL_TOKENS, *DELTA_TOKENS, *VALUE_TOKENS)


def train_tokenizer(texts: Iterable[str], vocab_size: int) -> Tokenizer:
    """A byte-pair tokenizer of at most ``vocab_size`` entries over lowercased text."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token=UNK))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS), min_frequency=2,
                                  show_progress=False)
    tokenizer.train_from_iterator(texts, trainer=trainer)
    return tokenizer


@dataclass(frozen=True)
class Vocab:
    """A trained tokenizer with the ids of the special tokens."""

    tokenizer: Tokenizer

    @classmethod
    def load(cls, path: Path) -> Vocab:
        from tokenizers import Tokenizer

        return cls(Tokenizer.from_file(str(path)))

    def save(self, path: Path) -> None:
        self.tokenizer.save(str(path))

    @cached_property
    def _special(self) -> dict[str, int]:
        found = {token: self.tokenizer.token_to_id(token) for token in SPECIAL_TOKENS}
        missing = [token for token, value in found.items() if value is None]
        if missing:
            raise KeyError(f"the tokenizer has no {missing[0]!r}")
        return {token: int(value) for token, value in found.items() if value is not None}

    def special_ids(self) -> list[int]:
        return list(self._special.values())

    def id(self, token: str) -> int:
        return self._special[token]

    @property
    def size(self) -> int:
        return int(self.tokenizer.get_vocab_size())

    def encode(self, text: str, limit: int) -> list[int]:
        return list(self.tokenizer.encode(_encodable(text), add_special_tokens=False).ids[:limit])

    def unread_from(self, text: str, limit: int) -> int | None:
        """Where the part of ``text`` that :meth:`encode` with ``limit`` leaves out starts, moved
        back to the start of a word cut in two; None when it reads all of it, or all but
        punctuation (a closing full stop carries nothing the model uses)."""
        encoding = self.tokenizer.encode(_encodable(text), add_special_tokens=False)
        if len(encoding.ids) <= limit:
            return None
        cut = encoding.offsets[limit - 1][1] if limit > 0 else 0
        if not any(c.isalnum() for c in text[cut:]):
            return None
        while 0 < cut < len(text) and text[cut].isalnum() and text[cut - 1].isalnum():
            cut -= 1
        return cut

    def level_ids(self) -> list[int]:
        return [self.id(t) for t in LEVEL_TOKENS]

    def delta_ids(self) -> list[int]:
        return [self.id(t) for t in DELTA_TOKENS]

    def value_id(self, value: int) -> int:
        return self.id(f"<v{max(STATE_MIN, min(STATE_MAX, 5 * round(value / 5)))}>")

    def level_id(self, level: int) -> int:
        return self.id(f"<L{level}>")

    def delta_id(self, delta: int) -> int:
        return self.id(f"<d{max(DELTA_MIN, min(DELTA_MAX, delta)):+d}>")


_SURROGATES = re.compile("[\ud800-\udfff]")
_SPECIAL = re.compile("|".join(re.escape(token) for token in sorted(SPECIAL_TOKENS, key=len, reverse=True)))
"""Written in an instruction, these would be read as the sequence's own tokens: a typed ``<q>``
would become a query slot, a typed ``<ML><L5>`` a motion level."""


def _encodable(text: str) -> str:
    """``text`` as plain words for the tokenizer: each lone surrogate (what Python makes of bytes
    that are not UTF-8, which the tokenizer refuses) as U+FFFD, and each special token written
    in it with its angle brackets as the look-alike single guillemets (read as text, not as a
    token of the sequence). One character for one keeps the offsets :meth:`Vocab.unread_from`
    reports."""
    text = _SURROGATES.sub("\ufffd", text)
    if "<" in text:
        text = _SPECIAL.sub(lambda match: "\u2039" + match.group(0)[1:-1] + "\u203a", text)
    return text


def decode_level(vocab: Vocab, token_id: int) -> int:
    return vocab.level_ids().index(token_id) + MOTION_LEVEL_MIN


def decode_delta(vocab: Vocab, token_id: int) -> int:
    return vocab.delta_ids().index(token_id) + DELTA_MIN


def corpus(texts: Sequence[str]) -> list[str]:
    """Training texts plus the words of the special vocabulary (so that no word used in
    the sketch world's instruction format is split oddly)."""
    return [*texts, "Character: Motion: Background: Time: Camera:"]
