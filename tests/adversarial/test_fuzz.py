"""Fuzz targets (hypothesis): instruction parsing and demo import on arbitrary text.

Whatever the text, parsing never raises, an accepted instruction is stored and read back
exactly (SQL, format strings and odd Unicode included), and a demo import either adds
every turn or reports problems and adds nothing.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from studio.core import AddTurn, parse_instruction
from studio.core.errors import StudioError
from studio.core.instruction import InstructionError, validate_instruction_text
from studio.core.model import new_id
from studio.storage import Project
from studio.storage.demo_import import DemoImportError, import_story, parse_demo_text, read_demo

FIELDS = ["Character", "Motion", "Background", "Time", "Camera", "character", "BG", "who", "Adverb", "Note"]
HOSTILE = ["'; DROP TABLE nodes; --", "%s%s%n", "{0}{__class__}", "\x1b]0;x\x07", "\u202eevil", "\x00", "\r\n",
           "## branch after 1", "## branch after 99", "#", "：", "；", "\ud800"]

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)
fieldish = st.lists(
    st.tuples(st.sampled_from(FIELDS), st.one_of(texts, st.sampled_from(HOSTILE))).map(lambda kv: f"{kv[0]}: {kv[1]}"),
    max_size=6,
).map("; ".join)
instructions = st.one_of(texts, fieldish, st.sampled_from(HOSTILE), st.text(string.printable, max_size=2100))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    with Project.create(tmp_path_factory.mktemp("fuzz") / "fuzz") as opened:
        yield opened


@settings(max_examples=300, deadline=None)
@given(instructions)
def test_parsing_never_raises_and_keeps_the_raw_text(text: str) -> None:
    parsed = parse_instruction(text)
    assert parsed.raw == text
    for name, value in parsed.fields().items():
        assert value == value.strip(), name
    try:
        validate_instruction_text(text)
    except InstructionError as error:
        assert error.message and "\x1b" not in error.message
    else:
        assert text.strip() and len(text) <= 2000
        assert not any(ord(c) < 0x20 and c != "\t" for c in text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(instructions)
def test_accepted_instructions_are_stored_exactly(project: Project, text: str) -> None:
    try:
        validate_instruction_text(text)
    except InstructionError:
        assume(False)
    node_id = new_id()
    project.apply(AddTurn(project.tree.root_id, text, node_id=node_id))
    with Project.open(project.path, read_only=True) as again:
        assert again.tree.nodes[node_id].instruction.raw == text
        assert again.tree.nodes[node_id].instruction == project.tree.nodes[node_id].instruction


words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1,
                max_size=30).filter(lambda w: w.strip() and not set(w) & set(";；:：#"))
good_lines = st.tuples(words, words, words).map(lambda t: f"Character: {t[0]}; Motion: {t[1]}; Background: {t[2]}")
demo_lines = st.lists(st.one_of(good_lines, good_lines, instructions,
                                st.sampled_from(["", "# comment", "## branch after 0", "## branch after 2",
                                                 "## branch after x"])),
                      max_size=12)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(demo_lines, st.booleans())
def test_demo_import_adds_every_turn_or_nothing(project: Project, lines: list[str], skip_bad: bool) -> None:
    text = "\n".join(lines)
    story = parse_demo_text(text)
    before = len(project.tree.nodes)
    try:
        result = import_story(project, story, "fuzz.txt", skip_bad=skip_bad)
    except DemoImportError as error:
        assert error.problems
        assert len(project.tree.nodes) == before
        return
    dropped = [reason for _, reason in result.skipped if "was skipped" in reason]
    assert len(project.tree.nodes) == before + len(result.node_ids) == before + story.turn_count - len(dropped)
    for node_id in result.node_ids:
        validate_instruction_text(project.tree.nodes[node_id].instruction.raw)
    positions = [(n.parent_id, n.position) for n in project.tree.nodes.values() if n.parent_id]
    assert len(positions) == len(set(positions))
    with Project.open(project.path, read_only=True) as again:
        assert {n: again.tree.nodes[n].instruction for n in result.node_ids} == {
            n: project.tree.nodes[n].instruction for n in result.node_ids}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=2000))
def test_reading_any_bytes_as_a_demo_file_never_fails_unexpectedly(tmp_path: Path, data: bytes) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_bytes(data)
    try:
        story = read_demo(demo)
    except StudioError:
        return
    assert all(turn.number >= 1 for branch in story.branches for turn in branch.turns)
