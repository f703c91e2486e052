"""``kamishibai checkpoints convert``: the released files -> our safetensors layout.

Every key of every file read is accounted for: placed (with a shape check against the
model size), skipped by design (T5, OpenCLIP, peft's untrained copies, losses, fixed
positions), or an error that names it. A file that holds a pickled object other than
tensors is refused without running it (:mod:`.safe_load`). Every key our files must hold
has to come from somewhere, or the conversion fails naming the missing one. Files are
written to ``*.partial`` and renamed; ``<character>/model.json`` is written last.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import torch

from studio.core.errors import StudioError
from studio.engines.animegamer.base_config import base_config_problem, base_hint, find_tokenizer
from studio.engines.animegamer.release_steps import latest_hint, latest_problem
from studio.engines.animegamer.released import (
    Part,
    Placement,
    Skip,
    Target,
    Transform,
    Unplaced,
    expected_keys,
    place,
)
from studio.engines.animegamer.safe_load import AGAIN, UnreadableCheckpointError, load_weights, tensors_of
from studio.engines.animegamer.shards import ShardIndexError, find_index, indexed_shards, missing_numbered_shards
from studio.engines.animegamer.sizes import FULL, ModelSize
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog.animegamer_tokenizer import tokenizer_problem
from studio.engines.partial_files import check_writable, save_whole, write_whole

Log = Callable[[str], None]


class ConversionError(StudioError):
    """Keys that can't be placed, missing keys, wrong shapes or a missing source file."""


@dataclass
class KeyOutcome:
    source: str
    key: str
    shape: tuple[int, ...]
    outcome: str
    """``placed``, ``skipped`` or ``unplaced``."""
    detail: str


@dataclass
class Conversion:
    """What a conversion did (for the command's summary and for tests)."""

    outcomes: list[KeyOutcome] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(1 for o in self.outcomes if o.outcome == outcome)


class _Collector:
    """Placed tensors per target file, checking that nothing is placed twice."""

    def __init__(self, size: ModelSize, report: Conversion) -> None:
        self.size = size
        self.report = report
        self.files: dict[Target, dict[str, torch.Tensor]] = {t: {} for t in Target}
        self.origin: dict[tuple[Target, str], str] = {}
        self.errors: list[str] = []
        self.reshaped: dict[str, int] = {}
        """Per file read, how many of its weights have another shape than this size's."""

    def add(self, part: Part, source: Path, tensors: Mapping[str, torch.Tensor], *,
            only: Iterable[Target] = tuple(Target)) -> None:
        wanted = set(only)
        for key, tensor in tensors.items():
            rule = place(part, key, self.size)
            shape = tuple(tensor.shape)
            where = f"{source}: {key!r}"
            if isinstance(rule, Skip):
                self.report.outcomes.append(KeyOutcome(str(source), key, shape, "skipped", rule.reason))
                continue
            if isinstance(rule, Unplaced):
                self.report.outcomes.append(KeyOutcome(str(source), key, shape, "unplaced", rule.reason))
                self.errors.append(f"{where} can't be placed: {rule.reason}")
                continue
            if rule.target not in wanted:
                self.report.outcomes.append(KeyOutcome(str(source), key, shape, "skipped",
                                                       f"not needed ({rule.target.value} comes from elsewhere)"))
                continue
            if shape != rule.shape:
                self.report.outcomes.append(KeyOutcome(str(source), key, shape, "unplaced",
                                                       f"shape {shape}, expected {rule.shape}"))
                self.errors.append(f"{where} has shape {shape}; the {self.size.name}-size model needs {rule.shape}")
                self.reshaped[str(source)] = self.reshaped.get(str(source), 0) + 1
                continue
            for name, value in zip(rule.keys, _transform(rule, tensor), strict=True):
                previous = self.origin.get((rule.target, name))
                if previous is not None:
                    self.errors.append(f"{where} and {previous} both give {rule.target.value} {name!r}")
                    continue
                self.origin[(rule.target, name)] = where
                self.files[rule.target][name] = value
            self.report.outcomes.append(KeyOutcome(str(source), key, shape, "placed", rule.describe()))

    def missing(self, target: Target) -> list[str]:
        return [k for k in expected_keys(target, self.size) if k not in self.files[target]]

    def raise_errors(self) -> None:
        if self.errors:
            shown = "\n  ".join(self.errors[:20])
            more = f"\n  ... and {len(self.errors) - 20} more" if len(self.errors) > 20 else ""
            raise ConversionError(f"The conversion stopped; nothing was written for this character:"
                                  f"{self._sizes_line()}\n  {shown}{more}",
                                  hint="`kamishibai checkpoints plan` lists where every key of a file goes.")

    def _sizes_line(self) -> str:
        """A line first for the files of which many weights have other shapes: a model of
        another size. QA: a release of another size was refused in hundreds of lines, one a
        weight, the cause said nowhere."""
        many = [f"{source} ({count} weights)" for source, count in self.reshaped.items() if count >= 10]
        if not many:
            return ""
        return (f"\n  {', '.join(many)}: of another model size than the {self.size.name}-size model being "
                "converted (not the files of AnimeGamer's release?); the weights that don't fit:")


