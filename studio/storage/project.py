"""A project on disk: ``NAME.kamishibai/`` with ``project.db`` and ``media/``.

Every command is written in one transaction before it counts, so a crash loses nothing
that was acknowledged. Media files are written atomically before the row that names them.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import itertools
import logging
import os
import shlex
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from studio import __version__
from studio.core.changes import ChangeSet, EntityKind, Patch
from studio.core.commands import Command
from studio.core.document import Document
from studio.core.errors import StudioError
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node, Take, TakeStatus, new_id, now_iso
from studio.core.state import CharacterState
from studio.core.text import (
    BIDI_CONTROLS,
    UNICODE_LINE_BREAKS,
    describe_character,
    first_zero_width,
    is_control,
    one_line,
    zero_width_problem,
)
from studio.core.tree import ORDERED_KINDS, StoryTree, TreeError
from studio.storage.atomic import atomic_path, fsync_dir, is_temp_name
from studio.storage.database import Database, UnfinishedChangeError, inspect_database
from studio.storage.errors import (
    DiskFullError,
    ProjectDamagedError,
    ProjectFileError,
    ProjectReadOnlyError,
    describe_os_error,
    destination_folder,
    full_error,
    read_only_error,
    restore_hint,
    unreadable_error,
    unwritable_folder_error,
)
from studio.storage.lock import LockHolder, WriterLock
from studio.storage.paths import (
    UnsafePathError,
    check_name,
    components,
    file_there,
    first_link,
    is_own_folder,
    not_a_folder,
    open_inside,
    resolve_inside,
)
from studio.storage.place import check_in_place
from studio.storage.rows import (
    COLUMN_FALLBACKS,
    FROM_VALUES,
    TABLES,
    RowValueError,
    node_from_values,
    take_from_values,
)
from studio.storage.staging import StagingDir, staging_prefix, sweep, sweep_copy_scratch
from studio.storage.unused_media import (
    PendingImports,
    remove_files,
    remove_unused_imports,
    remove_unused_take_folders,
    strings_in,
)

PROJECT_SUFFIX = ".kamishibai"
DB_NAME = "project.db"
MEDIA_DIR = "media"
RESOLVE_CACHE_SIZE = 100_000

Withheld = dict[tuple[EntityKind, str], dict[str, str]]
"""Stored paths the loaded tree was given empty (they lead outside the project), by entity."""


PARTIAL_MIN_AGE_S = 300.0
"""A media file's temporary ``.NAME.XXXXXXXX.part`` twin (see :func:`atomic_path`) left this
long unchanged was abandoned by a process that died writing it: opening the project for
writing removes it. A younger one may still be written by an encoder that outlives its
killed parent for a while."""

log = logging.getLogger(__name__)

MAX_NAME_CHARS = 200
"""A project's display name (window titles, exports' title cards)."""
NAME_MAX_BYTES = 255
"""The longest file or folder name the usual file systems take (ext4, APFS, NTFS)."""


def check_name_length(path: Path) -> None:
    """Refuse a path with a part longer than the file system takes, by name, before the
    operating system's bare "File name too long"."""
    for part in path.parts:
        size = len(os.fsencode(part))
        if size > NAME_MAX_BYTES:
            shown = part if len(part) <= 40 else f"{part[:20]}…{part[-12:]}"
            raise ProjectFileError(f"The name {shown!r} is {size:,} bytes long; a file or folder name may have "
                                   f"at most {NAME_MAX_BYTES}.", hint="Choose a shorter name.")


_DIRECTIONAL_HINT = ("Give the name without it. Right-to-left text needs only the plain direction marks "
                     "(U+200E, U+200F), which names may hold.")


_ZERO_WIDTH_HINT = "Remove it (retype the name rather than paste it)."


def _first_directional_control(text: str) -> tuple[int, str] | None:
    """The first directional embedding, override or isolate of ``text``
    (:data:`~studio.core.text.BIDI_CONTROLS`) as (position from 1, character), or None."""
    for position, char in enumerate(text, start=1):
        if char in BIDI_CONTROLS:
            return position, char
    return None


def check_project_folder_name(path: str | os.PathLike[str]) -> None:
    """Refuse a new project's path whose last name gives the folder no name of its own: empty,
    blank, or only dots and spaces once ``.kamishibai`` is set aside (``''``, ``.``, ``..``,
    ``...``, ``..kamishibai``, ``x/..``). Such a path names the folder it is in (or its
    parent), or would make a hidden ``...kamishibai`` folder. A name holding a directional
    control or a character that shows as nothing (see :func:`check_project_name`) is refused
    too. Every way of making a project asks this (the window's New Project, ``kamishibai
    new``, ``sample``, ``import-demo`` and ``unbundle``), so that all of them refuse the same
    names with the same message."""
    name = Path(path).expanduser().name
    if not name.removesuffix(PROJECT_SUFFIX).replace(".", "").strip():
        raise ProjectFileError(f"{os.fspath(path)!r} has no name to give the project folder.",
                               hint="Give a name, for example `kamishibai new my-story`.")
    for first, why, hint in (
            (_first_directional_control, "file dialogs and the recent projects would show the rest of the name "
             "reordered", _DIRECTIONAL_HINT),
            (first_zero_width, "it shows as nothing, so the folder looks like one named without it but is another",
             _ZERO_WIDTH_HINT)):
        found = first(name)
        if found is not None:
            position, char = found
            raise ProjectFileError(f"The folder name {name!r} holds {describe_character(char)} at character "
                                   f"{position}: {why}.", hint=hint)


