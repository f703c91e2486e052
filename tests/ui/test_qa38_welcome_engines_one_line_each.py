"""The welcome page's engines: one line each (ready, or what it lacks, counted), the reasons
file by file behind a Details disclosure (nineteen "Missing …" lines filled a page 1,444 px tall)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QToolButton

from studio.engines.requirements import Requirement, RequirementKind
from studio.ui.engine_status import EngineAvailability, engine_summary
from studio.ui.welcome import WelcomeContent, WelcomePage

HINT = "Convert the released weights with `kamishibai convert-weights heavy`."


def _missing(count: int) -> list[Requirement]:
    return [Requirement(RequirementKind.FILE, f"Missing checkpoints/heavy/part-{i:02}.safetensors", HINT,
                        path=f"checkpoints/heavy/part-{i:02}.safetensors") for i in range(count)]


def _row(name: str, reasons: list[Requirement]) -> EngineAvailability:
    available = not reasons
    return EngineAvailability(name, available, [f"{r.message} {r.hint}" for r in reasons],
                              engine_summary(available, reasons))


def _plain(label: QLabel) -> str:
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def _shown_text(page: WelcomePage) -> str:
    """What the page's visible labels read (their markup aside)."""
    return "\n".join(_plain(label) for label in page.findChildren(QLabel) if label.isVisible())


def test_each_engine_is_one_line_with_its_reasons_behind_details(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gpu = Requirement(RequirementKind.DEVICE, "The heavy engine needs a CUDA GPU.", "Run it on a machine with one.")
    content = WelcomeContent(engines=[_row("heavy", [*_missing(19), gpu]), _row("sketch", [])],
                             checkpoint_dirs=[tmp_path / "checkpoints"], hf_cache=None)
    page = WelcomePage(content)
    qtbot.addWidget(page)
    page.resize(1280, 800)
    page.show()
    qtbot.waitExposed(page)
    shown = _shown_text(page)
    assert "heavy · The heavy engine needs a CUDA GPU; 19 weight files missing or unreadable" in shown
    assert "sketch · ready" in shown
    assert "part-00.safetensors" not in shown and HINT not in shown
    heavy, sketch = page.engine_rows
    assert heavy.height() < 4 * heavy.fontMetrics().lineSpacing(), heavy.height()
    assert not sketch.findChildren(QToolButton)  # nothing to detail for an engine that runs

    details = heavy.findChild(QToolButton)
    assert details is not None and details.text() == "Details" and details.accessibleName() == "Details of heavy"
    details.click()
    shown = _shown_text(page)
    assert all(f"part-{i:02}.safetensors" in shown for i in range(19)) and HINT in shown
    details.click()
    assert "part-00.safetensors" not in _shown_text(page)


def test_the_summary_counts_what_is_missing_by_kind() -> None:
    assert engine_summary(True, []) == "ready"
    assert engine_summary(False, _missing(1)) == "1 weight file missing or unreadable"
    packages = [Requirement(RequirementKind.PACKAGE, "torch is not installed."),
                Requirement(RequirementKind.PACKAGE, "diffusers is not installed.")]
    assert engine_summary(False, [*_missing(3), *packages]) == \
        "3 weight files missing or unreadable; 2 packages missing"
    memory = Requirement(RequirementKind.MEMORY, "Needs 24 GB of GPU memory; this GPU has 8 GB.")
    assert engine_summary(False, [memory]) == "Needs 24 GB of GPU memory; this GPU has 8 GB"
