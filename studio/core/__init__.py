"""The story document: pure Python, no imports from the rest of the studio."""

from studio.core.changes import ChangeSet
from studio.core.commands import (
    AddCastMember,
    AddLocation,
    AddTake,
    AddTurn,
    Command,
    DeleteSubtree,
    EditInstruction,
    Fork,
    MoveAmongSiblings,
    SelectTake,
    SetBookmark,
    SetNotes,
)
from studio.core.document import Document, UndoStack
from studio.core.instruction import MAX_INSTRUCTION_CHARS, Instruction, InstructionError, parse_instruction
from studio.core.model import CastMember, Location, Node, Take, TakeStatus
from studio.core.state import CharacterState, StateDeltas
from studio.core.tree import StoryTree

__all__ = [
    "MAX_INSTRUCTION_CHARS",
    "AddCastMember",
    "AddLocation",
    "AddTake",
    "AddTurn",
    "CastMember",
    "ChangeSet",
    "CharacterState",
    "Command",
    "DeleteSubtree",
    "Document",
    "EditInstruction",
    "Fork",
    "Instruction",
    "InstructionError",
    "Location",
    "MoveAmongSiblings",
    "Node",
    "SelectTake",
    "SetBookmark",
    "SetNotes",
    "StateDeltas",
    "StoryTree",
    "Take",
    "TakeStatus",
    "UndoStack",
    "parse_instruction",
]
