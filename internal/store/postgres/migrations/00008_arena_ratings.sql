-- +goose Up
-- The ratings wolfden arena runs leave (store.Arena, docs/arena.md): one
-- row per program and side of a run. seq keeps the order rows were added.
-- IF NOT EXISTS: the migration tests take a file back to an older version
-- by its version number alone, and this table is independent of theirs.
CREATE TABLE IF NOT EXISTS arena_ratings (
	seq     bigserial PRIMARY KEY,
	run     text COLLATE "C" NOT NULL,
	at      bigint NOT NULL, -- unix nanoseconds: when the run ended
	board   text NOT NULL,
	seed    bigint NOT NULL, -- the uint64 seed's bits
	games   integer NOT NULL,
	program text NOT NULL,
	side    text NOT NULL,
	mu      double precision NOT NULL,
	sigma   double precision NOT NULL,
	played  integer NOT NULL,
	wins    integer NOT NULL,
	tokens  double precision NOT NULL,
	seconds double precision NOT NULL,
	UNIQUE (run, program, side)
);
CREATE INDEX IF NOT EXISTS arena_ratings_at ON arena_ratings (at);

-- +goose Down
DROP TABLE arena_ratings;
