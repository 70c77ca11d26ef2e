-- +goose Up
-- The ledger (store.Ledger, internal/ledger): each account's seat in each
-- finished game, and the ratings they changed. Both are keyed by
-- account_id, so that deleting an account deletes its rows.
CREATE TABLE results (
	account_id   text COLLATE "C" NOT NULL,
	room_id      text COLLATE "C" NOT NULL,
	game         integer NOT NULL,
	board        text NOT NULL,
	family       text NOT NULL,
	role         text NOT NULL,
	camp         text NOT NULL,
	outcome      text NOT NULL, -- win, loss
	counted      boolean NOT NULL,
	reason       text NOT NULL, -- why it does not count
	rated        boolean NOT NULL,
	season       text COLLATE "C" NOT NULL,
	played_at    timestamptz NOT NULL,
	side         text NOT NULL, -- village, wolf
	mu_before    double precision NOT NULL,
	sigma_before double precision NOT NULL,
	mu_after     double precision NOT NULL,
	sigma_after  double precision NOT NULL,
	PRIMARY KEY (account_id, room_id, game)
);
CREATE INDEX results_room ON results (room_id, game);
CREATE INDEX results_season ON results (season);

CREATE TABLE ratings (
	account_id text COLLATE "C" NOT NULL,
	season     text COLLATE "C" NOT NULL,
	side       text NOT NULL, -- village, wolf
	mu         double precision NOT NULL,
	sigma      double precision NOT NULL,
	games      integer NOT NULL,
	PRIMARY KEY (account_id, season, side)
);
CREATE INDEX ratings_board ON ratings (season, side, (mu - 3 * sigma) DESC);

-- +goose Down
DROP TABLE ratings;
DROP TABLE results;
