"""The cast panel with pictures as users have them: a big scan, a picture moved away after it
was chosen, a voice memo chosen as a scene video, and a phone photo that ends up in a clip.

Before: the views dialog said a 9,000 x 8,000 scan "can't be read as a picture (missing, or not
an image)" although the studio imports it (Qt refuses to decode anything over 256 MB); a picture
over the import's limit got the same words instead of its size; a view moved away before OK gave
"Can't read PATH: No such file or directory." without naming the view or what to do; a
sound-only .mp4 chosen for a place was refused with ffmpeg's "Error opening output files"."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

TIMEOUT_MS = 120_000


def _png_declaring(path: Path, width: int, height: int) -> None:
    """A PNG whose header declares ``width`` x ``height`` RGB pixels (its pixels cut off): what a
    reader sees of a huge picture before decoding it."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    first_row = zlib.compress(b"\0" * (1 + 3 * width))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", first_row) + chunk(b"IEND", b""))


def _media_files(project) -> set[Path]:  # type: ignore[no-untyped-def]
    media = project.path / "media"
    return {p for p in media.rglob("*") if p.is_file()} if media.exists() else set()


def test_the_views_dialog_shows_a_big_scan_and_names_one_too_large(make_window, sample_project: Path,
                                                                   tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.reference_views import ReferenceViewsDialog

    window = make_window(sample_project)
    cast = window.workspace.cast
    scan = tmp_path / "mei front scan.png"
    Image.new("RGB", (9000, 8000), (30, 90, 200)).save(scan, compress_level=1)  # 72 MP: Qt alone refuses it
    huge = tmp_path / "mei back poster.png"
    _png_declaring(huge, 12000, 9000)
    seen: dict[str, object] = {}

    def choose(dialog: ReferenceViewsDialog) -> int:
        dialog.editor.strip.set_views([scan, None, huge, None])
        strip = dialog.editor.strip
        seen["unreadable"] = strip.unreadable()
        seen["front"] = strip.pictures[0].pixmap().toImage()
        seen["note"] = dialog.editor.note.text()
        seen["tip"] = strip.pictures[2].toolTip()
        return ReferenceViewsDialog.DialogCode.Rejected

    monkeypatch.setattr(ReferenceViewsDialog, "exec", choose)
    cast.characters.setCurrentRow(0)
    cast._ask_views()
    assert seen["unreadable"] == [2], seen
    front = seen["front"]
    assert not front.isNull() and front.pixelColor(front.width() // 2, front.height() // 2).blue() > 180
    note = str(seen["note"])
    assert "front view can't" not in note, note
    assert "mei back poster.png is 12,000 x 9,000 pixels (108.0 megapixels), more than the 89.5" in note, note
    assert "scale it down in an image editor" in note and "missing, or not an image" not in note
    assert "12,000 x 9,000" in str(seen["tip"])


def test_a_view_moved_away_before_ok_names_the_view_and_keeps_the_dialog(make_window, sample_project: Path,
                                                                         tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    from studio.ui.dialogs.reference_views import ReferenceViewsDialog

    window = make_window(sample_project)
    cast, project = window.workspace.cast, window.session.project
    cast.characters.setCurrentRow(0)
    member = cast.selected_member()
    front, left = tmp_path / "kai front.png", tmp_path / "kai left.png"
    for path in (front, left):
        Image.new("RGB", (30, 40), (200, 40, 40)).save(path)
    before = _media_files(project)
    seen: dict[str, object] = {}

    def choose_then_move(dialog: ReferenceViewsDialog) -> int:
        dialog.show()
        dialog.editor.strip.set_views([front, left, None, None])
        left.rename(tmp_path / "elsewhere.png")  # the user tidies the folder while the dialog is open
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        seen["open"] = dialog.isVisible()
        seen["error"] = dialog.error.text()
        seen["kept"] = dialog.chosen()
        return ReferenceViewsDialog.DialogCode.Rejected

    monkeypatch.setattr(ReferenceViewsDialog, "exec", choose_then_move)
    cast._ask_views()
    window.session.settle()
    error = str(seen["error"])
    assert seen["open"], "the dialog closed"
    assert error.startswith(f"The left view: kai left.png does not exist in {tmp_path} any more"), error
    assert "moved, renamed or deleted" in error and "Choose the left view again" in error, error
    assert "No such file or directory" not in error
    assert seen["kept"] == [front, left, None, None]
    assert project.tree.cast[member.id].reference_images == member.reference_images
    assert _media_files(project) == before, "the front view copied before the refusal was removed"


def test_a_voice_memo_chosen_for_a_place_says_it_has_no_picture(make_window, sample_project: Path,
                                                                tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    from studio.storage.ffmpeg import ffmpeg_exe

    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    memo = tmp_path / "harbour sounds.mp4"
    subprocess.run([ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=1",
                    str(memo)], check=True)
    errors: list[object] = []
    ws.error.connect(errors.append)
    places = {loc.name for loc in project.tree.locations.values()}
    before = _media_files(project)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(memo), "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *_a, **_k: ("Harbour", True)))
    ws.cast._ask_location()
    window.session.settle()
    assert len(errors) == 1, errors
    message = errors[0].message  # type: ignore[attr-defined]
    assert "harbour sounds.mp4 holds sound only" in message and "no video track" in message, message
    assert "Invalid argument" not in message
    assert {loc.name for loc in project.tree.locations.values()} == places
    assert _media_files(project) == before


def test_a_phone_photo_place_is_upright_in_the_sketch_clip_and_after_reopening(
        make_window, sample_project: Path, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.core.commands import EditInstruction
    from studio.storage.ffmpeg import decode_frames, probe

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    # stored sideways, as a phone stores a portrait photo: upright, red is top left, green top
    # right, blue bottom left and yellow bottom right
    upright = Image.new("RGB", (160, 224))
    for box, colour in (((0, 0, 80, 112), (230, 20, 20)), ((80, 0, 160, 112), (20, 200, 40)),
                        ((0, 112, 80, 224), (20, 40, 230)), ((80, 112, 160, 224), (240, 220, 20))):
        upright.paste(colour, box)
    photo = tmp_path / "IMG_0412 公園.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned a quarter clockwise
    upright.transpose(Image.Transpose.ROTATE_90).save(photo, exif=exif.tobytes(), quality=95)
    ws.cast.add_location_from_file(photo, "Corner")
    session.settle()
    turn = next(n for n in session.project.tree.nodes.values() if not n.is_root)
    ws.apply(EditInstruction(turn.id, "Character: Qiqi; Motion: wave; Background: day Corner."))
    session.settle()
    ws.select(turn.id, center=False)
    ws.view.setFocus()
    window.actions_.generate.trigger()
    qtbot.waitUntil(lambda: bool(session.project.tree.takes_of(turn.id)) and not session.active_jobs(),
                    timeout=TIMEOUT_MS)
    clip = session.project.resolve(session.project.tree.takes_of(turn.id)[0].clip_path)
    info = probe(clip)
    frame = next(iter(decode_frames(clip, info.size))).astype(int)
    height, width = frame.shape[:2]

    def colour(x: float, y: float) -> np.ndarray:
        return frame[int(y * height), int(x * width)]

    red, green, blue, yellow = colour(0.05, 0.05), colour(0.95, 0.05), colour(0.05, 0.95), colour(0.95, 0.95)
    assert red[0] > 150 and red[1] < 100 and red[2] < 100, red
    assert green[1] > 150 and green[0] < 100, green
    assert blue[2] > 150 and blue[0] < 100, blue
    assert yellow[0] > 150 and yellow[1] > 150 and yellow[2] < 100, yellow
    stored = next(loc.image_path for loc in session.project.tree.locations.values() if loc.name == "Corner")
    path = session.project.path
    window.close_project("cancel")
    assert window.open_project(path), window.last_error
    again = window.session.project
    assert next(loc.image_path for loc in again.tree.locations.values() if loc.name == "Corner") == stored
    with Image.open(again.resolve(stored)) as picture:
        assert picture.size == (160, 224)
    assert any(window.workspace.cast.locations.item(row).text() == "Corner"
               for row in range(window.workspace.cast.locations.count()))
