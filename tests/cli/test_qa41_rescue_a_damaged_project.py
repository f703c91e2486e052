"""`kamishibai rescue` writes every turn, take and clip of a damaged project that can still be
read into a new, healthy project and names what could not be read; `bundle` of a damaged
project names that command. The damage is real: a page of project.db overwritten in the
middle of the file, or the file cut short."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.errors import ProjectDamagedError

TURNS = 30


def kamishibai(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300,
                          input=stdin)


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project of TURNS turns in one branch, each with a generated take (a real clip)."""
    folder = tmp_path_factory.mktemp("rescue")
    story = folder / "story.txt"
    story.write_text("".join(f"Qiqi walks to the bakery, turn {n}, and looks at every loaf of bread in the window "
                             f"for a long while before she goes on ({n})\n" for n in range(1, TURNS + 1)))
    project = folder / "healthy.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    made = kamishibai("import-demo", str(story), "--project", str(project), "--generate", "--quiet")
    assert made.returncode == 0, made.stderr
    return project


def _story(project: Path) -> tuple[dict[str, str], dict[str, str], dict[str, bytes]]:
    """Turn id → instruction, take id → turn id, take id → its clip's bytes."""
    with Project.open(project, read_only=True) as opened:
        tree = opened.tree
        turns = {node.id: node.instruction.raw for node in tree.nodes.values() if not node.is_root}
        takes = {take.id: take.node_id for take in tree.takes.values()}
        clips = {take.id: opened.resolve(take.clip_path).read_bytes() for take in tree.takes.values()}
    return turns, takes, clips


def _root_id(project: Path) -> str:
    with Project.open(project, read_only=True) as opened:
        return opened.tree.root_id


def _leaf_pages(db: Path, table: str) -> list[int]:
    """The pages holding ``table``'s rows (the leaves of its b-tree), read from the file's own
    page headers."""
    data = db.read_bytes()
    size = int.from_bytes(data[16:18], "big") or 65536
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    finally:
        conn.close()
    leaves: list[int] = []
    pending = [root]
    while pending:
        page = pending.pop(0)
        start = (page - 1) * size
        header = start + (100 if page == 1 else 0)
        kind = data[header]
        if kind == 0x0D:
            leaves.append(page)
            continue
        assert kind == 0x05, f"page {page} of {table} is no table page"
        cells = int.from_bytes(data[header + 3:header + 5], "big")
        for index in range(cells):
            pointer = int.from_bytes(data[header + 12 + 2 * index:header + 14 + 2 * index], "big")
            pending.append(int.from_bytes(data[start + pointer:start + pointer + 4], "big"))
        pending.append(int.from_bytes(data[header + 8:header + 12], "big"))
    return leaves


