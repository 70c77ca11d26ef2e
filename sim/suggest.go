package sim

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"

	"github.com/wolfden/wolfden/rules"
)

// Change is one edit of a board: a card for another (From → To), or an
// option set to another value (Option: From → To).
type Change struct {
	// Kind: "villager_to_god", "god_to_villager", "special_wolf" (a
	// werewolf for a special wolf), "plain_wolf" (a special wolf for a
	// werewolf), "wolf_more" (a villager for a werewolf), "wolf_less" (a
	// werewolf for a villager) or "option".
	Kind   string `json:"kind"`
	Option string `json:"option,omitempty"`
	From   string `json:"from"` // a role, or the option's value
	To     string `json:"to"`
}

// Suggestion is a board one change away, with its figures.
type Suggestion struct {
	Change  Change      `json:"change"`
	Board   rules.Board `json:"-"`
	Balance Balance     `json:"balance"`
}

// SuggestConfig bounds a search for suggestions. Zero fields take the
// defaults below.
type SuggestConfig struct {
	ScreenBudget int // games over all candidates in the first round (4,000)
	ScreenMin    int // games per candidate in the first round, at least (80) …
	ScreenMax    int // … and at most (300)
	Finalists    int // candidates played again (6) …
	FinalGames   int // … with this many games each (600)
	Keep         int // suggestions returned (5)
}

func (c SuggestConfig) withDefaults() SuggestConfig {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.ScreenBudget, 4000)
	def(&c.ScreenMin, 80)
	def(&c.ScreenMax, 300)
	def(&c.Finalists, 6)
	def(&c.FinalGames, 600)
	def(&c.Keep, 5)
	return c
}

// optionCards are the options that matter only with some cards: an option
// is used by a board that holds every card of one of its sets. It is the
// create page's OPTION_CARDS (web/src/lib/board.js; TestOptionCardsMatchTheWeb
// checks they agree).
// wakeOnly are options the create page shows with their cards
// (OPTION_CARDS) that change only when roles are called, never who wins
// (night_order: the resolution is the same under both orders), so no
// suggestion tries them.
var wakeOnly = map[string]bool{"night_order": true}

var optionCards = map[string][][]rules.Role{
	"seer_sees":                    {{rules.Seer}},
	"witch_informed":               {{rules.Witch}},
	"witch_self_heal":              {{rules.Witch}},
	"witch_both_same_night":        {{rules.Witch}},
	"guard_repeat":                 {{rules.Guard}},
	"guard_heal_same_target":       {{rules.Guard, rules.Witch}},
	"hunter_shoots_when_poisoned":  {{rules.Hunter, rules.Witch}},
	"hunter_shoots_on_heartbreak":  {{rules.Hunter, rules.Cupid}, {rules.Hunter, rules.WolfBeauty}, {rules.Hunter, rules.GhostBride}},
	"win_check_before_shot":        {{rules.Hunter}, {rules.WolfKing}},
	"action_feedback":              {{rules.Witch}, {rules.Hunter}, {rules.WolfKing}},
	"thief_must_take_wolf":         {{rules.Thief}},
	"lovers_see_roles":             {{rules.Cupid}},
	"cupid_camp":                   {{rules.Cupid}},
	"black_lovers":                 {{rules.Cupid}},
	"little_girl_spy":              {{rules.LittleGirl}},
	"elder_heal_consumes_life":     {{rules.Elder, rules.Witch}},
	"idiot_dies_with_elder":        {{rules.Idiot, rules.Elder}},
	"exploded_sheriff_badge":       {{rules.Werewolf}, {rules.WhiteWolfKing}, {rules.WolfBeauty}, {rules.WolfKing}, {rules.Gargoyle}, {rules.Nightmare}, {rules.BloodMoon}},
	"night_shot":                   {{rules.Hunter}, {rules.WolfKing}},
	"knight_duel_in_campaign":      {{rules.Knight}},
	"knight_duel_ends_day":         {{rules.Knight}},
	"dreamcatcher_must_dream":      {{rules.Dreamcatcher}},
	"magician_swap_once":           {{rules.Magician}},
	"spirit_knight_reflect":        {{rules.SpiritKnight}},
	"silence_covers_last_words":    {{rules.SilenceElder}},
	"bear_reads":                   {{rules.BearTamer}},
	"sequence_prince_extra_speech": {{rules.SequencePrince}},
	"dancer_once_per_player":       {{rules.Dancer}},
}

// sheriffOnly are options that matter only with a sheriff (OPTION_AFTER).
var sheriffOnly = map[string]bool{"exploded_sheriff_badge": true}

