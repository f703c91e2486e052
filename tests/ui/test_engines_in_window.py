"""Engines in the window: unavailable ones greyed out with their reasons, settings forms
rendered from each engine's schema, and no engine package imported to open a project."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel

from studio.composition import default_registry

TIMEOUT_MS = 60_000
REPO = Path(__file__).resolve().parents[2]


def _with_heavy():  # type: ignore[no-untyped-def]
    from engines.contract.heavy_engine import INFO, HeavyEngine  # tests/ is on sys.path

    registry = default_registry()
    registry.register(INFO, HeavyEngine)
    registry.source = ""  # an engine process would rebuild the registry without it
    return registry


def test_an_engine_that_cannot_run_is_greyed_out_with_its_reasons(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project, registry_override=_with_heavy())
    picker = window.engine_picker
    qtbot.waitUntil(lambda: "heavy" in picker.unavailable, timeout=TIMEOUT_MS)
    model = picker.combo.model()
    assert isinstance(model, QStandardItemModel)
    index = picker.combo.findData("heavy")
    assert not model.item(index).isEnabled()
    tip = str(picker.combo.itemData(index, Qt.ItemDataRole.ToolTipRole))
    missing = window.services.checkpoints / "heavy" / "weights.safetensors"
    assert "Can't run here" in tip and str(missing) in tip
    assert model.item(picker.combo.findData("sketch")).isEnabled()
    assert "sketch" not in picker.unavailable
    # AnimeGamer without converted weights: listed, greyed out, the doctor's reasons and its license shown
    qtbot.waitUntil(lambda: "animegamer" in picker.unavailable, timeout=TIMEOUT_MS)
    index = picker.combo.findData("animegamer")
    assert not model.item(index).isEnabled()
    tip = str(picker.combo.itemData(index, Qt.ItemDataRole.ToolTipRole))
    assert str(window.services.checkpoints / "animegamer" / "mistral" / "model.safetensors") in tip
    assert "not intended for use within the European Union" in tip


def test_generating_with_an_engine_that_cannot_run_says_why(make_window, sample_project: Path, qtbot,
                                                            settings) -> None:
    settings.engine = "heavy"
    window = make_window(sample_project, registry_override=_with_heavy())
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: window.last_error is not None, timeout=TIMEOUT_MS)
    assert "heavy engine can't run here" in window.last_error.message
    assert "weights.safetensors" in window.last_error.message
    assert window.session.service.jobs() == []  # refused before a job was queued


def test_settings_form_is_rendered_from_the_schema(qtbot, settings) -> None:
    from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox

    from studio.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(settings, _with_heavy())
    qtbot.addWidget(dialog)
    assert set(dialog.forms) == {"sketch", "mini", "heavy", "animegamer", "customx"}
    animegamer = dialog.forms["animegamer"]  # rendered from its catalogue entry, without its weights
    assert "changes the output" in animegamer.presets.itemText(animegamer.presets.findData("fastest"))
    assert "changes the output" not in animegamer.presets.itemText(animegamer.presets.findData("reference"))
    sketch = dialog.forms["sketch"]
    assert isinstance(sketch.editors["height"], QSpinBox) and sketch.editors["height"].maximum() == 2160
    assert isinstance(sketch.editors["fps"], QDoubleSpinBox)
    assert isinstance(sketch.editors["camera"], QComboBox) and sketch.editors["camera"].count() == 6
    assert sketch.values()["width"] == 160  # the user's saved change (conftest) ...
    assert sketch.values()["fps"] == 8.0  # ... over the engine's own defaults
    heavy = dialog.forms["heavy"]
    fast = heavy.presets.findData("fast")
    assert "changes the output" in heavy.presets.itemText(fast)
    heavy.presets.setCurrentIndex(fast)
    heavy.presets.activated.emit(fast)
    assert heavy.values()["steps"] == 2 and heavy.overrides() == {"steps": 2}
    heavy.editors["steps"].setValue(4)
    assert heavy.presets.currentText() == "Custom"
    heavy.reset()
    assert heavy.overrides() == {}
    dialog.save()
    assert settings.engine_values("heavy") == {}
    assert settings.engine_values("sketch") == {"width": 160, "height": 112, "frames": 6}


def test_saved_values_the_engine_refuses_are_reset_with_a_message(qtbot, settings) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings.set_engine_values("sketch", {"frames": 100000})
    dialog = SettingsDialog(settings, default_registry())
    qtbot.addWidget(dialog)
    form = dialog.forms["sketch"]
    assert form.values()["frames"] == 17
    assert "frames" in form.error.text() and not form.error.isHidden()


PURE_CONFIG_MODULES = ("studio.engines.mini", "studio.engines.mini.config")
"""The mini package's docstring-only __init__ and its config module, which import no torch."""


def test_opening_a_project_imports_no_engine_package(tmp_path: Path, sample_project: Path) -> None:
    script = textwrap.dedent(f"""
        import json, sys
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
        from studio.cli.gui_cmds import app_services
        from studio.ui.main_window import MainWindow
        from studio.ui.settings import StudioSettings

        app = QApplication([])
        settings = StudioSettings.at({str(tmp_path / 'settings.ini')!r})
        settings.mark_first_run_done()
        window = MainWindow(settings, app_services())
        window.show()
        assert window.open_project({str(sample_project)!r}), window.last_error
        engine_packages = ("studio.engines.sketch", "studio.engines.mini", "studio.engines.animegamer",
                           "studio.engines.customx")

        def report():
            completer = window.workspace.inspector.editor.motion.completer()
            print(json.dumps({{
                "engines": sorted(m for m in sys.modules if m.startswith(engine_packages)),
                "heavy": sorted(m for m in ("torch", "transformers", "diffusers") if m in sys.modules),
                "words": completer.model().rowCount() if completer is not None else 0,
                "checked": sorted(window.engine_picker.unavailable),
            }}), flush=True)
            window.close_project("cancel")
            app.quit()

        QTimer.singleShot(2500, report)  # past the engine checks and the vocabulary load
        app.exec()
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            cwd=REPO, env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    # The mini catalogue reads its checkpoint's model config with the engine's own pure-Python
    # config module (stdlib only, so that a hand-edited config.json is reported before a turn
    # loads it); no other engine module, and nothing heavy, may load with the window.
    assert [m for m in report["engines"] if m not in PURE_CONFIG_MODULES] == [], report
    assert report["heavy"] == [], report
    assert report["words"] > 100  # the sketch engine's words arrived from its catalogue entry


def test_the_preset_box_shows_the_chosen_preset_not_one_that_restates_the_defaults(qtbot) -> None:
    from studio.engines.catalog.mini import MiniSettings
    from studio.ui.dialogs.engine_settings_form import EngineSettingsForm

    form = EngineSettingsForm(MiniSettings)
    qtbot.addWidget(form)
    labels = [form.presets.itemText(i) for i in range(form.presets.count())]
    assert form.presets.currentText().startswith("Studio")
    best = next(i for i, label in enumerate(labels) if label.startswith("Best of 4"))
    form.presets.setCurrentIndex(best)
    form.presets.activated.emit(best)
    assert form.values()["candidates"] == 4 and form.presets.currentText().startswith("Best of 4")
    form.load({"steps": 2})
    assert form.presets.currentText().startswith("Fast")
    form.load({"candidates": 4})  # reopened with the preset's values saved
    assert form.presets.currentText().startswith("Best of 4")
    form.load({"width": 640, "height": 360})
    assert form.presets.currentText() == "Custom"