def _readable_ids(healthy: Path, damaged: Path, table: str) -> set[str]:
    """The ids of ``table``'s rows that the damaged file still holds whole: each row looked up
    on its own by its rowid (as the healthy file has it) and compared with the healthy row."""
    def rows(db: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
        conn.execute("PRAGMA writable_schema = 1")
        return conn

    good, bad = rows(healthy / "project.db"), rows(damaged / "project.db")
    readable: set[str] = set()
    try:
        for rowid, *row in good.execute(f"SELECT rowid, * FROM {table}").fetchall():
            try:
                found = bad.execute(f"SELECT * FROM {table} NOT INDEXED WHERE rowid = ?", (rowid,)).fetchall()
            except sqlite3.DatabaseError:
                continue
            if found == [tuple(row)]:
                readable.add(row[0])
    finally:
        good.close()
        bad.close()
    return readable


def _overwrite_page(db: Path, page: int) -> None:
    """Overwrite the page's bytes (past its first few) with garbage, in place."""
    size = int.from_bytes(db.read_bytes()[16:18], "big") or 65536
    with open(db, "r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\xa5" * (size - 16))


def _damaged_copy(healthy: Path, tmp_path: Path, table: str) -> tuple[Path, int]:
    damaged = tmp_path / "damaged.kamishibai"
    shutil.copytree(healthy, damaged)
    leaves = _leaf_pages(damaged / "project.db", table)
    assert len(leaves) >= 3, f"the {table} table should span several pages, not {leaves}"
    page = leaves[len(leaves) // 2]
    _overwrite_page(damaged / "project.db", page)
    with pytest.raises(ProjectDamagedError):
        Project.open(damaged, read_only=True)
    return damaged, page


def test_a_damaged_page_of_turns_is_rescued_around_and_every_lost_turn_is_named(healthy: Path,
                                                                                tmp_path: Path) -> None:
    turns, takes, clips = _story(healthy)
    damaged, _page = _damaged_copy(healthy, tmp_path, "nodes")
    before = (damaged / "project.db").read_bytes()

    bundled = kamishibai("bundle", str(damaged), str(tmp_path / "story.zip"))
    assert bundled.returncode == 2
    assert f"kamishibai rescue {damaged} damaged-rescued` writes every turn" in bundled.stderr, bundled.stderr
    told = kamishibai("info", str(damaged))
    assert told.returncode == 2 and f"kamishibai rescue {damaged} damaged-rescued" in told.stderr, told.stderr

    rescued = kamishibai("rescue", str(damaged), str(tmp_path / "copy"), "--json")
    assert rescued.returncode == 1, rescued.stderr  # something was lost, the rest written
    report = json.loads(rescued.stdout)
    copy = Path(report["path"])
    assert copy == (tmp_path / "copy.kamishibai").absolute()
    assert (damaged / "project.db").read_bytes() == before, "the damaged project is only read"
    assert sorted(p.name for p in damaged.iterdir()) == sorted(p.name for p in healthy.iterdir())

    got, got_takes, got_clips = _story(copy)  # opens: a healthy project
    lost = set(turns) - set(got)
    assert 0 < len(lost) < len(turns) - 5, lost
    assert set(got) == _readable_ids(healthy, damaged, "nodes") - {_root_id(healthy)}, "every readable turn"
    assert all(got[node_id] == turns[node_id] for node_id in got), "each turn read keeps its words"
    named = " ".join(report["lost"])
    assert all(node_id in named for node_id in lost), (lost, report["lost"])
    # the turns below the lost ones are kept, under the story's start, and said so
    with Project.open(copy, read_only=True) as opened:
        tree = opened.tree
        tops = tree.children(tree.root_id)
        assert len(tops) == 2, "the first turn and the top of the turns below the lost ones"
        assert len(report["moved"]) == 1 and tops[1].id in report["moved"][0], report["moved"]
        assert "continues from the story's start" in report["moved"][0]
    # every take of a turn read is there, its clip the same bytes
    assert set(got_takes) == {take_id for take_id, node_id in takes.items() if node_id in got}
    assert all(got_clips[take_id] == clips[take_id] for take_id in got_takes)
    assert report["turns"] == len(got) and report["takes"] == len(got_takes)

    info = kamishibai("info", str(copy), "--json")
    assert info.returncode == 0, info.stderr
    assert json.loads(info.stdout)["damaged"] is False
    exported = kamishibai("bundle", str(copy), str(tmp_path / "rescued.zip"))
    assert exported.returncode == 0, exported.stderr


def test_a_damaged_page_of_takes_loses_only_those_takes(healthy: Path, tmp_path: Path) -> None:
    turns, takes, _clips = _story(healthy)
    damaged, _page = _damaged_copy(healthy, tmp_path, "takes")
    rescued = kamishibai("rescue", str(damaged), str(tmp_path / "copy"))
    assert rescued.returncode == 1, rescued.stderr
    assert "some of the story could not be read" in rescued.stderr
    got, got_takes, _ = _story(tmp_path / "copy.kamishibai")
    assert got == turns, "every turn is read"
    lost = set(takes) - set(got_takes)
    assert lost, "the damaged page held takes"
    assert set(got_takes) == _readable_ids(healthy, damaged, "takes"), "every readable take"
    assert all(f"lost: the chosen take {take_id} of turn {takes[take_id]}" in rescued.stdout for take_id in lost)
    with Project.open(tmp_path / "copy.kamishibai", read_only=True) as opened:
        tree = opened.tree
        for take_id in lost:  # its turn has no chosen take now, and the takes below it are out of date
            node_id = takes[take_id]
            assert tree.node(node_id).selected_take_id is None
            below = [take for child in tree.child_ids(node_id) for take in tree.takes_of(child)]
            assert all(take.stale for take in below)


def test_a_database_cut_short_keeps_the_turns_before_the_cut(healthy: Path, tmp_path: Path) -> None:
    turns, _takes, _clips = _story(healthy)
    damaged = tmp_path / "cut.kamishibai"
    shutil.copytree(healthy, damaged)
    db = damaged / "project.db"
    size = db.stat().st_size
    with open(db, "r+b") as file:
        file.truncate(size * 2 // 3)
    rescued = kamishibai("rescue", str(damaged), str(tmp_path / "copy"), "--json")
    assert rescued.returncode == 1, rescued.stderr
    report = json.loads(rescued.stdout)
    got, _got_takes, _ = _story(tmp_path / "copy.kamishibai")
    assert got and all(got[node_id] == turns[node_id] for node_id in got)
    assert all(node_id in " ".join(report["lost"]) for node_id in set(turns) - set(got)), report["lost"]


def test_a_database_whose_first_page_is_gone_is_refused_and_nothing_is_made(healthy: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "gone.kamishibai"
    shutil.copytree(healthy, damaged)
    with open(damaged / "project.db", "r+b") as file:
        file.seek(100)
        file.write(b"\xa5" * 3000)
    rescued = kamishibai("rescue", str(damaged), str(tmp_path / "copy"))
    assert rescued.returncode == 2
    assert "Nothing can be read from" in rescued.stderr, rescued.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gone.kamishibai"]


def test_a_healthy_project_is_copied_whole_and_a_taken_name_is_refused(healthy: Path, tmp_path: Path) -> None:
    turns, takes, _ = _story(healthy)
    copied = kamishibai("rescue", str(healthy), str(tmp_path / "copy"))
    assert copied.returncode == 0, copied.stderr
    assert "is not damaged" in copied.stdout
    got, got_takes, _ = _story(tmp_path / "copy.kamishibai")
    assert got == turns and set(got_takes) == set(takes)
    again = kamishibai("rescue", str(healthy), str(tmp_path / "copy"))
    assert again.returncode == 2 and "exists already" in again.stderr, again.stderr


def test_a_damaged_project_held_by_the_window_is_rescued(healthy: Path, tmp_path: Path) -> None:
    """The window that found the damage holds the project's writer lock: rescue only reads."""
    from studio.storage.lock import WriterLock

    damaged, _page = _damaged_copy(healthy, tmp_path, "nodes")
    lock = WriterLock.acquire(damaged)
    try:
        rescued = kamishibai("rescue", str(damaged), str(tmp_path / "copy"))
    finally:
        lock.release()
    assert rescued.returncode == 1, rescued.stderr
    assert (tmp_path / "copy.kamishibai" / "project.db").is_file()


def test_ctrl_c_while_rescuing_leaves_no_project(healthy: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.cli import main
    from studio.storage import salvage

    damaged, _page = _damaged_copy(healthy, tmp_path, "nodes")
    copied: list[str] = []
    real = salvage._copy_media

    def copy_then_stop(source: Path, rel: str, dest: Path) -> bool:
        if len(copied) == 5:
            raise KeyboardInterrupt
        copied.append(rel)
        return real(source, rel, dest)

    monkeypatch.setattr(salvage, "_copy_media", copy_then_stop)
    assert main(["rescue", str(damaged), str(tmp_path / "copy")]) == 130
    assert len(copied) == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.kamishibai"], "nothing half made is left"


def test_rows_whose_values_cant_be_read_are_named_and_the_rest_rescued(tmp_path: Path) -> None:
    """Damage the loader refuses though SQLite reads the file: a value no studio writes."""
    project = tmp_path / "values.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    assert kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits").returncode == 0
    turns, takes, clips = _story(project)
    with Project.open(project, read_only=True) as opened:
        first, second = [node.id for node in opened.tree.descendants(opened.tree.root_id)]
    broken = next(take_id for take_id, node_id in takes.items() if node_id == first)
    conn = sqlite3.connect(project / "project.db")
    try:
        with conn:
            conn.execute("UPDATE takes SET settings = '{broken' WHERE id = ?", (broken,))
            conn.execute("UPDATE nodes SET dialogue = '[1' WHERE parent_id IS NULL")
    finally:
        conn.close()
    with pytest.raises(ProjectDamagedError):
        Project.open(project, read_only=True)
    rescued = kamishibai("rescue", str(project), str(tmp_path / "copy"), "--json")
    assert rescued.returncode == 1, rescued.stderr
    report = json.loads(rescued.stdout)
    assert any(line.startswith(f"take {broken} (its row holds values that can't be read: take {broken}'s settings")
               for line in report["lost"]), report["lost"]
    assert any(line.startswith("the story's start ") for line in report["lost"]), report["lost"]
    assert report["moved"] == [], "the first turn still continues from the start"
    got, got_takes, got_clips = _story(tmp_path / "copy.kamishibai")
    assert got == turns and set(got_takes) == set(takes) - {broken}
    assert all(got_clips[take_id] == clips[take_id] for take_id in got_takes)
    with Project.open(tmp_path / "copy.kamishibai", read_only=True) as opened:
        tree = opened.tree
        assert tree.child_ids(tree.root_id) == [first] and tree.child_ids(first) == [second]
        assert tree.node(first).selected_take_id is None
        assert all(take.stale for take in tree.takes_of(second)), "made from the take that was lost"
