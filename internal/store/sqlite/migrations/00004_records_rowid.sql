-- +goose Up
-- records as a rowid table with its key in an index. WITHOUT ROWID, a
-- record's whole row was its key: the b-tree's interior pages held copies
-- of whole rows, and an append compared its key with rows of many KB (a
-- day of an AIWolf game's request log) read from their overflow pages,
-- bypassing the page cache, several times per append.
CREATE TABLE records_rowid (
	room_id TEXT NOT NULL REFERENCES rooms (id),
	n       INTEGER NOT NULL,
	at      INTEGER, -- unix nanoseconds; NULL for the zero time
	kind    TEXT NOT NULL,
	body    BLOB,
	events  BLOB, -- store.AppendEvents
	clock   BLOB
);
INSERT INTO records_rowid (room_id, n, at, kind, body, events, clock)
SELECT room_id, n, at, kind, body, events, clock FROM records ORDER BY room_id, n;
DROP TABLE records;
ALTER TABLE records_rowid RENAME TO records;
CREATE UNIQUE INDEX records_key ON records (room_id, n);

-- +goose Down
CREATE TABLE records_key (
	room_id TEXT NOT NULL REFERENCES rooms (id),
	n       INTEGER NOT NULL,
	at      INTEGER,
	kind    TEXT NOT NULL,
	body    BLOB,
	events  BLOB,
	clock   BLOB,
	PRIMARY KEY (room_id, n)
) WITHOUT ROWID;
INSERT INTO records_key (room_id, n, at, kind, body, events, clock)
SELECT room_id, n, at, kind, body, events, clock FROM records;
DROP TABLE records;
ALTER TABLE records_key RENAME TO records;
