-- +goose Up
CREATE TABLE rooms (
	id      TEXT PRIMARY KEY,
	created INTEGER, -- unix nanoseconds; NULL for the zero time
	updated INTEGER,
	status  TEXT NOT NULL,
	config  BLOB,
	seats   BLOB
);
-- Rooms lists by status, oldest first: the index serves both the filter and the order.
CREATE INDEX rooms_status ON rooms (status, created);

-- A room's records are read and appended together, so they are clustered
-- by (room_id, n) rather than stored in rowid order.
CREATE TABLE records (
	room_id TEXT NOT NULL REFERENCES rooms (id),
	n       INTEGER NOT NULL,
	at      INTEGER, -- unix nanoseconds; NULL for the zero time
	kind    TEXT NOT NULL,
	body    BLOB,
	events  BLOB, -- store.AppendEvents
	clock   BLOB,
	PRIMARY KEY (room_id, n)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE records;
DROP TABLE rooms;
