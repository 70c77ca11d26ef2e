-- +goose Up
-- Which node owns each live game (docs/cluster.md). A row is never
-- deleted: a released lease keeps its epoch (node ''), so that epochs only
-- grow and an append made under an older one is always told apart.
-- Expiry is the database's clock, the one clock every node shares.
CREATE TABLE leases (
	room_id text COLLATE "C" PRIMARY KEY REFERENCES rooms (id),
	node    text NOT NULL, -- '' once released
	epoch   bigint NOT NULL,
	expires timestamptz NOT NULL
);

-- +goose Down
DROP TABLE leases;
