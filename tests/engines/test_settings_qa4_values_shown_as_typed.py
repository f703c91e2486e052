"""A refused setting names its value as a user types it (true/false, an empty value, text in
double quotes, lists and objects as JSON), not as Python writes it (True, None, 'abc',
{'a': 1}); a name written in another case is told its name; a preset's name is read in any
case, as a choice is; a re-roll's settings replace only the names given."""

from __future__ import annotations

from typing import Any

import pytest

from studio.engines.catalog.animegamer import AnimeGamerSettings
from studio.engines.catalog.mini import MiniSettings
from studio.engines.catalog.sketch import SketchSettings
from studio.engines.settings import EngineSettings, SettingsError, as_typed


@pytest.mark.parametrize(("settings", "values", "shown"), [
    (MiniSettings, {"candidates": None}, "got an empty value."),
    (MiniSettings, {"candidates": ""}, "got an empty value."),
    (MiniSettings, {"candidates": True}, "got true."),
    (MiniSettings, {"guidance": False}, "got false."),
    (MiniSettings, {"candidates": [1]}, "got [1]."),
    (MiniSettings, {"candidates": "x"}, 'got "x".'),
    (MiniSettings, {"temperature": "1e999"}, "got 1e999."),
    (MiniSettings, {"temperature": float("nan")}, "got NaN."),
    (AnimeGamerSettings, {"compile": None}, "got an empty value."),
    (AnimeGamerSettings, {"compile": "maybe"}, 'got "maybe".'),
    (AnimeGamerSettings, {"character": True}, "got true."),
    (SketchSettings, {"camera": {"a": 1}}, 'got {"a": 1}.'),
    (SketchSettings, {"preset": True}, "got true."),
])
def test_a_refused_value_is_shown_as_it_is_typed(settings: type[EngineSettings], values: dict[str, Any],
                                                 shown: str) -> None:
    with pytest.raises(SettingsError) as refused:
        settings.from_values(values)
    message = refused.value.message
    assert message.endswith(shown), message
    for python in ("True", "False", "None", "'x'", "'maybe'", "nan", "{'a'"):
        assert python not in message, message


def test_as_typed_is_short_and_plain() -> None:
    assert as_typed(10**60).endswith("(61 characters)")
    assert as_typed("  ") == "an empty value" and as_typed(2.5) == "2.5" and as_typed(-7) == "-7"
    assert as_typed(float("-inf")) == "-Infinity" and as_typed("a\nb") == '"a\\nb"'


def test_a_name_in_another_case_is_told_its_name() -> None:
    with pytest.raises(SettingsError, match="no setting 'Width': its name is 'width'") as refused:
        SketchSettings.from_values({"Width": 320})
    assert "width" in refused.value.hint
    with pytest.raises(SettingsError, match="no setting 'colour'") as unknown:  # no near name: the list
        SketchSettings.from_values({"colour": 1})
    assert "height, width" in unknown.value.hint


def test_a_preset_is_named_in_any_case() -> None:
    assert SketchSettings.from_values({"preset": "DRAFT"}) == SketchSettings.from_values(preset="draft")


def test_replacing_keeps_the_names_not_given() -> None:
    made = {"width": 160, "height": 112, "frames": 6, "gone_in_this_version": 1}
    assert SketchSettings.replacing(made, {"frames": 4}) == {"width": 160, "height": 112, "frames": 4}
    # a preset's names replace the take's too (draft: 360 x 240), its other names stay
    assert SketchSettings.replacing(made, {"preset": "draft"}) == {"width": 360, "height": 240, "frames": 6}
