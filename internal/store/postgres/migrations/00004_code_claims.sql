-- +goose Up
-- The claims on rooms' short codes (store.Codes): the code is the key, so
-- that a code names one room at a time across every node of the cluster.
-- A claim needs no room row: a new room claims its code before it is
-- created. Expiry is the database's clock, the one clock every node shares.
CREATE TABLE codes (
	code    text COLLATE "C" PRIMARY KEY,
	room_id text COLLATE "C" NOT NULL,
	expires timestamptz -- the claim lapses then (a finished game's linger); NULL: until freed
);

-- The live rooms' codes as they were before claims: where two held one
-- code (which the server's memory used to tell apart), the newer room's.
INSERT INTO codes (code, room_id)
SELECT DISTINCT ON (code) code, id FROM rooms
WHERE code <> '' AND status IN ('open', 'running')
ORDER BY code, created DESC NULLS LAST, id DESC;

-- +goose Down
DROP TABLE codes;
