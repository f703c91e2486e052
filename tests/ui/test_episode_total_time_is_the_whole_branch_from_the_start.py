"""The branch player's total time is the whole branch's from the start.

It read "0:10.5 / 1:25.6" on a branch of 3:00 and grew as clips decoded, and the scrub bar
covered only the decoded clips. Each take stores its clip's frame count and rate: the
player places every clip with them before it is decoded; a position in a clip not decoded
yet says "decoding…".
"""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.core.progress import never_cancelled, no_progress
from studio.export.branch import collect_branch
from studio.export.options import ExportOptions
from studio.export.plan import plan_episode
from studio.ui.media_cache import ClipCache
from studio.ui.player import Player, format_clock

from .solid_clips import solid_clips

TIMEOUT_MS = 120_000


def _total(player: Player) -> str:
    return player.time_label.text().split(" / ")[-1]


def test_total_and_scrub_range_cover_clips_not_decoded_yet(qtbot: QtBot, tmp_path: Path) -> None:
    frames, fps = 12, 8.0
    paths = solid_clips(tmp_path, 3, frames=frames, fps=fps, shade_step=60)
    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    player.set_clips(paths, lengths=[(frames, fps)] * 3)
    # before any clip has landed (decoded off this thread, announced by a queued signal)
    assert not player.ready
    whole = format_clock(3 * frames / fps)
    assert _total(player) == whole
    assert player.slider.maximum() == 3 * frames - 1
    player.seek(2 * frames + 3)  # in the last clip, not decoded yet
    assert player.frame == 2 * frames + 3
    assert player.view.message == "decoding…"
    assert player.time_label.text() == f"{format_clock((2 * frames + 3) / fps)} / {whole}"
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=TIMEOUT_MS)
    assert player.view.image is not None and player.view.image.pixelColor(1, 1).red() > 100, "the last clip shows"
    assert player.frame == 2 * frames + 3 and _total(player) == whole


def test_a_clip_longer_than_stored_keeps_the_place_in_it(qtbot: QtBot, tmp_path: Path) -> None:
    """A take whose stored length is wrong: once decoded its own length counts, and the
    position stays in the clip it was in."""
    paths = solid_clips(tmp_path, 2, frames=10, fps=8.0, shade_step=100)
    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    player.set_clips(paths, lengths=[(6, 8.0), (10, 8.0)])
    assert player.slider.maximum() == 15
    player.seek(8)  # the second clip's third frame, on the stored lengths
    qtbot.waitUntil(lambda: player.ready, timeout=TIMEOUT_MS)
    assert player.slider.maximum() == 19 and _total(player) == format_clock(20 / 8.0)
    assert player.segment_index == 1 and player.frame == 12


def test_reopened_branch_shows_its_whole_length_at_once(make_window, sample_project, qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import generate_first_branch

    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    clips = window.session.project.tree.path_to(leaf)[1:]
    # the episode's length, as the export plans it (the sample's turns set durations of their own)
    plan = plan_episode(collect_branch(window.session.project, leaf), ExportOptions(), no_progress, never_cancelled)
    seconds = plan.timeline.duration
    window.close_project("cancel")

    other = make_window()
    shown: list[str] = []

    def landed(_path: str) -> None:
        if other.workspace is not None:
            shown.append(other.workspace.episode.player.time_label.text())

    other.clips.ready.connect(landed)
    assert other.open_project(sample_project), other.last_error
    other.workspace.select(leaf, center=False)
    episode = other.workspace.episode
    player = episode.player
    assert player.paths and len(player.paths) == len(clips)
    first = player.time_label.text()
    assert first.endswith(f" / {format_clock(seconds)}"), first
    qtbot.waitUntil(lambda: bool(shown), timeout=TIMEOUT_MS)
    assert all(text.endswith(f" / {format_clock(seconds)}") for text in shown), shown
