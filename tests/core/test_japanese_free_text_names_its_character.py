"""A turn written in Japanese free text is the turn of the cast member it names.

Japanese is written without spaces, so a name is followed by a particle ("美咲が", "美咲は")
where English has a space: the whole-word test found no name in "美咲が夜の港でゆっくり歩く",
and the turn went on as the turn before's character (its state changed, its card named them)
while the engine drew 美咲.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.model import CastMember
from studio.storage import Project


@pytest.fixture
def story(tmp_path: Path) -> Path:
    folder = tmp_path / "港.kamishibai"
    cast = [CastMember(id=f"c{i}", name=name) for i, name in enumerate(("海斗", "美咲", "海", "さくら"))]
    Project.create(folder, cast=cast).close()
    return folder


def _character(folder: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["play", str(folder), text, "--json", "--setting", "frames=2", "--setting", "width=64",
                 "--setting", "height=48"]) == 0
    return str(json.loads(capsys.readouterr().out)["character"])


def test_a_name_before_a_particle_is_the_character(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _character(story, "海斗は公園を歩く", capsys) == "海斗"
    assert _character(story, "美咲が夜の港でゆっくり歩く", capsys) == "美咲"
    assert _character(story, "そして海斗と踊る", capsys) == "海斗"  # after a kana word too


def test_a_name_inside_a_longer_word_is_not(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _character(story, "美咲が歩く", capsys) == "美咲"
    assert _character(story, "海老を食べる", capsys) == "美咲", "海老 (a prawn) is no 海: the turn before's character"
    # a name in kana can't be told from a longer kana word: さくらんぼ (cherries) is no さくら
    assert _character(story, "さくらんぼを食べる", capsys) == "美咲"
