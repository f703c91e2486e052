"""Pictures and scene clips copied into ``media/`` for an edit that never named them.

Adding a character copies its views into the project one by one before the edit that names
them is applied; when a later view is rejected, or the edit itself is refused (a name
already taken), the copies already made would stay behind, named by nothing. Two
safeguards, both limited to files an import made (:data:`IMPORT_FOLDERS`, names that end
in an import's random id):

- :class:`PendingImports` remembers, per open project, the files imported since they were
  last named by a written edit. A refused command drops the ones it names, :meth:`Project.discard_imports`
  the ones a caller gave up on, closing the project the ones nothing ever claimed.
- :func:`remove_unused_imports` removes, when a project is opened for writing, the imported
  files that no character, location or take names (a process killed between the copy and
  the edit left them). A file any row names, however its path is written, is kept.

Take folders (``media/takes/ID/``) are the same kind of leftover once their take row is
gone: :func:`remove_unused_take_folders` removes them at the same moment.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import posixpath
import re
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from studio.core.tree import StoryTree
from studio.storage.atomic import is_temp_name
from studio.storage.paths import (
    POSTER_NAME,
    REPRESENTATION_NAME,
    UnsafePathError,
    clip_names,
    is_own_folder,
    resolve_inside,
)

log = logging.getLogger(__name__)

IMPORT_FOLDERS = ("characters", "locations", "scenes")
"""The folders under ``media/`` that :mod:`studio.storage.media_import` writes into."""
IMPORTED_NAME_RE = re.compile(r"[a-z0-9-]+-[0-9a-f]{10}\.(?:png|mp4)")
"""An imported file's name: the source's slug, ``-``, a 10-digit random id, its suffix."""
UNUSED_MIN_AGE_S = 300.0
"""An unnamed imported file younger than this is left alone: it may belong to an edit that
another program, started before this one took the project, is about to make."""
_MAX_DEPTH = 6


def strings_in(value: Any, depth: int = 0) -> Iterator[str]:
    """Every string held by ``value``: a command or an entity (frozen dataclasses), and the
    tuples, lists and mappings they hold."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings_in(getattr(value, field.name, None), depth + 1)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings_in(item, depth + 1)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from strings_in(item, depth + 1)


def normal_rel(rel: str) -> str:
    """One spelling of a stored relative path: ``./media//x.png`` is ``media/x.png``."""
    return posixpath.normpath(rel.replace("\\", "/")) if rel else rel


