"""Bundle limits the README promises, held before anything is unpacked: how much an entry
may be compressed (zip bombs), a representation's size, and declared sizes that lie."""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, Take
from studio.storage import Project, media
from studio.storage import bundle as bundles
from studio.storage.bundle import BundleError, export_bundle, import_bundle
from tests.storage.bundle_setup import relist

ZEROS = b"\0" * (1024 * 1024)


def _bundle(tmp_path: Path) -> tuple[Path, str]:
    """A bundle of a project with one take (clip, poster, representation); the
    representation's entry name."""
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town", node_id="n1"))
        folder = project.take_media_dir("t1")
        paths = {name: f"{folder}/{name}" for name in ("clip.mp4", "poster.png", "representation.safetensors")}
        for rel in paths.values():
            with project.writing(rel) as tmp:
                tmp.write_bytes(os.urandom(4096))
        project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", clip_path=paths["clip.mp4"],
                                   poster_path=paths["poster.png"],
                                   representation_path=paths["representation.safetensors"])))
        return export_bundle(project, tmp_path / "p.zip"), paths["representation.safetensors"]


def _replace(bundle: Path, out: Path, name: str, chunks: int, *, method: int = zipfile.ZIP_DEFLATED,
             chunk: bytes = ZEROS) -> Path:
    """``bundle`` with ``name`` replaced by ``chunks`` times ``chunk`` (streamed, never whole in memory)."""
    with zipfile.ZipFile(bundle) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename != name:
                target.writestr(info, source.read(info))
        entry = zipfile.ZipInfo(name)
        entry.compress_type = method
        with target.open(entry, "w") as sink:
            for _ in range(chunks):
                sink.write(chunk)
    return out


def _refused(bundle: Path, dest: Path, *needles: str) -> None:
    dest.parent.mkdir(exist_ok=True)
    with pytest.raises(BundleError) as raised:
        import_bundle(bundle, dest)
    for needle in needles:
        assert needle in str(raised.value), raised.value
    assert "Nothing was unpacked" in raised.value.hint
    assert list(dest.parent.iterdir()) == [], "a refused bundle left something behind"


def test_a_representation_of_300_mb_of_zeros_is_refused_before_anything_is_unpacked(tmp_path: Path) -> None:
    """QA: 300 MB of zeros deflated to about 1 MB unpacked into a 302 MB project."""
    source, rep = _bundle(tmp_path)
    bomb = _replace(source, tmp_path / "bomb.zip", rep, 300)
    assert bomb.stat().st_size < 2 * 1024 * 1024
    _refused(bomb, tmp_path / "dest" / "copy", repr(rep), "compressed", "the limit is 100 times")


def test_compression_ratio_is_checked_only_from_one_megabyte_up(tmp_path: Path) -> None:
    source, _ = _bundle(tmp_path)
    clip = "media/takes/t1/clip.mp4"
    bomb = _replace(source, tmp_path / "bomb.zip", clip, 2)  # 2 MB of zeros: about 1000 times
    _refused(bomb, tmp_path / "dest" / "copy", repr(clip), "the limit is 100 times")
    small = tmp_path / "small.zip"  # 512 KB of zeros compress as much, but unpack to little
    relist(_replace(source, small, clip, 1, chunk=ZEROS[:512 * 1024]))
    with import_bundle(small, tmp_path / "ok") as copy:
        assert (copy.path / clip).stat().st_size == 512 * 1024


def test_an_oversized_representation_is_refused_even_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored (not compressed at all) and so passing the ratio: the 256 MB limit of a
    representation, here lowered to 1 MB to keep the test small."""
    monkeypatch.setattr(media, "MAX_REPRESENTATION_BYTES", 1024 * 1024)
    source, rep = _bundle(tmp_path)
    big = _replace(source, tmp_path / "big.zip", rep, 2, method=zipfile.ZIP_STORED, chunk=os.urandom(1024 * 1024))
    _refused(big, tmp_path / "dest" / "copy", f"representation {rep!r}", "the limit is 1 MB")
    # a representation under another name is found through the database
    other = "media/takes/t1/rep.bin"
    with zipfile.ZipFile(big) as archive:
        db = archive.read("project.db")
    renamed = tmp_path / "renamed.zip"
    import sqlite3

    scratch = tmp_path / "scratch.db"
    scratch.write_bytes(db)
    conn = sqlite3.connect(scratch)
    conn.execute("UPDATE takes SET representation_path=?", (other,))
    conn.commit()
    conn.close()
    with zipfile.ZipFile(big) as archive, zipfile.ZipFile(renamed, "w") as target:
        for info in archive.infolist():
            data = scratch.read_bytes() if info.filename == "project.db" else archive.read(info)
            if info.filename == rep:
                info.filename = other
            target.writestr(info, data)
    _refused(renamed, tmp_path / "dest2" / "copy", f"representation {other!r}")


def test_the_real_limits_are_the_readmes() -> None:
    assert bundles.MAX_RATIO == 100 and bundles.RATIO_FLOOR_BYTES == 1024 * 1024
    assert media.MAX_REPRESENTATION_BYTES == 256 * 1024 * 1024


def _set_sizes(data: bytes, name: str, *, size: int | None = None, compressed: int | None = None) -> bytes:
    """``name``'s declared sizes in its local and central headers changed (a lie)."""
    raw = bytearray(data)
    encoded = name.encode()
    for signature, csize_at, size_at, name_len_at, name_at in ((b"PK\x03\x04", 18, 22, 26, 30),
                                                               (b"PK\x01\x02", 20, 24, 28, 46)):
        start = 0
        while (start := raw.find(signature, start)) >= 0:
            length = struct.unpack_from("<H", raw, start + name_len_at)[0]
            if bytes(raw[start + name_at:start + name_at + length]) == encoded:
                if size is not None:
                    struct.pack_into("<I", raw, start + size_at, size)
                if compressed is not None:
                    struct.pack_into("<I", raw, start + csize_at, compressed)
            start += 4
    return bytes(raw)


def test_declared_sizes_that_lie_are_caught(tmp_path: Path) -> None:
    source, _ = _bundle(tmp_path)
    clip = "media/takes/t1/clip.mp4"
    bomb = _replace(source, tmp_path / "bomb.zip", clip, 2)
    with zipfile.ZipFile(bomb) as archive:
        packed = archive.getinfo(clip).compress_size
    # it says it unpacks to 1 MB, just under what it would take to be held to the ratio: it
    # is unpacked no further than that, and its check sum then fails
    liar = tmp_path / "liar.zip"
    liar.write_bytes(_set_sizes(bomb.read_bytes(), clip, size=1024 * 1024 - 1))
    dest = tmp_path / "dest" / "copy"
    dest.parent.mkdir()
    with pytest.raises(BundleError, match="is damaged") as raised:
        import_bundle(liar, dest)
    assert clip in str(raised.value)
    assert list(dest.parent.iterdir()) == []
    # a compressed size larger than the bundle (to pass the ratio) is refused up front
    inflated = tmp_path / "inflated.zip"
    inflated.write_bytes(_set_sizes(bomb.read_bytes(), clip, compressed=packed * 1000))
    _refused(inflated, tmp_path / "dest2" / "copy", repr(clip), "is damaged")
