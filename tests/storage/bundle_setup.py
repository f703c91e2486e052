"""The project the bundle (and other storage) tests start from: one turn ``n1`` with one take ``t1`` whose clip
(:data:`CLIP_BYTES`, not really a video) is a file under ``media/``."""

from __future__ import annotations

from pathlib import Path

from studio.core import AddTake, AddTurn, Take
from studio.storage import Project

CLIP_BYTES = b"not really a video"
CLIP_PATH = "media/takes/t1/clip.mp4"


def project_with_one_take(path: Path) -> Project:
    """A new project at ``path`` holding turn ``n1`` and its take ``t1`` with a clip at
    :data:`CLIP_PATH`; the caller closes it."""
    project = Project.create(path)
    try:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town",
                              node_id="n1"))
        clip = f"{project.take_media_dir('t1')}/clip.mp4"
        with project.writing(clip) as tmp:
            tmp.write_bytes(CLIP_BYTES)
        project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", clip_path=clip)))
    except BaseException:
        project.close()
        raise
    return project
