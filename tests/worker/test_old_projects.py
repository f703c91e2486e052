"""Projects made before engine protocol v2 open and run unchanged.

``tests/fixtures/project-v0.1.0.zip`` was made by release 0.1.0 (before this protocol):
three sketch turns generated with the settings the old window pushed into every job
(72 x 48, 3 frames, 8 fps), representation files without a representation space, and a
re-roll left queued.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import numpy as np

from studio.composition import default_registry
from studio.engines.base import GenerationContext
from studio.storage import Project
from studio.storage.media import probe, read_representation
from studio.worker import GenerationService, HostMode

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project-v0.1.0.zip"


def _unpack(tmp_path: Path) -> Path:
    with zipfile.ZipFile(FIXTURE) as archive:
        archive.extractall(tmp_path)
    return tmp_path / "v1-story.kamishibai"


def _snapshot(project: Project) -> dict[str, object]:
    tree = project.tree
    return {
        "nodes": {n.id: (n.parent_id, n.instruction.raw, n.selected_take_id) for n in tree.nodes.values()},
        "takes": {t.id: (t.engine, dict(t.settings), t.deltas, t.motion_level, t.stale) for t in tree.takes.values()},
        "states": {n: tree.state_of(n) for n in tree.nodes},
    }


def test_an_old_project_opens_unchanged_and_its_queue_runs(tmp_path: Path) -> None:
    path = _unpack(tmp_path)
    media_before = {p.relative_to(path): hashlib.sha256(p.read_bytes()).hexdigest()
                    for p in (path / "media").rglob("*") if p.is_file()}
    with Project.open(path) as project:
        before = _snapshot(project)
        assert len(project.tree.takes) == 3
        old_take = next(iter(project.tree.takes.values()))
        _array, metadata = read_representation(project.resolve(old_take.representation_path))
        assert "representation_space" not in metadata  # written before spaces existed

        seen: list[GenerationContext] = []
        registry = default_registry()
        info = registry.info("sketch")

        def spying(config):  # type: ignore[no-untyped-def]
            from studio.engines.sketch import SketchEngine

            engine = SketchEngine(config)
            original = engine.predict

            def predict(context, *args, **kwargs):  # type: ignore[no-untyped-def]
                seen.append(context)
                return original(context, *args, **kwargs)

            engine.predict = predict  # type: ignore[method-assign]
            return engine

        registry.register(info, spying)
        service = GenerationService(project, registry, default_engine="sketch", hosts=HostMode.IN_PROCESS)
        queued = [j for j in service.jobs() if j.status.value == "queued"]
        assert len(queued) == 1 and dict(queued[0].settings) == {"fps": 8.0, "frames": 3, "height": 48, "width": 72}
        service.start()
        try:
            assert service.wait_jobs([queued[0].id], 60)
            job = service.job(queued[0].id)
            assert job.status.value == "done", job.error
        finally:
            service.stop(timeout=20)
        new_take = project.tree.takes[job.take_id]
        assert (new_take.settings["width"], new_take.settings["height"], new_take.settings["frames"]) == (72, 48, 3)
        assert new_take.warnings == ()  # every old setting is still a sketch setting
        info_clip = probe(project.resolve(new_take.clip_path))
        assert (info_clip.width, info_clip.height, info_clip.frames) == (72, 48, 3)
        # The re-rolled turn read its parent's old representation: same engine, same shape.
        parent = seen[-1].history[-1]
        assert parent.engine == "sketch" and parent.representation_space == info.capabilities.representation.space
        parent_take = project.tree.selected_take(project.tree.node(new_take.node_id).parent_id)  # type: ignore[arg-type]
        assert parent_take is not None
        np.testing.assert_array_equal(parent.representation,
                                      read_representation(project.resolve(parent_take.representation_path))[0])
        after = _snapshot(project)
    # Everything that was there is as it was (the re-roll added a take and selected it).
    assert after["nodes"].keys() == before["nodes"].keys()  # type: ignore[attr-defined]
    for take_id, value in before["takes"].items():  # type: ignore[attr-defined]
        assert after["takes"][take_id][:4] == value[:4]  # type: ignore[index]
    for rel, digest in media_before.items():
        assert hashlib.sha256((path / rel).read_bytes()).hexdigest() == digest
