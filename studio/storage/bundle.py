"""Bundles: a whole project in one ``.zip`` file, and back.

Import treats the bundle as hostile. Before anything is unpacked, every entry is checked:
a known place in the layout, no way out of the target folder (absolute paths, ``..``,
drive letters, symlinks), names and depths a file system can hold, no entry twice, no
file that is also a folder, only the compression methods we write, no encryption, and
limits on each entry's size, on the total size and against the free space, on how much an
entry may be compressed and on a representation's size (a zip bomb: the declared sizes are
checked first, and no entry is unpacked past its declared size).
The database is unpacked first and checked like any project we open (its schema
included); then only the media files it names are unpacked. Every file and folder is
fsynced before the finished folder is renamed into place, and a failure leaves nothing.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from studio import __version__
from studio.core.errors import StudioError
from studio.storage.atomic import atomic_path, fsync_dir, is_temp_name, sweep_temp_files
from studio.storage.bundle_manifest import (
    MAX_MANIFEST_BYTES,
    DigestWriter,
    ListedFile,
    Manifest,
    ManifestError,
    NewerFormatError,
    manifest_text,
    parse_manifest,
    shown_names,
)
from studio.storage.errors import (
    Problem,
    ProjectDamagedError,
    ProjectFileError,
    classify_sqlite,
    describe_os_error,
    describe_sqlite_error,
    destination_folder,
    full_error,
    unwritable_folder_error,
)
from studio.storage.lock import WriterLock
from studio.storage.paths import UnsafePathError, check_relative, open_inside
from studio.storage.project import (
    DB_NAME,
    MEDIA_DIR,
    Project,
    enclosing_project,
    new_project_path,
    refuse_inside_project,
)
from studio.storage.staging import StagingDir, staging_prefix, sweep

MANIFEST = "kamishibai-bundle.json"
MAX_BUNDLE_BYTES = 64 * 1024**3
"""Most a bundle may unpack to."""
MAX_ENTRIES = 1_000_000
MAX_ENTRY_BYTES = 16 * 1024**3
"""Most one entry may unpack to.

Every entry declares its size; the declared sizes are held to this, to
:data:`MAX_BUNDLE_BYTES`, to the free space and to :data:`MAX_RATIO` before anything is
unpacked, and unpacking stops at the declared size (an entry that holds more is damaged)."""
MAX_RATIO = 100
"""Most an entry may be compressed: a larger declared size than this many times its
compressed size is a zip bomb (checked only from :data:`RATIO_FLOOR_BYTES` up)."""
RATIO_FLOOR_BYTES = 1024 * 1024
"""Entries that unpack to less than this are not held to :data:`MAX_RATIO`: small JSON or
text (the manifest, say) can shrink a hundredfold, and unpacks to little whatever it holds."""
DB_RATIO_FLOOR_BYTES = 256 * 1024 * 1024
""":data:`RATIO_FLOOR_BYTES` for the database: the studio deflates it itself, and a story of
repeated lines deflates a hundred times and more (a bundle the studio made must unpack);
a database that large is held to the ratio (a real one is mostly media paths and text)."""
MAX_NAME_BYTES = 255
MAX_PATH_CHARS = 1024
MAX_DEPTH = 16
SPACE_MARGIN_BYTES = 16 * 1024 * 1024
"""Most free space kept beyond what the bundle unpacks to (the database's WAL, the lock file,
the backup an upgrade makes of an older database): see :func:`space_needed`."""
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}


class BundleError(StudioError):
    """A bundle that can't be written or read."""


def _is_inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def bundle_path(out: Path) -> Path:
    """The file a bundle is written to: ``out`` with ``.zip`` appended unless it has it
    (``story.v2`` becomes ``story.v2.zip``, never ``story.zip``)."""
    return out if out.suffix.lower() == ".zip" else out.with_name(out.name + ".zip")


def looks_like_bundle(path: Path) -> bool:
    """Whether ``path`` is a .zip file holding a bundle's manifest or project database (what
    :func:`export_bundle` writes), not yet checked: opened as a project, it would only be
    "not a project folder". Any other file, or one that can't be read, is not."""
    try:
        if not path.is_file():
            return False
        with zipfile.ZipFile(path) as archive:
            return bool({MANIFEST, DB_NAME} & set(archive.namelist()))
    except (OSError, zipfile.BadZipFile):
        return False


