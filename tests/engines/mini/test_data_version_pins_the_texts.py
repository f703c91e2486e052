"""The mini engine's episodes are a function of ``DATA_VERSION`` (and the config): the
texts, labels and rule truths of its first training and held-out episodes are pinned here by
a digest. The sketch world reads each drafted text to check it and rewrites the ones it
misreads, so a change in how the sketch engine reads instructions (or in its vocabulary,
rules or the grammars) can change which texts the mini trains and is evaluated on, silently:
the shipped checkpoint's held-out figures would then be measured on another set. Such a
change must bump ``DATA_VERSION`` and record the new digest here (and say in the training log
that the evaluation set changed)."""

from __future__ import annotations

import hashlib

from studio.engines.mini.config import DataConfig, ModelConfig
from studio.engines.mini.data import DATA_VERSION, Split, episodes

DIGESTS = {2: "9dccc0e343431a294b3caec7abaf9b92ff8afc6100d3100b910e4af4d941d368",
           3: "1ab56d562ca04a85e2de7fea7f8aed698dafa9d669f9783e803a0f30a1c6e134",
           4: "367c58910121ca06fc8433a13583e1e2908dc09323c21562ae63d0ebe7179e53",
           5: "3db972834102e5edbec24140bbc7eed4f31411effa825250925e23e3df0de124",
           6: "4db9d0076408c6954ec0309682ebed760c589132e451b0e8ae1365f3f0674601",
           7: "40a080b0ef6ecac1bdbdd0f23a51216de4ad23f78b653c3eefe942b53cee4847"}


def _digest() -> str:
    digest = hashlib.sha256()
    for split, count in ((Split.HELDOUT, 60), (Split.TRAIN, 200)):
        for episode in episodes(DataConfig(), ModelConfig().video, split, list(range(count))):
            for turn in episode.turns:
                digest.update(repr((turn.text, turn.motion, turn.location, turn.character, turn.time, turn.level,
                                    turn.state, turn.truth)).encode())
    return digest.hexdigest()


def test_the_episodes_of_this_data_version_are_the_ones_recorded() -> None:
    assert DATA_VERSION in DIGESTS, f"record the digest of DATA_VERSION {DATA_VERSION}: {_digest()}"
    assert _digest() == DIGESTS[DATA_VERSION], (
        "the mini's episodes changed without a new DATA_VERSION (a change in how the sketch world reads or "
        "renders them?): bump DATA_VERSION in studio/engines/mini/data.py and record the new digest here")
