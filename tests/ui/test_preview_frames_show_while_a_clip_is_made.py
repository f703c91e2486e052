"""While the selected turn's clip is being made by an engine that sends preview frames, the
branch player shows the newest preview, looping its frames and marked as a preview, until
the clip lands; Play or a scrub puts it away; an engine without previews shows none."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6.QtGui import QImage

from studio.engines.base import (
    CancelCheck,
    Clip,
    EngineSettings,
    Prediction,
    Progress,
    ProgressCallback,
    check_cancelled,
    never_cancelled,
    no_progress,
)

RED, GREEN, BLUE = (220, 20, 20), (20, 200, 40), (30, 40, 230)
TIMEOUT_MS = 20_000


class Gates:
    """What the test lets the engine do next (the engine waits on these)."""

    def __init__(self) -> None:
        self.second = threading.Event()
        self.finish = threading.Event()


def _wait(gate: threading.Event, cancelled: CancelCheck) -> None:
    while not gate.wait(0.005):
        check_cancelled(cancelled)


def _preview_window(make_window, sample_project: Path, settings, registry, gates: Gates):  # type: ignore[no-untyped-def]
    """A window whose engine sends a red preview, then (once ``gates.second`` is set) a green
    one of two frames, then (once ``gates.finish`` is set) makes a blue clip."""
    from worker.fake_engine import FakeEngine, FakeScript, FakeSettings, fake_info  # tests/ is on sys.path

    class PreviewEngine(FakeEngine):
        def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
                   progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
            options = FakeSettings.coerce(settings)
            progress(Progress(1, 5, "denoising 1/4"))
            progress(Progress(2, 5, "denoising 2/4", preview=np.full((1, 8, 12, 3), RED, np.uint8)))
            _wait(gates.second, cancelled)
            two = np.stack([np.full((8, 12, 3), GREEN, np.uint8), np.full((8, 12, 3), RED, np.uint8)])
            progress(Progress(4, 5, "denoising 4/4", preview=two))
            _wait(gates.finish, cancelled)
            frames = np.full((options.frames, options.height, options.width, 3), BLUE, np.uint8)
            return Clip(frames=frames, fps=options.fps)

    script = FakeScript(frames=4, height=32, width=48)
    base = fake_info(script, "preview")
    info = replace(base, capabilities=replace(base.capabilities, preview_frames=True))
    registry.register(info, lambda config: PreviewEngine(config, script, info))
    registry.source = ""  # the engine lives in this test's memory: in-process host
    settings.engine = "preview"
    return make_window(sample_project, registry_override=registry)


def _colour(image: QImage | None) -> tuple[int, int, int]:
    assert image is not None
    pixel = image.pixelColor(image.width() // 2, image.height() // 2)
    return pixel.red(), pixel.green(), pixel.blue()


def _near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 24 for a, b in zip(colour, wanted, strict=True))


def _generate_first_turn(window) -> str:  # type: ignore[no-untyped-def]
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.children(tree.root_id)[0].id
    ws.select(first, center=False)
    window.actions_.fill.trigger()  # generates the selected turn (the branch down to it)
    return str(first)


def test_the_newest_preview_shows_marked_until_the_clip_lands(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    gates = Gates()
    window = _preview_window(make_window, sample_project, settings, registry, gates)
    player = window.workspace.episode.player
    _generate_first_turn(window)
    try:
        qtbot.waitUntil(lambda: player.preview_caption != "", timeout=TIMEOUT_MS)
        assert player.preview_caption == "Preview · denoising 2/4"
        assert player.view.badge == player.preview_caption
        assert _near(_colour(player.view.image), RED)

        gates.second.set()  # a newer preview of two frames replaces it, and loops
        qtbot.waitUntil(lambda: player.preview_caption == "Preview · denoising 4/4", timeout=TIMEOUT_MS)
        seen = {_colour(player.view.image)}
        qtbot.waitUntil(lambda: seen.add(_colour(player.view.image)) or len(seen) == 2, timeout=TIMEOUT_MS)
        assert any(_near(c, GREEN) for c in seen) and any(_near(c, RED) for c in seen)
    finally:
        gates.second.set()
        gates.finish.set()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: player.view.image is not None and _near(_colour(player.view.image), BLUE),
                    timeout=TIMEOUT_MS)
    assert player.preview_caption == "" and player.view.badge == ""


def test_play_puts_the_preview_away_until_another_turn_is_selected(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    gates = Gates()
    window = _preview_window(make_window, sample_project, settings, registry, gates)
    ws = window.workspace
    player = ws.episode.player
    first = _generate_first_turn(window)
    try:
        qtbot.waitUntil(lambda: player.preview_caption != "", timeout=TIMEOUT_MS)
        player.seek(0)  # a scrub: the user wants the frames under it
        assert player.preview_caption == "" and player.view.badge == ""
        gates.second.set()  # a newer preview does not take the view back
        qtbot.wait(300)
        window.session.settle()
        assert player.preview_caption == ""
        ws.select(window.session.project.tree.root_id, center=False)
        ws.select(first, center=False)  # selected again: the newest preview shows
        qtbot.waitUntil(lambda: player.preview_caption == "Preview · denoising 4/4", timeout=TIMEOUT_MS)
    finally:
        gates.second.set()
        gates.finish.set()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)


def test_an_engine_without_previews_shows_none(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from .conftest import fake_engine_window

    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    script.step_sleep = 0.05
    player = window.workspace.episode.player
    _generate_first_turn(window)
    badges: set[str] = set()
    qtbot.waitUntil(lambda: badges.add(player.view.badge) or not window.session.active_jobs(), timeout=TIMEOUT_MS)
    assert badges == {""} and player.preview_caption == ""
