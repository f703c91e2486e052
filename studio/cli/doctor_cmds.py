"""``kamishibai doctor``: what this machine can run, and why an engine can't."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from studio.cli.common import add_checkpoints_option, checkpoint_dirs, device_spec, printable

EXIT_CANT_RUN = 1


def absolute(folder: Path) -> Path:
    """``folder`` as an absolute path: a relative one ("./ckpt") is resolved against the
    current folder, so the report names where it looked however it is read later. One given
    absolute is kept as typed (a link is not followed: it names the folder the user knows)."""
    return folder if folder.is_absolute() else folder.resolve()


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check Python, torch and GPUs, ffmpeg, Qt and every engine",
                       description="Check what this machine can run: Python, torch and its GPUs, ffmpeg, Qt, and "
                       "each engine (its weights, its device), saying why one can't run. Exit status 1 when a "
                       "component (Python, torch, ffmpeg, Qt) is broken or missing, or when no engine at all can "
                       "run here; an engine that can't run while another can is reported, with exit status 0.")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--device", type=device_spec, default="cpu",
                   help="placement to check engines with: cpu, cuda:N, predict=cuda:0,decode=cuda:1, cuda:0+offload")
    add_checkpoints_option(p)
    p.set_defaults(handler=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from studio import composition
    from studio.doctor import collect_report, format_report
    from studio.engines.config import EngineConfig

    if args.checkpoints and not Path(args.checkpoints).expanduser().is_dir():
        # every weight file was listed missing under it, which hid the mistyped folder
        from studio.cli.folder_args import CHECKPOINTS_FOLDER_HINT, require_folder

        require_folder("--checkpoints", str(Path(args.checkpoints).expanduser()), CHECKPOINTS_FOLDER_HINT)
    folders = [absolute(folder) for folder in checkpoint_dirs(args.checkpoints)]
    config = EngineConfig.parse(args.device, checkpoints=folders)
    report = collect_report(composition.default_registry(), config,
                            given=str(args.checkpoints) if args.checkpoints else "")
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(format_report(report, shown=printable))
    return 0 if report.ok else EXIT_CANT_RUN
