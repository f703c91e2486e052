"""Turning an exception from an engine into a message and a hint for the user.

Out-of-memory errors are recognised by class name (``torch.cuda.OutOfMemoryError``) or by
the "CUDA out of memory" text of older torch versions, so torch is never imported here.
"""

from __future__ import annotations

import errno
import logging
import sys
from dataclasses import dataclass

from studio.core.errors import StudioError

log = logging.getLogger(__name__)

OOM_HINT = (
    "Try a smaller size or fewer frames, switch to a lighter engine, run it on another GPU or with "
    "offloading (Settings › Device, e.g. cuda:0+offload), or close other applications that use the GPU."
)


@dataclass(frozen=True)
class Failure:
    message: str
    hint: str = ""
    out_of_memory: bool = False


CPU_OOM_HINT = (
    "Try a smaller size or fewer frames, switch to a lighter engine, "
    "or close other applications to free memory."
)
DISK_FULL_HINT = ("Free some space on the disk that holds the project and the engine's caches (the system's "
                  "temporary folder too), then retry the job.")
CPU_OUT_OF_MEMORY = ("DefaultCPUAllocator: can't allocate memory", "Cannot allocate memory")
"""How torch's CPU allocator words a failed allocation (a RuntimeError, not a MemoryError)."""


def is_out_of_memory(error: BaseException) -> bool:
    for cls in type(error).__mro__:
        if cls.__name__ == "OutOfMemoryError":
            return True
    if isinstance(error, MemoryError):  # numpy's "Unable to allocate 3.1 GiB for an array ...", a bare one
        return True
    text = str(error)
    return isinstance(error, RuntimeError) and (
        "CUDA out of memory" in text or ("out of memory" in text.lower() and "cuda" in text.lower())
        or any(words in text for words in CPU_OUT_OF_MEMORY)
    )


def describe_failure(error: BaseException, engine: str = "", device: str = "") -> Failure:
    """A user-facing message for ``error``; never raises."""
    if is_out_of_memory(error):
        where = f" on {device}" if device else ""
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        detail = f" ({first_line[:200]})" if first_line else ""
        on_gpu = "cuda" in device.lower() or "cuda" in str(error).lower() or type(error).__name__ == "OutOfMemoryError"
        return Failure(f"The engine {engine!r} ran out of memory{where}{detail}.",
                       OOM_HINT if on_gpu else CPU_OOM_HINT, out_of_memory=True)
    if isinstance(error, StudioError):
        return Failure(error.message, error.hint)
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        where = f" ({error.filename})" if error.filename else ""
        return Failure(f"The engine {engine!r} ran out of disk space{where}: {error.strerror or error}.",
                       DISK_FULL_HINT)
    return Failure(str(error).strip() or f"The engine failed with {type(error).__name__}.")


def release_gpu_memory() -> None:
    """Give cached GPU memory back, but only if torch is already loaded (never import it)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return
    try:
        torch.cuda.empty_cache()
    except Exception:  # best effort after an error
        log.exception("torch.cuda.empty_cache failed")
