"""The Settings dialog showed an engine that can't run here (AnimeGamer without its
converted weights) like any other: its form opened with nothing saying that new takes of
it would fail, nor why. Its form now says so above its settings, with the first reason (all
of them in the tooltip); an engine that can run says nothing of the kind."""

from __future__ import annotations

from pathlib import Path

from studio.ui.dialogs.settings_dialog import SettingsDialog
from studio.ui.engine_picker import tooltip_lines


def test_an_engine_without_its_weights_says_why_in_the_settings(qtbot, settings, registry,  # type: ignore[no-untyped-def]
                                                                tmp_path: Path) -> None:
    empty = tmp_path / "no weights here"
    empty.mkdir()
    settings.checkpoints_folder = str(empty)
    settings.use_hf_cache = False
    settings.engine = "animegamer"
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    animegamer = dialog.forms["animegamer"]
    assert dialog.stack.currentWidget() is animegamer, "the form opens even though the engine can't run"
    qtbot.waitUntil(lambda: animegamer.unavailable.isVisible(), timeout=30_000)
    said = animegamer.unavailable.text()
    reasons = tooltip_lines(registry.check("animegamer", dialog._check_config()))  # each hint said once
    assert reasons, "the engine's own check finds what is missing"
    assert said.startswith("AnimeGamer can't run here: "), said
    assert reasons[0] in said, said
    for reason in reasons:
        assert reason in animegamer.unavailable.toolTip()
    if len(reasons) > 1:
        assert f"{len(reasons) - 1} more reason" in said, said
    assert animegamer.editors, "its settings can still be changed"

    dialog.engine.setCurrentIndex(dialog.engine.findData("sketch"))
    sketch = dialog.forms["sketch"]
    assert dialog.stack.currentWidget() is sketch
    assert not sketch.unavailable.isVisible(), sketch.unavailable.text()
