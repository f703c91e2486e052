"""Hostile and broken bundles, and writing bundles safely (issue 11, items 2, 8, 18, 19, 22
and the fsync of unpacked files)."""

from __future__ import annotations

import os
import signal
import stat
import struct
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import kamishibai, needs_namespaces, new_project, play, run_confined


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A project with two generated turns, and its bundle."""
    tmp = tmp_path_factory.mktemp("bundles")
    path = new_project(tmp / "source")
    play(path)
    play(path)
    done = kamishibai("bundle", str(path), str(tmp / "source.zip"))
    assert done.returncode == 0, done.stderr
    return path, tmp / "source.zip"


def _rewrite(bundle: Path, out: Path, extra: list[tuple[zipfile.ZipInfo | str, bytes]] = (),  # type: ignore[assignment]
             drop: Callable[[str], bool] = lambda name: False) -> Path:
    with zipfile.ZipFile(bundle) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if not drop(info.filename):
                target.writestr(info, source.read(info))
        for info, data in extra:
            target.writestr(info, data)
    return out


def _patch_headers(data: bytes, name: str, *, method: int | None = None, flags: int = 0) -> bytes:
    """Change the compression method or set flag bits of ``name`` in its local and central headers."""
    raw = bytearray(data)
    encoded = name.encode()
    for signature, flag_at, method_at, name_len_at, name_at in ((b"PK\x03\x04", 6, 8, 26, 30),
                                                               (b"PK\x01\x02", 8, 10, 28, 46)):
        start = 0
        while (start := raw.find(signature, start)) >= 0:
            length = struct.unpack_from("<H", raw, start + name_len_at)[0]
            if bytes(raw[start + name_at:start + name_at + length]) == encoded:
                if method is not None:
                    struct.pack_into("<H", raw, start + method_at, method)
                old = struct.unpack_from("<H", raw, start + flag_at)[0]
                struct.pack_into("<H", raw, start + flag_at, old | flags)
            start += 4
    return bytes(raw)


def _first_clip(bundle: Path) -> str:
    with zipfile.ZipFile(bundle) as archive:
        return next(n for n in archive.namelist() if n.startswith("media/takes/") and n.endswith(".mp4"))


def _unbundle_refused(bundle: Path, tmp_path: Path, needle: str) -> None:
    dest = tmp_path / "dest" / "copy"
    dest.parent.mkdir(exist_ok=True)
    done = kamishibai("unbundle", str(bundle), str(dest))
    assert done.returncode == 2, done.stdout
    assert needle in done.stderr, done.stderr
    assert list(dest.parent.iterdir()) == [], "an unbundle that failed left something behind"


def _bad_compression(bundle: Path, tmp_path: Path) -> Path:
    out = tmp_path / "bad-method.zip"
    out.write_bytes(_patch_headers(bundle.read_bytes(), _first_clip(bundle), method=99))
    return out


def _bad_crc(bundle: Path, tmp_path: Path) -> Path:
    clip = _first_clip(bundle)
    with zipfile.ZipFile(bundle) as archive:
        info = archive.getinfo(clip)
        data = archive.read(clip)
    data = data[:100] + bytes([data[100] ^ 0xFF]) + data[101:]
    raw = bytearray(bundle.read_bytes())
    offset = info.header_offset
    name_len, extra_len = struct.unpack_from("<HH", raw, offset + 26)
    start = offset + 30 + name_len + extra_len
    raw[start:start + len(data)] = data
    out = tmp_path / "bad-crc.zip"
    out.write_bytes(bytes(raw))
    return out


def _encrypted(bundle: Path, tmp_path: Path) -> Path:
    out = tmp_path / "encrypted.zip"
    out.write_bytes(_patch_headers(bundle.read_bytes(), _first_clip(bundle), flags=0x1))
    return out


def _file_and_folder(bundle: Path, tmp_path: Path) -> Path:
    clip = _first_clip(bundle)
    return _rewrite(bundle, tmp_path / "file-folder.zip", extra=[(f"{clip}/inner.txt", b"x")])


def _long_name(bundle: Path, tmp_path: Path) -> Path:
    return _rewrite(bundle, tmp_path / "long.zip", extra=[("media/" + "x" * 300, b"x")])


def _deep(bundle: Path, tmp_path: Path) -> Path:
    return _rewrite(bundle, tmp_path / "deep.zip", extra=[("media/" + "d/" * 2000 + "f", b"x")])


def _duplicate(bundle: Path, tmp_path: Path) -> Path:
    clip = _first_clip(bundle)
    return _rewrite(bundle, tmp_path / "duplicate.zip", extra=[(clip, b"not the clip")])


def _no_db(bundle: Path, tmp_path: Path) -> Path:
    return _rewrite(bundle, tmp_path / "no-db.zip", drop=lambda name: name == "project.db")


def _not_a_zip(bundle: Path, tmp_path: Path) -> Path:
    out = tmp_path / "text.zip"
    out.write_bytes(b"hello " * 100)
    return out


def _truncated(bundle: Path, tmp_path: Path) -> Path:
    out = tmp_path / "truncated.zip"
    out.write_bytes(bundle.read_bytes()[: bundle.stat().st_size // 2])
    return out


BROKEN: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "unsupported compression": (_bad_compression, "compression method 99"),
    "bad CRC": (_bad_crc, "is damaged"),
    "encrypted flag": (_encrypted, "is encrypted"),
    "file and folder of one name": (_file_and_folder, "both a file and a folder"),
    "300-character name": (_long_name, "too long"),
    "2000 folders deep": (_deep, "too deep"),
    "duplicate entry": (_duplicate, "twice"),
    "no database": (_no_db, "no project.db"),
    "not a zip": (_not_a_zip, "not a readable bundle"),
    "truncated": (_truncated, "not a readable bundle"),
}


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_bundles_are_refused_with_a_message(source: tuple[Path, Path], tmp_path: Path, case: str) -> None:
    """Item 8: every one of these gave "internal error" (exit 1)."""
    make, needle = BROKEN[case]
    _unbundle_refused(make(source[1], tmp_path), tmp_path, needle)


def _set_declared_size(data: bytes, name: str, size: int) -> bytes:
    """``name``'s uncompressed size in its local and central headers set to ``size`` (a lie)."""
    raw = bytearray(data)
    encoded = name.encode()
    for signature, size_at, name_len_at, name_at in ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46)):
        start = 0
        while (start := raw.find(signature, start)) >= 0:
            length = struct.unpack_from("<H", raw, start + name_len_at)[0]
            if bytes(raw[start + name_at:start + name_at + length]) == encoded:
                struct.pack_into("<I", raw, start + size_at, size)
            start += 4
    return bytes(raw)


