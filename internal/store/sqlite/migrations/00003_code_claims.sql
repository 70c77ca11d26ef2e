-- +goose Up
-- The claims on rooms' short codes (store.Codes): the code is the key, so
-- that a code names one room at a time whoever writes the file. A claim
-- needs no room row: a new room claims its code before it is created.
CREATE TABLE codes (
	code    TEXT PRIMARY KEY,
	room_id TEXT NOT NULL,
	expires INTEGER -- unix nanoseconds after which the claim lapses (a finished game's linger); NULL: until freed
) WITHOUT ROWID;

-- The live rooms' codes as they were before claims: where two held one
-- code (which the server's memory used to tell apart), the newer room's.
INSERT INTO codes (code, room_id)
SELECT code, id FROM (
	SELECT code, id, row_number() OVER (PARTITION BY code ORDER BY created DESC, id DESC) AS k
	FROM rooms WHERE code <> '' AND status IN ('open', 'running')
) WHERE k = 1;

-- +goose Down
DROP TABLE codes;
