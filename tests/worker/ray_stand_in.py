"""A stand-in for the ``ray`` module as far as joining a cluster goes, for tests that must
show the studio never asks Ray (a malformed address is refused before Ray is imported to join)."""

from __future__ import annotations

import time
from types import ModuleType


class RayThatMustNotJoin(ModuleType):
    """``ray`` whose ``init`` records the address it was asked for, waits ``delay_s`` (as a
    real join to an unreachable head would), then fails: a test asserts :attr:`inits` empty."""

    def __init__(self, delay_s: float = 0.0) -> None:
        super().__init__("ray")
        self.inits: list[object] = []
        self.delay_s = delay_s

    def is_initialized(self) -> bool:
        return False

    def init(self, *args: object, **kwargs: object) -> None:
        self.inits.append(kwargs.get("address"))
        if self.delay_s:
            time.sleep(self.delay_s)
        raise ConnectionError("Ray was asked")
