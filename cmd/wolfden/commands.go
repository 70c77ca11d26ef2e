package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/boardfile"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/script"
	"github.com/wolfden/wolfden/rules"
)

func rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "wolfden",
		Short:         "wolfden is an automated Werewolf (狼人杀) moderator (法官)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(serveCmd(), playCmd(), presetsCmd(), narrationCmd(), boardCmd(), simCmd())
	root.AddCommand(benchCmd(), agentCmd(), accountsCmd())
	root.AddCommand(benchCmd(), agentCmd(), arenaCmd())
	return root
}

func playCmd() *cobra.Command {
	var file string
	var as int
	cmd := &cobra.Command{
		Use:   "play --script FILE [--as SEAT]",
		Short: "Play a scripted game and print its events as JSON lines",
		Long: `Play a scripted game (docs/scripts.md) and print every event as a JSON line.
With --as SEAT only what that seat receives is printed, numbered in that
seat's own stream (a seat is not told that events it may not see exist: their
count would leak). The command fails, naming the line,
when a command is refused or an expectation of the script does not hold.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return errors.New("play: --script FILE is required")
			}
			s, err := script.Load(file)
			if err != nil {
				return err
			}
			if as < 0 || as > s.Players {
				return fmt.Errorf("play: --as %d is not a seat of this %d-player game", as, s.Players)
			}
			w := cmd.OutOrStdout()
			var werr error
			seen := int32(0)
			_, err = s.Run(func(e rules.Event) {
				if as > 0 {
					if !e.Visible(rules.Seat(as)) {
						return
					}
					seen++
					e.Seq = seen
				}
				if werr == nil {
					werr = writeJSONLine(w, e)
				}
			})
			if err != nil {
				return err
			}
			return werr
		},
	}
	cmd.Flags().StringVar(&file, "script", "", "the script file (YAML)")
	cmd.Flags().IntVar(&as, "as", 0, "print only what this seat receives")
	return cmd
}

func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

type presetJSON struct {
	Name        string            `json:"name"`
	Chinese     string            `json:"chinese"`
	Description string            `json:"description"`
	MinPlayers  int               `json:"min_players"`
	MaxPlayers  int               `json:"max_players"`
	Cards       map[string]int    `json:"cards"`
	Options     map[string]string `json:"options"`
}

func presetsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "presets [--json]",
		Short: "List the preset boards with their cards and option values",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			var list []presetJSON
			for _, p := range rules.Presets() {
				b, err := p.Board(p.MinPlayers)
				if err != nil {
					return err
				}
				pj := presetJSON{Name: p.Name, Chinese: p.Chinese, Description: p.Description,
					MinPlayers: p.MinPlayers, MaxPlayers: p.MaxPlayers,
					Cards: map[string]int{}, Options: map[string]string{}}
				for _, r := range b.Cards {
					pj.Cards[r.String()]++
				}
				for _, o := range rules.AllOptions() {
					pj.Options[o.Name()] = b.Options.Get(o)
				}
				list = append(list, pj)
			}
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			for i, p := range rules.Presets() {
				pj := list[i]
				players := strconv.Itoa(p.MinPlayers)
				if p.MaxPlayers != p.MinPlayers {
					players += "–" + strconv.Itoa(p.MaxPlayers)
				}
				fmt.Fprintf(w, "%s (%s), %s players: %s\n", p.Name, p.Chinese, players, p.Description)
				b, _ := p.Board(p.MinPlayers)
				fmt.Fprintf(w, "  cards (%d players): %s\n", p.MinPlayers, rules.CardList(b.Cards, true))
				var opts []string
				for _, o := range rules.AllOptions() {
					opts = append(opts, o.Name()+"="+pj.Options[o.Name()])
				}
				fmt.Fprintf(w, "  options: %s\n", strings.Join(opts, " "))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func boardCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "board",
		Short: "Work with custom board files (docs/boards.md)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return fmt.Errorf("unknown command %q for \"wolfden board\" (known: check)", args[0])
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "check FILE...",
		Short: "Validate board files and summarise each: players, cards, camps, options",
		Long: `Validate custom board files (docs/boards.md) and print a summary of each:
its players, cards with their Chinese names, the cards counted by camp, and
the options set to something other than the first value of their list.
A bad board fails the command with the file, the line and the problem.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			var errs []error
			for i, path := range files {
				bf, err := boardfile.Load(path)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				if i > 0 {
					fmt.Fprintln(cmd.OutOrStdout())
				}
				writeBoardSummary(cmd.OutOrStdout(), bf)
			}
			return errors.Join(errs...)
		},
	})
	return cmd
}

