package arena

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// Result is a tournament's ratings.
type Result struct {
	Board     string     `json:"board"`
	Games     int        `json:"games"`
	Seed      uint64     `json:"seed"`
	Standings []Standing `json:"ratings"`
}

// Standing is one program's rating on one side.
type Standing struct {
	Program string  `json:"program"`
	Side    string  `json:"side"`
	Ordinal float64 `json:"rating"` // mu − 3·sigma
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Low     float64 `json:"low"`  // the 95% interval: mu − 1.96·sigma
	High    float64 `json:"high"` // … mu + 1.96·sigma
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
	// Model: a model's cost per game it had a seat in (either side), as
	// its endpoint's answers reported it.
	Model *Cost `json:"model,omitempty"`
}

// Cost is what a model's seats cost per game.
type Cost struct {
	Calls   float64 `json:"calls"`
	Tokens  float64 `json:"tokens"` // prompt and completion, as the endpoint counted them
	Seconds float64 `json:"seconds"`
}

// Rows is the result as a run's rows for a store (store.Arena), the run
// named run and ended at at.
func (r *Result) Rows(run string, at time.Time) []store.ArenaRating {
	out := make([]store.ArenaRating, 0, len(r.Standings))
	for _, s := range r.Standings {
		row := store.ArenaRating{Run: run, At: at, Board: r.Board, Seed: r.Seed, Games: r.Games, Program: s.Program, Side: s.Side,
			Mu: s.Mu, Sigma: s.Sigma, Played: s.Games, Wins: s.Wins}
		if s.Model != nil {
			row.Tokens, row.Seconds = s.Model.Tokens, s.Model.Seconds
		}
		out = append(out, row)
	}
	return out
}

// WriteTable prints the ratings, side by side, best first.
func (r *Result) WriteTable(w io.Writer) error {
	plural := "s"
	if r.Games == 1 {
		plural = ""
	}
	if _, err := fmt.Fprintf(w, "arena: %s, %d game%s, seed %d\n\n", r.Board, r.Games, plural, r.Seed); err != nil {
		return err
	}
	models := slices.ContainsFunc(r.Standings, func(s Standing) bool { return s.Model != nil })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "program\tside\trating\tmu ± 95%\tgames\twins\t"
	if models {
		head += "tokens/game\ts/game\t"
	}
	fmt.Fprintln(tw, head)
	for _, s := range r.Standings {
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%.2f ± %.2f\t%d\t%d\t", s.Program, s.Side, s.Ordinal, s.Mu, s.High-s.Mu, s.Games, s.Wins)
		switch {
		case s.Model != nil:
			fmt.Fprintf(tw, "%.0f\t%.1f\t", s.Model.Tokens, s.Model.Seconds)
		case models:
			fmt.Fprint(tw, "–\t–\t")
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nrating = mu − 3·sigma (Weng–Lin Plackett–Luce, docs/arena.md); games: those with at least one seat on the side")
	return err
}

// WriteJSON writes the result as one JSON document.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
