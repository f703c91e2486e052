"""The studio window (PySide6). The only package that imports Qt.

Views never poll the document: :mod:`studio.ui.qt_bridge` turns the worker's one event
path (change sets and job events, typed) into Qt signals delivered on the GUI thread, and
every view redraws from those. Views read ``project.tree``, an immutable snapshot, without
any lock; changes are submitted to the worker's writer (``ProjectSession.submit``).
"""
