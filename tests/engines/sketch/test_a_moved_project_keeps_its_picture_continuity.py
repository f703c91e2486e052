"""A turn on a picture background goes on from where the turn before left off, after the
project folder was moved too.

The take recorded its background picture by absolute path, and the next turn compared paths:
in a moved (or copied, or unbundled) project the next turn started over, a fresh pose on the
perhaps on the other side of the frame. The take now records the
picture's fingerprint too, and a changed picture still starts afresh.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from studio.cli import main
from studio.core.model import Location
from studio.storage import Project


def _picture(path: Path, colour: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    picture = Image.new("RGB", (320, 200), (110, 160, 100))
    picture.paste(colour, (0, 0, 320, 90))
    picture.save(path)


def _play(folder: Path, text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["play", str(folder), text, "--json", "--setting", "frames=4", "--setting", "width=96",
                 "--setting", "height=64"]) == 0
    return json.loads(capsys.readouterr().out)


def _conditioning(folder: Path, take_id: str) -> dict[str, object]:
    with Project.open(folder, read_only=True) as project:
        return dict(project.tree.takes[take_id].conditioning)


@pytest.fixture
def story(tmp_path: Path) -> Path:
    folder = tmp_path / "first" / "porch.kamishibai"
    project = Project.create(folder, locations=[Location(id="porch", name="Porch", kind="image",
                                                         params={"scene": "park"}, image_path="media/porch.png")])
    project.close()
    _picture(folder / "media" / "porch.png", (150, 120, 170))
    return folder


def test_the_next_turn_goes_on_in_a_moved_project(story: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    first = _play(story, "Qiqi sits on the bench at the Porch", capsys)
    sat = _conditioning(story, str(first["take"]))
    assert sat["image_path"] and sat["seat"] == "bench"
    moved = tmp_path / "elsewhere" / "porch.kamishibai"
    moved.parent.mkdir()
    shutil.move(story, moved)
    after = _conditioning(moved, str(_play(moved, "Qiqi waves at the Porch", capsys)["take"]))
    assert after["image_path"] != sat["image_path"], "the picture is read from its new folder"
    assert after["continued"] is True
    assert after["start_pose"] == sat["end_pose"]
    assert after["facing"] == sat.get("end_facing", sat["facing"])


def test_a_changed_picture_starts_afresh(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _play(story, "Qiqi sits on the bench at the Porch", capsys)
    _picture(story / "media" / "porch.png", (30, 40, 160))  # the same file, another place drawn in it
    after = _conditioning(story, str(_play(story, "Qiqi waves at the Porch", capsys)["take"]))
    assert after["continued"] is False
    assert after["start_pose"] == {}


def test_a_take_from_before_fingerprints_compares_paths(story: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.engines.sketch.engine import _same_picture

    picture = str(story / "media" / "porch.png")
    assert _same_picture({"image_path": picture}, picture, "abc")
    assert not _same_picture({"image_path": "/gone/porch.png"}, picture, "abc")
    assert not _same_picture({"image_path": ""}, picture, "abc")
    assert _same_picture({"image_path": ""}, "", "")
    assert not _same_picture({"image_path": picture, "image_print": "abc"}, "", "")
