"""Typed engine settings: one frozen dataclass per engine, with ranges, choices and help.

An engine declares its settings as a subclass of :class:`EngineSettings` whose fields are
made with :func:`setting`; the window renders a form from :meth:`EngineSettings.schema`,
jobs carry only the values the user changed (:meth:`EngineSettings.overrides`), and a
take stores every value used (:meth:`EngineSettings.to_values`). Values from users, job
rows and old takes go through :meth:`EngineSettings.from_values`, which names the bad
value and the allowed range instead of guessing.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Self, TypeVar

from studio.core.errors import StudioError

_SPEC = "kamishibai.setting"


class SettingsError(StudioError):
    """A setting value that the engine does not accept (the message names it)."""


class SettingKind(StrEnum):
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    CHOICE = "choice"
    TEXT = "text"


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One setting as a form shows it."""

    name: str
    label: str
    kind: SettingKind
    default: Any
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    advanced: bool = False

    def describe_range(self) -> str:
        if self.kind is SettingKind.CHOICE:
            return "one of " + ", ".join(self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"at least {self.minimum:g}"
        if self.maximum is not None:
            return f"at most {self.maximum:g}"
        return ""


@dataclass(frozen=True, slots=True)
class Preset:
    """Named values. ``changes_output``: the preset trades fidelity for speed (labelled so)."""

    name: str
    label: str
    values: Mapping[str, Any]
    help: str = ""
    changes_output: bool = False


@dataclass(frozen=True, slots=True)
class _Meta:
    label: str
    help: str
    minimum: float | None
    maximum: float | None
    step: float | None
    choices: tuple[str, ...]
    unit: str
    advanced: bool


def setting(default: Any, *, label: str, help: str = "", minimum: float | None = None,
            maximum: float | None = None, step: float | None = None, choices: tuple[str, ...] = (),
            unit: str = "", advanced: bool = False) -> Any:
    """A settings field with its form metadata (use as the field's default)."""
    meta = _Meta(label, help, minimum, maximum, step, tuple(choices), unit, advanced)
    return field(default=default, metadata={_SPEC: meta})


_S = TypeVar("_S", bound="EngineSettings")


def _kind_of(value: Any, meta: _Meta) -> SettingKind:
    if meta.choices:
        return SettingKind.CHOICE
    if isinstance(value, bool):
        return SettingKind.BOOL
    if isinstance(value, int):
        return SettingKind.INT
    if isinstance(value, float):
        return SettingKind.FLOAT
    return SettingKind.TEXT


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """Base of every engine's settings dataclass (subclasses are frozen dataclasses too).

    Subclasses set ``ENGINE`` (the engine's name, used in messages) and may set
    ``PRESETS``. Conventional names the studio reads when present: ``height``, ``width``,
    ``frames``, ``fps`` (the clip the engine makes) and ``history_window``.
    """

    ENGINE: ClassVar[str] = "engine"
    PRESETS: ClassVar[tuple[Preset, ...]] = ()

    # -- schema -------------------------------------------------------------------------
    @classmethod
    def schema(cls) -> tuple[SettingSpec, ...]:
        specs: list[SettingSpec] = []
        for f in dataclasses.fields(cls):
            meta = f.metadata.get(_SPEC)
            if not isinstance(meta, _Meta):
                raise TypeError(f"{cls.__name__}.{f.name} must be declared with setting(...)")
            specs.append(SettingSpec(
                name=f.name, label=meta.label, kind=_kind_of(f.default, meta), default=f.default, help=meta.help,
                minimum=meta.minimum, maximum=meta.maximum, step=meta.step, choices=meta.choices, unit=meta.unit,
                advanced=meta.advanced,
            ))
        return tuple(specs)

    @classmethod
    def spec(cls, name: str) -> SettingSpec:
        for item in cls.schema():
            if item.name == name:
                return item
        raise cls._no_setting(name)

    @classmethod
    def _no_setting(cls, name: Any) -> SettingsError:
        """The error for a name the engine has no setting of: one written in another case
        (``Width``) is told its name, the others the list of the engine's settings."""
        wanted = str(name).strip().casefold()
        for item in cls.schema():
            if item.name.casefold() == wanted:
                return SettingsError(f"{cls.ENGINE} has no setting {name!r}: its name is {item.name!r}.",
                                     hint=f"Setting names are written as the engine lists them: {item.name}.")
        return SettingsError(f"{cls.ENGINE} has no setting {name!r}.", hint=cls._known_hint())

    @classmethod
    def _known_hint(cls) -> str:
        presets = f"; or preset=NAME, one of {', '.join(p.name for p in cls.PRESETS)}" if cls.PRESETS else ""
        return "Its settings: " + ", ".join(s.name for s in cls.schema()) + presets + "."

    @classmethod
    def preset(cls, name: str) -> Preset:
        for item in cls.PRESETS:  # any case in, as for a choice
            if item.name.casefold() == name.strip().casefold():
                return item
        known = ", ".join(p.name for p in cls.PRESETS) or "none"
        raise SettingsError(f"{cls.ENGINE} has no preset {name!r}.", hint=f"Its presets: {known}.")

    # -- values -------------------------------------------------------------------------
    @classmethod
    def defaults(cls) -> Self:
        return cls()

    @classmethod
    def from_values(cls, values: Mapping[str, Any] | None = None, *, preset: str = "",
                    ignore_unknown: bool = False) -> Self:
        """Validated settings: the engine's defaults, then ``preset``, then ``values``.

        A ``preset`` entry among ``values`` names a preset too (``--setting preset=NAME``).
        Unknown names are refused (``ignore_unknown`` drops them instead: for values stored
        by an older version). Numbers given as text are read; nothing else is guessed.
        """
        if values is None:
            values = {}
        if not isinstance(values, Mapping):
            raise SettingsError(f"{cls.ENGINE} settings must be name/value pairs, got {type(values).__name__}.")
        if "preset" in values and "preset" not in {s.name for s in cls.schema()}:
            values = dict(values)
            preset = cls._preset_name(values.pop("preset")) or preset
        merged: dict[str, Any] = {}
        if preset:
            merged.update(cls.preset(preset).values)
        merged.update(values)
        specs = {s.name: s for s in cls.schema()}
        unknown = [k for k in merged if k not in specs]
        if unknown and not ignore_unknown:
            raise cls._no_setting(unknown[0])
        chosen = {name: _coerce(cls.ENGINE, specs[name], value) for name, value in merged.items() if name in specs}
        return cls(**chosen)

    @classmethod
    def replacing(cls, previous: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
        """``previous`` (the values a take was made with) with ``values`` in place of the names
        they give, to pass to :meth:`from_values`: a re-roll given one setting changes that one
        and keeps the take's others. A preset among ``values`` replaces the names it sets too;
        names in ``previous`` this version doesn't have (an older version's) are dropped."""
        names = {s.name for s in cls.schema()}
        given = dict(values)
        if "preset" in given and "preset" not in names:
            preset = cls._preset_name(given.pop("preset"))
            if preset:
                given = {**cls.preset(preset).values, **given}
        kept = {name: value for name, value in previous.items() if name in names and name not in given}
        return {**kept, **given}

    @classmethod
    def _preset_name(cls, value: Any) -> str:
        """A ``preset`` value as a preset's name ("" or None: no preset); anything but text is refused."""
        if value is None or value == "":
            return ""
        if not isinstance(value, str):
            known = ", ".join(p.name for p in cls.PRESETS) or "none"
            raise SettingsError(f"{cls.ENGINE} preset must be a preset's name, got {as_typed(value)}.",
                                hint=f"Its presets: {known}.")
        return value

    @classmethod
    def coerce(cls, value: EngineSettings | Mapping[str, Any] | None) -> Self:
        """``value`` as this class: itself, or validated from a mapping (None: defaults)."""
        if isinstance(value, cls):
            return value
        if isinstance(value, EngineSettings):
            raise SettingsError(f"{cls.ENGINE} can't use settings of {value.ENGINE}.")
        return cls.from_values(value)

    def to_values(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def overrides(self) -> dict[str, Any]:
        """The values that differ from the engine's defaults."""
        base = type(self)()
        return {k: v for k, v in self.to_values().items() if getattr(base, k) != v}

    def value(self, name: str, default: Any = None) -> Any:
        """A conventional setting (``frames``, ``fps`` ...) if this engine has it."""
        return getattr(self, name, default)


SettingsType = TypeVar("SettingsType", bound=EngineSettings)
#: The conventional clip-size settings: whole pixels, and even (H.264's 4:2:0 colour needs it).
FRAME_SIZE_SETTINGS = frozenset({"height", "width"})


def _coerce(engine: str, spec: SettingSpec, value: Any) -> Any:
    where = f"{engine} setting {spec.name!r} ({spec.label})"
    if spec.kind is SettingKind.BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            return value.strip().lower() in ("true", "yes", "1", "on")
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise SettingsError(f"{where} must be true or false, got {as_typed(value)}.")
    if spec.kind is SettingKind.CHOICE:
        text = str(value).strip().casefold() if isinstance(value, str) else None
        for choice in spec.choices:  # any case in, the declared spelling out
            if choice.casefold() == text:
                return choice
        raise SettingsError(f"{where} must be {spec.describe_range()}, got {as_typed(value)}.",
                            hint=f"The default is {spec.default}.")
    if spec.kind is SettingKind.TEXT:
        if not isinstance(value, str):
            raise SettingsError(f"{where} must be text, got {as_typed(value)}.")
        return value
    number = _number(where, spec, value)
    if (spec.minimum is not None and number < spec.minimum) or (spec.maximum is not None and number > spec.maximum):
        if spec.kind is SettingKind.INT:
            shown = as_typed(value if isinstance(value, int) else int(number))  # float(10**30) is not 10**30
        else:
            shown = f"{number:g}"
            if float(shown) in (spec.minimum, spec.maximum):
                shown = repr(number)  # 2.0000001 is not "2", the limit itself
        raise SettingsError(f"{where} must be {spec.describe_range()}, got {shown}.",
                            hint=f"The default is {spec.default:g}.")
    if spec.name in FRAME_SIZE_SETTINGS and spec.kind is SettingKind.INT and int(number) % 2:
        raise SettingsError(f"{where} must be an even number of pixels, got {int(number)}.",
                            hint="Video files store colour at half resolution, so clip sizes are even; "
                                 f"use {int(number) - 1} or {int(number) + 1}.")
    return int(number) if spec.kind is SettingKind.INT else float(number)


def _number(where: str, spec: SettingSpec, value: Any) -> float:
    whole = spec.kind is SettingKind.INT
    wanted = "a whole number" if whole else "a number"
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SettingsError(f"{where} must be {wanted}, got {as_typed(value)}.")
    try:
        number = float(value)
    except (ValueError, OverflowError):  # OverflowError: a whole number of hundreds of digits
        hint = f"It is {spec.describe_range()}." if spec.describe_range() else ""
        raise SettingsError(f"{where} must be {wanted}, got {as_typed(value)}.", hint=hint) from None
    if not math.isfinite(number) or (whole and number != int(number)):
        # a number given as text (1e999, 2.5 typed on the command line): shown as typed, unquoted
        shown = as_typed(value.strip()).strip('"') if isinstance(value, str) else as_typed(value)
        raise SettingsError(f"{where} must be {wanted}, got {shown}.")
    return number


def as_typed(value: Any, most: int = 40) -> str:
    """``value`` as a message to a user shows it: as it is typed on the command line or in a
    settings file, not as Python writes it (``True``, ``None``, ``'abc'``, ``{'a': 1}``):
    true/false, "an empty value" for null and blank text, text in double quotes, lists and
    objects as JSON; cut short when it is longer than ``most`` characters."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        text = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    elif isinstance(value, int | float):
        text = str(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        except (TypeError, ValueError, RecursionError):  # not JSON-able: a value from code, not typed
            text = repr(value)
    return text if len(text) <= most else f"{text[:20]}... ({len(text):,} characters)"
