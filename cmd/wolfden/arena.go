package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/arena"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

func arenaCmd() *cobra.Command {
	var players, board, boardFile, db string
	var games, workers int
	var seed uint64
	var asJSON bool
	var lf llmFlags
	cmd := &cobra.Command{
		Use:   "arena --players smart,random[,llm:MODEL...] --board std-12 [--games N] [--seed S] [--db FILE] [--json] [--llm-url URL ...]",
		Short: "Play a tournament between programs and rate each on each side",
		Long: `Play --games games of one board between programs (bot levels: random,
smart; llm:MODEL, a model asked through --llm-url), sharing out each game's
seats among them from its seed, and rate each program on each side (village,
wolf) with the Weng–Lin Plackett–Luce team rating (docs/arena.md). Prints,
per side, each program's rating (mu − 3·sigma), its mean with the 95%
interval, and its games; for a model also its tokens and time per game, as
the endpoint's answers count them.

Bots alone: the same --seed gives the same games and the same table,
whatever --workers is. A game with a model is played live, as a server plays
it (the model's seats read only their own frames), and depends on the
model's answers and their timing.

With --db (an SQLite file, free of any server, or a postgres:// URL, as
serve takes) every game is kept there as a finished private practice room,
whose replay a server on that database serves (GET /api/rooms/{id}/replay;
a model's replies after the end), and the run's table, which it lists at
GET /api/arena and on its /arena page.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			endpoint, err := lf.endpoint(cmd.Flags().Changed)
			if err != nil {
				return fmt.Errorf("arena: %w", err)
			}
			programs, err := arena.ParsePrograms(players, endpoint)
			if err != nil {
				return err
			}
			if games < 1 {
				return fmt.Errorf("arena: --games must be 1 or more, not %d", games)
			}
			if workers < 1 {
				return fmt.Errorf("arena: --workers must be 1 or more, not %d", workers)
			}
			var a boardArg
			switch {
			case boardFile != "" && cmd.Flags().Changed("board"):
				return errors.New("arena: give --board or --board-file, not both")
			case boardFile != "":
				a = boardArg{file: true, name: boardFile}
			default:
				a = boardArg{name: board}
			}
			b, err := simBoard(a, 0)
			if err != nil {
				return fmt.Errorf("arena: %w", err)
			}
			cfg := arena.Config{Board: b, Programs: programs, Games: games, Seed: seed, Workers: workers}
			var st store.Store
			if db != "" {
				if st, err = openArenaStore(cmd.Context(), db); err != nil {
					return fmt.Errorf("arena: --db: %w", err)
				}
				defer st.Close()
				preset := ""
				if b.Source == "preset" {
					preset = b.Name
				}
				cfg.Keep = func(ctx context.Context, g *arena.Game) error {
					_, err := server.Archive(ctx, st, server.Finished{Name: fmt.Sprintf("arena %s #%d", b.Name, g.Index+1),
						Preset: preset, Board: g.Board, Seed: g.Seed, Names: g.Seats, Log: g.Log})
					return err
				}
			}
			start := time.Now()
			res, err := arena.Run(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			elapsed := time.Since(start)
			fmt.Fprintf(cmd.ErrOrStderr(), "wolfden arena: %d games in %.2fs with %d workers\n", games, elapsed.Seconds(), workers)
			if st != nil {
				ar, ok := st.(store.Arena)
				if !ok {
					return fmt.Errorf("arena: --db %s keeps no arena ratings", db)
				}
				if err := ar.AddArenaRun(cmd.Context(), res.Rows(rand.Text(), time.Now())); err != nil {
					return fmt.Errorf("arena: --db: %w", err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "wolfden arena: every game kept in %s, a finished room each (its replay: GET /api/rooms/{id}/replay), and the ratings (GET /api/arena)\n", db)
			}
			if asJSON {
				return res.WriteJSON(cmd.OutOrStdout())
			}
			return res.WriteTable(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&players, "players", "smart,random", "the programs, comma-separated: bot levels (random, smart), llm:MODEL (a model at --llm-url)")
	f.StringVar(&board, "board", "std-12", "the board: a preset (wolfden presets), NAME:N for N players")
	f.StringVar(&boardFile, "board-file", "", "the board from a file (docs/boards.md) instead of a preset")
	f.IntVar(&games, "games", 1000, "games to play")
	f.Uint64Var(&seed, "seed", 1, "the run's seed: the same seed gives the same games and table")
	f.IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "games played at once (default: one per CPU)")
	f.StringVar(&db, "db", "", "keep every game in this database (an SQLite file or a postgres:// URL)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	lf.add(cmd)
	_ = f.MarkHidden("llm-model") // the models are named in --players
	return cmd
}

// openArenaStore opens --db for arena's writes: new rooms and a run's
// ratings, which no server caches anything of. A PostgreSQL database is
// opened beside the server that may be running on it (serve's lock is not
// taken); an SQLite file only when no server has it (its lock says so).
func openArenaStore(ctx context.Context, db string) (store.Store, error) {
	if !isPostgres(db) {
		return sqlite.Open(db)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return postgres.Open(ctx, db)
}
