"""The story document: pure Python, no imports from the rest of the studio."""

from studio.core.changes import ChangeSet
from studio.core.commands import (
    AddCastMember,
    AddDialogueLine,
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
    SetDialogue,
    SetDuration,
    SetNarration,
    SetNotes,
    SetShotNotes,
    SetStartState,
    SetStateScope,
    SetStory,
)
from studio.core.document import Document, UndoStack
from studio.core.instruction import MAX_INSTRUCTION_CHARS, Instruction, InstructionError, parse_instruction
from studio.core.model import CastMember, Location, Node, Take, TakeStatus
from studio.core.state import CharacterState, StateDeltas, StateScope
from studio.core.story import DialogueLine, StoryFieldError, StoryFields
from studio.core.tree import StoryTree

__all__ = [
    "MAX_INSTRUCTION_CHARS",
    "AddCastMember",
    "AddDialogueLine",
    "AddLocation",
    "AddTake",
    "AddTurn",
    "CastMember",
    "ChangeSet",
    "CharacterState",
    "Command",
    "DeleteSubtree",
    "DialogueLine",
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
    "SetDialogue",
    "SetDuration",
    "SetNarration",
    "SetNotes",
    "SetShotNotes",
    "SetStartState",
    "SetStateScope",
    "SetStory",
    "StateDeltas",
    "StateScope",
    "StoryFieldError",
    "StoryFields",
    "StoryTree",
    "Take",
    "TakeStatus",
    "UndoStack",
    "parse_instruction",
]
