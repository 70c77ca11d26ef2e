package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// BusBeat records whether node reaches the cluster's bus now (up), as its
// heartbeat in the table nodes. While it does not, it answers whether it
// alone lost the bus: it names another node that has been on the bus for
// grace or longer since node lost it, and was still on it within fresh of
// now; "" if there is none (every node lost the bus, as when NATS
// restarts, or the others that could serve node's rooms are dead). Times
// are the database's.
func (d *DB) BusBeat(ctx context.Context, node string, up bool, fresh, grace time.Duration) (other string, err error) {
	if node == "" {
		return "", errors.New("postgres: a node's heartbeat needs its name")
	}
	done, err := d.reading()
	if err != nil {
		return "", err
	}
	defer done()
	err = d.pool.QueryRow(ctx, `WITH me AS (
			INSERT INTO nodes AS n (node, bus_up, since, seen) VALUES ($1, $2, now(), now())
			ON CONFLICT (node) DO UPDATE SET bus_up = EXCLUDED.bus_up, seen = EXCLUDED.seen,
				since = CASE WHEN n.bus_up = EXCLUDED.bus_up THEN n.since ELSE EXCLUDED.since END
			RETURNING node, bus_up, since, seen)
		SELECT coalesce((SELECT o.node FROM nodes o, me
			WHERE NOT me.bus_up AND o.node <> me.node AND o.bus_up
				AND o.seen > me.seen - $3 * interval '1 microsecond'
				AND o.seen - greatest(o.since, me.since) >= $4 * interval '1 microsecond'
			ORDER BY o.seen DESC, o.node LIMIT 1), '')`,
		node, up, fresh.Microseconds(), grace.Microseconds()).Scan(&other)
	if err != nil {
		return "", fmt.Errorf("postgres: heartbeat of node %q: %w", node, err)
	}
	return other, nil
}

// BusBeat is DB.BusBeat for the node.
func (f *Fenced) BusBeat(ctx context.Context, up bool, fresh, grace time.Duration) (string, error) {
	return f.db.BusBeat(ctx, f.node, up, fresh, grace)
}

// BusBeat is Fenced.BusBeat.
func (k Keeper) BusBeat(ctx context.Context, up bool, fresh, grace time.Duration) (string, error) {
	return k.f.BusBeat(ctx, up, fresh, grace)
}
