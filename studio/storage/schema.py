"""Database schema and migrations.

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``. A project made by a
newer app (higher version) is refused, never modified. Before a migration runs, the old
database is copied next to it (``project.db.bak-v<N>``).
"""

from __future__ import annotations

APP_ID = "kamishibai-studio"

SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    parent_id TEXT REFERENCES nodes(id) DEFERRABLE INITIALLY DEFERRED,
    position INTEGER NOT NULL DEFAULT 0,
    instruction TEXT NOT NULL,
    character TEXT NOT NULL DEFAULT '',
    motion TEXT NOT NULL DEFAULT '',
    adverb TEXT NOT NULL DEFAULT '',
    background TEXT NOT NULL DEFAULT '',
    time_of_day TEXT NOT NULL DEFAULT '',
    camera TEXT NOT NULL DEFAULT '',
    free_text TEXT NOT NULL DEFAULT '',
    extra TEXT NOT NULL DEFAULT '[]',
    notes TEXT NOT NULL DEFAULT '',
    bookmarked INTEGER NOT NULL DEFAULT 0,
    selected_take_id TEXT REFERENCES takes(id) DEFERRABLE INITIALLY DEFERRED,
    start_state TEXT,
    created_at TEXT NOT NULL DEFAULT ''
);
CREATE INDEX nodes_parent ON nodes(parent_id);
CREATE INDEX nodes_selected_take ON nodes(selected_take_id);
CREATE TABLE takes (
    id TEXT PRIMARY KEY,
    node_id TEXT NOT NULL REFERENCES nodes(id) DEFERRABLE INITIALLY DEFERRED,
    engine TEXT NOT NULL,
    engine_version TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL DEFAULT '{}',
    seed INTEGER NOT NULL DEFAULT 0,
    d_stamina INTEGER NOT NULL DEFAULT 0,
    d_social INTEGER NOT NULL DEFAULT 0,
    d_entertainment INTEGER NOT NULL DEFAULT 0,
    motion_level INTEGER NOT NULL DEFAULT 3,
    representation_path TEXT NOT NULL DEFAULT '',
    clip_path TEXT NOT NULL DEFAULT '',
    poster_path TEXT NOT NULL DEFAULT '',
    timings TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'done',
    error TEXT NOT NULL DEFAULT '',
    warnings TEXT NOT NULL DEFAULT '[]',
    stale INTEGER NOT NULL DEFAULT 0,
    parent_take_id TEXT NOT NULL DEFAULT '',
    instruction_raw TEXT NOT NULL DEFAULT '',
    conditioning TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL DEFAULT ''
);
CREATE INDEX takes_node ON takes(node_id);
CREATE TABLE cast_members (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    params TEXT NOT NULL DEFAULT '{}',
    reference_images TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE locations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'builtin',
    params TEXT NOT NULL DEFAULT '{}',
    image_path TEXT NOT NULL DEFAULT ''
);
"""

SCHEMA_V2_JOBS = """
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL DEFAULT 'generate',
    node_id TEXT,
    engine TEXT NOT NULL DEFAULT '',
    seed INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL DEFAULT '{}',
    priority INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'queued',
    sequence INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL DEFAULT '',
    finished_at TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    hint TEXT NOT NULL DEFAULT '',
    take_id TEXT NOT NULL DEFAULT '',
    depends_on TEXT,
    label TEXT NOT NULL DEFAULT '',
    retry_of TEXT,
    owner TEXT NOT NULL DEFAULT ''
);
CREATE INDEX jobs_status ON jobs(status, priority, sequence);
"""
"""v2: the generation queue (studio.worker); node_id has no foreign key so that a job's
history outlives an undone node."""

SCHEMA_V3_STORY = """
ALTER TABLE nodes ADD COLUMN dialogue TEXT NOT NULL DEFAULT '[]';
ALTER TABLE nodes ADD COLUMN narration TEXT NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN duration REAL;
ALTER TABLE nodes ADD COLUMN shot_notes TEXT NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN start_states TEXT NOT NULL DEFAULT '{}';
ALTER TABLE nodes ADD COLUMN state_scope TEXT NOT NULL DEFAULT 'branch';
"""
"""v3: story fields per turn (dialogue as JSON [[speaker, text], ...], narration, duration in
seconds or NULL, shot notes) and per-character state on the root (start states by name,
and the state scope). Rows written before keep ``state_scope = 'branch'``: one state runs
down each branch, as it did when they were made. New projects write ``'character'``."""

SCHEMA_V4_TAKE_HINT = """
ALTER TABLE takes ADD COLUMN hint TEXT NOT NULL DEFAULT '';
"""
"""v4: a failed take's hint (what to do about its error), as its job has one. Takes written
before have none."""

SCHEMA_V5_JOB_RUNNER = """
ALTER TABLE jobs ADD COLUMN runner TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN progress REAL;
"""
"""v5: where a job runs (``runner``: the device, such as ``cuda:1``, or the render farm's node
and actor) and how far it has got (``progress``, 0..1, NULL while not known), so that
another process (`kamishibai queue`) can say it. ``runner`` is written when the job starts
and kept when it ends (where it ran); it is cleared when the job goes back to the queue.
``progress`` is written now and then while the job runs, and cleared when it stops
running. Rows written before have neither."""

SCHEMA_V6_TAKE_START = """
ALTER TABLE takes ADD COLUMN start_state TEXT;
"""
"""v6: the state a take was made from, as JSON ``{"character": NAME, "stamina": N, "social": N,
"entertainment": N}`` (``character`` is "" where one state runs down the branch): the turn's
start when the take was generated, so that a start changed since (``start-state``, an edit
above the turn) can be told from the take itself. NULL for takes written before: nobody
recorded where they started."""

MIGRATIONS: list[str] = [SCHEMA_V1, SCHEMA_V2_JOBS, SCHEMA_V3_STORY, SCHEMA_V4_TAKE_HINT, SCHEMA_V5_JOB_RUNNER,
                         SCHEMA_V6_TAKE_START]
"""Append a migration (SQL script) to add a schema version; never edit a released one."""


def schema_version() -> int:
    return len(MIGRATIONS)
