-- +goose Up
-- A room's short code for joining across a table (internal/server/codes.go).
-- Not unique here: a code is freed when its game ends and may then name a
-- newer room; the server keeps the live rooms' codes unique.
ALTER TABLE rooms ADD COLUMN code TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE rooms DROP COLUMN code;
