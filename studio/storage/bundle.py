"""Bundles: a whole project in one ``.zip`` file, and back.

Import refuses any entry that would land outside the target folder (absolute paths,
``..``, drive letters, symlinks) and any entry outside the bundle's known layout.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import tempfile
import zipfile
from pathlib import Path

from studio import __version__
from studio.core.errors import StudioError
from studio.storage.atomic import atomic_path
from studio.storage.paths import UnsafePathError, check_relative
from studio.storage.project import DB_NAME, MEDIA_DIR, PROJECT_SUFFIX, Project

MANIFEST = "kamishibai-bundle.json"
MAX_BUNDLE_BYTES = 64 * 1024**3


class BundleError(StudioError):
    """A bundle that can't be written or read."""


def export_bundle(project: Project, out: Path) -> Path:
    """Write the project (a consistent database snapshot plus its media) to ``out``."""
    out = out if out.suffix == ".zip" else out.with_suffix(".zip")
    with tempfile.TemporaryDirectory() as tmp:
        snapshot = Path(tmp) / DB_NAME
        with project.database.lock:
            target = sqlite3.connect(snapshot)
            try:
                project.database.conn.backup(target)
            finally:
                target.close()
        try:
            with atomic_path(out) as part, zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as archive:
                archive.writestr(MANIFEST, json.dumps({"app": "kamishibai-studio", "version": __version__,
                                                       "name": project.name}))
                archive.write(snapshot, DB_NAME)
                media = project.path / MEDIA_DIR
                for file in sorted(media.rglob("*")):
                    if file.is_file() and not file.is_symlink() and ".part" not in file.name:
                        archive.write(file, file.relative_to(project.path).as_posix(), zipfile.ZIP_STORED)
        except OSError as error:
            raise BundleError(f"Can't write the bundle {out}: {error.strerror or error}.") from None
    return out


def _check_entry(info: zipfile.ZipInfo) -> None:
    name = info.filename
    try:
        rel = check_relative(name)
    except UnsafePathError as error:
        raise BundleError(f"Refused the bundle: entry {name!r} points outside the project ({error.message}).") from None
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise BundleError(f"Refused the bundle: entry {name!r} is a symbolic link.")
    top = rel.parts[0] if rel.parts else ""
    if name not in (MANIFEST, DB_NAME) and top != MEDIA_DIR:
        raise BundleError(f"Refused the bundle: unexpected entry {name!r}.")


def import_bundle(bundle: Path, dest: Path) -> Project:
    """Unpack ``bundle`` into the new project folder ``dest`` and open it."""
    dest = dest if dest.suffix == PROJECT_SUFFIX else dest.with_name(dest.name + PROJECT_SUFFIX)
    if dest.exists():
        raise BundleError(f"{dest} already exists.", hint="Choose another destination.")
    try:
        archive = zipfile.ZipFile(bundle)
    except (OSError, zipfile.BadZipFile) as error:
        raise BundleError(f"{bundle} is not a readable bundle: {error}.") from None
    with archive:
        infos = archive.infolist()
        for info in infos:
            _check_entry(info)
        names = {i.filename for i in infos}
        if DB_NAME not in names:
            raise BundleError(f"{bundle} is not a Kamishibai bundle (no {DB_NAME}).")
        if sum(i.file_size for i in infos) > MAX_BUNDLE_BYTES:
            raise BundleError(f"{bundle} would unpack to more than {MAX_BUNDLE_BYTES // 1024**3} GiB.")
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".import-", dir=dest.parent))
        try:
            root = staging.resolve()
            for info in infos:
                if info.is_dir():
                    continue
                target = (root / info.filename).resolve()
                if root not in target.parents:
                    raise BundleError(f"Refused the bundle: entry {info.filename!r} points outside the project.")
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
            (staging / MEDIA_DIR).mkdir(exist_ok=True)
            (staging / MANIFEST).unlink(missing_ok=True)
            Project.open(staging).close()
            os.replace(staging, dest)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return Project.open(dest)
