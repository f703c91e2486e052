"""Four reference views in the cast panel, scene videos for locations, and CustomX's refusal
of a one-picture character seen in the window."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.ui.dialogs.reference_views import VIEWS, ViewsEditor, place_views, views_note

TIMEOUT_MS = 60_000


def _pictures(folder: Path, names: list[str]) -> list[Path]:
    paths = []
    for index, name in enumerate(names):
        image = Image.new("RGBA", (30, 40), (0, 0, 0, 0))
        image.paste((60 * index, 200, 90, 255), (5, 5, 25, 35))
        path = folder / f"{name}.png"
        image.save(path)
        paths.append(path)
    return paths


def test_views_named_by_side_go_to_their_slot_and_others_fill_the_rest() -> None:
    files = [Path("mei_back.png"), Path("a.png"), Path("mei_front.png"), Path("b.png"), Path("c.png")]
    assert place_views(files) == [Path("mei_front.png"), Path("a.png"), Path("mei_back.png"), Path("b.png")]
    kept = place_views([Path("x_right.png")], [Path("f.png"), None, None, None])
    assert kept == [Path("f.png"), None, None, Path("x_right.png")]
    assert "ready for CustomX" in views_note(4)
    assert "1 of 4 views: CustomX refuses" in views_note(1)


def test_the_editor_picks_each_view_shows_it_and_says_when_it_is_complete(qtbot, tmp_path: Path) -> None:
    editor = ViewsEditor()
    qtbot.addWidget(editor)
    front, left, back, right = _pictures(tmp_path, ["f", "l", "b", "r"])
    editor.strip.ask_file = lambda parent, title: str(back) if "back" in title else ""
    editor.strip.choose_buttons[VIEWS.index("back")].click()
    assert editor.strip.chosen() == [back]
    assert not editor.strip.pictures[2].pixmap().isNull() and editor.strip.pictures[0].pixmap().isNull()
    assert "1 of 4 views" in editor.note.text()
    editor.ask_files = lambda parent: [str(front), str(left), str(right)]
    editor.several.click()
    assert editor.strip.chosen() == [front, left, back, right]
    assert all(not label.pixmap().isNull() for label in editor.strip.pictures)
    assert editor.note.text() == views_note(4)
    editor.strip.clear_buttons[1].click()
    assert editor.strip.chosen() == [front, back, right] and "3 of 4" in editor.note.text()


def test_the_cast_panel_adds_shows_and_changes_four_views(make_window, sample_project: Path, qtbot,
                                                          tmp_path: Path) -> None:
    from studio.ui.cast_panel import CharacterDialog

    window = make_window(sample_project)
    cast = window.workspace.cast
    project = window.session.project
    dialog = CharacterDialog(window.workspace)
    qtbot.addWidget(dialog)
    dialog.name.setText("Mei")
    views = _pictures(tmp_path, ["mei_front", "mei_left", "mei_back", "mei_right"])
    dialog.views.ask_files = lambda parent: [str(p) for p in reversed(views)]
    dialog.views.several.click()
    assert dialog.images == views
    cast.add_character(dialog.name.text(), dialog.images)
    window.session.settle()  # the writer has made the change
    mei = next(m for m in project.tree.cast.values() if m.name == "Mei")
    assert len(mei.reference_images) == 4
    assert all(rel.startswith("media/characters/") for rel in mei.reference_images)
    for rel, view in zip(mei.reference_images, VIEWS, strict=True):  # in the order front, left, back, right
        assert rel.split("/")[-1].startswith(f"{view}-view-")
    qtbot.waitUntil(lambda: any(cast.characters.item(i).text() == "Mei" for i in range(cast.characters.count())))
    cast.select_character("Mei")
    assert all(not label.pixmap().isNull() for label in cast.view_strip.pictures)
    assert "ready for CustomX" in cast.views_note.text()
    # a character with one picture is flagged where the author sees it, then completed
    cast.add_character("Ren", views[:1])
    window.session.settle()  # the writer has made the change
    qtbot.waitUntil(lambda: any(cast.characters.item(i).text() == "Ren" for i in range(cast.characters.count())))
    cast.select_character("Ren")
    assert "1 of 4 views: CustomX refuses" in cast.views_note.text()
    assert "CustomX refuses" in cast.characters.currentItem().toolTip()
    ren = next(m for m in project.tree.cast.values() if m.name == "Ren")
    first = project.resolve(ren.reference_images[0])
    cast.set_views(ren.id, [first, *views[1:]])
    window.session.settle()  # the writer has made the change
    ren = next(m for m in project.tree.cast.values() if m.name == "Ren")
    assert len(ren.reference_images) == 4 and project.resolve(ren.reference_images[0]) == first
    qtbot.waitUntil(lambda: "ready for CustomX" in cast.views_note.text())
    window.actions_.undo.trigger()
    window.session.settle()  # the writer has made the change
    assert len(next(m for m in project.tree.cast.values() if m.name == "Ren").reference_images) == 1
    # a view left out keeps the others on their sides
    cast.add_character("Sora", [views[0], None, views[2], None])
    window.session.settle()  # the writer has made the change
    sora = next(m for m in project.tree.cast.values() if m.name == "Sora")
    assert [rel.split("/")[-1][:10] for rel in sora.reference_images] == ["front-view", "back-view-"]
    qtbot.waitUntil(lambda: any(cast.characters.item(i).text() == "Sora" for i in range(cast.characters.count())))
    cast.select_character("Sora")
    assert [label.pixmap().isNull() for label in cast.view_strip.pictures] == [False, True, False, True]
    assert "2 of 4 views" in cast.views_note.text()


def test_a_location_gets_a_scene_video_inside_the_project(make_window, sample_project: Path, qtbot,
                                                          tmp_path: Path) -> None:
    from studio.storage import media

    window = make_window(sample_project)
    cast = window.workspace.cast
    project = window.session.project
    source = tmp_path / "harbour walk.mp4"
    clip = np.zeros((10, 48, 64, 3), dtype=np.uint8)
    clip[:, :, :, 2] = np.linspace(0, 250, 10, dtype=np.uint8)[:, None, None]
    media.write_clip(source, clip, 10)
    cast.add_location_from_file(source, "Harbour")
    window.session.settle()  # the writer has made the change
    location = next(loc for loc in project.tree.locations.values() if loc.name == "Harbour")
    assert location.kind == "scene" and location.image_path.startswith("media/scenes/")
    stored = project.resolve(location.image_path)
    assert stored.is_relative_to(project.path)
    frames, _fps = media.read_clip(stored)
    assert frames.shape == clip.shape and abs(int(frames[-1, 0, 0, 2]) - 250) < 8
    qtbot.waitUntil(lambda: any(cast.locations.item(i).text() == "Harbour" for i in range(cast.locations.count())))
    item = next(cast.locations.item(i) for i in range(cast.locations.count())
                if cast.locations.item(i).text() == "Harbour")
    assert "scene video" in item.toolTip()
    still = tmp_path / "quay.png"
    Image.new("RGB", (40, 30), (9, 9, 200)).save(still)
    cast.add_location_from_file(still, "Quay")
    window.session.settle()  # the writer has made the change
    quay = next(loc for loc in project.tree.locations.values() if loc.name == "Quay")
    assert quay.kind == "image" and quay.image_path.endswith(".png")


def test_customx_refuses_a_one_picture_character_and_the_window_says_why(make_window, settings, registry,
                                                                         sample_project: Path, qtbot,
                                                                         tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("diffusers")
    pytest.importorskip("transformers")
    from studio.core.commands import EditInstruction
    from studio.engines.catalog.customx import TEST_INFO
    from studio.engines.customx.engine import CustomXEngine
    from studio.engines.customx.tiny import write_tiny_checkpoints

    checkpoints = tmp_path / "checkpoints"
    write_tiny_checkpoints(checkpoints)
    settings.checkpoints_folder = str(checkpoints)
    registry.register(TEST_INFO, lambda config: CustomXEngine(config, info=TEST_INFO))
    registry.source = ""  # the tiny engine runs in the window's process
    settings.engine = "customx"
    settings.set_engine_values("customx", {"height": 32, "width": 48, "frames": 9, "steps": 2,
                                           "continuation_frames": 5, "vae_tiling": False})
    window = make_window(sample_project, registry_override=registry)
    ws = window.workspace
    ws.cast.add_character("Kaze", _pictures(tmp_path, ["kaze"]))
    window.session.settle()
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.apply(EditInstruction(first, "Character: Kaze; Motion: run; Background: town; Camera: pan."))
    window.session.settle()
    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: "failed" in window.status_label.text().lower(), timeout=TIMEOUT_MS)
    assert "needs 4 reference views of Kaze" in window.status_label.text(), window.status_label.text()
    failed = [t for t in window.session.project.tree.takes_of(first) if t.status.value == "failed"]
    assert failed and "Kaze has 1" in failed[0].error
    assert "Add the character's front, left, back and right views in the cast panel" in window.status_label.text()
