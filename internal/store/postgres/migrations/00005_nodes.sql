-- +goose Up
-- Each node's last word on the bus (docs/cluster.md, "Failover"): whether
-- it reached NATS at its last heartbeat, since when that has been so, and
-- when it last said it. A node that loses the bus reads here whether the
-- others lost it too (keep the leases: a NATS restart moves nothing) or
-- only it did (let them go to a node that can serve them). The database's
-- clock, the one every node shares.
CREATE TABLE nodes (
	node   text COLLATE "C" PRIMARY KEY,
	bus_up boolean NOT NULL,
	since  timestamptz NOT NULL, -- bus_up has been what it is since then
	seen   timestamptz NOT NULL  -- the node's last heartbeat
);

-- +goose Down
DROP TABLE nodes;
