"""A reference view left out of a turn's context (its path leads outside the project) is named,
with its path and the reason, in the failure of an engine that needs the views, and in the
warnings of one that does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from studio.core import AddCastMember, AddTurn, CastMember
from studio.engines.catalog import customx, sketch
from studio.storage import Project
from studio.storage.media_import import import_images
from studio.worker.context import ReferenceViewError, build_context

SIDES = ("front", "left", "back", "right")


def _project_with_views(tmp_path: Path, character: str = "Aoi") -> tuple[Project, str, tuple[str, ...]]:
    sources = []
    for index, side in enumerate(SIDES):
        source = tmp_path / f"{side}-view.png"
        Image.new("RGB", (32, 48), (40 * index, 90, 200)).save(source)
        sources.append(source)
    project = Project.create(tmp_path / "story")
    views = tuple(import_images(project, sources))
    project.apply(AddCastMember(CastMember(id="aoi", name="Aoi", reference_images=views)))
    project.apply(AddCastMember(CastMember(id="ren", name="Ren")))
    node_id = "n1"
    project.apply(AddTurn(project.tree.root_id, f"Character: {character}; Motion: wave; Background: day town.",
                          node_id=node_id))
    return project, node_id, views


def _lead_outside(project: Project, rel: str, tmp_path: Path) -> Path:
    """Replace the project's file ``rel`` by a link to a picture outside the project."""
    outside = tmp_path / "elsewhere.png"
    Image.new("RGB", (32, 48), (255, 0, 0)).save(outside)
    inside = project.path / rel
    inside.unlink()
    inside.symlink_to(outside)
    return outside


def test_engine_needing_views_fails_naming_the_view_its_path_and_why(tmp_path: Path) -> None:
    project, node_id, views = _project_with_views(tmp_path)
    with project:
        # resolved once while the project is open, as a redraw or an earlier turn would
        assert all(project.resolve(rel).is_file() for rel in views)
        back = views[2]
        _lead_outside(project, back, tmp_path)
        info = customx.INFO
        with pytest.raises(ReferenceViewError) as caught:
            build_context(project, node_id, info, info.settings())
    message = caught.value.message
    assert "Aoi's back view" in message
    assert back in message
    assert "outside the project" in message
    assert "3 of its 4" in message
    assert "Reference views" in caught.value.hint


def test_named_character_without_any_view_left_fails_too(tmp_path: Path) -> None:
    project, node_id, views = _project_with_views(tmp_path)
    with project:
        for rel in views:
            (project.path / rel).unlink()
            (project.path / rel).symlink_to(tmp_path / "front-view.png")
        info = customx.INFO
        with pytest.raises(ReferenceViewError) as caught:
            build_context(project, node_id, info, info.settings())
    assert all(rel in caught.value.message for rel in views)
    assert "0 of its 4" in caught.value.message


def test_other_characters_view_and_engines_without_views_only_warn(tmp_path: Path) -> None:
    project, node_id, views = _project_with_views(tmp_path, character="Ren")
    with project:
        _lead_outside(project, views[0], tmp_path)
        # CustomX animates Ren (named); Aoi's lost view is a warning, with its path and reason
        info = customx.INFO
        snapshot = build_context(project, node_id, info, info.settings())
        told = [w for w in snapshot.warnings if views[0] in w]
        assert told and "Aoi's front view" in told[0] and "outside the project" in told[0]
        aoi = next(m for m in snapshot.context.cast if m.name == "Aoi")
        assert len(aoi.reference_images) == 3
        assert all(Path(p).resolve().is_relative_to(Path(project.path).resolve()) for p in aoi.reference_images)
        # an engine that reads no views generates the turn; the warning stays
        plain = build_context(project, node_id, sketch.INFO, sketch.INFO.settings())
        assert any(views[0] in w and "outside the project" in w for w in plain.warnings)


def test_views_kept_whole_build_the_context(tmp_path: Path) -> None:
    project, node_id, views = _project_with_views(tmp_path)
    with project:
        info = customx.INFO
        snapshot = build_context(project, node_id, info, info.settings())
    aoi = next(m for m in snapshot.context.cast if m.name == "Aoi")
    assert [Path(p).name for p in aoi.reference_images] == [Path(v).name for v in views]
    assert not [w for w in snapshot.warnings if "left out" in w]


def test_missing_view_fails_the_turn_before_the_engine_starts(tmp_path: Path) -> None:
    project, node_id, views = _project_with_views(tmp_path)
    with project:
        (project.path / views[1]).unlink()
        info = customx.INFO
        with pytest.raises(ReferenceViewError) as caught:
            build_context(project, node_id, info, info.settings())
        # an engine that reads no views is not stopped by it
        assert build_context(project, node_id, sketch.INFO, sketch.INFO.settings()).node.id == node_id
    assert f"Aoi's left view ({views[1]}) can't be used: the file is missing." in caught.value.message


def test_representation_swapped_for_a_link_is_not_read(tmp_path: Path) -> None:
    """The history's representations are read through a descriptor opened part by part, so a
    take's file replaced by a link to elsewhere gives no representation, never the other file."""
    import numpy as np

    from studio.core import Take
    from studio.storage.media import write_representation
    from studio.worker.context import RepresentationCache

    project, _node_id, _views = _project_with_views(tmp_path)
    with project:
        rel = "media/takes/t1/representation.safetensors"
        write_representation(project.path / rel, np.ones((2, 3), dtype=np.float32),
                             {"representation_space": "test/2x3"})
        take = Take(id="t1", node_id="n1", engine="sketch", representation_path=rel)
        stored = RepresentationCache().get(project, take, lambda _take, _array: "")
        assert stored is not None and stored.space == "test/2x3" and stored.array.sum() == 6
        outside = tmp_path / "other.safetensors"
        write_representation(outside, np.zeros((2, 3), dtype=np.float32), {"representation_space": "test/2x3"})
        (project.path / rel).unlink()
        (project.path / rel).symlink_to(outside)
        assert RepresentationCache().get(project, take, lambda _take, _array: "") is None