def test_zip_bombs_are_refused_by_size_and_unused_files_are_not_unpacked(
        source: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 22: a small bundle that unpacks to far more. Refused by the declared sizes
    (an entry, the total) before anything is unpacked, and an entry that holds more than
    it declares is damaged: unpacking stops at the declared size."""
    from studio.storage import bundle as bundles

    info = zipfile.ZipInfo("project.db")
    info.compress_type = zipfile.ZIP_DEFLATED
    bomb = _rewrite(source[1], tmp_path / "bomb.zip", drop=lambda name: name == "project.db",
                    extra=[(info, b"\0" * (48 * 1024 * 1024))])
    assert bomb.stat().st_size < source[1].stat().st_size + 200_000
    dest = tmp_path / "dest"
    dest.mkdir()
    for cap in ("MAX_ENTRY_BYTES", "MAX_BUNDLE_BYTES"):
        with monkeypatch.context() as patch:
            patch.setattr(bundles, cap, 32 * 1024 * 1024)
            with pytest.raises(bundles.BundleError, match="would unpack to .* the limit is 0.03125 GiB"):
                bundles.import_bundle(bomb, dest / "copy")
        assert list(dest.iterdir()) == []
    liar = tmp_path / "liar.zip"  # says 1 MB, holds 48 MB
    liar.write_bytes(_set_declared_size(bomb.read_bytes(), "project.db", 1024 * 1024))
    _unbundle_refused(liar, tmp_path, "is damaged")

    unused = _rewrite(source[1], tmp_path / "unused.zip", extra=[("media/unused/notes.txt", b"hello")])
    done = kamishibai("unbundle", str(unused), str(tmp_path / "copy"))
    assert done.returncode == 0, done.stderr
    assert "media/unused/notes.txt" in done.stdout and "no take" in done.stdout
    assert not (tmp_path / "copy.kamishibai" / "media" / "unused").exists()
    assert kamishibai("export", str(tmp_path / "copy.kamishibai"), "--leaf", _leaf(tmp_path / "copy.kamishibai"),
                      "--out", str(tmp_path / "copy.mp4")).returncode == 0


def _leaf(project: Path) -> str:
    import json

    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    parents = {n["parent"] for n in tree["nodes"]}
    return next(n["id"] for n in tree["nodes"] if n["id"] not in parents)


def test_an_unbundled_project_has_the_modes_new_gives(source: tuple[Path, Path], tmp_path: Path) -> None:
    """Item 19: not 0700."""
    made = new_project(tmp_path / "made")
    done = kamishibai("unbundle", str(source[1]), str(tmp_path / "copy"))
    assert done.returncode == 0, done.stderr
    copy = tmp_path / "copy.kamishibai"
    assert stat.S_IMODE(copy.stat().st_mode) == stat.S_IMODE(made.stat().st_mode)
    assert stat.S_IMODE((copy / "media").stat().st_mode) == stat.S_IMODE((made / "media").stat().st_mode)


def test_unbundled_files_are_fsynced(source: tuple[Path, Path], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every unpacked file (and the folders holding them) reaches the disk before the
    project appears under its name."""
    from studio.storage.bundle import import_bundle

    synced: list[str] = []
    real_fsync = os.fsync

    def recording(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording)
    with import_bundle(source[1], tmp_path / "copy") as project:
        unpacked = [p.relative_to(project.path) for p in (project.path / "media").rglob("*")]
    synced_media = {Path(s[s.index("/media") + 1:]) for s in synced if "/media" in s}
    assert unpacked and set(unpacked) <= synced_media, sorted(set(unpacked) - synced_media)
    assert Path("media") in synced_media
    assert str(tmp_path) in synced, "the folder that received the project was not synced after the rename"


def _kill_when(pattern: str, parent: Path, code: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not [p for p in parent.iterdir() if pattern in p.name and any(p.rglob("*"))]:
            assert child.poll() is None, child.stderr.read() if child.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.2)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()


def test_a_killed_unbundle_leaves_a_folder_the_next_one_removes(source: tuple[Path, Path], tmp_path: Path) -> None:
    """Item 18 (unbundle): a SIGKILL leaves the work folder; the next unbundle beside it cleans it."""
    parent = tmp_path / "dest"
    parent.mkdir()
    _kill_when("import-", parent, "import sys, time, zipfile\n"
               "real = zipfile.ZipExtFile.read\n"
               "def slow(self, *a):\n    data = real(self, *a)\n    time.sleep(3600)\n    return data\n"
               "zipfile.ZipExtFile.read = slow\n"
               "from studio.storage.bundle import import_bundle\n"
               f"import_bundle(__import__('pathlib').Path({str(source[1])!r}), "
               f"__import__('pathlib').Path({str(parent / 'killed')!r}))\n")
    assert [p for p in parent.iterdir() if "import-" in p.name], "the child was killed before it started"
    done = kamishibai("unbundle", str(source[1]), str(parent / "next"))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in parent.iterdir()) == ["next.kamishibai"]


