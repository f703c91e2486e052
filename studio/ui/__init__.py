"""The studio window (PySide6). The only package that imports Qt.

Views never poll the document: :mod:`studio.ui.qt_bridge` turns the document's change
sets and the worker's job events into Qt signals delivered on the GUI thread, and every
view redraws from those.
"""
