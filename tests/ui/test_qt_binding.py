"""The Qt binding we depend on must not leak references to None (PySide6 6.12.0 does:
one per processEvents(), which aborts CPython 3.11 after a few thousand calls)."""

import subprocess
import sys

PROBE = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtWidgets import QApplication
app = QApplication([])
before = sys.getrefcount(None)
for _ in range(3000):
    app.processEvents()
print(before - sys.getrefcount(None))
"""


def test_process_events_keeps_none_refcount() -> None:
    # In a fresh process, so that nothing else frees or takes references to None meanwhile.
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lost = int(result.stdout.strip().splitlines()[-1])
    assert lost < 300, f"{lost} references to None lost in 3,000 processEvents() calls"