def _transform(rule: Placement, tensor: torch.Tensor) -> list[torch.Tensor]:
    if rule.transform is Transform.COPY:
        return [tensor.contiguous()]
    if rule.transform is Transform.SPLIT3:
        return [part.contiguous() for part in tensor.chunk(3, dim=0)]
    chunks = tensor.chunk(12, dim=0)  # ADALN: SAT's 12 modulations -> CogVideoX's two norms
    return [torch.cat([chunks[i] for i in (0, 1, 2, 6, 7, 8)]).contiguous(),
            torch.cat([chunks[i] for i in (3, 4, 5, 9, 10, 11)]).contiguous()]


def _save(tensors: Mapping[str, torch.Tensor], path: Path, report: Conversion,
          metadata: Mapping[str, str] | None = None) -> None:
    """Write ``path`` whole or not at all (:func:`save_whole`): a full disk or a folder we may
    not write to is a :class:`ConversionError` naming the file."""
    save_whole(dict(sorted(tensors.items())), path, metadata or {"format": "pt"}, _write_error)
    report.written.append(path)


def _write_error(path: Path, error: OSError) -> ConversionError:
    reason = error.strerror or type(error).__name__
    return ConversionError(f"Can't write {path}: {reason}.",
                           hint="Give --checkpoints a folder you can write to, with room for the converted files "
                                "(`kamishibai checkpoints doctor` lists their sizes).")


def _base_sources(folder: Path) -> list[Path]:
    """The base model's weight files: the shards its index names (each must be there: a
    shard missing from an interrupted download is named, not reported as missing keys),
    else every ``*.safetensors``, else every ``pytorch_model*.bin``."""
    if not folder.is_dir():
        return []
    index = find_index(folder)
    if index is not None:
        hint = "Download Mistral-7B-Instruct-v0.1 again (every file its index names)."
        try:
            shards = indexed_shards(index)
        except ShardIndexError as error:
            raise ConversionError(str(error), hint=hint) from None
        missing = [path.name for path in shards if not path.is_file()]
        if missing:
            raise ConversionError(f"{index} names {len(missing)} shard(s) that are not in {folder}: "
                                  f"{', '.join(missing)}.", hint=hint)
        return shards
    found = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("pytorch_model*.bin"))
    lost = missing_numbered_shards(found)
    if lost:
        raise ConversionError(f"{folder} lacks {len(lost)} shard(s) of Mistral-7B-Instruct-v0.1: "
                              f"{', '.join(path.name for path in lost)} (and its index file is missing too).",
                              hint="Download Mistral-7B-Instruct-v0.1 again (every file of it).")
    return found


def _read_base(path: Path) -> dict[str, torch.Tensor]:
    if path.suffix == ".safetensors":
        from safetensors import SafetensorError
        from safetensors.torch import load_file

        try:
            return load_file(str(path))
        except (SafetensorError, OSError, ValueError) as error:  # cut short, or not a safetensors file
            raise UnreadableCheckpointError(f"{path} can't be read as a safetensors file: {error}.",
                                            hint=AGAIN) from None
    return tensors_of(load_weights(path), path)


