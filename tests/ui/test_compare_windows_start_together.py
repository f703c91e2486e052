"""The compare windows (takes, branches) drive their players with one clock: while a column's
clip is still decoding, the clock waits for it, so that the columns start together. It played
on while that column said "decoding…", and the start of the comparison was lost there. A
column whose clip can't be read (its file gone) holds nobody back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core.instruction import Instruction
from studio.core.model import Node, Take
from studio.core.tree import StoryTree
from studio.ui.episode.branch_compare import BranchCompareWindow
from studio.ui.inspector.compare_window import CompareWindow
from studio.ui.player import Player

from .held_clips import HeldClips
from .solid_clips import solid_clips

FRAMES = 8
WAIT_MS = 600
"""Some ticks of an 8 fps clock (125 ms each): a clock that doesn't wait has moved by then."""


@pytest.fixture
def clip_files(tmp_path: Path) -> list[str]:
    return solid_clips(tmp_path, 2, frames=FRAMES, shade_step=100)


@pytest.fixture
def held(clip_files: list[str], qtbot) -> Iterator[HeldClips]:
    """The first clip decoded already, the second held until the test lets it go."""
    cache = HeldClips({clip_files[1]})
    cache.get(clip_files[0])
    qtbot.waitUntil(lambda: clip_files[0] in cache, timeout=10_000)
    yield cache
    cache.let_go()


def _take(take_id: str, clip: str) -> Take:
    return Take(take_id, "turn", "sketch", settings={"frames": FRAMES, "fps": 8.0}, clip_path=clip)


def test_a_player_says_whether_its_frame_is_ready(held: HeldClips, clip_files: list[str], qtbot,
                                                  tmp_path: Path) -> None:
    player = Player(held)
    qtbot.addWidget(player)
    assert player.frames_ready, "an empty timeline has nothing to wait for"
    player.set_clips([clip_files[0], clip_files[1]], lengths=[(FRAMES, 8.0), (FRAMES, 8.0)])
    assert player.frames_ready
    player.seek(FRAMES + 1)  # into the clip still decoding
    assert not player.frames_ready and player.view.message == "decoding…"
    held.let_go()
    qtbot.waitUntil(lambda: player.frames_ready, timeout=10_000)
    assert player.view.image is not None

    player.set_clips([str(tmp_path / "gone.mp4")])  # can't be read: its stand-in is ready once it failed
    qtbot.waitUntil(lambda: player.frames_ready, timeout=10_000)


def test_compared_takes_wait_for_a_clip_still_decoding(held: HeldClips, clip_files: list[str], qtbot) -> None:
    takes = [_take("a", "a.mp4"), _take("b", "b.mp4")]
    files = {"a.mp4": clip_files[0], "b.mp4": clip_files[1]}
    compare = CompareWindow("Turn 1", takes, "a", {}, held, files.__getitem__)
    qtbot.addWidget(compare)
    compare.show()
    compare.play()
    qtbot.wait(WAIT_MS)
    assert compare.frame == 0 and compare.frames() == [0, 0], "the clock went on without the clip decoding"
    held.let_go()
    qtbot.waitUntil(lambda: compare.frame >= 3, timeout=10_000)
    compare.pause()
    first, second = compare.frames()
    assert first == second == compare.frame
    assert all(column.player.view.image is not None for column in compare.columns)


def test_a_take_whose_clip_is_gone_holds_no_other_back(clip_files: list[str], qtbot, tmp_path: Path) -> None:
    held = HeldClips(set())
    takes = [_take("a", "a.mp4"), _take("b", "gone.mp4")]
    compare = CompareWindow("Turn 1", takes, "a", {}, held, lambda rel: str(tmp_path / rel) if rel != "a.mp4"
                            else clip_files[0])
    qtbot.addWidget(compare)
    compare.show()
    compare.play()
    qtbot.waitUntil(lambda: compare.frame >= 3, timeout=10_000)
    compare.pause()


def _two_branches(clips: dict[str, str]) -> StoryTree:
    """The start and two turns after it, each a branch of one turn with its clip."""
    nodes = [Node("root", None, Instruction("")), Node("left", "root", Instruction("Qiqi waves"),
                                                        selected_take_id="tl"),
             Node("right", "root", Instruction("Qiqi runs"), position=1, selected_take_id="tr")]
    takes = [Take("tl", "left", "sketch", settings={"frames": FRAMES, "fps": 8.0}, clip_path=clips["left"]),
             Take("tr", "right", "sketch", settings={"frames": FRAMES, "fps": 8.0}, clip_path=clips["right"])]
    return StoryTree.from_entities([*nodes, *takes])


def test_compared_branches_wait_for_a_clip_still_decoding(held: HeldClips, clip_files: list[str], qtbot) -> None:
    tree = _two_branches({"left": "left.mp4", "right": "right.mp4"})
    files = {"left.mp4": clip_files[0], "right.mp4": clip_files[1]}
    compare = BranchCompareWindow(lambda: tree, lambda: "left", held, files.__getitem__, lambda _node: None)
    qtbot.addWidget(compare)
    compare.show()
    assert [c.player.paths for c in compare.columns] == [[clip_files[0]], [clip_files[1]]]
    compare.play()
    qtbot.wait(WAIT_MS)
    assert compare.position == 0.0, "the clock went on without the clip decoding"
    held.let_go()
    qtbot.waitUntil(lambda: compare.position >= 0.3, timeout=10_000)
    compare.pause()
    left, right = compare.times()
    assert left == right
    assert all(column.player.view.image is not None for column in compare.columns)
