package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/boardfile"
	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

// boardArg is one --preset or --board value, kept in command-line order.
type boardArg struct {
	file bool
	name string
}

// boardFlag appends the comma-separated values of --preset or --board to one
// shared list, so that the boards come out in the order they were given.
type boardFlag struct {
	list *[]boardArg
	file bool
}

func (f boardFlag) String() string {
	var names []string
	for _, a := range *f.list {
		if a.file == f.file {
			names = append(names, a.name)
		}
	}
	return strings.Join(names, ",")
}

func (f boardFlag) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return errors.New("an empty name in the list")
		}
		*f.list = append(*f.list, boardArg{file: f.file, name: name})
	}
	return nil
}

func (f boardFlag) Type() string {
	if f.file {
		return "FILE"
	}
	return "NAME"
}

func simCmd() *cobra.Command {
	var boards []boardArg
	var games, workers, players int
	var seed uint64
	var bots, report, table, tableDoc string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sim (--preset NAME | --board FILE)... [--games N] [--bots LEVELS] [--seed N] [--workers N] [--json] [--report FILE.html]",
		Short: "Play many bot games of one or more boards and report their balance",
		Long: `Play many games of one or more boards with bots and report, for each board,
the win rate of each camp with its 95% (Wilson) interval, the length of the
games in days, the deaths by cause, the survival of each role and how often
each special rule came into play (docs/simulator.md).

Give several boards to compare them: repeat --preset and --board, or give
comma lists; each board gets its own block, in the order given. A preset with
a range of players takes --players, or NAME:N (classic:12).

--bots is a level for everyone (random, smart) or camp=level items
(village=smart,wolves=random), optionally after a level for the camps not
named (random,village=smart); a seat plays at the level of the camp of the
card it is dealt (camps: village, wolves, piper, fox, newlyweds).

The output is the same for the same seed whatever --workers is. A progress bar
is drawn on stderr when it is a terminal; the speed is reported on stderr.

--preset-table FILE.json writes the table of every preset's balance (smart
bots, --games games of each preset at its default size and at 9, 12 and 16
players where it allows them, --seed) that the binary embeds
(sim/balance_presets.json); --preset-table-doc FILE.md also puts it, as
markdown, into that file between its markers (docs/simulator.md):
  ` + sim.PresetTableCommand,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if table != "" || tableDoc != "" {
				if len(boards) > 0 {
					return errors.New("sim: --preset-table simulates every preset: give no --preset or --board")
				}
				return writePresetTable(cmd, table, tableDoc, games, seed, workers)
			}
			if len(boards) == 0 {
				return errors.New("sim: give --preset NAME or --board FILE (several to compare them)")
			}
			if games < 1 {
				return fmt.Errorf("sim: --games must be 1 or more, not %d", games)
			}
			if workers < 1 {
				return fmt.Errorf("sim: --workers must be 1 or more, not %d", workers)
			}
			levels, err := sim.ParseLevels(bots)
			if err != nil {
				return fmt.Errorf("sim: --bots %q: %w", bots, err)
			}
			cfg := sim.Config{Games: games, Seed: seed, Workers: workers, Bots: levels}
			for _, a := range boards {
				b, err := simBoard(a, players)
				if err != nil {
					return fmt.Errorf("sim: %w", err)
				}
				cfg.Boards = append(cfg.Boards, b)
			}

			stderr := cmd.ErrOrStderr()
			total := int64(len(cfg.Boards)) * int64(games)
			var bar *progressbar.ProgressBar
			if isTerminal(stderr) {
				bar = progressbar.NewOptions64(total,
					progressbar.OptionSetWriter(stderr),
					progressbar.OptionSetDescription("simulating"),
					progressbar.OptionSetItsString("games"),
					progressbar.OptionShowIts(),
					progressbar.OptionShowCount(),
					progressbar.OptionSetPredictTime(true),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish())
				cfg.Progress = func(n int) { _ = bar.Add(n) }
			}
			start := time.Now()
			res, err := sim.Run(cmd.Context(), cfg)
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			elapsed := time.Since(start)
			plural := "s"
			if workers == 1 {
				plural = ""
			}
			fmt.Fprintf(stderr, "wolfden sim: %d games in %.2fs: %.0f games/s with %d worker%s\n",
				total, elapsed.Seconds(), float64(total)/elapsed.Seconds(), workers, plural)

			if report != "" {
				var buf bytes.Buffer
				if err := res.WriteHTML(&buf); err != nil {
					return err
				}
				if err := os.WriteFile(report, buf.Bytes(), 0o644); err != nil {
					return fmt.Errorf("sim: --report: %w", err)
				}
			}
			if asJSON {
				return res.WriteJSON(cmd.OutOrStdout())
			}
			return res.WriteText(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.Var(boardFlag{&boards, false}, "preset", "a preset (wolfden presets); NAME:N for N players; repeat or comma-separate to compare")
	f.Var(boardFlag{&boards, true}, "board", "a board file (docs/boards.md); repeat or comma-separate to compare")
	f.IntVar(&players, "players", 0, "players, for presets with a range (default: the smallest)")
	f.IntVar(&games, "games", 10000, "games per board")
	f.StringVar(&bots, "bots", "smart", "bot level: random or smart, or per camp: village=smart,wolves=random")
	f.Uint64Var(&seed, "seed", 1, "the run's seed: the same seed gives the same figures")
	f.IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "games played at once (default: one per CPU)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVar(&report, "report", "", "also write a self-contained HTML report with charts to this file")
	f.StringVar(&table, "preset-table", "", "write the balance table of every preset (JSON) to this file: sim/balance_presets.json")
	f.StringVar(&tableDoc, "preset-table-doc", "", "also put the table, as markdown, into this file between its markers: docs/simulator.md")
	return cmd
}

// simBoard loads one --preset or --board value.
func simBoard(a boardArg, players int) (sim.Board, error) {
	if a.file {
		f, err := boardfile.Load(a.name)
		if err != nil {
			return sim.Board{}, err
		}
		name := f.Name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(a.name), filepath.Ext(a.name))
		}
		return sim.Board{Name: name, Source: a.name, Board: f.Board}, nil
	}
	name, n := a.name, players
	if base, size, ok := strings.Cut(a.name, ":"); ok {
		v, err := strconv.Atoi(size)
		if err != nil || v < 1 {
			return sim.Board{}, fmt.Errorf("preset %q: %q is not a number of players", a.name, size)
		}
		name, n = base, v
	}
	p, err := rules.LookupPreset(name)
	if err != nil {
		return sim.Board{}, err
	}
	b, err := chooseBoard(name, "", n)
	if err != nil {
		return sim.Board{}, err
	}
	label := name
	if n != 0 && p.MinPlayers != p.MaxPlayers {
		label += ":" + strconv.Itoa(n)
	}
	return sim.Board{Name: label, Chinese: p.Chinese, Source: "preset", Board: b}, nil
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writePresetTable simulates every preset and writes the table the binary
// embeds (sim/balance_presets.json) and its markdown copy.
func writePresetTable(cmd *cobra.Command, file, doc string, games int, seed uint64, workers int) error {
	if file == "" {
		return errors.New("sim: --preset-table-doc needs --preset-table FILE.json")
	}
	if games < 1 || workers < 1 {
		return fmt.Errorf("sim: --games and --workers must be 1 or more")
	}
	start := time.Now()
	t, err := sim.BuildPresetTable(cmd.Context(), games, seed, workers, nil)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.WriteJSON(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("sim: --preset-table: %w", err)
	}
	if doc != "" {
		old, err := os.ReadFile(doc)
		if err != nil {
			return fmt.Errorf("sim: --preset-table-doc: %w", err)
		}
		if err := os.WriteFile(doc, t.ReplaceMarkdown(old), 0o644); err != nil {
			return fmt.Errorf("sim: --preset-table-doc: %w", err)
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wolfden sim: %d boards of %d games in %.1fs\n", len(t.Presets), games, time.Since(start).Seconds())
	return nil
}