def export_bundle(project: Project, out: Path, *, overwrite: bool = False) -> Path:
    """Write the project (a consistent database snapshot plus its media) to ``out``.

    An existing file is replaced only with ``overwrite``; a destination inside the
    project folder is refused (the bundle would swallow itself, or replace a project file).
    """
    if out.name in ("", ".", "..") or out.is_dir():  # ".." would become a hidden "...zip" file
        raise folder_given_error(out, project)
    out = bundle_path(out)
    if _is_inside(out, project.path):
        raise BundleError(f"Can't write the bundle {out}: it is inside the project folder {project.path}.",
                          hint="Choose a place outside the project.")
    other = enclosing_project(out)
    if other is not None:  # another project's media folder would hold a file that project knows nothing of
        raise BundleError(f"Can't write the bundle {out}: it is inside the project folder {other}.",
                          hint="Choose a place outside every project folder.")
    if out.is_dir():
        raise BundleError(f"Can't write the bundle {out}: a folder of that name exists.")
    if out.exists() and not overwrite:
        raise BundleError(f"{out} already exists.", hint="Choose another name, or pass --force to replace it.")
    if not out.parent.is_dir():
        raise BundleError(f"The folder {out.parent} does not exist.", hint="Create it or choose another folder.")
    try:
        _media_files(project.path)  # refused before anything is written
        sweep_temp_files(out.parent, lambda name: name.endswith(".part.zip"), _partial_bundle)
        with atomic_path(out, locked=True) as part, zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as archive:
            with archive.open(DB_NAME, "w", force_zip64=True) as db_entry:
                db_digest = DigestWriter(db_entry)
                _write_snapshot(project, db_digest, out.parent)
            listed = [db_digest.listed(DB_NAME)]
            # Listed after the snapshot: another process (the window) may have committed a
            # take meanwhile, and its files are written before its row, so every take in the
            # snapshot has its files in this list (a take committed later only adds files
            # that unbundling skips).
            media = _media_files(project.path)
            listed.extend(packed for file in media
                          if (packed := _pack_file(archive, file, file.relative_to(project.path).as_posix(),
                                                   project.path)) is not None)
            # last, as it lists every file with its digest: a bundle cut short lacks it
            archive.writestr(MANIFEST, manifest_text(project.name, __version__, listed))
    except OSError as error:
        raise _bundle_write_error(error, project.path, out) from None
    except sqlite3.Error as error:
        raise _snapshot_error(error, project.path, out) from None
    return out


_ZIP_ENTRY_MARK = b"PK\x03\x04"
_ZIP_NAME_AT = 30
"""Where a zip's first entry's name starts (after its fixed header, whose bytes 26-27 hold the
name's length)."""


