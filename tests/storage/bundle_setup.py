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


def relist(bundle: Path) -> Path:
    """Rewrite ``bundle``'s manifest to list the files it holds now, as a program that repacks
    a bundle would: a test that changes a bundle's files this way checks what unbundling makes
    of their content, past the manifest's check of damage."""
    import hashlib
    import zipfile

    from studio import __version__
    from studio.storage.bundle import MANIFEST
    from studio.storage.bundle_manifest import ListedFile, manifest_text

    with zipfile.ZipFile(bundle) as archive:
        kept = [(info, archive.read(info)) for info in archive.infolist() if info.filename != MANIFEST]
    files = [ListedFile(info.filename, len(data), hashlib.sha256(data).hexdigest())
             for info, data in kept if not info.is_dir()]
    with zipfile.ZipFile(bundle, "w") as archive:
        for info, data in kept:
            archive.writestr(info, data)
        archive.writestr(MANIFEST, manifest_text("relisted", __version__, files))
    return bundle
