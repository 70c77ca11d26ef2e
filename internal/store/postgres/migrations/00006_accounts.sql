-- +goose Up
-- Players' optional accounts (store.Accounts, docs/accounts.md). name_key
-- is store.NameKey(name), the form in which two names are one.
CREATE TABLE accounts (
	id       text COLLATE "C" PRIMARY KEY,
	name     text NOT NULL,
	name_key text COLLATE "C" NOT NULL UNIQUE,
	public   boolean NOT NULL,
	locked   boolean NOT NULL,
	created  bigint, -- unix nanoseconds; NULL for the zero time
	password text NOT NULL -- the argon2id hash (PHC string); '' for none
);

-- An account's WebAuthn credentials; data is the accounts package's JSON.
CREATE TABLE passkeys (
	id         bytea PRIMARY KEY, -- the credential ID
	account_id text COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	data       bytea NOT NULL,
	created    bigint
);
CREATE INDEX passkeys_account ON passkeys (account_id, created);

-- Signed-in browsers, by the SHA-256 of their cookie's token.
CREATE TABLE sessions (
	hash       text COLLATE "C" PRIMARY KEY,
	account_id text COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    bigint,
	expires    bigint NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expires ON sessions (expires);

-- The seats held by signed-in players. No reference to rooms: a link may
-- be made as the room is created, and outlives nothing of the account.
CREATE TABLE seat_links (
	room_id    text COLLATE "C" NOT NULL,
	seat       integer NOT NULL,
	account_id text COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	PRIMARY KEY (room_id, seat)
);
CREATE INDEX seat_links_account ON seat_links (account_id);

-- +goose Down
DROP TABLE seat_links;
DROP TABLE sessions;
DROP TABLE passkeys;
DROP TABLE accounts;
