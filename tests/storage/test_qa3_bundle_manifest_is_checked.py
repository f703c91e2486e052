"""Unbundling reads the bundle's manifest: every file with its size and SHA-256, and the
bundle format. A newer format is refused with the cure, files missing, put in or altered are
named, a bundle of another program is refused, and a refused bundle leaves nothing."""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.storage.bundle import MANIFEST, BundleError, export_bundle, import_bundle
from studio.storage.bundle_manifest import BUNDLE_FORMAT
from studio.storage.project import DB_NAME
from tests.storage.bundle_setup import CLIP_BYTES, CLIP_PATH, project_with_one_take


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    with project_with_one_take(tmp_path / "source") as project:
        return export_bundle(project, tmp_path / "story.zip")


def _manifest(bundle: Path) -> dict[str, object]:
    with zipfile.ZipFile(bundle) as archive:
        loaded: dict[str, object] = json.loads(archive.read(MANIFEST))
        return loaded


def _rewrite(bundle: Path, out: Path, change: Callable[[str, bytes], bytes | None]) -> Path:
    """``bundle`` with each file's bytes passed through ``change`` (None drops the file)."""
    with zipfile.ZipFile(bundle) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = change(info.filename, source.read(info))
            if data is not None:
                target.writestr(info, data)
    return out


def _refused(bundle: Path, tmp_path: Path, *needles: str) -> BundleError:
    dest = tmp_path / "dest"
    dest.mkdir()
    with pytest.raises(BundleError) as raised:
        import_bundle(bundle, dest / "copy")
    for needle in needles:
        assert needle in str(raised.value), raised.value
    assert "Nothing was unpacked" in raised.value.hint
    assert list(dest.iterdir()) == [], "a refused bundle left something behind"
    return raised.value


def test_the_manifest_lists_every_file_with_its_size_and_digest(bundle: Path) -> None:
    manifest = _manifest(bundle)
    assert manifest["format"] == BUNDLE_FORMAT and manifest["app"] == "kamishibai-studio"
    files = {entry["path"]: entry for entry in manifest["files"]}  # type: ignore[attr-defined]
    with zipfile.ZipFile(bundle) as archive:
        assert set(files) == {name for name in archive.namelist() if name != MANIFEST}
        for name, entry in files.items():
            data = archive.read(name)
            assert entry["size"] == len(data) and entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert files[CLIP_PATH]["sha256"] == hashlib.sha256(CLIP_BYTES).hexdigest()


def test_a_bundle_of_a_newer_format_is_refused_with_the_cure(bundle: Path, tmp_path: Path) -> None:
    def newer(name: str, data: bytes) -> bytes:
        if name != MANIFEST:
            return data
        manifest = json.loads(data)
        manifest.update(format=BUNDLE_FORMAT + 1, version="9.0.0")
        return json.dumps(manifest).encode()

    error = _refused(_rewrite(bundle, tmp_path / "newer.zip", newer), tmp_path,
                     "made by Kamishibai Studio 9.0.0 in bundle format 3", "reads bundle formats up to 2")
    assert "Update Kamishibai Studio" in error.hint


def test_an_altered_clip_is_named(bundle: Path, tmp_path: Path) -> None:
    flipped = _rewrite(bundle, tmp_path / "flipped.zip",
                       lambda name, data: data.replace(b"video", b"vidEo") if name == CLIP_PATH else data)
    _refused(flipped, tmp_path, "is damaged", repr(CLIP_PATH), "not the file that was bundled")


def test_an_altered_database_is_named(bundle: Path, tmp_path: Path) -> None:
    # a byte of the database's free space: SQLite reads the file as it did, only the digest tells
    def flip(name: str, data: bytes) -> bytes:
        return data[:-1] + bytes([data[-1] ^ 0xFF]) if name == DB_NAME else data

    _refused(_rewrite(bundle, tmp_path / "db.zip", flip), tmp_path, "is damaged", repr(DB_NAME),
             "not the file that was bundled")


def test_a_file_of_another_size_is_named(bundle: Path, tmp_path: Path) -> None:
    longer = _rewrite(bundle, tmp_path / "longer.zip", lambda name, data: data + b"!" if name == CLIP_PATH else data)
    _refused(longer, tmp_path, repr(CLIP_PATH), "not the size the bundle's manifest lists")