def _partial_bundle(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts a bundle as :func:`export_bundle` writes
    it, the database first: a killed bundle's temporary file, not a user's file of that name."""
    if not head.startswith(_ZIP_ENTRY_MARK) or len(head) < _ZIP_NAME_AT:
        return False
    size = int.from_bytes(head[26:28], "little")
    return head[_ZIP_NAME_AT:_ZIP_NAME_AT + size] == DB_NAME.encode()


def _pack_file(archive: zipfile.ZipFile, file: Path, name: str, root: Path) -> ListedFile | None:
    """Store the project's ``file`` (``name`` relative to ``root``) as ``name``, read once through one
    descriptor, and list it with the size and digest of what was stored (not of what the path
    holds a moment later). None, and nothing stored, when the file is no longer a plain file
    of the project: the walk that listed it found no link, but one put in its place (or in a
    folder's) since would lead the read outside the project; it is left out, as the walk
    leaves out links.

    The file is opened one folder at a time from ``root`` without following any link, and its
    date and mode are taken from that descriptor, never from the path again."""
    try:
        fd = open_inside(root, name)
    except UnsafePathError:
        return None
    except OSError as error:  # named in full, as a project file that can't be read
        raise OSError(error.errno, error.strerror, os.fspath(file)) from None
    with os.fdopen(fd, "rb") as source:
        status = os.fstat(source.fileno())
        if not stat.S_ISREG(status.st_mode):  # a pipe or a folder swapped in: nothing to pack
            return None
        info = _entry_info(name, status)
        with archive.open(info, "w") as entry:
            digest = DigestWriter(entry)
            while chunk := source.read(1024 * 1024):
                digest.write(chunk)
    return digest.listed(name)


def _entry_info(name: str, status: os.stat_result) -> zipfile.ZipInfo:
    """A stored (uncompressed) entry ``name`` dated and moded as ``status`` says, as
    :meth:`zipfile.ZipInfo.from_file` makes it from a path."""
    stamp = time.localtime(status.st_mtime)[:6]
    if stamp[0] < 1980:  # a zip can't date a file before 1980
        stamp = (1980, 1, 1, 0, 0, 0)
    elif stamp[0] > 2107:
        stamp = (2107, 12, 31, 23, 59, 59)
    info = zipfile.ZipInfo(name, stamp)
    info.external_attr = (status.st_mode & 0xFFFF) << 16
    info.file_size = status.st_size
    info.compress_type = zipfile.ZIP_STORED
    return info


def folder_given_error(out: Path, project: Project) -> BundleError:
    """The refusal of a bundle's destination ``out`` that names a folder (``.``, ``..``, ``/``,
    ``backups/``), not the file to write: the hint names a file in that folder."""
    example = Path(os.path.normpath(out)) / f"{project.path.stem or 'story'}.zip"
    shown = os.fspath(out) or "''"
    return BundleError(f"Can't write the bundle to {shown}: it names a folder, not the .zip file to write"
                       f"{'' if out.is_dir() else ', and there is no such folder'}.",
                       hint=f"Give the file's name, for example {example}.")


def _bundle_write_error(error: OSError, project_folder: Path, out: Path) -> ProjectFileError:
    """What to say when writing the bundle ``out`` failed: a project file that could not be
    read is named as such; a file that could not be made in the bundle's folder says that
    folder can't be written (why: read-only, permission, a folder such as ``/proc``), never
    that it is a read-only *project* folder; anything else as :func:`describe_os_error`."""
    what = f"write the bundle {out}"
    where = Path(os.fsdecode(error.filename)) if error.filename is not None else None
    if where is not None and _is_inside(where, project_folder):
        return ProjectFileError(f"Can't {what}: the project file {where} can't be read "
                                f"({error.strerror or error}).", hint="Nothing was written.")
    if where is not None and where.parent == out.parent and error.errno != errno.ENAMETOOLONG:
        return unwritable_folder_error(error, out.parent, what)
    return describe_os_error(error, out.parent, what)


def _snapshot_error(error: sqlite3.Error, project_folder: Path, out: Path) -> ProjectFileError:
    """What to say when SQLite's backup of the database into the snapshot beside ``out``
    failed. Writing the snapshot past a file-size limit (``ulimit -f``) or onto a full disk
    is an I/O error or SQLITE_FULL of the bundle's folder, said as such (it was "internal
    error: OperationalError: disk I/O error"); anything else is the project's database's
    own error (damaged, locked by another program)."""
    what = f"write the bundle {out}"
    problem = classify_sqlite(error, out.parent)
    if problem is Problem.FULL:
        return full_error(out.parent, what)
    if problem is Problem.READ_ONLY:
        return unwritable_folder_error(OSError(errno.EACCES, str(error)), out.parent, what)
    return describe_sqlite_error(error, project_folder, what)


def _media_files(root: Path) -> list[Path]:
    """The plain files under ``root/media``, never through a link: a linked file is left
    out, a linked folder that leads inside the project too (its files are packed from
    their real place), and one that leads outside refuses the bundle, which must hold
    the project and nothing of the disk around it. Files whose names are not UTF-8 are
    left out (see :func:`_has_utf8_name`), and so are the studio's own half-written files
    (:func:`~studio.storage.atomic.is_temp_name`): only those, as a user's ``my.party.png``
    is a file like any other."""
    media = root / MEDIA_DIR
    if media.is_symlink():
        raise _linked_media(root, media, "Make media/ a real folder inside the project")
    if not media.is_dir():
        return []
    base = root.resolve()
    files: list[Path] = []
    for folder, dirs, names in os.walk(media):  # never descends into linked folders
        here = Path(folder)
        for name in dirs:
            target = (here / name).resolve()
            if (here / name).is_symlink() and target != base and base not in target.parents:
                raise _linked_media(root, here / name, "Replace the link with a real folder (move its files in)")
        files.extend(here / name for name in names
                     if not is_temp_name(name) and stat.S_ISREG(os.lstat(here / name).st_mode)
                     and _has_utf8_name((here / name).relative_to(root)))
    return sorted(files)


def _has_utf8_name(rel: Path) -> bool:
    """Whether ``rel`` (relative to the project: the folders above it may have any name) can
    be named in a zip (and in the database, which stores UTF-8 text).

    A file whose name is not UTF-8 (``café.png`` written in Latin-1 by another program) can't
    be a take's, location's or character's file, and unbundling unpacks only those; packing
    it failed with an internal UnicodeEncodeError, so it is left out."""
    try:
        rel.as_posix().encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _linked_media(root: Path, link: Path, cure: str) -> BundleError:
    return BundleError(f"Can't bundle {root}: its media folder {link.relative_to(root).as_posix()} is a link to "
                       f"{link.resolve()}; a bundle holds only the project's own files.",
                       hint=f"Nothing was written. {cure}, then bundle again.")


def _write_snapshot(project: Project, target: object, scratch_parent: Path) -> None:
    """Copy a consistent snapshot of the database (SQLite's backup API) into ``target``."""
    sweep(scratch_parent, lambda name: name.startswith(".bundle-snapshot-"))
    with StagingDir(scratch_parent, ".bundle-snapshot-") as scratch:
        snapshot = scratch.path / DB_NAME
        with project.database.lock:
            copy = sqlite3.connect(snapshot)
            try:
                project.database.conn.backup(copy)
            finally:
                copy.close()
        with open(snapshot, "rb") as source:
            while chunk := source.read(1024 * 1024):
                target.write(chunk)  # type: ignore[attr-defined]


# -- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    info: zipfile.ZipInfo
    rel: PurePosixPath


def _refuse(bundle: Path, reason: str) -> BundleError:
    return BundleError(f"Refused the bundle {bundle.name}: {reason}.",
                       hint="Nothing was unpacked. Ask for the bundle again, or make it with `kamishibai bundle`.")


def _check_entry(bundle: Path, info: zipfile.ZipInfo, bundle_size: int) -> PurePosixPath | None:
    """The entry's relative path (None for a folder entry), or a refusal that says why."""
    name = info.filename
    shown = name if len(name) <= 80 else name[:60] + "..." + name[-12:]
    depth = len([part for part in name.replace("\\", "/").split("/") if part])
    if depth > MAX_DEPTH:
        raise _refuse(bundle, f"entry {shown!r} is too deep ({depth:,} folders; the limit is {MAX_DEPTH})")
    if len(name) > MAX_PATH_CHARS:
        raise _refuse(bundle, f"the entry name {shown!r} is too long ({len(name):,} characters; "
                      f"the limit is {MAX_PATH_CHARS:,})")
    try:
        rel = check_relative(name.rstrip("/") or name)
    except UnsafePathError as error:
        raise _refuse(bundle, f"entry {shown!r} points outside the project ({error.message})") from None
    for part in rel.parts:
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise _refuse(bundle, f"a name in entry {shown!r} is too long ({len(part):,} characters; "
                          f"the limit is {MAX_NAME_BYTES} bytes)")
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise _refuse(bundle, f"entry {shown!r} is a symbolic link")
    if name not in (MANIFEST, DB_NAME) and rel.parts[0] != MEDIA_DIR:
        raise _refuse(bundle, f"unexpected entry {shown!r}")
    if info.flag_bits & 0x1:
        raise _refuse(bundle, f"entry {shown!r} is encrypted")
    if info.compress_type not in _METHODS:
        raise _refuse(bundle, f"entry {shown!r} uses compression method {info.compress_type}, "
                      "which Kamishibai bundles never use (only stored or deflated)")
    if info.is_dir():
        return None
    if info.compress_type == zipfile.ZIP_STORED and info.file_size != info.compress_size:
        raise _refuse(bundle, f"entry {shown!r} is damaged (stored, yet its sizes differ)")
    if info.file_size > MAX_ENTRY_BYTES:
        raise _refuse(bundle, f"entry {shown!r} would unpack to {info.file_size:,} bytes; "
                      f"the limit is {MAX_ENTRY_BYTES / 1024**3:g} GiB an entry")
    if info.header_offset + info.compress_size > bundle_size:
        raise _refuse(bundle, f"entry {shown!r} is damaged (it says it holds {info.compress_size:,} compressed "
                      f"bytes; the bundle has {bundle_size:,} bytes)")
    floor = DB_RATIO_FLOOR_BYTES if name == DB_NAME else RATIO_FLOOR_BYTES
    if info.file_size >= floor and info.file_size > MAX_RATIO * info.compress_size:
        ratio = info.file_size / max(info.compress_size, 1)
        raise _refuse(bundle, f"entry {shown!r} is compressed {ratio:,.0f} times ({info.compress_size:,} bytes "
                      f"that would unpack to {info.file_size:,}); the limit is {MAX_RATIO} times (a zip bomb?)")
    if rel.suffix == ".safetensors":
        _check_representation_size(bundle, rel, info)
    return rel


def _check_representation_size(bundle: Path, rel: PurePosixPath, info: zipfile.ZipInfo) -> None:
    from studio.storage import media

    if info.file_size > media.MAX_REPRESENTATION_BYTES:
        raise _refuse(bundle, f"the representation {rel.as_posix()!r} would unpack to {info.file_size:,} bytes; "
                      f"the limit is {media.MAX_REPRESENTATION_BYTES / 1024**2:g} MB")


def _check_layout(bundle: Path, entries: list[_Entry], folders: set[PurePosixPath]) -> None:
    """No name twice, and no name both a file and a folder. Names that differ only in case
    are checked among the entries unpacked (:func:`_check_case_clashes`)."""
    _check_unique(bundle, entries, lambda rel: rel.as_posix())
    files = {e.rel for e in entries}
    for entry in entries:
        for parent in entry.rel.parents:
            if parent in files:
                raise _refuse(bundle, f"{parent.as_posix()!r} is both a file and a folder")
    for folder in folders:
        if folder in files:
            raise _refuse(bundle, f"{folder.as_posix()!r} is both a file and a folder")


def _check_unique(bundle: Path, entries: list[_Entry], key: Callable[[PurePosixPath], str]) -> None:
    """No two of ``entries`` with the same ``key``."""
    seen: set[str] = set()
    for entry in entries:
        name = key(entry.rel)
        if name in seen:
            raise _refuse(bundle, f"entry {entry.rel.as_posix()!r} is there twice")
        seen.add(name)


def _check_case_clashes(bundle: Path, unpacked: list[_Entry]) -> None:
    """No two entries to unpack whose names differ only in case: on a file system that
    ignores case (macOS, Windows) both would be one file. Held to the entries unpacked only:
    a project on Linux may keep ``media/Notes.txt`` next to ``media/notes.txt`` (files no
    take names, skipped), and refusing those refused a bundle the studio itself made."""
    _check_unique(bundle, unpacked, lambda rel: rel.as_posix().casefold())


def _open_archive(bundle: Path) -> zipfile.ZipFile:
    if not bundle.is_file():
        raise BundleError(f"{bundle} is not a readable bundle: it does not exist or is not a file.")
    try:
        return zipfile.ZipFile(bundle)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError) as error:
        raise BundleError(f"{bundle} is not a readable bundle: {error}.", hint=BAD_ARCHIVE_HINT) from None


BAD_ARCHIVE_HINT = ("A bundle is a zip file written by `kamishibai bundle`; one cut short (an interrupted copy or "
                    "download) can't be read: copy it again, or bundle the project again.")


def _read_entries(bundle: Path, archive: zipfile.ZipFile) -> list[_Entry]:
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise _refuse(bundle, f"it holds {len(infos):,} entries; the limit is {MAX_ENTRIES:,}")
    _refuse_other_zips(bundle, [info.filename for info in infos])
    entries: list[_Entry] = []
    folders: set[PurePosixPath] = set()
    try:
        bundle_size = os.fstat(archive.fp.fileno()).st_size if archive.fp is not None else bundle.stat().st_size
    except OSError as error:
        raise BundleError(f"{bundle} is not a readable bundle: {error.strerror or error}.") from None
    for info in infos:
        rel = _check_entry(bundle, info, bundle_size)
        if rel is None:
            folders.add(check_relative(info.filename.rstrip("/")))
        else:
            entries.append(_Entry(info, rel))
    _check_layout(bundle, entries, folders)
    if DB_NAME not in {e.info.filename for e in entries}:
        raise BundleError(f"{bundle} is not a Kamishibai bundle (no {DB_NAME}).")
    total = sum(e.info.file_size for e in entries)
    if total > MAX_BUNDLE_BYTES:
        raise _refuse(bundle, f"it would unpack to {total:,} bytes; the limit is {MAX_BUNDLE_BYTES / 1024**3:g} GiB")
    return entries


_LIVE_PROJECT_FILES = frozenset({f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal", "writer.lock"})
"""Files of a project folder in use that :func:`export_bundle` never packs: a zip holding them
was made of the folder by hand."""


def _refuse_other_zips(bundle: Path, names: list[str]) -> None:
    """Refuse a zip without a bundle's manifest that is plainly no bundle, saying what it is:
    a project folder zipped by hand (``story.kamishibai/project.db``, or a ``project.db``
    beside its ``-wal`` file), or a zip of something else. Both were refused for their first
    entry ("unexpected entry 'story.kamishibai/'"), with the hint to ask for the bundle again.

    Only names are looked at, nothing is read: the entries of a zip that passes are checked
    as untrusted afterwards."""
    if MANIFEST in names:
        return
    top = {name.replace("\\", "/").lstrip("/").split("/", 1)[0] for name in names}
    nested = sorted(name for name in names if name.count("/") == 1 and name.endswith(f"/{DB_NAME}"))
    live = sorted(top & _LIVE_PROJECT_FILES)
    if nested or (DB_NAME in names and live):
        where = (f"the project folder {shown_names([nested[0].split('/')[0]])}" if nested
                 else f"a project's files ({', '.join([DB_NAME, *live])})")
        unzip = ("Unzip it with your zip tool and open the project folder it holds" if nested else
                 "Unzip it with your zip tool into a new, empty folder NAME.kamishibai and open that folder")
        raise BundleError(f"{bundle} is not a bundle: it is a zip of {where} made by hand, not by "
                          "`kamishibai bundle`.",
                          hint=f"Nothing was unpacked. {unzip}; or bundle that project with `kamishibai bundle "
                               "PROJECT story.zip` (File › Export bundle in the studio) and unbundle that file.")
    if DB_NAME not in names:
        shown = shown_names(sorted(names), most=3) if names else "nothing"
        raise BundleError(f"{bundle} is not a Kamishibai bundle: it holds neither {MANIFEST} nor {DB_NAME} "
                          f"(it holds {shown}).",
                          hint="Nothing was unpacked. Choose a .zip made by `kamishibai bundle` (or File › "
                               "Export bundle in the studio).")


def space_needed(unpacked: int) -> int:
    """The free space an unpack of ``unpacked`` bytes asks for: the files, and room for the
    project to work in once open (its WAL and lock file, and a copy of the database when an
    upgrade backs it up) of as much again plus :data:`LOW_SPACE_BYTES` (below which a
    write is told as a full disk), at most :data:`SPACE_MARGIN_BYTES`. A flat 16 MB margin
    refused a 0.5 MB bundle on a disk with 10 MB free, saying it needed 0.1 MB."""
    from studio.storage.errors import LOW_SPACE_BYTES

    return unpacked + min(SPACE_MARGIN_BYTES, LOW_SPACE_BYTES + unpacked)


def _check_space(dest: Path, needed: int, at_most: int = 0) -> None:
    """Refuse when ``needed`` bytes (with :func:`space_needed`'s room) don't fit. The message
    names ``at_most`` when larger: checked before the database says which media it needs,
    the bundle's database and media in all, so that the space freed is enough next time."""
    from studio.storage.errors import DiskFullError, free_bytes

    free = free_bytes(dest.parent)
    if free is not None and space_needed(needed) > free:
        needed = max(needed, at_most)
        asked = space_needed(needed)
        raise DiskFullError(f"Can't unpack into {dest}: it needs {asked / 1e6:,.1f} MB free ({needed / 1e6:,.1f} MB "
                            f"of files and room for the project to work in) and the disk holding {dest.parent} has "
                            f"{free / 1e6:,.1f} MB free.",
                            hint="Nothing was unpacked. Free some space or choose another place.")


def _mkdirs(root: Path, rel: PurePosixPath, made: set[Path]) -> Path:
    """Create the folders of ``rel`` under ``root`` one by one (no recursion, no symlinks)."""
    folder = root
    for part in rel.parts[:-1]:
        folder = folder / part
        if folder not in made:
            try:
                os.mkdir(folder)
            except FileExistsError:
                if folder.is_symlink() or not folder.is_dir():
                    raise
            made.add(folder)
    return folder


def _unpack(archive: zipfile.ZipFile, entry: _Entry, root: Path, made: set[Path]) -> ListedFile:
    """Unpack ``entry`` under ``root``; returns its size and SHA-256 as unpacked."""
    folder = _mkdirs(root, entry.rel, made)
    target = folder / entry.rel.name
    name = entry.rel.as_posix()
    with archive.open(entry.info) as source, open(target, "xb") as sink:
        written = DigestWriter(sink)
        try:
            while chunk := source.read(1024 * 1024):
                # zipfile stops at the declared size (the caps were checked against it) and
                # then checks the CRC; belt and braces, as the caps rest on this
                if written.size + len(chunk) > entry.info.file_size:
                    raise zipfile.BadZipFile(f"entry {name!r} holds more than the {entry.info.file_size:,} bytes "
                                             "it declares")
                written.write(chunk)
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            if name in str(error):
                raise
            raise zipfile.BadZipFile(f"entry {name!r}: {error}") from None
        sink.flush()
        os.fsync(sink.fileno())
    return written.listed(name)


def _check_unpacked(bundle: Path, unpacked: ListedFile, manifest: Manifest) -> None:
    """Refuse the bundle as damaged when a file ``unpacked`` is not the one its manifest lists."""
    listed = manifest.files.get(unpacked.path) if manifest.files is not None else None
    if listed is not None and (unpacked.size, unpacked.sha256) != (listed.size, listed.sha256):
        raise _damaged(bundle, f"{shown_names([unpacked.path])} is not the file that was bundled (its SHA-256 is "
                       "not the one the bundle's manifest lists)")


def _damaged(bundle: Path, what: str) -> BundleError:
    return BundleError(f"The bundle {bundle.name} is damaged: {what}.",
                       hint="Nothing was unpacked. Copy or download the bundle again, or bundle the project again.")


def _read_manifest(bundle: Path, archive: zipfile.ZipFile, entries: list[_Entry]) -> Manifest:
    """The bundle's manifest; a bundle without one of ours, or of a newer format, is refused.
    Its list of files is checked against the bundle by :func:`_check_listing`."""
    found = next((e for e in entries if e.rel.as_posix() == MANIFEST), None)
    if found is None:
        raise BundleError(f"{bundle} is not a Kamishibai bundle: it has no {MANIFEST} (was it made by another "
                          "program?).", hint="Nothing was unpacked. Make bundles with `kamishibai bundle` (or File › "
                          "Export bundle in the studio).")
    if found.info.file_size > MAX_MANIFEST_BYTES:
        raise _refuse(bundle, f"its manifest would unpack to {found.info.file_size:,} bytes; the limit is "
                      f"{MAX_MANIFEST_BYTES / 1024**2:g} MB")
    try:
        manifest = parse_manifest(archive.read(found.info))
    except NewerFormatError as error:
        raise BundleError(f"Can't unpack the bundle {bundle.name}: {error.reason}.",
                          hint="Nothing was unpacked. Update Kamishibai Studio, then unbundle it again.") from None
    except ManifestError as error:
        raise _refuse(bundle, error.reason) from None
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise _damaged(bundle, f"its manifest can't be read ({error})") from None
    return manifest


def _check_listing(bundle: Path, manifest: Manifest, held: dict[str, _Entry], unpacked: list[_Entry]) -> None:
    """Every file the manifest lists is in the bundle (``held``), and every file to be
    ``unpacked`` is listed, of the size listed. A file the manifest does not list and the
    project does not name is only skipped: it is never unpacked.

    Asked once the database was checked as untrusted, whose refusals say more precisely
    what is wrong with a hostile one; this check catches damage and files changed after the
    bundle was made (a bundle of format 1 lists none)."""
    listed = manifest.files
    if listed is None:
        return
    missing = sorted(set(listed) - set(held))
    if missing:
        raise BundleError(f"The bundle {bundle.name} is incomplete: {len(missing):,} file(s) its manifest lists "
                          f"are not in it: {shown_names(missing)}.",
                          hint="Nothing was unpacked. It was cut short or files were taken out of it: copy it "
                          "again, or bundle the project again.")
    extra = sorted(e.rel.as_posix() for e in unpacked if e.rel.as_posix() not in listed)
    if extra:
        raise _refuse(bundle, f"the project names {len(extra):,} file(s) that the bundle's manifest does not list "
                      f"(put in after it was made?): {shown_names(extra)}")
    resized = sorted(e.rel.as_posix() for e in unpacked if e.info.file_size != listed[e.rel.as_posix()].size)
    if resized:
        raise _damaged(bundle, f"{shown_names(resized)} {'is' if len(resized) == 1 else 'are'} not the size the "
                       "bundle's manifest lists")


def _unpack_error(error: BaseException, bundle: Path, dest: Path, what: str) -> BaseException:
    """What to tell the user about an error met while unpacking."""
    if isinstance(error, zipfile.BadZipFile | zlib.error | EOFError):
        return BundleError(f"The bundle {bundle.name} is damaged: {error}.",
                           hint="Nothing was unpacked. Make or download the bundle again.")
    if isinstance(error, RuntimeError) and "encrypted" in str(error):
        return _refuse(bundle, "an entry is encrypted")
    if isinstance(error, OSError):
        if error.errno == errno.ENAMETOOLONG:
            return _refuse(bundle, "a name is too long for this file system")
        if error.errno in (errno.ENOTEMPTY, errno.EEXIST) and error.filename2 is not None \
                and Path(os.fsdecode(error.filename2)) == dest:
            # the empty folder taken as the destination was given files meanwhile
            return BundleError(f"{dest} already exists and is not empty.",
                               hint="Nothing was unpacked. Choose another destination.")
        return describe_os_error(error, dest.parent, what)
    return error


def _referenced(project: Project) -> set[str]:
    """Every media path the database names (takes, locations, character references)."""
    tree = project.tree
    paths: set[str] = set()
    for take in tree.takes.values():
        paths.update(take.media_paths())
    paths.update(loc.image_path for loc in tree.locations.values() if loc.image_path)
    for member in tree.cast.values():
        paths.update(str(p) for p in member.reference_images if p)
    return {PurePosixPath(p).as_posix() for p in paths}


def _leads_out(name: str) -> bool:
    """Whether a media path the database names leads out of the project (``/etc/hostname`` as a
    character's reference picture). Opening the project notes such a path already, in the words
    it uses for any project; the unpack said it was "not in the bundle", as if the bundle had
    lost it."""
    try:
        check_relative(name)
    except UnsafePathError:
        return True
    return False


def _is_media(entry: _Entry) -> bool:
    """Whether ``entry`` is a file under ``media/``: only those are unpacked for the paths the
    database names. A take that names ``project.db`` (unpacked already, so a second unpack
    failed as "File exists") or the manifest as its clip must not pull it in."""
    return entry.rel.parts[0] == MEDIA_DIR


def _check_representations(bundle: Path, project: Project, by_name: dict[str, _Entry]) -> None:
    """The representations the database names (whatever their names) are held to their limit."""
    for take in project.tree.takes.values():
        entry = by_name.get(PurePosixPath(take.representation_path).as_posix()) if take.representation_path else None
        if entry is not None:
            _check_representation_size(bundle, entry.rel, entry.info)


def _empty_folder(path: Path) -> bool:
    """Whether ``path`` is a real (not linked) folder holding nothing."""
    try:
        return not path.is_symlink() and path.is_dir() and not any(path.iterdir())
    except OSError:  # unreadable: not taken
        return False


def import_bundle(bundle: Path, dest: Path) -> Project:
    """Unpack ``bundle`` into the new project folder ``dest`` (missing, or an empty folder)
    and open it for writing.

    Files the database does not name are not unpacked; they are listed, with anything
    else worth knowing, in the returned project's ``problems``.

    The destination is checked in the order that names the real cause: a name for the
    folder, a free place outside every project, a bundle worth unpacking, a folder that can
    be made and written (a work folder is made there first), and only then the free space.
    """
    dest = new_project_path(dest)
    # a dangling link too: the finished folder could not be renamed onto it. An empty folder
    # is taken, as `new` and `import-demo` take one (made first in a file manager)
    if os.path.lexists(dest) and not _empty_folder(dest):
        link = f": it is a link to {os.readlink(dest)}" if dest.is_symlink() else ""
        shown = link or (" and is not empty" if dest.is_dir() else "")
        raise BundleError(f"{dest} already exists{shown}.", hint="Choose another destination.")
    refuse_inside_project(dest, f"unpack {bundle.name}")
    with _open_archive(bundle) as archive:
        entries = _read_entries(bundle, archive)
        by_name = {e.rel.as_posix(): e for e in entries}
        what = f"unpack {bundle.name} into {dest}"
        with destination_folder(dest.parent, what):  # a refused bundle leaves no folder made for it
            sweep(dest.parent, lambda name: name.startswith(".") and ".import-" in name)
            try:  # before the free space: a folder nothing can be written in (/proc) has none either
                staging = StagingDir(dest.parent, staging_prefix(dest.name, "import"))
            except OSError as error:
                raise unwritable_folder_error(error, dest.parent, what) from None
            lock: WriterLock | None = None
            try:
                manifest = _read_manifest(bundle, archive, entries)
                _check_space(dest, by_name[DB_NAME].info.file_size,
                             sum(e.info.file_size for name, e in by_name.items() if name == DB_NAME or _is_media(e)))
                made: set[Path] = set()
                database = _unpack(archive, by_name[DB_NAME], staging.path, made)
                try:
                    with Project.open(staging.path, read_only=True) as peek:
                        # its problems are not kept: the media are not unpacked yet (every clip
                        # would read as missing), and the project opened at the end finds the
                        # database's own problems again
                        wanted = _referenced(peek)
                        _check_representations(bundle, peek, by_name)
                except ProjectFileError as error:
                    hint = error.hint
                    if isinstance(error, ProjectDamagedError):  # there is no project here to restore
                        hint = "Nothing was unpacked. Make the bundle again from the project."
                    message = error.message.replace(str(staging.path / DB_NAME), DB_NAME).replace(str(staging.path),
                                                                                                 DB_NAME)
                    raise BundleError(f"Refused the bundle {bundle.name}: its database: {message}", hint=hint) from None
                media = [e for name, e in by_name.items() if name in wanted and _is_media(e)]
                skipped = sorted(name for name, e in by_name.items() if name not in wanted and _is_media(e))
                missing = sorted(wanted - {e.rel.as_posix() for e in media} - {DB_NAME})
                _check_case_clashes(bundle, [by_name[DB_NAME], *media])
                _check_listing(bundle, manifest, by_name, [by_name[DB_NAME], *media])
                _check_unpacked(bundle, database, manifest)
                _check_space(dest, sum(e.info.file_size for e in [by_name[DB_NAME], *media]))
                for entry in media:
                    _check_unpacked(bundle, _unpack(archive, entry, staging.path, made), manifest)
                os.makedirs(staging.path / MEDIA_DIR, exist_ok=True)
                for folder in sorted(made | {staging.path / MEDIA_DIR}, key=lambda p: len(p.parts), reverse=True):
                    fsync_dir(folder)
                lock = WriterLock.acquire(staging.path)
                staging.release_owner()
                fsync_dir(staging.path)
                os.rename(staging.path, dest)
                fsync_dir(dest.parent)
                lock.moved_to(dest)
            except BaseException as error:
                staging.remove()
                if lock is not None:
                    lock.release()
                raise _unpack_error(error, bundle, dest, what) from None
    project = Project.open_locked(dest, lock)
    project.problems.extend(f"skipped {name}: no take, location or character uses it" for name in skipped)
    project.problems.extend(f"{name} is named by the project but is not in the bundle"
                            for name in missing if not _leads_out(name))
    if manifest.files is None:
        made_by = f"Kamishibai Studio {manifest.version}" if manifest.version else "an older Kamishibai Studio"
        project.problems.append(f"the bundle was made by {made_by}, whose bundles list no files: its files could "
                                "not be checked against a list (they were checked like any project's)")
    return project
