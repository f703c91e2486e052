"""The Qt binding we depend on must not leak references to None (PySide6 6.12.0 does:
one per processEvents(), which aborts CPython 3.11 after a few thousand calls)."""

import sys

from PySide6.QtCore import QCoreApplication


def test_process_events_keeps_none_refcount(qapp) -> None:  # type: ignore[no-untyped-def]
    before = sys.getrefcount(None)
    for _ in range(500):
        QCoreApplication.processEvents()
    assert sys.getrefcount(None) >= before - 50