def test_a_killed_export_leaves_a_folder_the_next_one_removes(source: tuple[Path, Path], tmp_path: Path) -> None:
    """Item 18 (export): the same for ``.NAME.export-XXXX`` work folders."""
    project = source[0]
    leaf = _leaf(project)
    parent = tmp_path / "out"
    parent.mkdir()
    _kill_when("export-", parent, "import time\nimport studio.export.output as output\n"
               "def stuck(self):\n    time.sleep(3600)\n"
               "output.OutputFiles.commit = stuck\n"
               "from studio.cli import main\n"
               f"main(['export', {str(project)!r}, '--leaf', {leaf!r}, '--out', {str(parent / 'a.mp4')!r}, '-q'])\n")
    done = kamishibai("export", str(project), "--leaf", leaf, "--out", str(parent / "b.mp4"), "-q")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in parent.iterdir()) == ["b.mp4"]


def test_bundle_keeps_the_name_given_and_never_replaces_a_file_silently(source: tuple[Path, Path],
                                                                         tmp_path: Path) -> None:
    """Item 2: `bundle P bz/story.v2` wrote bz/story.zip over an unrelated file."""
    project = source[0]
    folder = tmp_path / "bz"
    folder.mkdir()
    (folder / "story.zip").write_bytes(b"precious, unrelated")
    done = kamishibai("bundle", str(project), str(folder / "story.v2"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(folder / "story.v2.zip")
    assert zipfile.is_zipfile(folder / "story.v2.zip")
    assert (folder / "story.zip").read_bytes() == b"precious, unrelated"

    refused = kamishibai("bundle", str(project), str(folder / "story.zip"))
    assert refused.returncode == 2 and "already exists" in refused.stderr and "--force" in refused.stderr
    assert (folder / "story.zip").read_bytes() == b"precious, unrelated"
    assert kamishibai("bundle", str(project), str(folder / "story.zip"), "--force").returncode == 0
    assert zipfile.is_zipfile(folder / "story.zip")

    inside = kamishibai("bundle", str(project), str(project / "media" / "self.zip"))
    assert inside.returncode == 2 and "inside the project" in inside.stderr
    assert not (project / "media" / "self.zip").exists()


@needs_namespaces
def test_unbundle_onto_a_full_disk_or_a_read_only_folder(source: tuple[Path, Path], tmp_path: Path) -> None:
    """Item 8: a full disk and a read-only destination said "internal error"."""
    small = tmp_path / "small"
    ro = tmp_path / "ro"
    ro.mkdir()
    report = run_confined(tmp_path, [["unbundle", str(source[1]), str(small / "copy")],
                                     ["unbundle", str(source[1]), str(ro / "copy")]],
                          tmpfs=(small, 256 * 1024), readonly=[ro], inspect=[small, ro])
    full, read_only = report.results
    assert full.returncode == 1 and "full" in full.stderr, full.stderr
    assert read_only.returncode == 2 and "read-only" in read_only.stderr, read_only.stderr
    for result in (full, read_only):
        assert "damaged" not in result.stderr and "Restore" not in result.stderr
    assert report.listing[str(small)] == {} and report.listing[str(ro)] == {}


def test_a_bundle_of_a_highly_compressible_database_unpacks(tmp_path: Path) -> None:
    """A project.db of repeated text (2 MB deflating 100 times and more) tripped the old
    compression-ratio limit: the studio refused a bundle it had made itself."""
    import sqlite3

    path = new_project(tmp_path / "talky")
    play(path)
    conn = sqlite3.connect(path / "project.db", isolation_level=None)
    line = '["Qiqi", "' + "la" * 500 + '"]'
    conn.execute("UPDATE nodes SET dialogue=? WHERE parent_id IS NOT NULL", ("[" + ",".join([line] * 2000) + "]",))
    conn.close()
    done = kamishibai("bundle", str(path), str(tmp_path / "talky.zip"))
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "talky.zip") as archive:
        db = archive.getinfo("project.db")
        assert db.file_size > 2_000_000 and db.file_size > 100 * db.compress_size
    done = kamishibai("unbundle", str(tmp_path / "talky.zip"), str(tmp_path / "copy"))
    assert done.returncode == 0, done.stderr
    assert kamishibai("tree", str(tmp_path / "copy.kamishibai")).returncode == 0


@pytest.mark.parametrize("linked", ["media", "media/takes", "media/takes/sub"])
def test_bundle_never_packs_files_from_outside_through_a_linked_folder(tmp_path: Path, linked: str) -> None:
    """A media folder (or one below it) linked outside the project was packed whole."""
    import shutil

    path = new_project(tmp_path / "linked")
    play(path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not the project's")
    folder = path / linked
    if folder.exists():
        shutil.copytree(folder, outside, dirs_exist_ok=True)
        shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)
    done = kamishibai("bundle", str(path), str(tmp_path / "linked.zip"))
    assert done.returncode == 2, done.stdout
    assert f"media folder {linked} is a link to" in done.stderr, done.stderr
    assert not (tmp_path / "linked.zip").exists()


def test_bundle_skips_a_linked_folder_that_stays_inside(tmp_path: Path) -> None:
    path = new_project(tmp_path / "alias")
    play(path)
    (path / "media" / "alias").symlink_to(path / "media" / "takes", target_is_directory=True)
    done = kamishibai("bundle", str(path), str(tmp_path / "alias.zip"))
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "alias.zip") as archive:
        names = archive.namelist()
    assert not any(name.startswith("media/alias") for name in names)
    assert any(name.startswith("media/takes/") and name.endswith(".mp4") for name in names)