def convert_release(source: Path, checkpoints: Path, *, characters: Iterable[str] | None = None,
                    size: ModelSize = FULL, tokenizer: Path | None = None, replace_shared: bool = False,
                    log: Log = lambda _line: None) -> Conversion:
    """Convert the release under ``source`` (its ``checkpoints/`` folder) into ``checkpoints``."""
    source, dest = Path(source), layout.engine_folder(Path(checkpoints))
    # once each: `--character qiqi --character qiqi` converted (and read gigabytes) twice
    chosen = list(dict.fromkeys(characters if characters is not None else layout.release_characters(source)))
    if not chosen:
        raise ConversionError(f"No AnimeGamer character found under {source}.",
                              hint=f"Expected {source / layout.RELEASE_MLLM.format(name='Qiqi')}.")
    for character in chosen:  # before anything is read or written
        if character in layout.CHARACTERS:
            _release_decoder(source, character)
    found = _checked_tokenizer(source, dest, tokenizer)
    check_writable(dest, _write_error)
    report = Conversion()
    if found is not None:
        _copy_tokenizer(found, dest, report, log)
    for character in chosen:
        if character not in layout.CHARACTERS:
            raise ConversionError(f"Unknown character {character!r}.", hint=f"Known: {', '.join(layout.CHARACTERS)}.")
        _convert_character(source, dest, character, size, replace_shared, report, log)
        report.characters.append(character)
    return report


def _checked_tokenizer(source: Path, dest: Path, tokenizer: Path | None) -> Path | None:
    """The tokenizer folder to copy, checked whole (:func:`tokenizer_problem`) before anything
    is written; None when none is given or found and ``dest`` already holds one."""
    found = tokenizer or find_tokenizer(source)
    if found is None:
        if all((dest / "tokenizer" / name).is_file() for name in layout.TOKENIZER_FILES):
            return None
        raise ConversionError(f"AnimeGamer's tokenizer was not found near {source}.",
                              hint="Pass --tokenizer PATH/MLLM/VisualAR/animegamer_tokenizer (from the code release).")
    problem = tokenizer_problem(found)
    if problem is not None:  # a damaged file was copied as if whole, and the engine failed to load it
        raise ConversionError(f"{problem}.", hint="Nothing was written. Give --tokenizer the code release's "
                              "MLLM/VisualAR/animegamer_tokenizer folder, whole (download it again if a file is "
                              "damaged).")
    return found


def _copy_tokenizer(found: Path, dest: Path, report: Conversion, log: Log) -> None:
    target = dest / "tokenizer"
    if target.is_dir() and found.resolve() == target.resolve():
        return  # converting again with the converted tokenizer as the source: nothing to copy
    for name in layout.TOKENIZER_FILES:
        _copy_whole(found / name, target / name)
        report.written.append(target / name)
    log(f"tokenizer: copied from {found}")


def _copy_whole(source: Path, path: Path) -> None:
    """Copy ``source`` to ``path`` whole or not at all (see :func:`write_whole`)."""
    write_whole(path, lambda partial: shutil.copyfile(source, partial), _write_error)


def _need(path: Path | None, what: str) -> Path:
    if path is None or not path.is_file():
        raise ConversionError(f"Missing {what}{f' ({path})' if path else ''}.",
                              hint="Point SRC at the release's checkpoints/ folder.")
    return path


def _release_decoder(source: Path, character: str) -> Path | None:
    """The release's decoder file for ``character``, its ``latest`` file checked first
    (:mod:`.release_steps`)."""
    problem = latest_problem(source, character)
    if problem is not None:
        raise ConversionError(f"{problem[1]}.", hint=f"Nothing was written. {latest_hint()}")
    return layout.release_decoder_file(source, character)


