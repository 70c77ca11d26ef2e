package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the result as readable tables, one block per board.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	for i := range r.Boards {
		if i > 0 {
			b.WriteString("\n")
		}
		r.Boards[i].writeText(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Title is the board's name with its 中文 name, if any.
func (br *BoardResult) Title() string {
	if br.Chinese != "" {
		return br.Name + " (" + br.Chinese + ")"
	}
	return br.Name
}

// pad fills s with spaces to width terminal columns: a CJK character takes
// two.
func pad(s string, width int) string {
	w := displayWidth(s)
	if w >= width {
		return s
	}
	return s + strings.Repeat(" ", width-w)
}

// displayWidth is how many terminal columns s takes: a CJK character two.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		w++
		if r >= 0x1100 && !(r >= 0x2000 && r < 0x2E80) { // wide, but not punctuation such as –
			w++
		}
	}
	return w
}

func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

func (br *BoardResult) writeText(b *strings.Builder, r *Result) {
	source := "preset"
	if br.Source != "preset" {
		source = "board file " + br.Source
	}
	fmt.Fprintf(b, "== %s, %d players (%s)\n", br.Title(), br.Players, source)
	fmt.Fprintf(b, "   cards: %s\n", br.Cards)
	fmt.Fprintf(b, "   %d games, seed %d, bots %s\n\n", br.Games, r.Seed, r.Levels)

	fmt.Fprintf(b, "%-22s %10s %9s   %s\n", "Wins", "games", "rate", "95% interval (Wilson)")
	for _, c := range br.Wins {
		fmt.Fprintf(b, "  %-20s %10d %9s   %s – %s\n", c.Camp, c.Games, pct(c.Rate), pct(c.Low), pct(c.High))
	}

	fmt.Fprintf(b, "\nLength: %.2f days on average, %d to %d\n", br.Length.Mean, br.Length.Min, br.Length.Max)
	fmt.Fprintf(b, "%-22s %10s %9s\n", "  days", "games", "share")
	top := 0.0
	for _, h := range br.Length.Histogram {
		top = max(top, h.Share)
	}
	for _, h := range br.Length.Histogram {
		bar := 0
		if top > 0 {
			bar = int(h.Share/top*30 + 0.5)
		}
		days := fmt.Sprint(h.Days)
		if h.Days == maxDays {
			days += "+"
		}
		fmt.Fprintf(b, "  %-20s %10d %9s   %s\n", days, h.Games, pct(h.Share), strings.Repeat("#", bar))
	}

	fmt.Fprintf(b, "\n%-22s %10s %9s %9s\n", "Deaths by cause", "deaths", "per game", "share")
	for _, d := range br.Deaths {
		fmt.Fprintf(b, "  %-20s %10d %9.3f %9s\n", d.Cause, d.Deaths, d.PerGame, pct(d.Share))
	}

	fmt.Fprintf(b, "\n%-22s %10s %9s %9s\n", "Survival by role", "players", "alive", "rate")
	for _, s := range br.Survival {
		fmt.Fprintf(b, "  %s %10d %9d %9s\n", pad(s.Role+" ("+s.Chinese+")", 20), s.Players, s.Alive, pct(s.Rate))
	}
	fmt.Fprintf(b, "\n%-22s %10s %9s\n", "Special rules", "games", "share")
	for _, f := range br.Rules {
		fmt.Fprintf(b, "  %-20s %10d %9s   %s\n", f.Rule, f.Games, pct(f.Rate), f.Label)
	}
}
