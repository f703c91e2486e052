"""The episode panel's player lasts what the exported episode lasts once a turn's duration is
set in the inspector (it went on playing each clip at its own length)."""

from __future__ import annotations

from studio.core.progress import never_cancelled, no_progress
from studio.export.branch import collect_branch
from studio.export.options import ExportOptions
from studio.export.plan import plan_episode
from studio.ui.player import format_clock

TIMEOUT_MS = 120_000


def test_durations_typed_in_the_inspector_reach_the_player(make_window, sample_project, qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import generate_first_branch

    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    workspace = window.workspace
    tree = window.session.project.tree
    turns = [node.id for node in tree.path_to(leaf)[1:]]
    player = workspace.episode.player
    qtbot.waitUntil(lambda: player.ready, timeout=TIMEOUT_MS)
    own_length = player.frame_count

    box = workspace.inspector.story.duration
    for node_id, seconds in ((turns[0], 3.0), (turns[1], 0.2)):  # one clip held, one cut
        workspace.select(node_id, center=False)
        qtbot.waitUntil(box.isVisible, timeout=TIMEOUT_MS)
        box.setFocus()
        box.setValue(seconds)
        box.editingFinished.emit()
        window.session.settle()  # the writer has made the edit and the window heard of it
        assert window.session.project.tree.node(node_id).story.duration == seconds

    workspace.select(leaf, center=False)
    plan = plan_episode(collect_branch(window.session.project, leaf), ExportOptions(), no_progress, never_cancelled)
    assert player.frame_count == plan.timeline.total_frames
    assert player.frame_count != own_length, "the durations change the episode's length"
    assert player.time_label.text().endswith(f" / {format_clock(plan.timeline.duration)}")
    second = plan.timeline.turns[1]
    player.seek(second.start)
    assert player.segment_index == 1
    player.seek(second.end)
    assert player.segment_index == 2, "the cut turn ends where the export cuts it"
