"""Re-pack an exported mini checkpoint's large matrices as int8 with per-row scales::

    python -m studio.engines.mini.pack checkpoints/mini            # the decoder blocks
    python -m studio.engines.mini.pack checkpoints/mini --lm       # and the LM

They take half the bytes of fp16 (the checkpoint has a size cap, and a larger decoder needs
the room). On lease 11's decoder the held-out evaluation read the same with int8 blocks; the
shipped LM's state measures were the same within one turn of 600 on two held-out seeds
(docs/mini/TRAINING_LOG.md). A file is replaced only once the new one is written, and the
manifest's size and SHA-256 follow it. A file that is int8 already is left as it is.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import torch

from studio.engines.mini import weights


def pack_int8(folder: Path, name: str) -> bool:
    """Re-write ``folder``'s weight file ``name`` with int8 matrices; False when it was int8 already."""
    manifest = weights.read_manifest(folder)
    path = weights.verify_file(folder, name, manifest)
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as handle:
        if any(key.endswith(weights.INT8_SCALE) for key in handle.keys()):  # noqa: SIM118 - not a dict
            return False
    state = weights.load_tensors(path)
    partial = path.with_name(path.name + ".partial")
    try:
        weights.save_tensors(partial, state, torch.float16, int8=True)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    manifest["files"] = weights.list_files(folder)
    weights.write_manifest(folder, manifest)
    return True


def pack_int8_blocks(folder: Path) -> bool:
    """Re-write ``folder``'s decoder blocks as int8; False when they were int8 already."""
    return pack_int8(folder, weights.DECODER)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.pack", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the checkpoint folder (it holds config.json)")
    parser.add_argument("--lm", action="store_true", help="also store the LM's matrices as int8")
    args = parser.parse_args(argv)
    for name in (weights.DECODER, weights.LM) if args.lm else (weights.DECODER,):
        path = args.folder / name
        before = path.stat().st_size if path.is_file() else 0
        changed = pack_int8(args.folder, name)
        after = path.stat().st_size
        print(f"{path}: {before:,} -> {after:,} bytes" if changed else f"{path} is int8 already ({after:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
