package postgres

import (
	"context"
	"fmt"

	"github.com/wolfden/wolfden/internal/store"
)

var (
	_ store.Chat = (*DB)(nil)
	_ store.Chat = (*Fenced)(nil)
)

// PutChatBinding implements store.Chat.
func (d *DB) PutChatBinding(ctx context.Context, b store.ChatBinding) error {
	if err := store.CheckChatBinding(b); err != nil {
		return err
	}
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	_, err = d.pool.Exec(ctx, `INSERT INTO chat_bindings (platform, room, seat, grp, usr, name, lang, events, chats, prompt, away, host)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (platform, room, seat) DO UPDATE SET grp = excluded.grp, usr = excluded.usr, name = excluded.name,
		lang = excluded.lang, events = excluded.events, chats = excluded.chats, prompt = excluded.prompt, away = excluded.away, host = excluded.host`,
		b.Platform, b.Room, b.Seat, b.Group, b.User, b.Name, b.Lang, b.Events, b.Chats, b.Prompt, b.Away, b.Token)
	if err != nil {
		return fmt.Errorf("postgres: put chat binding: %w", err)
	}
	return nil
}

// ChatBindings implements store.Chat.
func (d *DB) ChatBindings(ctx context.Context, platform string) ([]store.ChatBinding, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT platform, room, seat, grp, usr, name, lang, events, chats, prompt, away, host
		FROM chat_bindings WHERE platform = $1 ORDER BY room, seat`, platform)
	if err != nil {
		return nil, fmt.Errorf("postgres: chat bindings: %w", err)
	}
	defer rows.Close()
	var out []store.ChatBinding
	for rows.Next() {
		var b store.ChatBinding
		if err := rows.Scan(&b.Platform, &b.Room, &b.Seat, &b.Group, &b.User, &b.Name, &b.Lang, &b.Events, &b.Chats, &b.Prompt, &b.Away, &b.Token); err != nil {
			return nil, fmt.Errorf("postgres: chat bindings: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: chat bindings: %w", err)
	}
	return out, nil
}

// DeleteChatRoom implements store.Chat.
func (d *DB) DeleteChatRoom(ctx context.Context, platform, room string) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	if _, err := d.pool.Exec(ctx, `DELETE FROM chat_bindings WHERE platform = $1 AND room = $2`, platform, room); err != nil {
		return fmt.Errorf("postgres: delete chat room: %w", err)
	}
	return nil
}

// The chat bindings are no game's records: plain, as the accounts.

// PutChatBinding implements store.Chat.
func (f *Fenced) PutChatBinding(ctx context.Context, b store.ChatBinding) error {
	return f.db.PutChatBinding(ctx, b)
}

// ChatBindings implements store.Chat.
func (f *Fenced) ChatBindings(ctx context.Context, platform string) ([]store.ChatBinding, error) {
	return f.db.ChatBindings(ctx, platform)
}

// DeleteChatRoom implements store.Chat.
func (f *Fenced) DeleteChatRoom(ctx context.Context, platform, room string) error {
	return f.db.DeleteChatRoom(ctx, platform, room)
}
