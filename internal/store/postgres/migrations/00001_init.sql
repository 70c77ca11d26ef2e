-- +goose Up
-- IDs compare byte by byte (COLLATE "C"), as in SQLite, whatever the
-- database's locale: Rooms lists rooms of the same age in ID order.
CREATE TABLE rooms (
	id      text COLLATE "C" PRIMARY KEY,
	created bigint, -- unix nanoseconds (timestamptz keeps only microseconds); NULL for the zero time
	updated bigint,
	status  text NOT NULL,
	config  bytea,
	seats   bytea
);
-- Rooms lists by status, oldest first: the index serves both the filter and the order.
CREATE INDEX rooms_status ON rooms (status, created NULLS FIRST, id);

-- A room's records are read and appended together; the primary key's
-- index serves both, and refuses a record number twice.
CREATE TABLE records (
	room_id text COLLATE "C" NOT NULL REFERENCES rooms (id),
	n       bigint NOT NULL,
	at      bigint, -- unix nanoseconds; NULL for the zero time
	kind    text NOT NULL,
	body    bytea,
	events  bytea, -- store.AppendEvents
	clock   bytea,
	PRIMARY KEY (room_id, n)
);

-- +goose Down
DROP TABLE records;
DROP TABLE rooms;
