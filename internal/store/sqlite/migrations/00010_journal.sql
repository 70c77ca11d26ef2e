-- +goose Up
-- The last epoch of the journal (journal.go) whose records were moved into
-- this database: a journal of that epoch left at a crash is not moved again.
CREATE TABLE journal (epoch INTEGER NOT NULL);
INSERT INTO journal (epoch) VALUES (0);

-- +goose Down
DROP TABLE journal;
