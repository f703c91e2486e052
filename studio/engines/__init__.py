"""Engines turn an instruction into a prediction (state + representation) and a clip.

Only ``base`` and ``registry`` are imported eagerly; each engine subpackage is imported
when it is first created, so heavy libraries load only when used.
"""