def _convert_character(source: Path, dest: Path, character: str, size: ModelSize, replace_shared: bool,
                       report: Conversion, log: Log) -> None:
    name = layout.DISPLAY[character]
    collect = _Collector(size, report)
    base_path, vae_path = dest / layout.BASE_FILE, dest / layout.VAE_FILE
    need_base = replace_shared or not base_path.is_file()
    need_vae = replace_shared or not vae_path.is_file()

    mllm_file = _need(source / layout.RELEASE_MLLM.format(name=name), f"{name}'s MLLM file")
    log(f"{name}: reading {mllm_file}")
    collect.add(Part.MLLM, mllm_file, tensors_of(load_weights(mllm_file), mllm_file),
                only=(Target.MLLM, Target.BASE) if need_base else (Target.MLLM,))
    if need_base and collect.missing(Target.BASE):
        base_dir = source / layout.RELEASE_BASE_DIR
        problem = base_config_problem(base_dir, size)
        if problem is not None:  # before gigabytes are read (or the wrong model is converted without a word)
            raise ConversionError(f"{problem}.", hint=f"Nothing was written for {name}. {base_hint(base_dir)}")
        files = _base_sources(base_dir)
        if not files:
            raise ConversionError(f"{mllm_file} holds only the trained weights and {base_dir} has no weights.",
                                  hint="Put Mistral-7B-Instruct-v0.1 (its own download) next to AnimeGamer/.")
        for path in files:
            log(f"{name}: reading {path}")
            collect.add(Part.BASE, path, _read_base(path))

    decoder_file = _need(_release_decoder(source, character), f"{name}'s decoder file")
    log(f"{name}: reading {decoder_file}")
    decoder = tensors_of(load_weights(decoder_file, allow_numpy_arrays=True), decoder_file, under="module")
    release_vae = source / layout.RELEASE_VAE
    if need_vae and release_vae.is_file():
        log(f"{name}: reading {release_vae}")
        collect.add(Part.VAE, release_vae, tensors_of(load_weights(release_vae), release_vae, under="state_dict"))
        collect.add(Part.DECODER, decoder_file, decoder, only=(Target.DECODER,))
    else:
        collect.add(Part.DECODER, decoder_file, decoder,
                    only=(Target.DECODER, Target.VAE) if need_vae else (Target.DECODER,))

    for target, wanted in ((Target.MLLM, True), (Target.DECODER, True), (Target.BASE, need_base),
                           (Target.VAE, need_vae)):
        missing = collect.missing(target) if wanted else []
        if missing:
            collect.errors.append(f"{len(missing)} {target.value} weights are in none of the files read, "
                                  f"e.g. {missing[0]!r}")
    collect.raise_errors()

    folder = dest / character
    try:  # from here the character's files change: it is incomplete until model.json is written again
        (folder / layout.MODEL_FILE).unlink(missing_ok=True)
    except OSError as error:
        raise _write_error(folder / layout.MODEL_FILE, error) from None
    if need_base:
        _save(collect.files[Target.BASE], base_path, report)
        log(f"wrote {base_path}")
    if need_vae:
        _save(collect.files[Target.VAE], vae_path, report)
        log(f"wrote {vae_path}")
    for target, file_name in ((Target.MLLM, layout.MLLM_FILE), (Target.DECODER, layout.DECODER_FILE)):
        _save(collect.files[target], folder / file_name, report, {"format": "pt", "character": character})
        log(f"wrote {folder / file_name}")
    record = {
        "engine": layout.ENGINE, "character": character, "size": size.to_json(),
        "sources": {"mllm": str(mllm_file), "decoder": str(decoder_file)},
        "files": {str(p.relative_to(dest)): p.stat().st_size for p in
                  (base_path, vae_path, folder / layout.MLLM_FILE, folder / layout.DECODER_FILE)},
        "keys": {"placed": collect.report.count("placed"), "skipped": collect.report.count("skipped")},
    }
    model_json = folder / layout.MODEL_FILE
    write_whole(model_json, lambda partial: partial.write_text(json.dumps(record, indent=1), encoding="utf-8"),
                _write_error)
    report.written.append(model_json)
    log(f"{name}: done ({model_json})")