def new_project_path(path: str | os.PathLike[str]) -> Path:
    """The folder a new project at ``path`` is made as: ``path`` with ``.kamishibai`` added
    when it lacks it, after the checks every way of making a project shares (the window's
    New Project, ``new``, ``sample``, ``import-demo`` and ``unbundle``).

    A suffix that is ``.kamishibai`` in other letters (``x.KAMISHIBAI``) is refused, where it
    became part of the name (``x.KAMISHIBAI.kamishibai``, a folder no command finds by
    ``x``). ``..`` in the folders above is followed first (``a/../b`` is ``b``, as the file
    system reads it; a linked ``a`` leads to its target's parent), where making the folder
    above made an ``a`` that was left behind, empty."""
    check_project_folder_name(path)
    given = Path(path).expanduser()
    if given.suffix != PROJECT_SUFFIX and given.suffix.lower() == PROJECT_SUFFIX:
        right = given.with_suffix(PROJECT_SUFFIX)
        raise ProjectFileError(f"{given} ends in {given.suffix}; project folders end in {PROJECT_SUFFIX}, in small "
                               "letters.", hint=f"Give {right}.")
    if ".." in given.parent.parts:
        given = Path(os.path.realpath(given.parent)) / given.name
    folder = given if given.suffix == PROJECT_SUFFIX else given.with_name(given.name + PROJECT_SUFFIX)
    check_name_length(folder)
    return folder


def check_project_name(name: str) -> None:
    """Refuse a project's display name (window titles, the sheets' footer, exports' titles)
    that is empty, holds a line break or another control character (C0, DEL or C1, named by
    its code point; U+2028 and U+2029 break a line too), a directional embedding, override
    or isolate (it shows the rest of the name reordered: ``Story``, U+202E, ``FDP.exe`` reads
    ``Storyexe.PDF``), a character that is not text (a lone surrogate, which SQLite can't
    store), a character that shows as nothing (U+200B, U+2060, U+FEFF; U+200C and U+200D
    where they join nothing: :func:`~studio.core.text.first_zero_width`), or is longer than
    :data:`MAX_NAME_CHARS`. The same rule as a character's name
    (:func:`~studio.core.text.name_shape_problem`)."""
    if not name.strip():
        raise ProjectFileError("The project name is empty.", hint="Give a name of one line.")
    for position, char in enumerate(name, start=1):
        code = ord(char)
        if is_control(char) or char in UNICODE_LINE_BREAKS:
            what = "a line break" if char in "\n\r" or char in UNICODE_LINE_BREAKS else "a control character"
            raise ProjectFileError(f"The project name {name!r} holds {what} (U+{code:04X}) at character {position}.",
                                   hint="Give a name of one line, without control characters.")
        if char in BIDI_CONTROLS:
            raise ProjectFileError(f"The project name {name!r} holds {describe_character(char)} at character "
                                   f"{position}: it would show the rest of the name reordered.",
                                   hint=_DIRECTIONAL_HINT)
        if 0xD800 <= code < 0xE000:
            raise ProjectFileError(f"The project name is not valid UTF-8 text (a bad byte at character {position}).",
                                   hint="Give the name as text; names are UTF-8.")
    if len(name) > MAX_NAME_CHARS:
        raise ProjectFileError(f"The project name is {len(name):,} characters long; the limit is "
                               f"{MAX_NAME_CHARS:,}.")
    invisible = zero_width_problem(name, "The project name")
    if invisible:
        raise ProjectFileError(invisible, hint=_ZERO_WIDTH_HINT)


def name_from_text(text: str) -> str:
    """A display name made from ``text`` that :func:`check_project_name` accepts: control
    characters (a folder may be named with a line break or an escape; a foreign file may store
    one) become spaces, runs of white space one space, and the length is cut to
    :data:`MAX_NAME_CHARS`. Used for a folder's name and for a stored name that fails the check,
    so that window titles, sheets and exports never carry a terminal escape or a broken line.
    Directional embeddings, overrides and isolates and U+2028/U+2029 become spaces too (a
    folder named ``Story``, U+202E, ``FDP.exe`` opens, named ``Story FDP.exe``), as in exports
    (:func:`studio.export.branch.clean_text`); a lone surrogate becomes U+FFFD. Characters that
    show as nothing are left out."""
    cleaned = one_line(text)[:MAX_NAME_CHARS]
    while (invisible := first_zero_width(cleaned)) is not None:
        cleaned = cleaned[:invisible[0] - 1] + cleaned[invisible[0]:]
    return cleaned.strip() or "Untitled"


