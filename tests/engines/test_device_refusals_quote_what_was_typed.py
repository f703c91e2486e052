"""A user who typed ``cuda:0+offload+offload`` was told about an unknown device
``'cuda:0+offload'``: one ``+offload`` was taken off before the rest was quoted. A refused
device now quotes the text as typed and says which part is wrong (an option given twice, an
unknown option, a missing GPU index, offloading onto the CPU); spaces around ``:`` and ``+``
and upper case are read as meant."""

from __future__ import annotations

import pytest

from studio.engines.config import ConfigError, EngineConfig, Placement


def _refusal(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as refused:
        Placement.parse(text)
    return refused.value


def test_offload_given_twice_is_quoted_as_typed() -> None:
    refused = _refusal("cuda:0+offload+offload")
    assert refused.message == "The device 'cuda:0+offload+offload' gives +offload 2 times."
    assert refused.hint == "Give it once: cuda:0+offload."


@pytest.mark.parametrize(("typed", "words"), [
    ("cuda:0+offlaod", "Unknown option '+offlaod' in the device 'cuda:0+offlaod'."),
    ("cuda:1+", "A '+' with no option after it in the device 'cuda:1+'."),
    ("cuda:", "No GPU index after the colon in the device 'cuda:'."),
    ("cuda:+offload", "No GPU index after the colon in the device 'cuda:+offload'."),
    ("gpu+offload", "Unknown device 'gpu' in 'gpu+offload'."),
    ("TPU", "Unknown device 'TPU'."),
    ("cpu+offload", "Offloading only makes sense onto a GPU: 'cpu+offload' offloads onto the CPU."),
])
def test_the_wrong_part_is_named_in_the_text_as_typed(typed: str, words: str) -> None:
    assert _refusal(typed).message == words


def test_a_missing_colon_is_pointed_out() -> None:
    assert _refusal("cuda 1").hint == "Write a colon before the GPU's index: cuda:1."


@pytest.mark.parametrize(("typed", "read"), [
    ("CUDA:1", Placement("cuda:1")),
    (" cuda : 0 ", Placement("cuda:0")),
    ("cuda:0 + offload", Placement("cuda:0", offload=True)),
    ("Cuda:1+OFFLOAD", Placement("cuda:1", offload=True)),
    ("cuda:01", Placement("cuda:1")),
])
def test_spaces_and_case_are_read_as_meant(typed: str, read: Placement) -> None:
    assert Placement.parse(typed) == read


def test_a_stage_placement_quotes_its_own_text() -> None:
    with pytest.raises(ConfigError) as refused:
        EngineConfig.parse("predict=cpu,decode=cuda:1+offload+offload")
    assert "'cuda:1+offload+offload' gives +offload 2 times" in refused.value.message
