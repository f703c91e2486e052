"""The contrast ratio of two colours as WCAG 2 defines it (4.5:1 for body text), for the tests
that measure painted words against what they are painted on."""

from __future__ import annotations

from PySide6.QtGui import QColor


def luminance(color: QColor) -> float:
    """The colour's relative luminance, 0 (black) to 1 (white)."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(color.red()) + 0.7152 * channel(color.green()) + 0.0722 * channel(color.blue())


def contrast(a: str | QColor, b: str | QColor) -> float:
    """How many times brighter the lighter of the two colours is than the darker, 1 to 21."""
    high, low = sorted((luminance(QColor(a)), luminance(QColor(b))), reverse=True)
    return (high + 0.05) / (low + 0.05)