def name_from_folder(folder: Path) -> str:
    """The display name a project gets from its folder (undecodable bytes replaced)."""
    return name_from_text(folder.stem.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


def is_project_folder(path: Path) -> bool:
    """A folder that holds a project database (what :meth:`Project.open` takes)."""
    return path.is_dir() and (path / DB_NAME).is_file()


def remove_project_folder(path: Path) -> None:
    """Delete the project folder at ``path`` with everything in it (a sample the user stopped
    while it was being built). Only a project folder, or an empty folder (stopped before its
    database was made), is removed: never a link, nor a folder holding anything else."""
    if path.is_symlink() or not path.is_dir():
        return
    try:
        empty = not any(path.iterdir())
    except OSError:
        return
    if empty or is_project_folder(path):
        shutil.rmtree(path, ignore_errors=True)


def project_damage(path: Path) -> str:
    """Why what stands at ``path``, where a project folder belongs, can never open as one: a
    file, a folder without a database, a database that is damaged (truncated by a crash, not
    SQLite, failing SQLite's quick check). '' when nothing or an empty folder is there, when
    it opens, and when what stops it is not damage (a link, a newer version's project, a
    change left unfinished, no permission): opening it says what to do then. Reads only
    (``make run`` asks it of the sample each time), so an intact project is left as it is."""
    if path.is_symlink() or not os.path.lexists(path):
        return ""
    kind = not_a_folder(path)
    if kind:
        return f"{path} is {kind}, not a project folder"
    if not os.path.lexists(path / DB_NAME):
        try:
            return f"{path} holds no {DB_NAME}" if any(path.iterdir()) else ""
        except OSError:
            return ""
    try:
        inspect_database(path / DB_NAME)
    except ProjectDamagedError as error:
        return error.message.rstrip(".")
    except ProjectFileError:
        return ""
    return ""


def enclosing_project(path: Path) -> Path | None:
    """The project folder ``path`` would lie inside (itself excluded; links followed),
    or None. A project must never be made inside another: the outer one's media folder
    would hold files it knows nothing of, and the inner one's exports could write into it."""
    here = Path(os.path.abspath(path.expanduser()))
    for candidate in (here, here.resolve()):
        for ancestor in candidate.parents:
            if is_project_folder(ancestor):
                return ancestor
    return None


def refuse_inside_project(path: Path, what: str) -> None:
    """Refuse to ``what`` at ``path`` when it is inside an existing project folder."""
    outer = enclosing_project(path)
    if outer is not None:
        raise ProjectFileError(f"Can't {what} at {path}: it is inside the project folder {outer}.",
                               hint="Choose a place outside every project folder (projects can't be nested).")


def _orders_after(tree: StoryTree, patch: Patch) -> dict[str, list[str]]:
    """For each ordered table ``patch`` touches (:data:`~studio.storage.rows.ORDERED_TABLES`),
    its ids in the order ``tree`` (the tree before the patch: the document writes a patch
    before it publishes the new tree) holds them once the patch is applied, so that the
    database keeps the order a reopened project shows. The tree's own rules place them (an
    edit stays where it stands, an undone removal goes back where it stood), applied to a
    tree of the cast and locations alone: cheap, and the rarely touched tables only."""
    kinds = {key[0] for key in patch} & set(ORDERED_KINDS)
    if not kinds:
        return {}
    small = StoryTree()
    small.cast, small.locations = dict(tree.cast), dict(tree.locations)
    small.apply_patch({key: entity for key, entity in patch.items() if key[0] in kinds})
    orders = {EntityKind.CAST: list(small.cast), EntityKind.LOCATION: list(small.locations)}
    return {TABLES[kind]: orders[kind] for kind in ORDERED_KINDS if kind in kinds}


def _linked_folder_error(folder: Path) -> ProjectFileError:
    """A new project's place is a link to an empty folder: the project is built beside it and
    renamed into place, which can't replace a link with a folder (the system said only "Not a
    directory"). Making it through the link would put it on whichever disk the link leads
    to, away from its work folder; so the user is told to name the folder itself."""
    target = Path(os.path.realpath(folder))
    there = f"; or make the project at {target} itself" if target.suffix == PROJECT_SUFFIX else ""
    return ProjectFileError(f"{folder} is a link to the folder {target}; a new project is made as a folder of "
                            "its own, not through a link.",
                            hint=f"Choose another name, or remove the link (the folder it leads to stays as it "
                            f"is){there}.")


def normalise_project_path(path: str | os.PathLike[str]) -> Path:
    """Accept the folder, the folder without its suffix, or its ``project.db``."""
    p = Path(path).expanduser()
    if p.name == DB_NAME:
        p = p.parent
    if p.suffix != PROJECT_SUFFIX and not p.exists() and p.with_name(p.name + PROJECT_SUFFIX).exists():
        p = p.with_name(p.name + PROJECT_SUFFIX)
    return p



_ROW_ERRORS = (ValueError, TypeError, KeyError, RecursionError)
"""What reading a row that holds something unreadable raises (bad JSON, a wrong type...)."""

_ROWS_NAMED = 10
"""The unreadable rows a message names one by one."""


def _read_row_by_row(kind: EntityKind, build: Any, rows: list[tuple[Any, ...]], problems: list[str],
                     entities: list[Any]) -> list[str]:
    """The rows of one table built one at a time, after one of them failed: the readable ones
    are added to ``entities``, and what is wrong with each of the others is returned, so that
    every bad row is reported at once (not one each time the project is opened)."""
    bad: list[str] = []
    for row in rows:
        try:
            if kind is EntityKind.NODE:
                entities.append(node_from_values(row, problems))
            elif kind is EntityKind.TAKE:
                entities.append(take_from_values(row, problems))
            else:
                entities.append(build(row))
        except _ROW_ERRORS as error:
            bad.append(str(error))
    return bad


def _unreadable_rows_message(folder: Path, unreadable: list[str]) -> str:
    db = folder / DB_NAME
    if len(unreadable) == 1:
        return f"{db} holds a row that can't be read: {unreadable[0]}."
    shown = "; ".join(unreadable[:_ROWS_NAMED])
    more = f"; and {len(unreadable) - _ROWS_NAMED} more" if len(unreadable) > _ROWS_NAMED else ""
    return f"{db} holds {len(unreadable)} rows that can't be read: {shown}{more}."

class Project:
    """An open project: its document (tree + undo) and its files.

    Opened for writing (the default), it holds the project's writer lock (see
    :mod:`studio.storage.lock`) from before the story is read until :meth:`close`, so its
    tree is always the one on disk. Opened with ``read_only=True`` it takes no lock and
    refuses every change.
    """

    def __init__(self, path: Path, database: Database, tree: StoryTree, problems: list[str],
                 lock: WriterLock | None = None, withheld: Withheld | None = None) -> None:
        self.path = path
        self.database = database
        self._withheld: Withheld = dict(withheld or {})
        self.document = Document(tree, persist=self._persist)
        self.problems = problems
        self._root = Path(os.path.realpath(path))
        """The project folder as it was when opened, links above it followed: the stored
        paths are checked against it."""
        self._resolved: dict[str, tuple[tuple[str, ...], Path]] = {}
        self._lock = lock
        self._imports = PendingImports()

    def _persist(self, patch: Any) -> None:
        """Write ``patch``, with every path the tree was given empty because it led outside
        the project (:func:`_drop_unsafe_paths`) written back as it was stored. The refusal
        is only for this opening (a media folder linked elsewhere for a while): an edit that
        rewrites the row (marking a take stale, say) must not erase the path for good."""
        if self._withheld:
            restored = dict(patch)
            for key, entity in patch.items():
                stored = self._withheld.get(key)
                if entity is None or not stored:
                    continue
                kept = {name: value for name, value in stored.items() if getattr(entity, name, None) == ""}
                if kept:
                    restored[key] = replace(entity, **kept)
            patch = restored
        if not self.read_only:  # a read-only project refuses the write itself, and says so
            self.check_in_place("save the change")
        self.database.write_patch(patch, _orders_after(self.document.tree, patch))
        self._imports.claim(patch.values())

    @property
    def read_only(self) -> bool:
        return self.database.read_only

    def check_in_place(self, what: str) -> None:
        """Refuse to ``what`` (:class:`ProjectMovedError`) once the project folder was moved,
        deleted or replaced since it was opened: one ``stat`` of ``project.db``.

        Asked before every media file is written by this project (:meth:`writing`, the imports
        of :mod:`studio.storage.media_import`) and before every change is committed. A commit
        would still reach the moved database by its file handle, but the media its rows name
        would have been written at the old place; and after a delete every commit goes to a file
        nobody can reach again, so refusing says so while the user can still act."""
        opened = self.database.identity
        if opened is not None:
            check_in_place(self.path, self.database.path, opened, what)

    # -- life cycle ---------------------------------------------------------------------

    @staticmethod
    def new_folder(path: str | os.PathLike[str], name: str | None = None) -> Path:
        """The folder :meth:`create` would make for ``path`` and ``name``, after the checks it
        makes first (a name, a free place outside every project); the window asks this before
        it closes the open project for a new one."""
        folder = new_project_path(path)
        if name is not None:
            check_project_name(name)
        refuse_inside_project(folder, "create a project")
        kind = not_a_folder(folder)
        if kind:
            what = "a file, not a folder" if kind == "a file" else kind
            raise ProjectFileError(f"{folder} already exists and is {what}; a project is a folder.",
                                   hint="Choose another name, or move that file away.")
        if folder.exists() and any(folder.iterdir()):
            raise ProjectFileError(f"{folder} already exists and is not empty.",
                                   hint="Choose another name, or open it instead.")
        if folder.is_symlink():
            raise _linked_folder_error(folder)
        return folder

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        name: str | None = None,
        cast: Iterable[CastMember] = (),
        locations: Iterable[Location] = (),
        start_state: CharacterState | None = None,
    ) -> Project:
        """Make a new project folder, built beside its final place and renamed into it, so
        that a failure (a full disk) leaves nothing behind that looks like a project."""
        folder = cls.new_folder(path, name)
        what = f"create the project {folder}"
        with destination_folder(folder.parent, what):  # a failure leaves no folder made for it
            prefix = staging_prefix(folder.name, "new")
            sweep(folder.parent, lambda entry: entry.startswith(prefix))
            try:
                staging = StagingDir(folder.parent, prefix)
            except OSError as error:
                raise unwritable_folder_error(error, folder.parent, what) from None
            lock: WriterLock | None = None
            try:
                lock = WriterLock.acquire(staging.path)
                # Only a name given is stored: without one, the project is named for its folder
                # wherever that goes (a copy, a rename, a bundle unpacked under another name).
                named = {"name": name} if name else {}
                root = Node(id=new_id(), parent_id=None, instruction=Instruction(raw=""),
                            start_state=start_state or CharacterState(), created_at=now_iso())
                patch: dict[Any, Any] = {(EntityKind.NODE, root.id): root}
                patch.update({(EntityKind.CAST, m.id): m for m in cast})
                patch.update({(EntityKind.LOCATION, loc.id): loc for loc in locations})
                try:
                    (staging.path / MEDIA_DIR).mkdir()
                    database = Database.create(staging.path / DB_NAME, {
                        **named, "project_id": new_id(), "created_at": now_iso(), "created_by": __version__,
                    })
                    try:
                        database.write_patch(patch)
                    finally:
                        database.close()
                    fsync_dir(staging.path)
                    staging.release_owner()
                    os.replace(staging.path, folder)
                    fsync_dir(folder.parent)
                except OSError as error:
                    if error.errno in (errno.ENOTEMPTY, errno.EEXIST):
                        raise ProjectFileError(f"{folder} already exists and is not empty.",
                                               hint="Choose another name, or open it instead.") from None
                    raise describe_os_error(error, folder.parent, what) from None
                except DiskFullError:  # said of the hidden work folder: say it of the project
                    raise full_error(folder.parent, what) from None
                except ProjectReadOnlyError:
                    raise read_only_error(folder.parent, what) from None
                lock.moved_to(folder)
            except BaseException:
                staging.remove()
                if lock is not None:
                    lock.release()
                raise
        try:
            database = Database.open(folder / DB_NAME)
        except BaseException:
            lock.release()
            raise
        tree = StoryTree.from_entities(patch.values())
        return cls(folder, database, tree, [], lock)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, read_only: bool = False, wait: float = 0.0,
             on_wait: Callable[[LockHolder | None], None] | None = None) -> Project:
        """Open a project; for writing (the default) wait up to ``wait`` seconds for
        another process that holds it (``on_wait(holder)`` is told once)."""
        folder = normalise_project_path(path)
        if folder.exists() and not folder.is_dir():
            raise ProjectFileError(f"{folder} is not a Kamishibai project (a project is a folder NAME.kamishibai).")
        if not folder.is_dir():
            raise ProjectFileError(f"No project at {folder}.", hint="Create one with `kamishibai new PATH`.")
        try:
            os.lstat(folder / DB_NAME)  # a link that leads nowhere is refused as a link
        except PermissionError:  # a folder this user may not look into: it may well hold one
            raise unreadable_error(folder, folder, f"open {folder}") from None
        except OSError:
            raise ProjectFileError(f"{folder} is not a Kamishibai project (it has no {DB_NAME}).") from None
        if not read_only:
            # Refuse a project that is not ours to write (newer, foreign) before the lock
            # file is made in it: a refused project is left exactly as it was.
            # Damage is judged later, under the lock (nobody can be writing then).
            # An unfinished change (a hot journal) is undone there too, under the lock.
            with contextlib.suppress(ProjectDamagedError, UnfinishedChangeError):
                inspect_database(folder / DB_NAME, integrity=False)
        lock = None if read_only else WriterLock.acquire(folder, wait, on_wait)
        return cls.open_locked(folder, lock)

    @classmethod
    def open_locked(cls, folder: Path, lock: WriterLock | None) -> Project:
        """Open ``folder`` whose writer ``lock`` the caller holds (None: read-only); the
        lock is released if opening fails."""
        try:
            database = Database.open(folder / DB_NAME, read_only=lock is None)
            try:
                tree, problems, withheld = cls._load(folder, database)
                problems[:0] = database.notes
            except BaseException:
                database.close()
                raise
        except BaseException:
            if lock is not None:
                lock.release(leave_no_trace=True)
            raise
        if lock is not None:  # nobody else writes the project's files now
            problems.extend(_remove_partial_media(folder))
            _remove_copy_scratch(folder.parent)
            problems.extend(remove_unused_imports(folder, tree, MEDIA_DIR))
            unfinished = _unfinished_job_takes(database)
            if unfinished is not None:
                problems.extend(remove_unused_take_folders(folder, tree, MEDIA_DIR, unfinished))
        return cls(folder, database, tree, problems, lock, withheld)

    @staticmethod
    def _load(folder: Path, database: Database) -> tuple[StoryTree, list[str], Withheld]:
        problems: list[str] = []
        withheld: Withheld = {}
        entities: list[Any] = []
        # Rows become acyclic value objects: the cyclic collector would only walk the
        # growing heap again and again while they are built (a third of the load time).
        collecting = gc.isenabled()
        gc.disable()
        unreadable: list[str] = []
        try:
            with database.snapshot():  # one moment: a writer may commit between tables
                for kind, table in TABLES.items():
                    columns, build = FROM_VALUES[kind]
                    try:
                        rows = database.values(table, columns, COLUMN_FALLBACKS.get(table))
                    except RowValueError as error:  # a value of the wrong type: said with the other tables'
                        unreadable.extend(error.each)
                        continue
                    made: Iterator[Any]
                    if kind is EntityKind.NODE:  # a bad duration is a problem, not a refusal
                        made = map(node_from_values, rows, itertools.repeat(problems))
                    elif kind is EntityKind.TAKE:  # so is a state change out of range
                        made = map(take_from_values, rows, itertools.repeat(problems))
                    else:
                        made = map(build, rows)
                    start = len(entities)
                    try:
                        entities.extend(made)
                    except _ROW_ERRORS:  # one bad row: read the table again row by row, naming each
                        del entities[start:]
                        unreadable.extend(_read_row_by_row(kind, build, rows, problems, entities))
        except _ROW_ERRORS as error:
            unreadable.append(str(error))
        finally:
            if collecting:
                gc.enable()
        if unreadable:
            raise ProjectDamagedError(_unreadable_rows_message(folder, unreadable), hint=restore_hint(folder))
        checked: list[Any] = []
        for entity in entities:
            if isinstance(entity, Take) and (entity.clip_path or entity.poster_path or entity.representation_path):
                entity = _drop_unsafe_paths(folder, entity, problems, withheld)
            elif isinstance(entity, Location) and entity.image_path:
                try:
                    resolve_inside(folder, entity.image_path)
                except UnsafePathError as error:
                    problems.append(f"location {entity.name!r}: {error.message}")
                    withheld[(EntityKind.LOCATION, entity.id)] = {"image_path": entity.image_path}
                    entity = replace(entity, image_path="")
            elif isinstance(entity, CastMember) and entity.reference_images:
                problems.extend(_reference_problems(folder, entity))
            checked.append(entity)
        try:
            tree = StoryTree.from_entities(checked)
            _check_structure(tree)
        except TreeError as error:
            raise ProjectDamagedError(f"{folder / DB_NAME} holds a broken story tree: {error}.",
                                      hint=restore_hint(folder)) from None
        problems.extend(_media_folder_problems(folder))
        problems.extend(_missing_clips(folder, tree))
        return tree, problems, withheld

    def close(self) -> None:
        """Remove the imported files no edit named, close the database, then let other
        writers in (idempotent)."""
        try:
            if not self.read_only:
                self.discard_imports()
            self.database.close()
        finally:
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the document -------------------------------------------------------------------

    @property
    def tree(self) -> StoryTree:
        return self.document.tree

    @property
    def name(self) -> str:
        """The story's name: the one given when it was made (``new --name``), else its
        folder's (:func:`name_from_folder`), which follows the folder when it is copied or
        renamed. Projects made before kept their first folder's name as a given one."""
        stored = self.database.meta().get("name")
        if not isinstance(stored, str):
            return name_from_folder(self.path)
        try:
            check_project_name(stored)
        except ProjectFileError:  # a foreign or hand-edited file; the stored value is left as it is
            return name_from_text(stored)
        return stored

    @property
    def name_and_folder(self) -> str:
        """:attr:`name`, with the folder's name after it where that is not the same (a project
        copied or renamed under another name keeps the name it was given): ``Night walk
        (in walk-v2.kamishibai)``. A folder named as the story in another case ("second" for
        "Second") is the same name: saying it again is noise."""
        name = self.name
        if name.casefold() == name_from_folder(self.path).casefold():
            return name
        return f"{name} (in {name_from_text(self.path.name)})"

    def apply(self, command: Command, *, undoable: bool = True) -> ChangeSet:
        """Apply and store ``command``; a refused one takes away the files imported for it
        (the views of a character whose name is taken), which nothing would ever name."""
        try:
            return self.document.apply(command, undoable=undoable)
        except BaseException:
            self.discard_imports(strings_in(command))
            raise

    def undo(self) -> ChangeSet | None:
        return self.document.undo()

    def redo(self) -> ChangeSet | None:
        return self.document.redo()

    # -- media --------------------------------------------------------------------------

    def resolve(self, rel: str) -> Path:
        """Absolute path of a stored relative path, refused (:class:`UnsafePathError`) if it
        leaves the project.

        Checked again at every call, because a file or folder of the project may be replaced by
        a link to elsewhere while the project is open: one ``lstat`` per part of the path (a
        poster's four take a few microseconds), none of which follows a link. Only a path that
        passes through a link is resolved in full, every time. What is remembered is the parsed
        path (views resolve the same poster paths on every redraw), never the verdict.
        """
        known = self._resolved.get(rel)
        if known is None:
            along = components(self._root, rel)
            known = (along, Path(along[-1]) if along else self._root)
            if len(self._resolved) < RESOLVE_CACHE_SIZE:
                self._resolved[rel] = known
        along, plain = known
        if first_link(along) is None:
            return plain
        return resolve_inside(self._root, rel)

    def open_media(self, rel: str) -> int:
        """A read-only file descriptor of the project's file ``rel``, opened without following
        any link (see :func:`~studio.storage.paths.open_inside`): for reads whose bytes the
        studio takes itself, so that not even a link swapped in between a check and the read
        leads outside the project. A path through a link that stays inside the project is
        opened at the place the link leads to, reached the same way. The caller closes it."""
        try:
            return open_inside(self._root, rel)
        except UnsafePathError:
            target = resolve_inside(self._root, rel)  # refused when the link leads outside
            return open_inside(self._root, target.relative_to(self._root).as_posix())

    def withholds(self, take_id: str, field_name: str) -> bool:
        """Whether take ``take_id``'s ``field_name`` (a media path) was emptied when the project
        was read, because it led outside the project folder (its problems say so)."""
        return field_name in self._withheld.get((EntityKind.TAKE, take_id), {})

    def note_import(self, rel: str) -> None:
        """Remember ``rel``, a file just imported into ``media/``, until an edit names it."""
        self._imports.add(rel)

    def is_pending_import(self, rel: str) -> bool:
        """Whether ``rel`` was imported and no stored edit names it yet."""
        return rel in self._imports

    def discard_imports(self, rels: Iterable[str] | None = None) -> list[str]:
        """Remove the imported files among ``rels`` (all of them, when None) that no edit has
        named since they were imported: the add they were copied for was refused or given up
        (a later view rejected). A file an edit named is never removed. Returns what was."""
        return remove_files(self.resolve, self._imports.take(rels))

    def take_media_dir(self, take_id: str) -> str:
        """Relative folder for a take's files; raises :class:`UnsafePathError` for an id
        that is not one plain name (``.``, ``..``, a separator), which would name another
        folder."""
        return f"{MEDIA_DIR}/takes/{check_name(take_id, 'take id')}"

    def remove_take_media(self, take_id: str) -> None:
        """Remove a take's folder (a failed, cancelled or interrupted job's leftovers).

        Nothing is removed for an id that is not one plain name (``.`` would be every take's
        folder) or a folder that resolves outside the project."""
        try:
            folder = self.resolve(self.take_media_dir(take_id))
        except UnsafePathError:
            return
        if folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)

    @contextlib.contextmanager
    def writing(self, rel: str) -> Iterator[Path]:
        """Write a media file atomically: ``with project.writing(rel) as tmp: save(tmp)``;
        refused before anything is made when the project folder is no longer where it was
        opened (:meth:`check_in_place`)."""
        self.check_in_place(f"write {rel}")
        target = self.resolve(rel)
        with atomic_path(target) as tmp:
            yield tmp

    def missing_media(self, take: Take) -> list[str]:
        return [p for p in take.media_paths() if not self.resolve(p).is_file()]

    def info(self) -> dict[str, Any]:
        meta = self.database.meta()
        tree = self.tree
        size = _folder_size(self.path)
        return {
            "path": str(self.path),
            "name": self.name,
            "schema_version": int(meta.get("schema_version", 0)),
            "created_at": meta.get("created_at", ""),
            "created_by": meta.get("created_by", ""),
            "turns": len(tree.nodes) - 1,
            "takes": len(tree.takes),
            "branches": len(tree.leaves_under(tree.root_id)) if len(tree.nodes) > 1 else 0,
            "cast": sorted(m.name for m in tree.cast.values()),
            "locations": sorted(loc.name for loc in tree.locations.values()),
            "size_bytes": size,
            "problems": list(self.problems),
        }


