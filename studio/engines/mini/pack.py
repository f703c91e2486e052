"""Re-pack an exported mini checkpoint's decoder blocks as int8 with per-row scales::

    python -m studio.engines.mini.pack checkpoints/mini

The blocks' matrices take half the bytes of fp16 (the checkpoint has a size cap, and a larger
decoder needs the room); on lease 11's decoder the held-out evaluation read the same with
either (docs/mini/TRAINING_LOG.md). The file is replaced only once the new one is written,
and the manifest's size and SHA-256 follow it. A file that is int8 already is left as it is.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import torch

from studio.engines.mini import weights


def pack_int8_blocks(folder: Path) -> bool:
    """Re-write ``folder``'s decoder blocks as int8; False when they were int8 already."""
    manifest = weights.read_manifest(folder)
    path = weights.verify_file(folder, weights.DECODER, manifest)
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as handle:
        if any(name.endswith(weights.INT8_SCALE) for name in handle.keys()):  # noqa: SIM118 - not a dict
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.pack", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the checkpoint folder (it holds config.json)")
    args = parser.parse_args(argv)
    before = (args.folder / weights.DECODER).stat().st_size if (args.folder / weights.DECODER).is_file() else 0
    changed = pack_int8_blocks(args.folder)
    after = (args.folder / weights.DECODER).stat().st_size
    print(f"{args.folder / weights.DECODER}: {before:,} -> {after:,} bytes" if changed
          else f"{args.folder / weights.DECODER} is int8 already ({after:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
