"""A character's reference picture stored with a path out of the project is noted when the
project opens, as a location's picture is. It was said nowhere until a turn was made with an
engine that reads reference pictures."""

from __future__ import annotations

from pathlib import Path

from studio.cli import main
from studio.core.model import CastMember, Location
from studio.storage import Project


def _story(tmp_path: Path) -> Path:
    folder = tmp_path / "story.kamishibai"
    cast = [CastMember(id="y", name="Yuzu", reference_images=("media/yuzu.png", "/etc/hostname", "../../x.png")),
            CastMember(id="q", name="Qiqi", reference_images=("media/yuzu.png",))]
    Project.create(folder, cast=cast, locations=[Location(id="t", name="Town")]).close()
    (folder / "media" / "yuzu.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return folder


def test_opening_notes_each_picture_out_of_the_project(tmp_path: Path) -> None:
    folder = _story(tmp_path)
    with Project.open(folder, read_only=True) as project:
        notes = [p for p in project.problems if "reference picture" in p]
        assert len(notes) == 2, project.problems
        assert notes[0].startswith("character 'Yuzu', reference picture 2: ") and "/etc/hostname" in notes[0]
        assert notes[1].startswith("character 'Yuzu', reference picture 3: ") and "../../x.png" in notes[1]
        assert all(note.endswith("It is not used.") for note in notes)
        # kept in the document as written: the window and `info` show them; nothing is lost
        assert project.tree.cast["y"].reference_images == ("media/yuzu.png", "/etc/hostname", "../../x.png")


def test_info_lists_them(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = _story(tmp_path)
    main(["info", str(folder)])
    out = capsys.readouterr().out
    assert "character 'Yuzu', reference picture 2" in out, out
    assert "character 'Yuzu', reference picture 3" in out, out
    assert "character 'Qiqi'" not in out, out