// UsedOptions are the options a board's cards use, which a suggestion may
// change: those of optionCards whose cards the board holds, and wolf_win
// (every board's wolves), in the rules package's order.
func UsedOptions(b rules.Board) []rules.Option {
	held := map[rules.Role]bool{}
	for _, r := range b.Cards {
		held[r] = true
	}
	var out []rules.Option
	for _, o := range rules.AllOptions() {
		name := o.Name()
		if name == "wolf_win" {
			out = append(out, o)
			continue
		}
		sets, ok := optionCards[name]
		if !ok || (sheriffOnly[name] && b.Options[rules.OptSheriff] == rules.SheriffNone) {
			continue
		}
		if slices.ContainsFunc(sets, func(set []rules.Role) bool {
			return !slices.ContainsFunc(set, func(r rules.Role) bool { return !held[r] })
		}) {
			out = append(out, o)
		}
	}
	return out
}

// Candidates are the boards one change away from b that the engine can
// play, in a fixed order: villagers for gods, gods for villagers, werewolves
// for special wolves and back, a wolf more or less, then option values.
func Candidates(b rules.Board) []Suggestion {
	b = Canonical(b)
	count := map[rules.Role]int{}
	wolves := 0
	for _, r := range b.Cards {
		count[r]++
		if r.IsWolf() {
			wolves++
		}
	}
	var out []Suggestion
	swap := func(kind string, from, to rules.Role) {
		if count[from] == 0 {
			return
		}
		c := rules.Board{Cards: slices.Clone(b.Cards), Options: b.Options}
		c.Cards[slices.Index(c.Cards, from)] = to
		if c.Validate() != nil {
			return
		}
		out = append(out, Suggestion{Change: Change{Kind: kind, From: from.String(), To: to.String()}, Board: Canonical(c)})
	}
	// Never suggested: the thief (two more cards) and the piper (a camp of
	// his own).
	dealable := func(r rules.Role) bool { return r.Implemented() && r != rules.Thief && r != rules.Piper }
	for _, r := range rules.Roles() {
		if r.IsGod() && dealable(r) && count[r] == 0 {
			swap("villager_to_god", rules.Villager, r)
		}
	}
	for _, r := range rules.Roles() {
		if r.IsGod() && count[r] > 0 {
			swap("god_to_villager", r, rules.Villager)
		}
	}
	for _, r := range rules.Roles() {
		if r.IsWolf() && r != rules.Werewolf && dealable(r) && count[r] == 0 {
			swap("special_wolf", rules.Werewolf, r)
		}
	}
	for _, r := range rules.Roles() {
		if r.IsWolf() && r != rules.Werewolf && count[r] > 0 {
			swap("plain_wolf", r, rules.Werewolf)
		}
	}
	swap("wolf_more", rules.Villager, rules.Werewolf)
	if wolves > 1 {
		swap("wolf_less", rules.Werewolf, rules.Villager)
	}
	for _, o := range UsedOptions(b) {
		for v, value := range o.Values() {
			if v == int(b.Options[o]) {
				continue
			}
			c := rules.Board{Cards: slices.Clone(b.Cards), Options: b.Options}
			c.Options[o] = uint8(v)
			if c.Validate() != nil {
				continue
			}
			out = append(out, Suggestion{Change: Change{Kind: "option", Option: o.Name(), From: b.Options.Get(o), To: value}, Board: c})
		}
	}
	return out
}

// Suggest plays the candidates of b (Candidates) briefly and returns the
// few whose village win rate is nearest 50%, nearest first, each with its
// figures. Every candidate is first screened with a share of a budget of
// games, then the finalists are played again with more games; each is
// seeded with its own board's BoardSeed, so the answer depends only on b
// and cfg. A candidate a bot or the engine fails on is left out. It runs on
// the calling goroutine (one worker) and stops with ctx.
func Suggest(ctx context.Context, b rules.Board, cfg SuggestConfig) ([]Suggestion, error) {
	cfg = cfg.withDefaults()
	cands := Candidates(b)
	if len(cands) == 0 {
		return nil, nil
	}
	screen := min(cfg.ScreenMax, max(cfg.ScreenMin, cfg.ScreenBudget/len(cands)))
	// Larger boards cost more a game: fewer games, as QuickGames does.
	screen = max(cfg.ScreenMin/2, screen*QuickGames(b.Players())/2000)
	final := max(screen, cfg.FinalGames*QuickGames(b.Players())/2000)
	var played []Suggestion
	for _, c := range cands {
		bal, err := Estimate(ctx, c.Board, screen)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // a role or a bot not ready for this board
		}
		c.Balance = bal
		played = append(played, c)
	}
	if len(played) == 0 {
		return nil, errors.New("sim: no candidate could be played")
	}
	byDistance := func(list []Suggestion) {
		slices.SortStableFunc(list, func(x, y Suggestion) int {
			return cmp.Compare(math.Abs(x.Balance.Village.Rate-0.5), math.Abs(y.Balance.Village.Rate-0.5))
		})
	}
	byDistance(played)
	played = played[:min(len(played), cfg.Finalists)]
	for i := range played {
		bal, err := Estimate(ctx, played[i].Board, final)
		if err != nil {
			return nil, err
		}
		played[i].Balance = bal
	}
	byDistance(played)
	return played[:min(len(played), cfg.Keep)], nil
}
