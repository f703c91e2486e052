"""A new project made from a story held in memory, for a project whose database is damaged.

Save a copy normally reads the project's database (a consistent snapshot, as a bundle is
made). Once ``project.db`` is damaged that read fails, yet the open window still holds
the whole story as it was last saved. :func:`copy_from_memory` writes that story into a new,
healthy project and copies beside it every media file that can still be read; the damaged
project is only read."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.changes import EntityKind, Patch, key_of
from studio.core.errors import StudioError
from studio.core.model import CastMember, Location, Take
from studio.core.tree import StoryTree
from studio.storage.project import Project, _orders_after, remove_project_folder


@dataclass
class RescuedCopy:
    """The new project, open for writing, and the media files that could not be read."""

    project: Project
    unreadable: list[str] = field(default_factory=list)
    """The stored paths (``media/takes/…/clip.mp4``) whose files could not be copied."""


def media_of(entities: Iterable[object]) -> list[str]:
    """Every stored media path the story's turns, takes, cast and places name, once each, in order."""
    rels: list[str] = []
    for entity in entities:
        if isinstance(entity, Take):
            rels.extend(entity.media_paths())
        elif isinstance(entity, CastMember):
            rels.extend(rel for rel in entity.reference_images if rel)
        elif isinstance(entity, Location) and entity.image_path:
            rels.append(entity.image_path)
    return list(dict.fromkeys(rels))


def copy_opened(fd: int, target: Path) -> bool:
    """Write the file open for reading as ``fd`` (closed here) to ``target``, making its folder;
    False where it can't be read or written, with no part of it left at ``target``."""
    try:
        with os.fdopen(fd, "rb") as reading:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as writing:
                shutil.copyfileobj(reading, writing)
    except OSError:
        target.unlink(missing_ok=True)
        return False
    return True


@contextlib.contextmanager
def closed_or_removed(made: Project) -> Iterator[Path]:
    """Give the folder of ``made``, a project just created, to a block that writes into it; close
    the project after it. Where the block fails (Ctrl+C, a full disk) the folder is removed:
    nothing that looks like a project is left."""
    folder = made.path
    try:
        yield folder
    except BaseException:
        made.close()
        remove_project_folder(folder)
        raise
    made.close()


def _copy_file(source: Project, rel: str, folder: Path) -> bool:
    """Copy the source project's file ``rel`` into ``folder`` (read without following a link
    out of the source); False where it can't be read."""
    try:
        fd = source.open_media(rel)
    except (OSError, StudioError):
        return False
    return copy_opened(fd, folder / rel)


def readable_name(project: Project) -> str | None:
    """The name given to ``project`` (``new --name``) where its damaged database still gives it;
    None when it was given none, so that the copy is named for its own folder as any project
    made without a name is (or when the name can't be read)."""
    try:
        given = isinstance(project.database.meta().get("name"), str)
        return project.name if given else None
    except (StudioError, sqlite3.Error):
        return None


def copy_from_memory(source: Project, tree: StoryTree, dest: str | os.PathLike[str]) -> RescuedCopy:
    """Make the new project ``dest`` hold ``tree`` (the story as the window holds it) and the
    media of ``source`` that can still be read, then open it for writing.

    A copy that fails part way is removed: nothing that looks like a project is left."""
    entities = list(tree.entities())
    made = Project.create(dest, readable_name(source))  # the story keeps its name, where it can be read
    with closed_or_removed(made) as folder:
        patch: Patch = {(EntityKind.NODE, made.tree.root_id): None,  # the new project's own start
                        **{key_of(entity): entity for entity in entities}}
        made.database.write_patch(patch, _orders_after(tree, patch))
        unreadable = [rel for rel in media_of(entities) if not _copy_file(source, rel, folder)]
    return RescuedCopy(Project.open(folder), unreadable)
