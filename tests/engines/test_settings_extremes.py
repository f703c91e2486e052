"""Setting values at the edges of what a number can be: hundreds of digits, a hair beyond a
limit. Each is refused with a SettingsError that shows the value readably, never an
OverflowError from float() or a rounded number that looks allowed."""

from __future__ import annotations

import pytest

from studio.engines.catalog.mini import MiniSettings
from studio.engines.settings import SettingsError


@pytest.mark.parametrize("value", [10**400, "9" * 500, -(10**400)])
def test_a_number_too_large_for_a_float_is_a_settings_error(value: object) -> None:
    with pytest.raises(SettingsError) as raised:
        MiniSettings.from_values({"steps": value})
    message = str(raised.value)
    assert "must be a whole number" in message and "characters)" in message, message
    assert len(message) < 300, "the message repeats the whole value"


def test_a_float_setting_of_hundreds_of_digits_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="'fps'.*must be a number"):
        MiniSettings.from_values({"fps": 10**400})


def test_a_value_a_hair_beyond_a_limit_is_not_shown_as_the_limit() -> None:
    with pytest.raises(SettingsError, match=r"from 0 to 2, got 2\.0000001\."):
        MiniSettings.from_values({"temperature": 2.0000001})


def test_a_large_whole_number_is_shown_exactly() -> None:
    with pytest.raises(SettingsError, match=r"from 1 to 16, got 1000000000000000000000000000000\."):
        MiniSettings.from_values({"steps": 10**30})
