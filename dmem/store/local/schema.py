"""The SQLite schema (version 3) and the in-place migrations that bring older stores up to it.

Version 2 puts a namespace on every row: conversations and turn ids are scoped inside a
namespace, so two users with the same conversation and turn ids never meet. Turns carry their
formation status, the claim of the worker forming them, and the routing of the call that added
them (``origin`` namespace and speaker map), so a retry forms each turn where it was recorded.
``memories.rev`` is the store version of a row's last write: a process catches its in-memory
vector index up with other processes' commits by reading only the rows with a newer ``rev``.
Version 3 keeps the caller's metadata (``labels``, JSON) on each turn not formed yet, so whoever
forms it later writes the labels with its memories.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections import defaultdict
from collections.abc import Callable

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    text TEXT NOT NULL,
    json TEXT NOT NULL,
    vector BLOB NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    rev INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS memories_ns ON memories (namespace, deleted);
CREATE INDEX IF NOT EXISTS memories_rev ON memories (rev);
CREATE TABLE IF NOT EXISTS history (
    memory_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    operation TEXT NOT NULL,
    old_text TEXT,
    new_text TEXT,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_memory ON history (namespace, memory_id);
CREATE INDEX IF NOT EXISTS history_ns ON history (namespace);
CREATE TABLE IF NOT EXISTS admissions (
    conversation_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    speaker TEXT NOT NULL,
    utterance TEXT NOT NULL,
    admitted INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS admissions_ns ON admissions (namespace);
CREATE TABLE IF NOT EXISTS messages (
    namespace TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    speaker TEXT NOT NULL,
    text TEXT NOT NULL,
    timestamp TEXT,
    image_caption TEXT,
    origin TEXT NOT NULL,
    routes TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'processed', 'pending')),
    pending_reason TEXT,
    claimed_by TEXT,
    claim_expires REAL,
    labels TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (namespace, conversation_id, turn_id),
    UNIQUE (namespace, conversation_id, seq)
);
CREATE INDEX IF NOT EXISTS messages_status ON messages (namespace, status);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def create(conn: sqlite3.Connection) -> None:
    """Create the current schema in an empty database (inside the caller's transaction)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('version', '0')")
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Namespace every turn, add claims and routing, and stamp memories with the store version.

    A v1 turn belonged to a conversation linked to one or more namespaces; it becomes one row in
    each. When several namespaces shared a conversation (one speaker map), the map is rebuilt from
    the memories already formed from it, else from namespaces named ``.../<speaker>``.
    Sequence numbers that collided (parallel adds in v1) are renumbered in their stored order.
    """
    version = int(conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])
    conn.execute("ALTER TABLE memories ADD COLUMN rev INTEGER NOT NULL DEFAULT 0")
    conn.execute("UPDATE memories SET rev = ?", (version,))
    conn.execute("ALTER TABLE messages RENAME TO messages_v1")
    conn.execute("DROP INDEX IF EXISTS messages_status")
    conn.execute("DROP INDEX IF EXISTS history_memory")
    create(conn)
    links: dict[str, list[str]] = defaultdict(list)
    for conv, ns in conn.execute("SELECT conversation_id, namespace FROM conversation_namespaces ORDER BY rowid"):
        links[conv].append(ns)
    rows = conn.execute("SELECT * FROM messages_v1 ORDER BY conversation_id, seq, rowid").fetchall()
    routing = {conv: _routing(conn, conv, names, rows) for conv, names in links.items()}
    for row, ns, seq in _renumbered(rows, links):
        origin, routes = routing.get(row["conversation_id"], ("default", {}))
        conn.execute(
            "INSERT INTO messages (namespace, conversation_id, turn_id, seq, speaker, text, timestamp,"
            " image_caption, origin, routes, status, pending_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ns, row["conversation_id"], row["turn_id"], seq, row["speaker"], row["text"], row["timestamp"],
             row["image_caption"], origin, json.dumps(routes, sort_keys=True), row["status"],
             row["pending_reason"]),
        )
    conn.execute("DROP TABLE messages_v1")
    conn.execute("DROP TABLE conversation_namespaces")
    log.info("migrated store schema 1 -> 2: %d turns in %d conversations", len(rows), len(links))


def _renumbered(rows: list[sqlite3.Row], links: dict[str, list[str]]) -> list[tuple[sqlite3.Row, str, int]]:
    """(row, namespace, seq) for every copy of every v1 turn; a collided seq moves after the rest so far."""
    out: list[tuple[sqlite3.Row, str, int]] = []
    next_seq: dict[tuple[str, str], int] = {}
    used: set[tuple[str, str, int]] = set()
    for row in rows:  # sorted by conversation, seq, rowid
        conv = row["conversation_id"]
        for ns in links.get(conv) or ["default"]:
            seq = row["seq"]
            if (ns, conv, seq) in used:
                seq = max(next_seq[(ns, conv)], seq + 1)
            used.add((ns, conv, seq))
            next_seq[(ns, conv)] = max(next_seq.get((ns, conv), 0), seq + 1)
            out.append((row, ns, seq))
    return out


def _routing(
    conn: sqlite3.Connection, conv: str, names: list[str], rows: list[sqlite3.Row]
) -> tuple[str, dict[str, str]]:
    """The (origin, speaker map) of a v1 conversation linked to ``names``."""
    if len(names) == 1:
        return names[0], {}
    routes: dict[str, str] = {}
    found = conn.execute(
        "SELECT DISTINCT json_extract(json, '$.speaker'), namespace FROM memories WHERE"
        " json_extract(json, '$.conversation_id') = ?", (conv,),
    ).fetchall()
    for speaker, ns in found:
        if speaker and ns in names and sum(1 for s, _ in found if s == speaker) == 1:
            routes[speaker] = ns
    for speaker in {r["speaker"] for r in rows if r["conversation_id"] == conv} - set(routes):
        suffixed = [ns for ns in names if ns.endswith(f"/{speaker}")]
        if len(suffixed) == 1:
            routes[speaker] = suffixed[0]
    unmapped = [ns for ns in names if ns not in routes.values()]
    return (unmapped[0] if unmapped else names[0]), routes


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """Give every turn the caller's labels (none for turns recorded before: they had no way to keep them)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(messages)")}
    if "labels" not in columns:  # a v1 store rebuilt by ``_v1_to_v2`` already has it
        conn.execute("ALTER TABLE messages ADD COLUMN labels TEXT NOT NULL DEFAULT '{}'")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1_to_v2, 2: _v2_to_v3}
"""Schema version -> the step that upgrades a database of that version by one."""
