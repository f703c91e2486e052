"""Cast & world QA: a name the document refuses is said where it was typed, before any
picture is copied; and a character can't take a location's name (or the other way round),
since a later rename of the character would rewrite those turns' Background fields."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def _media_files(project_path: Path) -> set[Path]:
    return {path for path in (project_path / "media").rglob("*") if path.is_file()}


def test_add_character_with_a_taken_name_keeps_the_dialog(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.cast_panel import CharacterDialog

    window = make_window(sample_project)
    errors: list[object] = []
    window.workspace.error.connect(errors.append)
    front = tmp_path / "mei_front.png"
    Image.new("RGB", (30, 40), (0, 200, 0)).save(front)
    before = _media_files(sample_project)
    seen: dict[str, object] = {}

    def fill_and_add(dialog: CharacterDialog) -> int:
        dialog.show()
        dialog.name.setText("  qIQi ")  # Qiqi is in the sample's cast: case and spacing aside
        dialog.look["hair_color"].setText("chestnut")
        dialog.views.strip.set_views([front, None, None, None])
        buttons = dialog.findChild(QDialogButtonBox)
        assert buttons is not None
        buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        seen["open"] = dialog.isVisible() and dialog.result() != CharacterDialog.DialogCode.Accepted
        seen["error"] = dialog.error.text() if dialog.error.isVisible() else ""
        seen["kept"] = (dialog.name.text(), dialog.look["hair_color"].text(), dialog.images)
        seen["media"] = _media_files(sample_project)
        return int(CharacterDialog.DialogCode.Rejected)

    monkeypatch.setattr(CharacterDialog, "exec", fill_and_add)
    window.workspace.cast._ask_character()
    window.session.settle()
    qtbot.wait(50)
    assert seen["open"], "the dialog closed on a name the cast already has"
    assert "already exists" in str(seen["error"]) and "Qiqi" in str(seen["error"]), seen["error"]
    assert seen["kept"] == ("  qIQi ", "chestnut", [front, None, None, None])
    assert seen["media"] == before, "a view was copied for a character that could not be added"
    assert errors == []
    assert [m.name for m in window.session.project.tree.cast.values()].count("Qiqi") == 1


def test_a_character_cant_take_a_locations_name(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from studio.core.errors import StudioError

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    errors: list[StudioError] = []
    ws.error.connect(errors.append)
    before = {n.id: n.instruction.raw for n in session.project.tree.nodes.values()}
    assert any("Background: day park" in raw for raw in before.values())
    with pytest.raises(StudioError, match="location's name"):
        ws.cast.add_character("Park")
    ws.cast.select_character("Qiqi")
    ws.cast.ask_name = lambda _current: "PARK "
    ws.cast.rename_selected()
    session.settle()
    qtbot.wait(50)
    assert len(errors) == 1 and "'park' is already a location's name" in errors[0].message, errors
    tree = session.project.tree
    assert sorted(m.name for m in tree.cast.values()) == ["Aoi", "Qiqi", "Sosuke", "Taro", "Yuzu"]
    assert {n.id: n.instruction.raw for n in tree.nodes.values()} == before


def test_a_location_cant_take_a_characters_name(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from studio.core.errors import StudioError

    window = make_window(sample_project)
    still = tmp_path / "yuzu house.png"
    Image.new("RGB", (30, 40), (0, 0, 200)).save(still)
    before = _media_files(sample_project)
    with pytest.raises(StudioError, match="character's name"):
        window.workspace.cast.add_location_from_file(still, " yuzu")
    with pytest.raises(StudioError, match="already exists"):  # refused here, not after the copy
        window.workspace.cast.add_location_from_file(still, "PARK")
    assert _media_files(sample_project) == before
    names = [loc.name for loc in window.session.project.tree.locations.values()]
    assert "yuzu" not in [n.lower() for n in names]


def test_a_location_name_is_kept_with_single_spaces(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    still = tmp_path / "harbour.png"
    Image.new("RGB", (30, 40), (0, 0, 200)).save(still)
    window.workspace.cast.add_location_from_file(still, "  old   harbour ")
    window.session.settle()
    names = [loc.name for loc in window.session.project.tree.locations.values()]
    assert "old harbour" in names, names
