package ledger

import (
	"fmt"
	"time"
)

// Seasons is how long a season lasts: a leaderboard and a rating per side
// start afresh with each. Seasons follow the calendar in UTC.
type Seasons string

// Season lengths.
const (
	Quarter Seasons = "quarter" // the default: 2026-Q4
	Month   Seasons = "month"   // 2026-12
	Year    Seasons = "year"    // 2026
)

// ParseSeasons reads a season length ("" is Quarter).
func ParseSeasons(s string) (Seasons, error) {
	switch Seasons(s) {
	case "", Quarter:
		return Quarter, nil
	case Month, Year:
		return Seasons(s), nil
	}
	return "", fmt.Errorf("unknown season length %q (quarter, month or year)", s)
}

// Of is the season t falls in.
func (p Seasons) Of(t time.Time) string {
	t = t.UTC()
	switch p {
	case Month:
		return t.Format("2006-01")
	case Year:
		return t.Format("2006")
	}
	return fmt.Sprintf("%d-Q%d", t.Year(), (int(t.Month())+2)/3)
}
