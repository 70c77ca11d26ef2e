package sim

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

// PresetTableCommand regenerates the table of the presets' balance
// (balance_presets.json) and its copy in docs/simulator.md. Run it from the
// repository's root (or `go generate ./sim`).
const PresetTableCommand = "go run ./cmd/wolfden sim --preset-table sim/balance_presets.json --preset-table-doc docs/simulator.md"

//go:generate go run ../cmd/wolfden sim --preset-table balance_presets.json --preset-table-doc ../docs/simulator.md

// The table's run: smart bots, PresetTableGames games of each board, seed
// PresetTableSeed.
const (
	PresetTableGames = 10000
	PresetTableSeed  = 1
)

//go:embed balance_presets.json
var presetTableJSON []byte

// PresetTable is the precomputed balance of every preset, at its default
// size (its smallest) and, for a preset with a range, at 9, 12 and 16
// players where it allows them.
type PresetTable struct {
	Command string         `json:"command"` // how it was made
	Games   int            `json:"games"`   // per board
	Seed    uint64         `json:"seed"`
	Bots    string         `json:"bots"`
	Presets []PresetResult `json:"presets"`
}

// PresetResult is one preset at one size.
type PresetResult struct {
	Preset  string `json:"preset"`
	Chinese string `json:"chinese"`
	Players int    `json:"players"`
	Cards   string `json:"cards"`
	// Board is the board's fingerprint (BoardSeed, in hex): a preset whose
	// cards or options changed since the table was made no longer matches.
	Board string `json:"board"`
	Balance
}

// Fingerprint is BoardSeed in hex: what identifies a board in the table.
func Fingerprint(b rules.Board) string { return fmt.Sprintf("%016x", BoardSeed(b)) }

// PresetSizes are the sizes of a preset the table holds: its default (the
// smallest) and 9, 12 and 16 when the preset allows them.
func PresetSizes(p *rules.Preset) []int {
	sizes := []int{p.MinPlayers}
	for _, n := range []int{9, 12, 16} {
		if n > p.MinPlayers && n <= p.MaxPlayers {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

var (
	embeddedOnce  sync.Once
	embeddedTable *PresetTable
	embeddedErr   error
)

// PresetBalances is the table embedded in the binary.
func PresetBalances() (*PresetTable, error) {
	embeddedOnce.Do(func() {
		var t PresetTable
		if err := json.Unmarshal(presetTableJSON, &t); err != nil {
			embeddedErr = fmt.Errorf("sim: balance_presets.json: %w (regenerate it: %s)", err, PresetTableCommand)
			return
		}
		embeddedTable = &t
	})
	return embeddedTable, embeddedErr
}

// Lookup finds the figures of a board in the table: a preset's, at one of
// the table's sizes, whose cards and options are still those of the table.
func (t *PresetTable) Lookup(b rules.Board) (PresetResult, bool) {
	if t == nil {
		return PresetResult{}, false
	}
	fp := Fingerprint(b)
	for _, p := range t.Presets {
		if p.Board == fp {
			return p, true
		}
	}
	return PresetResult{}, false
}

// Missing lists what the table lacks: every preset size of rules.Presets()
// it does not hold with the preset's current cards and options, as
// "name:players". An empty list means the table is up to date.
func (t *PresetTable) Missing() []string {
	var out []string
	for _, p := range rules.Presets() {
		for _, n := range PresetSizes(p) {
			b, err := p.Board(n)
			if err != nil {
				out = append(out, p.Name+":"+strconv.Itoa(n)+" ("+err.Error()+")")
				continue
			}
			if b.Validate() != nil {
				continue // a preset of a role not dealt yet: nothing to simulate
			}
			found := false
			fp := Fingerprint(b)
			for _, r := range t.Presets {
				if r.Preset == p.Name && r.Players == n && r.Board == fp {
					found = true
				}
			}
			if !found {
				out = append(out, p.Name+":"+strconv.Itoa(n))
			}
		}
	}
	return out
}

// BuildPresetTable simulates every preset at its table sizes: games
// smart-bot games of each, seeded with seed, on workers goroutines (the
// figures do not depend on workers).
func BuildPresetTable(ctx context.Context, games int, seed uint64, workers int, progress func(int)) (*PresetTable, error) {
	var boards []Board
	for _, p := range rules.Presets() {
		for _, n := range PresetSizes(p) {
			b, err := p.Board(n)
			if err != nil {
				return nil, err
			}
			if b.Validate() != nil {
				continue // a preset of a role not dealt yet (Missing skips it too)
			}
			name := p.Name
			if p.MinPlayers != p.MaxPlayers {
				name += ":" + strconv.Itoa(n)
			}
			boards = append(boards, Board{Name: name, Chinese: p.Chinese, Source: "preset", Board: b})
		}
	}
	if len(boards) == 0 {
		return nil, errors.New("sim: no preset")
	}
	res, err := Run(ctx, Config{Boards: boards, Games: games, Seed: seed, Workers: workers,
		Bots: AllAt(bot.Smart), Progress: progress})
	if err != nil {
		return nil, err
	}
	t := &PresetTable{Command: PresetTableCommand, Games: games, Seed: seed, Bots: string(bot.Smart)}
	for i := range res.Boards {
		br := &res.Boards[i]
		name, _, _ := strings.Cut(br.Name, ":")
		// Each board's figures have the run's seed: board i's games are
		// GameSeed(seed, i, game).
		t.Presets = append(t.Presets, PresetResult{Preset: name, Chinese: br.Chinese, Players: br.Players,
			Cards: br.Cards, Board: Fingerprint(boards[i].Board), Balance: Summarize(br, seed)})
	}
	return t, nil
}

// WriteJSON writes the table as balance_presets.json holds it.
func (t *PresetTable) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// The markers around the table in docs/simulator.md.
const (
	MarkdownBegin = "<!-- preset-balance:begin (generated: " + PresetTableCommand + ") -->"
	MarkdownEnd   = "<!-- preset-balance:end -->"
)

// Markdown is the table as docs/simulator.md shows it, between its markers.
func (t *PresetTable) Markdown() string {
	var b strings.Builder
	b.WriteString(MarkdownBegin + "\n")
	fmt.Fprintf(&b, "%s games of each board, smart bots, seed %d; 95%% Wilson intervals.\n\n",
		thousands(t.Games), t.Seed)
	b.WriteString("| preset | players | village | wolves | third party | draw |\n|---|---|---|---|---|---|\n")
	for _, p := range t.Presets {
		fmt.Fprintf(&b, "| %s (%s) | %d | %s | %s | %s | %s |\n", p.Preset, p.Chinese, p.Players,
			mdRate(p.Village), mdRate(p.Wolves), mdRate(p.Third), mdRate(p.Draw))
	}
	b.WriteString(MarkdownEnd)
	return b.String()
}

func mdRate(r Rate) string {
	if r.Games == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%.1f–%.1f)", 100*r.Rate, 100*r.Low, 100*r.High)
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// ReplaceMarkdown puts the table into doc between its markers (the old
// table's place), or appends it when doc has none.
func (t *PresetTable) ReplaceMarkdown(doc []byte) []byte {
	md := t.Markdown()
	begin := bytes.Index(doc, []byte("<!-- preset-balance:begin"))
	end := bytes.Index(doc, []byte(MarkdownEnd))
	if begin < 0 || end < begin {
		out := bytes.TrimRight(doc, "\n")
		return append(append(out, "\n\n"...), md+"\n"...)
	}
	out := append([]byte{}, doc[:begin]...)
	out = append(out, md...)
	return append(out, doc[end+len(MarkdownEnd):]...)
}
