-- +goose Up
-- The ledger (store.Ledger, internal/ledger): each account's seat in each
-- finished game, and the ratings they changed. Both are keyed by
-- account_id, so that deleting an account deletes its rows.
CREATE TABLE results (
	account_id   TEXT NOT NULL,
	room_id      TEXT NOT NULL,
	game         INTEGER NOT NULL,
	board        TEXT NOT NULL,
	family       TEXT NOT NULL,
	role         TEXT NOT NULL,
	camp         TEXT NOT NULL,
	outcome      TEXT NOT NULL, -- win, loss
	counted      INTEGER NOT NULL,
	reason       TEXT NOT NULL, -- why it does not count
	rated        INTEGER NOT NULL,
	season       TEXT NOT NULL,
	played_at    INTEGER NOT NULL, -- unix nanoseconds
	side         TEXT NOT NULL, -- village, wolf
	mu_before    REAL NOT NULL,
	sigma_before REAL NOT NULL,
	mu_after     REAL NOT NULL,
	sigma_after  REAL NOT NULL,
	PRIMARY KEY (account_id, room_id, game)
) WITHOUT ROWID;
CREATE INDEX results_room ON results (room_id, game);
CREATE INDEX results_season ON results (season);

CREATE TABLE ratings (
	account_id TEXT NOT NULL,
	season     TEXT NOT NULL,
	side       TEXT NOT NULL, -- village, wolf
	mu         REAL NOT NULL,
	sigma      REAL NOT NULL,
	games      INTEGER NOT NULL,
	PRIMARY KEY (account_id, season, side)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (season, side, (mu - 3 * sigma) DESC);

-- +goose Down
DROP TABLE ratings;
DROP TABLE results;
