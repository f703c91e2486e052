"""Finding weights offline: checkpoints folders, then a (fake, real-layout) Hugging Face cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.engines.weights_search import find_weights, hf_hub_cache, hf_snapshot, repo_folder

COMMIT = "0123456789abcdef0123456789abcdef01234567"
OLDER = "fedcba9876543210fedcba9876543210fedcba98"


def add_snapshot(cache: Path, repo_id: str, commit: str, files: dict[str, bytes], ref: str | None = "main",
                 dangling: tuple[str, ...] = ()) -> Path:
    """Lay out a repo as huggingface_hub does: blobs, snapshot symlinks into them, refs."""
    repo = repo_folder(cache, repo_id)
    snapshot = repo / "snapshots" / commit
    for index, (name, data) in enumerate(files.items()):
        blob = repo / "blobs" / f"{commit[:8]}{index:04d}"
        blob.parent.mkdir(parents=True, exist_ok=True)
        link = snapshot / name
        link.parent.mkdir(parents=True, exist_ok=True)
        if name in dangling:  # an interrupted download: the blob is still .incomplete
            blob.with_suffix(".incomplete").write_bytes(data[:1])
        else:
            blob.write_bytes(data)
        link.symlink_to(os.path.relpath(blob, link.parent))
    if ref:
        (repo / "refs").mkdir(parents=True, exist_ok=True)
        (repo / "refs" / ref).write_text(commit)
    return snapshot


def test_the_cache_folder_follows_huggingface_hubs_rules(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert hf_hub_cache({}, home) == home / ".cache" / "huggingface" / "hub"
    assert hf_hub_cache({"XDG_CACHE_HOME": "/x"}, home) == Path("/x/huggingface/hub")
    assert hf_hub_cache({"XDG_CACHE_HOME": "/x", "HF_HOME": "/hf"}, home) == Path("/hf/hub")
    assert hf_hub_cache({"HF_HOME": "/hf", "HUGGINGFACE_HUB_CACHE": "/old"}, home) == Path("/old")
    assert hf_hub_cache({"HF_HUB_CACHE": "/new", "HUGGINGFACE_HUB_CACHE": "/old"}, home) == Path("/new")
    assert repo_folder(Path("/c"), "TencentARC/AnimeGamer") == Path("/c/models--TencentARC--AnimeGamer")
    assert repo_folder(Path("/c"), "gpt2") == Path("/c/models--gpt2")
    with pytest.raises(ValueError):
        repo_folder(Path("/c"), "a/b", "bucket")


def test_a_complete_snapshot_is_found_through_its_ref(tmp_path: Path) -> None:
    cache = tmp_path / "hub"
    add_snapshot(cache, "org/model", OLDER, {"model.safetensors": b"old"}, ref=None)
    snapshot = add_snapshot(cache, "org/model", COMMIT, {"config.json": b"{}", "unet/weights.safetensors": b"w"})
    found, said = hf_snapshot(cache, "org/model")
    assert found == snapshot and COMMIT[:12] in said
    assert (found / "unet" / "weights.safetensors").read_bytes() == b"w"  # through the symlink
    assert hf_snapshot(cache, "org/model", revision=OLDER)[0] == snapshot.parent / OLDER
    assert hf_snapshot(cache, "org/model", required=("config.json", "tokenizer.json"))[0] is None


def test_an_interrupted_download_does_not_count(tmp_path: Path) -> None:
    cache = tmp_path / "hub"
    add_snapshot(cache, "org/model", COMMIT, {"config.json": b"{}", "model.safetensors": b"weights"},
                 dangling=("model.safetensors",))
    found, said = hf_snapshot(cache, "org/model")
    assert found is None
    assert "lacks **/*.safetensors" in said and "interrupted" in said


def test_missing_refs_and_missing_repos_are_explained(tmp_path: Path) -> None:
    cache = tmp_path / "hub"
    assert hf_snapshot(cache, "org/absent") == (None, f"Hugging Face cache {repo_folder(cache, 'org/absent')}: "
                                                "not downloaded")
    only = add_snapshot(cache, "org/copied", COMMIT, {"model.safetensors": b"w"}, ref=None)
    assert hf_snapshot(cache, "org/copied")[0] == only  # the one snapshot there is
    add_snapshot(cache, "org/copied", OLDER, {"model.safetensors": b"w"}, ref=None)
    found, said = hf_snapshot(cache, "org/copied")
    assert found is None and "2 snapshots to choose from" in said
    (repo_folder(cache, "org/copied") / "refs").mkdir()
    (repo_folder(cache, "org/copied") / "refs" / "main").write_text("f" * 40)
    assert "not downloaded" in hf_snapshot(cache, "org/copied")[1]


def test_checkpoints_folders_come_first_then_the_cache(tmp_path: Path) -> None:
    beside_app, data = tmp_path / "app" / "checkpoints", tmp_path / "data" / "checkpoints"
    cache = tmp_path / "hub"
    snapshot = add_snapshot(cache, "org/mini", COMMIT, {"model.safetensors": b"w"})
    search = find_weights("mini", [beside_app, data], repo_id="org/mini", hf_cache=cache)
    assert search.found is not None and search.found.path == snapshot
    assert search.found.source == "huggingface" and search.found.revision == COMMIT
    assert search.looked[:2] == (f"{beside_app / 'mini'}: no such folder", f"{data / 'mini'}: no such folder")
    (data / "mini").mkdir(parents=True)
    (data / "mini" / "notes.txt").write_text("not weights")
    (beside_app / "mini").mkdir(parents=True)
    (beside_app / "mini" / "model.safetensors").write_bytes(b"w")
    search = find_weights("mini", [data, beside_app], repo_id="org/mini", hf_cache=cache)
    assert search.found is not None and search.found.path == beside_app / "mini"
    assert search.found.source == "checkpoints"
    assert "no **/*.safetensors" in search.looked[0]
    assert find_weights("mini", [data], repo_id="org/mini", hf_cache=None).found is None  # cache not searched
    nothing = find_weights("animegamer", [data], repo_id="org/animegamer", hf_cache=cache)
    assert nothing.found is None and "not downloaded" in nothing.explain()
