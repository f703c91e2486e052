"""Open the studio on a generated sample story (or on its welcome page) and save a
screenshot of the window.

Run by ``test_screenshot.py`` under Xvfb (``QT_QPA_PLATFORM=xcb``), and by hand to refresh
``docs/screenshot.png``::

    python tests/ui/screenshot_script.py OUT.png [--workdir DIR] [--scheme dark|light] [--welcome]

Prints one JSON line: the PNG's path and the window's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def build_project(folder: Path) -> Path:
    """The sample story (8 turns, 2 branches), every turn generated, one re-rolled twice."""
    from studio.composition import create_sample_project, default_registry
    from studio.core.commands import SelectTake
    from studio.worker.service import GenerationService

    project = create_sample_project(folder / "Sample.kamishibai")
    leaves = [leaf.id for leaf in project.tree.leaves_under(project.tree.root_id)]
    settings = {"width": 360, "height": 240, "frames": 12, "fps": 8.0}
    service = GenerationService(project, default_registry(), default_engine="sketch")
    service.start()
    for leaf in leaves:
        service.fill(leaf, settings=settings)
    if not service.wait_idle(timeout=300):
        raise SystemExit("generation did not finish")
    second = project.tree.child_ids(project.tree.child_ids(project.tree.root_id)[0])[0]
    original = project.tree.nodes[second].selected_take_id
    service.reroll(second, settings=settings)
    service.reroll(second, settings=settings)
    service.wait_idle(timeout=120)
    service.stop()
    project.apply(SelectTake(second, original))  # back to the first take: the turns below stay fresh
    path = project.path
    project.close()
    return path


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--workdir")
    parser.add_argument("--scheme", choices=["dark", "light"], default="dark")
    parser.add_argument("--welcome", action="store_true", help="the welcome page, with two recent projects")
    parser.add_argument("--size", default="1600x960", help="the window's size, WIDTHxHEIGHT")
    parser.add_argument("--view", choices=["fit", "default"], default="fit",
                        help="fit the whole tree (Ctrl+0) or keep the zoom a project opens at")
    parser.add_argument("--project", help="reuse this generated project instead of building one")
    args = parser.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="kamishibai-shot-"))
    if args.welcome:
        return welcome_shot(args, workdir)
    project_path = Path(args.project) if args.project else build_project(workdir)
    width, height = (int(v) for v in args.size.lower().split("x"))

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from studio.cli.gui_cmds import app_services
    from studio.ui.main_window import MainWindow
    from studio.ui.settings import StudioSettings
    from studio.ui.theme import apply_theme

    app = QApplication(sys.argv)
    apply_theme(app, args.scheme)
    settings = StudioSettings.at(workdir / "settings.ini")
    settings.mark_first_run_done()
    window = MainWindow(settings, app_services())
    window.resize(width, height)
    window.show()
    window.open_project(project_path)
    workspace = window.workspace
    assert workspace is not None
    tree = workspace.project.tree
    turn2 = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    workspace.select(turn2)

    def pump(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    pump(1.0)
    if args.view == "fit":
        workspace.view.fit_all()
    for tile in workspace.inspector.takes.tiles:
        tile.player.seek(5)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        pump(0.2)
        posters = [c.summary.poster_path for c in workspace.scene.cards.values() if c.summary.poster_path]
        if posters and all(workspace.scene.poster(p) is not None for p in posters):
            break
    for tile in workspace.inspector.takes.tiles:
        tile.player.pause()
    workspace.episode.player.pause()
    pump(0.5)
    view = workspace.view
    visible = view.visible_scene_rect()
    shown = [c for c in workspace.scene.cards.values() if c.summary.poster_path
             and visible.intersects(c.sceneBoundingRect())]
    save_window(window, Path(args.out), canvas_width=view.width(), cards_with_posters=len(shown))
    window.close_project("cancel")
    QTimer.singleShot(0, app.quit)
    app.exec()
    return 0


def save_window(window, out: Path, **facts: object) -> None:  # type: ignore[no-untyped-def]
    """The window as the X server shows it (falls back to Qt's own rendering)."""
    screen = window.screen()
    image = screen.grabWindow(window.winId()) if screen is not None else window.grab()
    if image.isNull() or image.width() < 10:
        image = window.grab()
    out.parent.mkdir(parents=True, exist_ok=True)
    image.save(str(out), "PNG")
    print(json.dumps({"path": str(out), "width": window.width(), "height": window.height(), **facts}))


def welcome_shot(args: argparse.Namespace, workdir: Path) -> int:
    """The first-run window: the welcome page, with two projects in the recent list."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from studio.cli.gui_cmds import app_services
    from studio.composition import create_project
    from studio.ui.main_window import MainWindow
    from studio.ui.settings import StudioSettings
    from studio.ui.theme import apply_theme

    settings = StudioSettings.at(workdir / "settings.ini")
    for name in ("Rainy day errands", "Qiqi at the festival"):
        project = create_project(workdir / "Documents" / f"{name}.kamishibai", name=name)
        settings.add_recent(project.path)
        project.close()
    app = QApplication(sys.argv)
    apply_theme(app, args.scheme)
    window = MainWindow(settings, app_services())
    window.resize(1600, 960)
    window.show()
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    assert window.welcome is not None and window.workspace is None
    save_window(window, Path(args.out))
    QTimer.singleShot(0, app.quit)
    app.exec()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