def test_a_missing_file_is_named(bundle: Path, tmp_path: Path) -> None:
    thin = _rewrite(bundle, tmp_path / "thin.zip", lambda name, data: None if name == CLIP_PATH else data)
    error = _refused(thin, tmp_path, "is incomplete", "1 file(s) its manifest lists are not in it", repr(CLIP_PATH))
    assert "cut short" in error.hint


def test_a_file_put_in_that_the_project_names_is_named(bundle: Path, tmp_path: Path) -> None:
    """The clip renamed in the manifest's list: the bundle holds a clip its list does not name."""
    def rename(name: str, data: bytes) -> bytes:
        return data.replace(CLIP_PATH.encode(), b"media/takes/t1/other.mp4") if name == MANIFEST else data

    _refused(_rewrite(bundle, tmp_path / "renamed.zip", rename), tmp_path, repr("media/takes/t1/other.mp4"),
             "not in it")
    with zipfile.ZipFile(bundle) as archive:
        manifest = json.loads(archive.read(MANIFEST))
    manifest["files"] = [f for f in manifest["files"] if f["path"] != CLIP_PATH]

    def unlisted(name: str, data: bytes) -> bytes:
        return json.dumps(manifest).encode() if name == MANIFEST else data

    tmp = tmp_path / "second"
    tmp.mkdir()
    _refused(_rewrite(bundle, tmp_path / "unlisted.zip", unlisted), tmp, "does not list", repr(CLIP_PATH))


def test_an_unlisted_file_nothing_names_is_skipped(bundle: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(bundle, "a") as archive:
        archive.writestr("media/notes/extra.txt", b"put in later")
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert not (copy.path / "media/notes/extra.txt").exists()
        assert any("skipped media/notes/extra.txt" in problem for problem in copy.problems), copy.problems
        assert (copy.path / CLIP_PATH).read_bytes() == CLIP_BYTES


@pytest.mark.parametrize(("manifest", "needle"), [
    (None, "it has no kamishibai-bundle.json"),
    (b"\x00\xffPK garbage", "not the JSON text Kamishibai Studio writes"),
    (b"[1, 2]", "does not say it was made by Kamishibai Studio"),
    (json.dumps({"app": "other-tool\x1b[2J", "format": 2}).encode(), "says it was made by 'other-tool\\x1b[2J'"),
    (json.dumps({"app": "kamishibai-studio", "format": "two"}).encode(), "not a format number"),
    (json.dumps({"app": "kamishibai-studio", "format": 2}).encode(), "has no list of files"),
    (json.dumps({"app": "kamishibai-studio", "format": 2, "files": [{"path": DB_NAME, "size": 1}]}).encode(),
     "no SHA-256 digest"),
    (json.dumps({"app": "kamishibai-studio", "format": 2, "files": [{"path": DB_NAME, "size": -1,
                                                                     "sha256": "0" * 64}]}).encode(),
     "not a number of bytes"),
])
def test_a_bundle_made_by_another_program_is_refused(bundle: Path, tmp_path: Path, manifest: bytes | None,
                                                     needle: str) -> None:
    foreign = _rewrite(bundle, tmp_path / "foreign.zip",
                       lambda name, data: manifest if name == MANIFEST else data)
    _refused(foreign, tmp_path, needle)


def test_a_bundle_cut_short_is_refused_and_leaves_nothing(bundle: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.zip"
    cut.write_bytes(bundle.read_bytes()[: bundle.stat().st_size - 200])
    dest = tmp_path / "dest"
    dest.mkdir()
    with pytest.raises(BundleError, match="not a readable bundle"):
        import_bundle(cut, dest / "copy")
    assert list(dest.iterdir()) == []


def test_a_bundle_of_format_1_still_unpacks_and_says_its_files_were_not_listed(bundle: Path, tmp_path: Path) -> None:
    old = json.dumps({"app": "kamishibai-studio", "version": "0.0.9", "name": "old"}).encode()
    legacy = _rewrite(bundle, tmp_path / "legacy.zip", lambda name, data: old if name == MANIFEST else data)
    with import_bundle(legacy, tmp_path / "copy") as copy:
        assert (copy.path / CLIP_PATH).read_bytes() == CLIP_BYTES
        assert any("Kamishibai Studio 0.0.9, whose bundles list no files" in p for p in copy.problems), copy.problems


def test_a_fresh_bundle_unpacks_without_problems(bundle: Path, tmp_path: Path) -> None:
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert copy.problems == []
        assert not (copy.path / MANIFEST).exists()
