-- +goose Up
-- The chat platforms' bindings (store.Chat, docs/chat.md): which chat user
-- holds which seat of a room, which group watches it, and how far each
-- stream was sent. Seat 0 is the room's group.
CREATE TABLE IF NOT EXISTS chat_bindings (
	platform TEXT    NOT NULL,
	room     TEXT    NOT NULL,
	seat     INTEGER NOT NULL,
	grp      TEXT    NOT NULL,
	usr      TEXT    NOT NULL,
	name     TEXT    NOT NULL,
	lang     TEXT    NOT NULL,
	events   INTEGER NOT NULL,
	chats    INTEGER NOT NULL,
	prompt   TEXT    NOT NULL,
	away     INTEGER NOT NULL,
	host     TEXT    NOT NULL,
	PRIMARY KEY (platform, room, seat)
);

-- +goose Down
DROP TABLE chat_bindings;
