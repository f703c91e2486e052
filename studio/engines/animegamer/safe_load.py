"""Reading the released ``.bin`` / ``.pt`` files without running pickled code.

Every file goes through ``torch.load(weights_only=True)``: tensors, numbers, strings and
plain containers only. The deepspeed decoder file additionally holds SAT's saved numpy RNG
state, so for it (and only when asked) exactly the globals that rebuild a numpy array are
allowed: ``numpy.core.multiarray._reconstruct`` (``numpy._core`` since numpy 2),
``numpy.ndarray``, ``numpy.dtype`` and the uint32 dtype class (the Mersenne Twister's key
array); any other dtype, and so any object array, is still refused. Anything
else (a class, a function, ``os.system``) makes the load fail before it runs, and we name
the global in the error.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import torch

from studio.core.errors import StudioError


class UnsafeCheckpointError(StudioError):
    """A checkpoint that holds something other than tensors and plain data."""


class UnreadableCheckpointError(StudioError):
    """A checkpoint file that is damaged, cut short or not a PyTorch checkpoint at all."""


def _numpy_array_globals() -> list[Any]:
    import numpy as np

    try:
        from numpy._core import multiarray
    except ImportError:  # numpy 1.x
        from numpy.core import multiarray  # type: ignore[no-redef]
    reconstruct = multiarray._reconstruct
    # A file written with numpy 1.x names numpy.core; the same function lives in numpy._core now.
    return [(reconstruct, "numpy.core.multiarray._reconstruct"),
            (reconstruct, "numpy._core.multiarray._reconstruct"),
            np.ndarray, np.dtype, type(np.dtype(np.uint32))]


def load_weights(path: Path, *, allow_numpy_arrays: bool = False) -> Any:
    """The file's content, loaded with ``weights_only=True`` and memory-mapped when possible."""
    if not path.is_file():
        raise UnreadableCheckpointError(f"Missing {path}." if not path.exists() else f"{path} is not a file.",
                                        hint="Check the release's folder (see `kamishibai checkpoints doctor`).")
    try:
        if allow_numpy_arrays:
            with torch.serialization.safe_globals(_numpy_array_globals()):
                data = _load(path)
            _refuse_object_arrays(data, path)
            return data
        return _load(path)
    except pickle.UnpicklingError as error:
        found = re.search(r"GLOBAL ([\w.]+)", str(error))
        if found is None and not _starts_as_checkpoint(path):  # bytes that are no pickle at all
            raise UnreadableCheckpointError(f"{path} is not a PyTorch checkpoint (or is damaged); nothing in it "
                                            "was run.", hint=AGAIN) from None
        operand = re.search(r"Unsupported operand (\d+)", str(error))
        if found is None and operand is not None:  # QA: a file of plain tensors was said to hold an object
            raise UnsafeCheckpointError(
                f"Refused {path}: it was saved with a pickle protocol that PyTorch's safe loader can't read "
                f"(opcode {operand.group(1)}, as written by pickle_protocol=4 or newer); nothing in it was run.",
                hint="Use the file as released (the released files are read); a copy saved again with another "
                     "pickle protocol can't be read without running it.") from None
        what = f" ({found.group(1)})" if found else ""
        raise UnsafeCheckpointError(
            f"Refused {path}: it holds a pickled object that is not a tensor{what}; nothing in it was run.",
            hint="Only the released files are converted; a file from elsewhere may run code when unpickled.",
        ) from None
    except (RuntimeError, EOFError, OSError) as error:  # a cut-off zip archive, an empty file
        raise UnreadableCheckpointError(f"{path} can't be read as a PyTorch checkpoint: {_first_line(error)}.",
                                        hint=AGAIN) from None


def _starts_as_checkpoint(path: Path) -> bool:
    """Whether the file starts as a checkpoint does: a zip archive (``torch.save``) or a pickle
    (the PROTO opcode: the legacy format)."""
    try:
        with path.open("rb") as file:
            head = file.read(2)
        return head == b"PK" or head[:1] == b"\x80"
    except OSError:
        return False


AGAIN = "Download the released file again (an interrupted download or copy leaves a shorter file)."


def _first_line(error: BaseException) -> str:
    """The useful part of torch's long messages: their first sentence, without its full stop."""
    text = str(error).strip() or ("the file ends early" if isinstance(error, EOFError) else type(error).__name__)
    return text.splitlines()[0].split(". ")[0].rstrip(".")


def _load(path: Path) -> Any:
    import warnings

    with warnings.catch_warnings():  # torch's note on a newer pickle protocol asks to report it to PyTorch;
        warnings.filterwarnings("ignore", message="Detected pickle protocol", category=UserWarning)  # we refuse
        try:
            return torch.load(path, map_location="cpu", weights_only=True, mmap=True)
        except RuntimeError as error:
            if "mmap" not in str(error):
                raise
        return torch.load(path, map_location="cpu", weights_only=True)  # the legacy (non-zip) format


def _refuse_object_arrays(data: Any, path: Path) -> None:
    import numpy as np

    for value in _walk(data):
        if isinstance(value, np.ndarray) and value.dtype == object:
            raise UnsafeCheckpointError(f"Refused {path}: it holds a numpy array of Python objects.")


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _walk(item)


def tensors_of(data: Any, path: Path, *, under: str = "") -> dict[str, torch.Tensor]:
    """The flat name -> tensor dict at ``under`` (``"module"`` for deepspeed, ``"state_dict"``
    for the VAE); every value there must be a tensor."""
    state = data
    for part in (p for p in under.split(".") if p):
        if not isinstance(state, Mapping) or part not in state:
            raise UnsafeCheckpointError(f"{path} has no {under!r} dictionary.",
                                        hint="Is this the released file? See `kamishibai checkpoints doctor`.")
        state = state[part]
    if not isinstance(state, Mapping):
        raise UnsafeCheckpointError(f"{path}{' ' + under if under else ''} is not a dictionary of tensors.")
    out: dict[str, torch.Tensor] = {}
    hint = "Is this the released file? `kamishibai checkpoints doctor --source` lists the files the conversion reads."
    for name, value in state.items():
        if not isinstance(name, str):  # QA: this said "5 is a Tensor, not a tensor"
            raise UnsafeCheckpointError(f"{path} holds a key that is not text ({name!r}), so it is not a "
                                        "dictionary of named weights.", hint=hint)
        if not isinstance(value, torch.Tensor):
            raise UnsafeCheckpointError(f"{path}: {name!r} is a {type(value).__name__}, not a tensor.", hint=hint)
        out[name] = value
    return out
