"""``kamishibai doctor``: what this machine can run, and why an engine can't."""

from __future__ import annotations

import argparse
import json

from studio.cli.common import add_checkpoints_option, checkpoint_dirs, device_spec, printable

EXIT_CANT_RUN = 1


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check Python, torch and GPUs, ffmpeg, Qt and every engine")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--device", type=device_spec, default="cpu",
                   help="placement to check engines with: cpu, cuda:N, predict=cuda:0,decode=cuda:1, cuda:0+offload")
    add_checkpoints_option(p)
    p.set_defaults(handler=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from studio import composition
    from studio.doctor import collect_report, format_report
    from studio.engines.config import EngineConfig

    config = EngineConfig.parse(args.device, checkpoints=checkpoint_dirs(args.checkpoints))
    report = collect_report(composition.default_registry(), config)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(format_report(report, shown=printable))
    return 0 if report.ok else EXIT_CANT_RUN