def _drop_unsafe_paths(folder: Path, take: Take, problems: list[str], withheld: Withheld) -> Take:
    """``take`` with each media path that leads outside the project emptied (and a problem
    said); the stored paths go to ``withheld``, so that writing the take keeps them."""
    changes: dict[str, str] = {}
    for field_name in ("representation_path", "clip_path", "poster_path"):
        rel = getattr(take, field_name)
        if not rel:
            continue
        try:
            resolve_inside(folder, rel)
        except UnsafePathError as error:
            problems.append(f"take {take.id} of node {take.node_id}: {error.message}")
            changes[field_name] = ""
    if changes:
        withheld[(EntityKind.TAKE, take.id)] = {name: getattr(take, name) for name in changes}
    return replace(take, **changes) if changes else take  # type: ignore[arg-type]  # only the str path fields


def _folder_size(folder: Path) -> int:
    """The bytes of the plain files inside ``folder``: a link is not followed (what it leads
    to, a file or a folder elsewhere, is not the project's), and a file that goes away
    while it is counted (a writer's temporary file, renamed meanwhile) is not counted."""
    size = 0
    for here, _dirs, names in os.walk(folder):  # never descends into linked folders
        for name in names:
            try:
                info = os.lstat(os.path.join(here, name))
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                size += info.st_size
    return size


