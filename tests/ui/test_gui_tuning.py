"""The window's background threads (poster and clip decoding) and what they start run at a
lower CPU priority than the GUI thread."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from studio.ui.gui_tuning import BACKGROUND_NICE, lower_this_thread

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's")

CHILD = "import os; print(os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0))"


def _priority(thread_id: int) -> tuple[int, int]:
    return os.getpriority(os.PRIO_PROCESS, thread_id), os.sched_getscheduler(thread_id)


def test_lower_this_thread_lowers_only_the_calling_thread_and_what_it_starts() -> None:
    ours = _priority(threading.get_native_id())
    seen: dict[str, object] = {}

    def background() -> None:
        me = threading.get_native_id()
        seen["first"] = lower_this_thread()
        seen["again"] = lower_this_thread()  # once per thread
        seen["thread"] = _priority(me)
        out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True).stdout
        nice, policy = (int(word) for word in out.split())
        seen["child"] = (nice, policy)

    worker = threading.Thread(target=background)
    worker.start()
    worker.join(60)
    expected = (max(ours[0], BACKGROUND_NICE), ours[1])  # nicer, same class (it shares the GIL)
    assert seen == {"first": True, "again": False, "thread": expected, "child": expected}
    assert _priority(threading.get_native_id()) == ours  # the GUI thread keeps its priority


def test_posters_are_decoded_on_a_lowered_thread(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PIL import Image

    from studio.ui.media_cache import PosterCache, load_poster

    path = tmp_path / "poster.png"
    Image.new("RGB", (720, 480), (200, 120, 40)).save(path)
    where: list[tuple[int, tuple[int, int]]] = []

    def work(name: str) -> object:
        me = threading.get_native_id()
        where.append((me, _priority(me)))
        return load_poster(name)

    cache = PosterCache()
    cache._work = work  # what the pool runs, observed
    with qtbot.waitSignal(cache.ready, timeout=10_000):
        assert cache.get(str(path)) is None  # scheduled
    image = cache.get(str(path))
    assert image is not None and image.width() == 324 and image.height() == 216
    (thread_id, priority), = where
    assert thread_id != threading.get_native_id()
    assert priority[0] >= BACKGROUND_NICE
