-- +goose Up
-- The chat platforms' bindings (store.Chat, docs/chat.md): which chat user
-- holds which seat of a room, which group watches it, and how far each
-- stream was sent. Seat 0 is the room's group.
CREATE TABLE IF NOT EXISTS chat_bindings (
	platform text    NOT NULL,
	room     text    NOT NULL,
	seat     integer NOT NULL,
	grp      text    NOT NULL,
	usr      text    NOT NULL,
	name     text    NOT NULL,
	lang     text    NOT NULL,
	events   integer NOT NULL,
	chats    integer NOT NULL,
	prompt   text    NOT NULL,
	away     boolean NOT NULL,
	host     text    NOT NULL,
	PRIMARY KEY (platform, room, seat)
);

-- +goose Down
DROP TABLE chat_bindings;
