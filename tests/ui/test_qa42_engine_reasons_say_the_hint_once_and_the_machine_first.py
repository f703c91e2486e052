"""The engine picker's tooltip gives each hint once, after the lines it fixes, and counts the
missing files past a few (AnimeGamer's repeated "Convert the released weights: …" on each of
its 12 "Missing" lines: 13 lines, 3,543 characters); the welcome page's line says the machine's
shortfall ("needs a CUDA GPU") before the weight files, which no copy of them would cure; and
its help on weights says the released AnimeGamer and CustomX files must be converted first."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.engines.requirements import Requirement, RequirementKind
from studio.ui.engine_picker import EnginePicker, tooltip_lines
from studio.ui.engine_status import engine_summary
from studio.ui.welcome import WelcomeContent, WelcomePage

CONVERT = "Convert the released weights: kamishibai checkpoints convert PATH --checkpoints ck."


def _reasons() -> list[Requirement]:
    gpu = Requirement(RequirementKind.DEVICE, "The AnimeGamer engine needs a CUDA GPU.", hint="Use a GPU machine.")
    files = [Requirement(RequirementKind.FILE, f"Missing ck/animegamer/part-{i}.safetensors.", hint=CONVERT,
                         path=f"part-{i}") for i in range(12)]
    return [gpu, *files]


def test_the_tooltip_says_each_hint_once(qtbot, registry) -> None:  # type: ignore[no-untyped-def]
    lines = tooltip_lines(_reasons())
    assert lines[0] == "The AnimeGamer engine needs a CUDA GPU. (Use a GPU machine.)"
    assert sum(CONVERT in line for line in lines) == 1, lines
    assert lines[-1] == f"And 9 more files missing (`kamishibai doctor` lists them). ({CONVERT})", lines
    assert len(lines) == 5, lines
    picker = EnginePicker()
    qtbot.addWidget(picker)
    picker.set_engines(registry, "sketch")
    picker.set_availability({"animegamer": lines})
    tip = str(picker.combo.itemData(picker.combo.findData("animegamer"), Qt.ItemDataRole.ToolTipRole))
    assert tip.count(CONVERT) == 1 and len(tip) < 1200, tip


def test_the_welcome_line_says_the_machine_first() -> None:
    assert engine_summary(False, list(reversed(_reasons()))) == (
        "The AnimeGamer engine needs a CUDA GPU; 12 weight files missing or unreadable")


def test_the_weights_help_says_the_released_files_are_converted_first(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = WelcomePage(WelcomeContent(engines=[], checkpoint_dirs=[tmp_path], hf_cache=None))
    qtbot.addWidget(page)
    text = page.weights_help()
    assert "The released AnimeGamer and CustomX files" in text and "must be converted first" in text, text
    assert "kamishibai checkpoints convert" in text
