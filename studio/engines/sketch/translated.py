"""An instruction's fields put into the English words the sketch world knows, field by field:
what the Japanese and the Chinese readers share (each with its own word tables)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from studio.core.instruction import Instruction

FIELDS = ("motion", "free_text", "background", "time_of_day", "camera", "adverb")
"""The fields a turn's words are read in (the Character field is a name: never read)."""


def fields_in_english(instr: Instruction, names: Iterable[str], tables: Mapping[str, Any],
                      as_read: Callable[[str], str], words_in_english: Callable[[str, Any, Iterable[str]], str],
                      ) -> Instruction:
    """``instr`` with each field of :data:`FIELDS` as ``as_read`` reads it, put into English by
    ``words_in_english(text, tables[field], names)``; the same instruction when no field changed.

    A Background field that is one of ``names`` and nothing else is read as a place: the field
    says where, so 海 there is the sea even with someone called 海 in the cast."""
    names = tuple(names)
    read = {name: as_read(getattr(instr, name)) for name in FIELDS}
    place_named = instr.background.strip() in names
    new = {name: words_in_english(read[name], tables[name], () if name == "background" and place_named else names)
           for name in FIELDS}
    if all(new[name] == read[name] for name in FIELDS):
        return instr
    return replace(instr, motion=new["motion"], free_text=new["free_text"], background=new["background"],
                   time_of_day=new["time_of_day"], camera=new["camera"], adverb=new["adverb"])
