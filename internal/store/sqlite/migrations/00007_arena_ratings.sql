-- +goose Up
-- The ratings wolfden arena runs leave (store.Arena, docs/arena.md): one
-- row per program and side of a run. seq keeps the order rows were added.
-- IF NOT EXISTS: the migration tests take a file back to an older version
-- by its version number alone, and this table is independent of theirs.
CREATE TABLE IF NOT EXISTS arena_ratings (
	seq     INTEGER PRIMARY KEY AUTOINCREMENT,
	run     TEXT    NOT NULL,
	at      INTEGER NOT NULL, -- unix nanoseconds: when the run ended
	board   TEXT    NOT NULL,
	seed    INTEGER NOT NULL, -- the uint64 seed's bits
	games   INTEGER NOT NULL,
	program TEXT    NOT NULL,
	side    TEXT    NOT NULL,
	mu      REAL    NOT NULL,
	sigma   REAL    NOT NULL,
	played  INTEGER NOT NULL,
	wins    INTEGER NOT NULL,
	tokens  REAL    NOT NULL,
	seconds REAL    NOT NULL,
	UNIQUE (run, program, side)
);
CREATE INDEX IF NOT EXISTS arena_ratings_at ON arena_ratings (at);

-- +goose Down
DROP TABLE arena_ratings;
