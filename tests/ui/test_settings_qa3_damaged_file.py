"""A settings file that is damaged, written by another program or can't be read: the studio
opens with the defaults for what it could not read, keeps the rest, keeps a copy of the file
before Qt writes it again (Qt drops every line it can't read, without a word), and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings

from .conftest import services_with


def _damaged_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


@pytest.mark.parametrize("damage", [
    b"[engine]\nname=mini\n{\"appearance\": \"dark\"}\n",  # a line of JSON pasted in
    b"[engine]\nname=mini\n[takes\nlocked_seed=3\n",  # a section never closed
    b"\x00\x01\x02\xff\xfe garbage\n[engine]\nname=mini\n",  # bytes that are no text
])
def test_a_damaged_file_is_copied_aside_said_and_its_readable_settings_kept(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "settings.ini"
    path.write_bytes(damage)
    settings = StudioSettings.at(path)
    assert settings.engine == "mini"  # what could be read holds
    copies = _damaged_copies(path)
    assert len(copies) == 1 and copies[0].read_bytes() == damage
    assert str(path) in settings.file_problem and copies[0].name in settings.file_problem
    assert settings.reset_notes()[0] == settings.file_problem
    settings.appearance = "dark"  # Qt writes the file again, with what it could read
    assert StudioSettings.at(path).engine == "mini"
    assert copies[0].read_bytes() == damage
    again = StudioSettings.at(tmp_path / "other.ini")
    assert again.file_problem == ""


def test_the_same_damage_is_copied_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    path.write_bytes(b"not an ini file\n")
    StudioSettings.at(path)
    StudioSettings.at(path)  # the command line reads the settings too, and writes nothing
    assert len(_damaged_copies(path)) == 1


def test_a_file_the_studio_wrote_is_not_taken_for_damaged(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QByteArray

    path = tmp_path / "settings.ini"
    settings = StudioSettings.at(path)
    settings.save_window(QByteArray(bytes(range(256)) + b"\n\r=[]#;"), QByteArray(b"[x]\n=;#"))
    settings.add_recent(tmp_path / "ünï cödé\n[line]=x;#")
    settings.set_engine_values("sketch", {"camera": "ф=\n[a]", "fps": 23.976})
    settings.checkpoints_folder = "/tmp/a;b#c=d\n[e]"
    settings.q.setValue("x/list", ["a", "b,c", "d\ne=[f]"])
    settings.q.sync()
    reread = StudioSettings.at(path)
    assert reread.file_problem == "" and reread.reset_notes() == []
    assert _damaged_copies(path) == []


def test_a_settings_file_that_cant_be_read_is_said(tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    path.mkdir()  # a folder where the file should be: unreadable as a file, whoever runs the test
    settings = StudioSettings.at(path)
    assert settings.file_problem.startswith(f"The settings file {path} can't be read")
    assert settings.appearance == "system"


def test_the_window_says_what_was_reset_when_it_opens(tmp_path: Path, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.app import report_settings_resets
    from studio.ui.main_window import MainWindow

    path = tmp_path / "settings.ini"
    path.write_text("[app]\nfirst_run_done=true\n[engine]\nname=sketch\ncpu_threads=100000\n"
                    "[takes]\nlocked_seed=99999999999999999999\n[appearance]\nscheme=purple\n"
                    "[engines]\nsketch\\values=\"{\\\"width\\\": 7}\"\nmini\\values=[1\n"
                    "some words a text editor left here\n")
    settings = StudioSettings.at(path)
    window = MainWindow(settings, services_with(registry))
    qtbot.addWidget(window)
    report_settings_resets(window)
    error = window.last_error
    assert error is not None and error.message.startswith("Some saved settings could not be used")
    for said in ("was damaged", "CPU threads", "99999999999999999999", "purple", "saved mini settings could not "
                 "be read", "A saved sketch setting was refused", "width"):
        assert said in error.message
    assert "File › Settings" in error.hint
    reread = StudioSettings.at(path)
    assert reread.engine == "sketch" and reread.first_run_done  # the rest is kept
    assert reread.locked_seed_problem() == "" and reread.appearance_problem() == ""  # said once: gone
    fresh = MainWindow(StudioSettings.at(tmp_path / "fresh.ini"), services_with(registry))
    qtbot.addWidget(fresh)
    report_settings_resets(fresh)  # a first start: nothing to say
    assert fresh.last_error is None