// writeBoardSummary prints what a valid board file sets up.
func writeBoardSummary(w io.Writer, bf *boardfile.File) {
	b := &bf.Board
	fmt.Fprintf(w, "%s: ok\n", bf.Source)
	if bf.Name != "" {
		fmt.Fprintf(w, "  name:     %s\n", bf.Name)
	}
	if bf.Description != "" {
		fmt.Fprintf(w, "  about:    %s\n", bf.Description)
	}
	fmt.Fprintf(w, "  players:  %d\n", bf.Players)
	if extra := len(b.Cards) - bf.Players; extra > 0 {
		fmt.Fprintf(w, "  cards:    %d (the thief's %d extra cards included): %s\n", len(b.Cards), extra, rules.CardList(b.Cards, true))
	} else {
		fmt.Fprintf(w, "  cards:    %s\n", rules.CardList(b.Cards, true))
	}
	fmt.Fprintf(w, "  camps:    %s\n", campCounts(b.Cards))
	var set []rules.Option
	width := 0
	for _, o := range rules.AllOptions() {
		if b.Options[o] != 0 {
			set = append(set, o)
			width = max(width, len(o.Name()))
		}
	}
	if len(set) == 0 {
		fmt.Fprintf(w, "  options:  the first value of each list (docs/rules.md)\n")
		return
	}
	fmt.Fprintf(w, "  options:  the first value of each list (docs/rules.md) except:\n")
	for _, o := range set {
		fmt.Fprintf(w, "    %-*s  %s\n", width, o.Name(), b.Options.Get(o))
	}
}

// campCounts counts the cards by camp: wolves, gods (神职), villagers (plain
// village cards), then any other camp by name.
func campCounts(cards []rules.Role) string {
	wolves, gods, villagers := 0, 0, 0
	other := map[rules.Camp]int{}
	for _, r := range cards {
		switch {
		case r.IsWolf():
			wolves++
		case r.IsGod():
			gods++
		case r.Camp() == rules.Village:
			villagers++
		default:
			other[r.Camp()]++
		}
	}
	out := fmt.Sprintf("wolves %d, gods %d, villagers %d", wolves, gods, villagers)
	for c := rules.Camp(0); c <= rules.Draw; c++ {
		if other[c] > 0 {
			out += fmt.Sprintf(", %s %d", c, other[c])
		}
	}
	return out
}

func narrationCmd() *cobra.Command {
	var preset, board, lang string
	var players, night int
	var absent bool
	cmd := &cobra.Command{
		Use:   "narration (--preset NAME | --board FILE) [--night N] [--lang zh-Hans|zh-Hant|en]",
		Short: "Print the moderator's calls for a night (天黑请闭眼 …), as a table game speaks them",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := chooseBoard(preset, board, players)
			if err != nil {
				return err
			}
			if absent {
				b.Options[rules.OptNarrateAbsentRoles] = 1
			}
			l, err := i18n.Match(lang)
			if err != nil {
				return err
			}
			if night < 1 {
				return fmt.Errorf("narration: --night must be 1 or more, not %d", night)
			}
			g, err := rules.New(b, 0, nil)
			if err != nil {
				return err
			}
			for _, c := range g.Narration(night) {
				fmt.Fprintln(cmd.OutOrStdout(), i18n.Call(l, c))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&preset, "preset", "", "a preset (wolfden presets)")
	cmd.Flags().StringVar(&board, "board", "", "a board file (docs/boards.md)")
	cmd.Flags().IntVar(&players, "players", 0, "players, for presets with a range")
	cmd.Flags().IntVar(&night, "night", 1, "which night")
	cmd.Flags().StringVar(&lang, "lang", "zh-Hans", "language: zh-Hans, zh-Hant or en")
	cmd.Flags().BoolVar(&absent, "absent", false, "call every role of the board, dead or absent too (narrate_absent_roles)")
	return cmd
}

// chooseBoard reads --preset or --board.
func chooseBoard(preset, board string, players int) (rules.Board, error) {
	switch {
	case preset != "" && board != "":
		return rules.Board{}, errors.New("give --preset or --board, not both")
	case preset != "":
		p, err := rules.LookupPreset(preset)
		if err != nil {
			return rules.Board{}, err
		}
		return p.Board(players)
	case board != "":
		f, err := boardfile.Load(board)
		if err != nil {
			return rules.Board{}, err
		}
		return f.Board, nil
	}
	return rules.Board{}, errors.New("give --preset NAME or --board FILE")
}
