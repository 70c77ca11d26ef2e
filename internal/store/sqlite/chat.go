package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/wolfden/wolfden/internal/store"
)

var _ store.Chat = (*DB)(nil)

// PutChatBinding implements store.Chat.
func (d *DB) PutChatBinding(ctx context.Context, b store.ChatBinding) error {
	if err := store.CheckChatBinding(b); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opFunc, fn: func(ctx context.Context, tx *sql.Tx) (error, error) {
		_, err := tx.ExecContext(ctx, `INSERT INTO chat_bindings (platform, room, seat, grp, usr, name, lang, events, chats, prompt, away, host)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (platform, room, seat) DO UPDATE SET grp = excluded.grp, usr = excluded.usr, name = excluded.name,
			lang = excluded.lang, events = excluded.events, chats = excluded.chats, prompt = excluded.prompt, away = excluded.away, host = excluded.host`,
			b.Platform, b.Room, b.Seat, b.Group, b.User, b.Name, b.Lang, b.Events, b.Chats, b.Prompt, b.Away, b.Token)
		return nil, err
	}})
}

// ChatBindings implements store.Chat.
func (d *DB) ChatBindings(ctx context.Context, platform string) ([]store.ChatBinding, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT platform, room, seat, grp, usr, name, lang, events, chats, prompt, away, host
		FROM chat_bindings WHERE platform = ? ORDER BY room, seat`, platform)
	if err != nil {
		return nil, fmt.Errorf("sqlite: chat bindings: %w", err)
	}
	defer rows.Close()
	var out []store.ChatBinding
	for rows.Next() {
		var b store.ChatBinding
		if err := rows.Scan(&b.Platform, &b.Room, &b.Seat, &b.Group, &b.User, &b.Name, &b.Lang, &b.Events, &b.Chats, &b.Prompt, &b.Away, &b.Token); err != nil {
			return nil, fmt.Errorf("sqlite: chat bindings: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: chat bindings: %w", err)
	}
	return out, nil
}

// DeleteChatRoom implements store.Chat.
func (d *DB) DeleteChatRoom(ctx context.Context, platform, room string) error {
	return d.do(ctx, &op{kind: opFunc, fn: func(ctx context.Context, tx *sql.Tx) (error, error) {
		_, err := tx.ExecContext(ctx, `DELETE FROM chat_bindings WHERE platform = ? AND room = ?`, platform, room)
		return nil, err
	}})
}