def _unfinished_job_takes(database: Database) -> set[str] | None:
    """The take ids that jobs not yet finished (running, or interrupted and waiting to be
    settled or run again) hold: their folders are the queue's to settle, not unused. None
    when the jobs can't be read: then no take folder is judged unused."""
    try:
        rows = database.execute(
            "SELECT take_id FROM jobs WHERE take_id != '' AND status NOT IN ('done', 'failed', 'cancelled')")
        return {str(row[0]) for row in rows.fetchall()}
    except (StudioError, sqlite3.Error):
        return None


def _remove_copy_scratch(parent: Path) -> None:
    """Remove the work folders that a Save a copy killed beside this project left (each as big
    as the project it copied), never one a live studio still writes; logged, as it is not
    this project's news."""
    removed = sweep_copy_scratch(parent)
    if removed:
        log.warning("kamishibai: removed %s in %s, left by a Save a copy that was stopped",
                    ", ".join(path.name for path in removed), parent)


def _remove_partial_media(folder: Path) -> list[str]:
    """Remove the half-written temporary files that processes killed while writing media (an
    imported picture or scene clip, a take's file) left under ``media/``: nothing names
    them, they are never finished, and they can be large. Links are neither followed nor
    removed, ``media/`` itself included. Returns one line saying what was removed (none when nothing was)."""
    media = folder / MEDIA_DIR
    if not is_own_folder(media):  # a linked media folder: its files are not the project's to remove
        return []
    now = time.time()
    count = size = 0
    for here, _dirs, names in os.walk(media):  # never descends into linked folders
        for name in names:
            if not is_temp_name(name):
                continue
            path = Path(here) / name
            try:
                info = os.lstat(path)
                if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < PARTIAL_MIN_AGE_S:
                    continue
                path.unlink()
            except OSError:
                continue  # a courtesy: a file that can't be removed stays
            count += 1
            size += info.st_size
    if not count:
        return []
    line = (f"removed {count} half-written media file(s) ({size / 1e6:,.1f} MB) that a stopped import or "
            "generation left in media/")
    log.warning("kamishibai: %s: %s", folder, line)
    return [line]


