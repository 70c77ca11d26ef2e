-- +goose Up
-- A standing run's time and games (store.Arena's UpdateArenaStanding): kept
-- once for the run, so that a game's update writes the rows of its teams
-- alone, not every row of the run. Where a run has a row here, its
-- arena_ratings rows' own at and games are stale and read from here.
CREATE TABLE IF NOT EXISTS arena_standings (
	run   TEXT   PRIMARY KEY,
	at    BIGINT NOT NULL, -- unix nanoseconds: the run's last game
	games INTEGER NOT NULL
);

-- +goose Down
DROP TABLE arena_standings;
