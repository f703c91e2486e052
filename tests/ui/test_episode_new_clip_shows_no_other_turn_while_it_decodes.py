"""The selected turn's first take lands: until its clip is decoded, the branch preview says it
is decoding. It showed the branch's first clip meanwhile (turn 1's picture, the filmstrip and
the chart marking turn 1 as the one playing), then jumped to the new clip."""

from __future__ import annotations

from tests.ui.conftest import generate_first_branch

TIMEOUT_MS = 60_000


def test_a_landing_clip_shows_decoding_not_the_first_turn(make_window, sample_project, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot)
    ws.select(leaf, center=False)
    window.actions_.fork.trigger()  # an alternative of the last turn, without a take
    qtbot.waitUntil(lambda: ws.current_id != leaf and ws.current_id in session.project.tree.nodes)
    fork = ws.current_id
    depth = session.project.tree.depth(fork)
    episode = ws.episode
    qtbot.waitUntil(lambda: "not generated" in episode.player.note)
    # what the panel shows once it has taken in each change (the new clip can't have been
    # decoded yet when its take first joins the branch: it is decoded off this thread)
    shown: list[tuple[int, int, str]] = []
    episode.branch_shown.connect(lambda: shown.append(
        (len(episode.player.paths), episode.strip.playing, episode.player.view.message)))

    ws.view.setFocus()
    window.actions_.generate.trigger()
    qtbot.waitUntil(lambda: bool(session.project.tree.takes_of(fork)) and not session.active_jobs(),
                    timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: episode.strip.playing == depth, timeout=TIMEOUT_MS)
    landed = next(state for state in shown if state[0] == depth)  # the fork's clip joined the timeline
    assert landed[1] != 1, f"turn 1 is marked as the one shown while the new clip decodes: {shown}"
    assert landed[2] == "decoding…", f"another turn's picture shows while the new clip decodes: {shown}"
    assert episode.player.view.image is not None and episode.player.view.message == ""