def _reference_problems(folder: Path, member: CastMember) -> list[str]:
    """A note for each of a character's reference pictures whose path leads out of the project.

    Kept as they are in the document (each engine's context drops them, with the same words,
    when a turn is made), but said when the project opens, as a location's picture is."""
    notes: list[str] = []
    for position, rel in enumerate(member.reference_images, start=1):
        try:
            resolve_inside(folder, rel)
        except UnsafePathError as error:
            notes.append(f"character {member.name!r}, reference picture {position}: {error.message} "
                         "It is not used.")
    return notes


def _media_folder_problems(folder: Path) -> list[str]:
    """One line when ``media/`` is there but is not a folder (a file copied over it, a link
    that leads nowhere): the project opens, but every clip, poster and picture lives in it,
    so each generation and import would fail with the system's bare "Not a directory"."""
    kind = not_a_folder(folder / MEDIA_DIR)
    if not kind:
        return []
    return [f"{MEDIA_DIR}/ is {kind}, not a folder ({folder / MEDIA_DIR}): the project keeps its clips, posters "
            f"and pictures in it, so nothing can be generated or imported; move or rename it (it may hold something "
            f"of yours), and the studio makes the folder again"]


def _missing_clips(folder: Path, tree: StoryTree) -> list[str]:
    """One line for the finished takes whose clip file is gone (a media folder copied
    without, a file deleted by hand): the project opens, and the user learns which turns
    to re-roll instead of finding players that wait forever."""
    finished = [take for take in tree.takes.values() if take.status is TakeStatus.DONE and take.clip_path]
    found = {take.id: file_there(folder / take.clip_path) for take in finished}
    lines = []
    missing = [take for take in finished if found[take.id] is False]
    if missing:
        first = missing[0]
        lines.append(f"{len(missing)} clip file(s) are missing, one of them turn {tree.depth(first.node_id)}'s "
                     f"({first.clip_path}): re-roll those turns to make them again")
    blocked = [take for take in finished if found[take.id] is None]
    if blocked:
        first = blocked[0]
        lines.append(f"{len(blocked)} clip file(s) can't be reached for want of permission, one of them turn "
                     f"{tree.depth(first.node_id)}'s ({first.clip_path}): give yourself access to the project's "
                     f"media folder (`chmod -R u+rwX {shlex.quote(str(folder / MEDIA_DIR))}`)")
    return lines


def _check_structure(tree: StoryTree) -> None:
    """One root, every parent exists, no cycles, selected takes belong to their node."""
    _ = tree.root_id
    for node in tree.nodes.values():
        if node.parent_id is not None and node.parent_id not in tree.nodes:
            raise TreeError(f"node {node.id} has a missing parent {node.parent_id}")
        if node.selected_take_id and tree.takes.get(node.selected_take_id, None) is None:
            raise TreeError(f"node {node.id} selects a missing take {node.selected_take_id}")
        if node.selected_take_id and tree.takes[node.selected_take_id].node_id != node.id:
            raise TreeError(f"node {node.id} selects take {node.selected_take_id} of another node")
    for take in tree.takes.values():
        if take.node_id not in tree.nodes:
            raise TreeError(f"take {take.id} belongs to a missing node {take.node_id}")
    reachable = sum(1 for _ in tree.descendants(tree.root_id)) + 1
    if reachable != len(tree.nodes):
        raise TreeError(f"{len(tree.nodes) - reachable} node(s) are not reachable from the root (a cycle?)")