class PendingImports:
    """The project-relative paths imported and not yet named by a written edit (in their
    :func:`normal_rel` spelling). Imports run on the window's thread and edits on the
    writer's: every method takes the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._paths: set[str] = set()

    def add(self, rel: str) -> None:
        with self._lock:
            self._paths.add(normal_rel(rel))

    def __contains__(self, rel: object) -> bool:
        with self._lock:
            return isinstance(rel, str) and normal_rel(rel) in self._paths

    def claim(self, entities: Iterable[Any]) -> None:
        """Forget the paths that ``entities`` (a written patch's) name: they are the project's now."""
        with self._lock:
            if not self._paths:
                return
            for entity in entities:
                self._paths.difference_update(map(normal_rel, strings_in(entity)))

    def take(self, rels: Iterable[str] | None = None) -> list[str]:
        """Forget and return those of ``rels`` (all, when None) that are pending."""
        with self._lock:
            taken = sorted(self._paths if rels is None else self._paths.intersection(map(normal_rel, rels)))
            self._paths.difference_update(taken)
            return taken


def remove_files(resolve: Callable[[str], Path], rels: Iterable[str]) -> list[str]:
    """Remove the files ``rels`` name (a link is removed, never followed); returns what was
    removed. Never raises: a file that can't be removed only stays."""
    removed: list[str] = []
    for rel in rels:
        try:
            path = resolve(rel)
            if stat.S_ISREG(os.lstat(path).st_mode):
                path.unlink()
                removed.append(rel)
        except (OSError, UnsafePathError):
            continue
    return removed


def named_media(folder: Path, tree: StoryTree) -> set[Path]:
    """The files every character, location and take names, resolved (``./media/x.png`` and
    ``media//x.png`` are one file)."""
    named: set[Path] = set()
    stored: list[str] = [loc.image_path for loc in tree.locations.values()]
    for member in tree.cast.values():
        stored.extend(strings_in(member))  # its views, and any path its parameters give
    for take in tree.takes.values():
        stored.extend(take.media_paths())
    for rel in stored:
        if not rel:
            continue
        try:
            named.add(resolve_inside(folder, rel))
        except (UnsafePathError, OSError, ValueError):
            continue
    return named


def unused_imports(folder: Path, tree: StoryTree, media_dir: str, now: float | None = None) -> list[Path]:
    """The imported files under ``folder/media_dir`` that nothing in ``tree`` names and that
    are at least :data:`UNUSED_MIN_AGE_S` old. Links (to a file or a folder, ``media/``
    itself included) are never followed or listed."""
    now = time.time() if now is None else now
    named: set[Path] | None = None
    found: list[Path] = []
    if not is_own_folder(folder / media_dir):  # linked elsewhere: no row can name its files
        return found
    for sub in IMPORT_FOLDERS:
        place = folder / media_dir / sub
        try:
            if not is_own_folder(place):
                continue
            entries = list(os.scandir(place))
        except OSError:
            continue
        for entry in entries:
            if not IMPORTED_NAME_RE.fullmatch(entry.name):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < UNUSED_MIN_AGE_S:
                continue
            if named is None:
                named = named_media(folder, tree)
            path = Path(entry.path)
            if path.resolve() not in named:
                found.append(path)
    return found


def remove_unused_imports(folder: Path, tree: StoryTree, media_dir: str) -> list[str]:
    """Remove :func:`unused_imports`; one line saying what went (none when nothing did)."""
    count = size = 0
    for path in unused_imports(folder, tree, media_dir):
        try:
            bytes_ = os.lstat(path).st_size
            path.unlink()
        except OSError:
            continue
        count += 1
        size += bytes_
    return _said_removed(folder, count, size, "imported picture(s) or scene clip(s)",
                         f"from {media_dir}/ that no character, location or take uses (an add that was refused or "
                         "stopped left them)")


def _said_removed(folder: Path, count: int, size: int, what: str, where_and_why: str) -> list[str]:
    """The one line (logged too) that says ``count`` files or folders of ``size`` bytes went; none
    when nothing did."""
    if not count:
        return []
    line = f"removed {count} {what} ({size / 1e6:,.1f} MB) {where_and_why}"
    log.warning("kamishibai: %s: %s", folder, line)
    return [line]


TAKES_FOLDER = "takes"
"""The folder under ``media/`` that holds one folder per take, named by the take's id."""
TAKE_FOLDER_RE = re.compile(r"[0-9a-f]{10}")
"""A take folder's name: a take id as :func:`studio.core.model.new_id` makes them."""
UNUSED_TAKE_MIN_AGE_S = UNUSED_MIN_AGE_S
"""A take folder touched more recently than this is left alone: an engine host of a process
that was stopped a moment ago (a cluster actor, say) may still be writing into it."""


def _take_file_names(take_id: str) -> frozenset[str]:
    """The files a take's folder holds: its clip under either name (``take-ID.mp4``, or
    ``clip.mp4`` in a project made before clips were named after their take)."""
    return frozenset({REPRESENTATION_NAME, POSTER_NAME}) | clip_names(take_id)


def _only_take_files(path: Path, now: float) -> bool:
    """Whether the folder ``path`` holds nothing but a take's own files (or their temporary
    files), all plain files, none of them (nor the folder) changed in the last
    :data:`UNUSED_TAKE_MIN_AGE_S`: anything else in it may be the user's (a clip named
    after another take, too)."""
    names = _take_file_names(path.name)
    try:
        newest = os.lstat(path).st_mtime
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.name not in names and not is_temp_name(entry.name):
                    return False
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    return False
                newest = max(newest, info.st_mtime)
    except OSError:
        return False
    return now - newest >= UNUSED_TAKE_MIN_AGE_S


def unused_take_folders(folder: Path, tree: StoryTree, media_dir: str, kept_ids: Iterable[str] = (),
                        now: float | None = None) -> list[Path]:
    """The take folders under ``folder/media_dir/takes`` that belong to no take of ``tree``
    and to none of ``kept_ids`` (the takes that jobs still waiting or running will write),
    whose files no take names, and that hold only a take's files. A turn deleted in the
    window and never brought back by undo, or a `play` stopped after its clip was made (its
    turn is not kept), left them: nothing can show them again, and every bundle would carry them."""
    now = time.time() if now is None else now
    takes = folder / media_dir / TAKES_FOLDER
    found: list[Path] = []
    if not is_own_folder(folder / media_dir) or not is_own_folder(takes):
        return found
    try:
        entries = list(os.scandir(takes))
    except OSError:
        return found
    kept = set(tree.takes) | set(kept_ids)
    named_folders: set[Path] | None = None  # the folders of the files takes name, once needed
    for entry in entries:
        if not TAKE_FOLDER_RE.fullmatch(entry.name) or entry.name in kept:
            continue
        if entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
            continue
        path = Path(entry.path)
        if not _only_take_files(path, now):
            continue
        if named_folders is None:
            named_folders = {file.parent for file in named_media(folder, tree)}
        if path.resolve() in named_folders:  # a take of another id uses its files
            continue
        found.append(path)
    return found


def remove_unused_take_folders(folder: Path, tree: StoryTree, media_dir: str,
                               kept_ids: Iterable[str] = ()) -> list[str]:
    """Remove :func:`unused_take_folders`; one line saying what went (none when nothing did)."""
    count = size = 0
    for path in unused_take_folders(folder, tree, media_dir, kept_ids):
        try:
            files = list(os.scandir(path))
            bytes_ = sum(entry.stat(follow_symlinks=False).st_size for entry in files)
            for entry in files:
                os.unlink(entry.path)
            path.rmdir()
        except OSError:
            continue  # a courtesy: what can't be removed stays
        count += 1
        size += bytes_
    return _said_removed(folder, count, size, "take folder(s)",
                         f"from {media_dir}/{TAKES_FOLDER}/ that no take uses (their turns were deleted, or a "
                         "stopped generation did not keep them)")
