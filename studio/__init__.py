"""Kamishibai Studio: a storyboard studio for branching generative anime stories."""

__version__ = "0.2.0"
