"""The branch preview plays a turn without a clip (not generated, queued, being made, failed)
in its place: it says why the turn has no clip, for the turn's set duration (a second when
none is set). Such turns were left off the timeline, so the branch played as if complete, and
a stand-in for a gone file said "clip missing or damaged" for a turn never generated."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studio.core.state import CharacterState
from studio.ui.episode.episode_panel import EpisodePanel
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.node_summary import CardStatus, NodeSummary
from studio.ui.player import MISSING_FRAMES, MISSING_TEXT

from .solid_clips import solid_clips

FRAMES = 8  # each clip: a second at 8 fps


def _summary(index: int, status: CardStatus, clip: str = "", duration: float | None = None,
             error: str = "") -> NodeSummary:
    return NodeSummary(node_id=f"n{index}", title=f"Turn {index}", excerpt="", state=CharacterState(),
                       motion_level=None, status=status, bookmarked=False, poster_path="", clip_path=clip,
                       take_count=1 if clip else 0, error=error, clip_frames=FRAMES if clip else 0,
                       clip_fps=8.0 if clip else 0.0, duration=duration)


def _panel(qtbot, tmp_path: Path) -> tuple[EpisodePanel, list[NodeSummary]]:
    clips = solid_clips(tmp_path, 2, frames=FRAMES, shade_step=100)
    summaries = [
        _summary(0, CardStatus.START),
        _summary(1, CardStatus.DONE, Path(clips[0]).name),
        _summary(2, CardStatus.DRAFT, duration=2.0),
        _summary(3, CardStatus.FAILED, error="CUDA out of memory"),
        _summary(4, CardStatus.DONE, Path(clips[1]).name),
        _summary(5, CardStatus.QUEUED, duration=0.5),
    ]
    panel = EpisodePanel(PosterCache(), ClipCache(), lambda rel: str(tmp_path / rel) if rel else "")
    qtbot.addWidget(panel)
    panel.show()
    panel.set_branch([s.node_id for s in summaries], summaries, [CharacterState()] * len(summaries), 1)
    qtbot.waitUntil(lambda: panel.player.ready, timeout=10_000)
    return panel, summaries


def test_turns_without_a_clip_have_their_place_and_say_why(qtbot, tmp_path: Path) -> None:
    panel, _summaries = _panel(qtbot, tmp_path)
    player = panel.player
    assert [bool(path) for path in player.paths] == [True, False, False, True, False]
    # 1 s clip, 2 s set, 1 s stand-in (no duration set), 1 s clip, 0.5 s set
    assert abs(player.duration - 5.5) < 1e-6
    assert player.frame_count == FRAMES + 16 + MISSING_FRAMES + FRAMES + 4

    said = {}
    for turn, frame in ((1, 0), (2, FRAMES + 15), (3, FRAMES + 16), (4, FRAMES + 24), (5, FRAMES * 2 + 24)):
        player.seek(frame)
        said[turn] = (panel.strip.playing, player.view.image is not None, player.view.message)
    assert said[1] == (1, True, "")
    assert said[2] == (2, False, "Turn 2 is not generated yet")
    assert said[3] == (3, False, "Turn 3 failed: CUDA out of memory")
    assert said[4] == (4, True, ""), "the turn after the gaps is numbered as the filmstrip numbers it"
    assert said[5][0] == 5 and said[5][2].startswith("Turn 5 is queued")
    assert MISSING_TEXT not in {message for _turn, _image, message in said.values()}


def test_playback_runs_through_a_turn_without_a_clip_and_its_note_follows_progress(qtbot, tmp_path: Path) -> None:
    panel, summaries = _panel(qtbot, tmp_path)
    player = panel.player
    turns = [panel.strip.playing]  # turn 1, selected, shows its first frame
    player.segment_changed.connect(lambda _index: turns.append(panel.strip.playing))
    player.loop_button.click()  # loop off: it plays to the end
    player.play()
    qtbot.waitUntil(lambda: not player.playing, timeout=15_000)
    assert [turn for turn in dict.fromkeys(turns) if turn > 0] == [1, 2, 3, 4, 5]

    # the queued turn starts: its note says how far it has come, and the position stays
    player.seek(FRAMES * 2 + 25)
    running = replace(summaries[5], status=CardStatus.RUNNING, fraction=0.4)
    panel.set_branch([s.node_id for s in summaries], [*summaries[:5], running],
                     [CharacterState()] * len(summaries), 1)
    assert player.frame == FRAMES * 2 + 25
    assert player.view.message == "Turn 5 is being generated… 40%"


def test_a_selected_turn_without_a_clip_plays_from_its_own_place(qtbot, tmp_path: Path) -> None:
    panel, summaries = _panel(qtbot, tmp_path)
    player = panel.player
    branch = [s.node_id for s in summaries]
    panel.set_branch(branch, summaries, [CharacterState()] * len(summaries), 2)
    assert player.view.message == "Turn 2 is not generated yet" and panel.strip.playing == -1
    player.play()
    assert panel.strip.playing == 2 and player.view.message == "Turn 2 is not generated yet"
    qtbot.waitUntil(lambda: panel.strip.playing == 3, timeout=10_000)
    player.pause()


def test_progress_of_the_selected_turn_shows_and_leaves_a_scrub_alone(qtbot, tmp_path: Path) -> None:
    panel, summaries = _panel(qtbot, tmp_path)
    player = panel.player
    branch = [s.node_id for s in summaries]
    states = [CharacterState()] * len(summaries)

    def running(fraction: float) -> list[NodeSummary]:
        return [*summaries[:5], replace(summaries[5], status=CardStatus.RUNNING, fraction=fraction)]

    panel.set_branch(branch, running(0.2), states, 5)
    assert player.view.message == "Turn 5 is being generated… 20%"
    panel.set_branch(branch, running(0.3), states, 5)
    assert player.view.message == "Turn 5 is being generated… 30%", "the held note follows the progress"
    player.seek(3)  # the user scrubs into turn 1
    panel.set_branch(branch, running(0.4), states, 5)
    assert player.frame == 3 and player.view.image is not None, "a progress tick took the position back"


def test_a_take_landing_elsewhere_leaves_playback_in_the_turn_without_a_clip(qtbot, tmp_path: Path) -> None:
    panel, summaries = _panel(qtbot, tmp_path)
    player = panel.player
    player.play(from_segment=2, at_frame=2)  # turn 3, the second turn without a clip
    assert player.playing and panel.strip.playing == 3
    landed = replace(summaries[5], status=CardStatus.DONE, clip_path=summaries[1].clip_path,
                     clip_frames=FRAMES, clip_fps=8.0)
    panel.set_branch([s.node_id for s in summaries], [*summaries[:5], landed],
                     [CharacterState()] * len(summaries), 1)
    assert player.playing and panel.strip.playing == 3, "playback jumped to another turn"
    assert player.frame >= FRAMES + 16 + 2
    player.pause()
