"""The rooms of `unodsl serve` kept in an SQLite file (stdlib sqlite3), so that a restart loses nothing.

What is kept is what the rooms cannot compute again: each room's settings (players, bots, seed,
house rules, rulings, listed or not, turn timer), its seats (token, name, bot), the finished games'
results, and the action log of the game in play, one row an action, written as it is applied.
On start the server reads them back and replays each log through the engine from the same seed
(`Room.restore`): the same deal, the same hands, the same lines in every seat's log.

The schema is versioned by SQLite's `user_version`: a file of a newer schema than this unodsl
reads is refused with a message (never opened for writing); an older one is migrated when a
later schema exists. Writes go through one connection in WAL mode with `synchronous=NORMAL`:
a killed server keeps every committed action (the commit is in the WAL file before the room's
views are sent), a power cut may lose the last ones.
"""

from __future__ import annotations

import json
import os
import sqlite3

SCHEMA_VERSION = 1
MEMORY = ":memory:"

SCHEMA = """
CREATE TABLE rooms (
    code     TEXT PRIMARY KEY,
    variant  TEXT NOT NULL,          -- the variant file the server was started with (absolute)
    settings TEXT NOT NULL,          -- JSON: players, bots, seed, match, house_rules, rulings, listed, turn_timer
    game     INTEGER NOT NULL,       -- the game in play: 0 the first, 1 after a rematch, ...
    seed     INTEGER NOT NULL,       -- the seed of the game in play
    started  INTEGER NOT NULL,       -- whether the game in play has been dealt
    version  INTEGER NOT NULL,       -- the room's version (every change raises it)
    results  TEXT NOT NULL           -- JSON: the finished games of the room (winner, scores)
);
CREATE TABLE seats (
    code     TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    number   INTEGER NOT NULL,
    token    TEXT NOT NULL,
    name     TEXT NOT NULL,
    bot_name TEXT NOT NULL,
    PRIMARY KEY (code, number)
);
CREATE TABLE actions (
    code     TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    game     INTEGER NOT NULL,
    n        INTEGER NOT NULL,       -- the action's place in the game's history, from 0
    action   TEXT NOT NULL,          -- as the engine writes it: "play red_7", "color blue"
    PRIMARY KEY (code, game, n)
);
CREATE TABLE chat (
    code     TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    n        INTEGER NOT NULL,       -- the line's number among all the room's lines (the last 100 kept)
    line     TEXT NOT NULL,          -- JSON: {"seat": q, "name": ..., "text": ...}
    PRIMARY KEY (code, n)
);
"""


class StoreError(Exception):
    """The file cannot be used (a newer schema, not a database); the message says what to do."""


def default_path() -> str:
    """Where the rooms are kept unless --db says otherwise: $XDG_STATE_HOME/unodsl/rooms.sqlite3."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "unodsl", "rooms.sqlite3")


class Store:
    """One SQLite database of rooms; used from the server's one thread."""

    def __init__(self, path: str):
        self.path = path
        if path != MEMORY and os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)     # mode 0777 less the umask, as every file
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{path}: not a rooms database ({err}); give another file with --db") from None
        if version > SCHEMA_VERSION:
            self.db.close()
            raise StoreError(f"{path}: its rooms were written by a newer unodsl (schema {version}; this one "
                             f"reads {SCHEMA_VERSION} and older): upgrade unodsl, or give another file with --db")
        self.db.execute("PRAGMA foreign_keys = ON")
        if path != MEMORY:
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
        if version == 0:
            self.db.executescript("BEGIN;" + SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        self.saved_seats: dict[str, tuple] = {}      # what each room's seat rows hold now (no rewrite unchanged)

    def transaction(self):
        return _Transaction(self.db)

    def close(self) -> None:
        self.db.close()

    # --- reading

    def codes(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT code FROM rooms")}

    def rooms(self, variant: str) -> list[dict]:
        """Every room kept for `variant`, with its seats, chat and the action log of its game in play."""
        out = []
        for code, settings, game, seed, started, version, results in self.db.execute(
                "SELECT code, settings, game, seed, started, version, results FROM rooms WHERE variant = ? "
                "ORDER BY rowid", (variant,)).fetchall():
            seats = [{"token": t, "name": n, "bot_name": b} for t, n, b in self.db.execute(
                "SELECT token, name, bot_name FROM seats WHERE code = ? ORDER BY number", (code,))]
            actions = [a for (a,) in self.db.execute(
                "SELECT action FROM actions WHERE code = ? AND game = ? ORDER BY n", (code, game))]
            chat = [(n, json.loads(line)) for n, line in self.db.execute(
                "SELECT n, line FROM chat WHERE code = ? ORDER BY n", (code,))]
            out.append({"code": code, "settings": json.loads(settings), "game": game, "seed": seed,
                        "started": bool(started), "version": version, "results": json.loads(results),
                        "seats": seats, "actions": actions, "chat": [line for _, line in chat],
                        "chat_total": chat[-1][0] + 1 if chat else 0})
        return out

    # --- writing

    def save(self, room, variant: str) -> None:
        """Write what changed in `room` since the last save: its row, its seats, the new actions and chat."""
        record = room.record()
        state = room.state
        with self.transaction():
            self.db.execute(
                "INSERT INTO rooms (code, variant, settings, game, seed, started, version, results) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET settings = excluded.settings, "
                "game = excluded.game, seed = excluded.seed, started = excluded.started, "
                "version = excluded.version, results = excluded.results",
                (room.code, variant, json.dumps(record["settings"]), room.game_number, room.seed,
                 int(state is not None), room.version, json.dumps(room.results)))
            seats = tuple((s.token, s.name, s.bot_name) for s in room.seats)
            if self.saved_seats.get(room.code) != seats:
                self.db.executemany("INSERT OR REPLACE INTO seats (code, number, token, name, bot_name) "
                                    "VALUES (?, ?, ?, ?, ?)", [(room.code, q, *row) for q, row in enumerate(seats)])
                self.saved_seats[room.code] = seats
            if room.saved_game != room.game_number:         # a rematch: the last game's log is done with
                self.db.execute("DELETE FROM actions WHERE code = ? AND game < ?", (room.code, room.game_number))
                room.saved_game, room.saved_actions = room.game_number, 0
            if state is not None and len(state.history) > room.saved_actions:
                to_string = room.game.action_to_string
                self.db.executemany("INSERT OR REPLACE INTO actions (code, game, n, action) VALUES (?, ?, ?, ?)",
                                    [(room.code, room.game_number, n, to_string(a))
                                     for n, a in enumerate(state.history[room.saved_actions:], room.saved_actions)])
                room.saved_actions = len(state.history)
            new = min(room.chat_total - room.saved_chat, len(room.chat))
            if new > 0:
                first = room.chat_total - new
                self.db.executemany("INSERT OR REPLACE INTO chat (code, n, line) VALUES (?, ?, ?)",
                                    [(room.code, n, json.dumps(line))
                                     for n, line in enumerate(room.chat[len(room.chat) - new:], first)])
                self.db.execute("DELETE FROM chat WHERE code = ? AND n < ?",
                                (room.code, room.chat_total - len(room.chat)))
                room.saved_chat = room.chat_total

    def delete(self, code: str) -> None:
        with self.transaction():
            self.db.execute("DELETE FROM rooms WHERE code = ?", (code,))
        self.saved_seats.pop(code, None)


class _Transaction:
    def __init__(self, db):
        self.db = db

    def __enter__(self):
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
        return self.db

    def __exit__(self, kind, value, tb):
        if not self.db.in_transaction:
            return False
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
