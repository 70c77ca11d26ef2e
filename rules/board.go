package rules

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Board is what a game is played with: the cards dealt (one per seat) and the
// ruleset.
type Board struct {
	Cards   []Role
	Options Options
}

// Players is the number of seats of the board: one per card, but the
// thief's two extra cards stay in the middle of the table.
func (b *Board) Players() int {
	if slices.Contains(b.Cards, Thief) {
		return len(b.Cards) - 2
	}
	return len(b.Cards)
}

// Validate refuses a board the engine cannot run, naming the problem.
func (b *Board) Validate() error {
	n := b.Players()
	if n < 3 || n > MaxSeats {
		return fmt.Errorf("rules: a board is for 3 to %d players, this one has %d", MaxSeats, n)
	}
	var count [numRoles]int
	wolves, others := 0, 0
	for _, r := range b.Cards {
		if r == NoRole || r >= numRoles {
			return fmt.Errorf("rules: unknown card %d", r)
		}
		if !r.Implemented() {
			return fmt.Errorf("rules: the role %s (%s) is not supported yet", r, r.Chinese())
		}
		count[r]++
		if count[r] > 1 && !r.multiple() {
			return fmt.Errorf("rules: a board holds at most one %s (%s)", r, r.Chinese())
		}
		if r.IsWolf() {
			wolves++
		} else {
			others++
		}
	}
	if wolves == 0 {
		return errors.New("rules: a board needs at least one wolf")
	}
	if others == 0 {
		return errors.New("rules: a board needs at least one non-wolf")
	}
	// ROLES-MORE-2.md: the sisters are always a pair, the brothers three.
	if c := count[Sister]; c != 0 && c != 2 {
		return fmt.Errorf("rules: the sisters (%s) come as a pair: the board holds %d", Sister.Chinese(), c)
	}
	if c := count[Brother]; c != 0 && c != 3 {
		return fmt.Errorf("rules: the brothers (%s) come as three: the board holds %d", Brother.Chinese(), c)
	}
	if count[MirrorSeer] == 1 && count[Thief] == 1 {
		// The extra cards are shown to the thief as they are: he would know
		// a mirror seer's card for what it is.
		return fmt.Errorf("rules: the thief (%s) and the mirror seer (%s) do not play together", Thief.Chinese(), MirrorSeer.Chinese())
	}
	if count[Angel] == 1 && b.Options[OptFirstPhase] != FirstDay {
		return fmt.Errorf("rules: a board with the angel (%s) starts by day: set first_phase=day", Angel.Chinese())
	}
	if count[Thief] == 1 && wolves > n-1 {
		return errors.New("rules: with the thief's extra cards there are too many wolves for the seats")
	}
	for o := Option(0); o < numOptions; o++ {
		if int(b.Options[o]) >= len(optionTable[o].values) {
			return fmt.Errorf("rules: option %s has no value number %d", o.Name(), b.Options[o])
		}
	}
	return nil
}

// Preset is a named board; classic adapts to the number of players.
type Preset struct {
	Name        string
	Chinese     string
	Description string
	MinPlayers  int
	MaxPlayers  int
	cards       func(n int) []Role
	Options     Options
}

// BoardOf reads a board back from its cards' and options' names, as a
// room keeps it (the server's store, the device's), and validates it.
func BoardOf(cards []string, options map[string]string) (Board, error) {
	var b Board
	for _, name := range cards {
		r, err := ParseRole(name)
		if err != nil {
			return b, err
		}
		b.Cards = append(b.Cards, r)
	}
	for k, v := range options {
		if err := b.Options.Set(k, v); err != nil {
			return b, err
		}
	}
	return b, b.Validate()
}

// Board builds the preset's board for n players.
func (p *Preset) Board(n int) (Board, error) {
	if n == 0 {
		n = p.MinPlayers
	}
	if n < p.MinPlayers || n > p.MaxPlayers {
		if p.MinPlayers == p.MaxPlayers {
			return Board{}, fmt.Errorf("rules: preset %s is for %d players, not %d", p.Name, p.MinPlayers, n)
		}
		return Board{}, fmt.Errorf("rules: preset %s is for %d to %d players, not %d", p.Name, p.MinPlayers, p.MaxPlayers, n)
	}
	return Board{Cards: p.cards(n), Options: p.Options}, nil
}

func repeat(r Role, n int) []Role {
	out := make([]Role, n)
	for i := range out {
		out[i] = r
	}
	return out
}

func fixed(cards ...[]Role) func(int) []Role {
	all := slices.Concat(cards...)
	return func(int) []Role { return slices.Clone(all) }
}

// classicWolves is 000's table: 8–11 players 2 wolves, 12–17 3, 18 4.
func classicWolves(n int) int {
	switch {
	case n >= 18:
		return 4
	case n >= 12:
		return 3
	default:
		return 2
	}
}

func opts(set ...string) Options {
	var o Options
	for i := 0; i+1 < len(set); i += 2 {
		if err := o.Set(set[i], set[i+1]); err != nil {
			panic(err)
		}
	}
	return o
}

// std001 is the ruleset of seed 001 (the 狼人杀 standard boards).
var std001 = []string{
	"sheriff", "day1_campaign", "sheriff_vote_weight", "1.5",
	"last_words", "first_night_and_exile", "speech_order", "sheriff_chooses",
	"vote_tie", "pk", "seer_sees", "wolf_or_not",
	"witch_informed", "while_heal_unused", "witch_self_heal", "never",
	"witch_both_same_night", "off", "guard_repeat", "no_consecutive",
	"guard_heal_same_target", "dies", "wolf_vote", "majority",
	"wolf_win", "kill_side", "reveal_role_on_death", "off",
	"hunter_shoots_when_poisoned", "off", "win_check_before_shot", "on",
	"night_order", "wolves_first", // 守卫 → 狼人 → 女巫 → 预言家, as clubs call it (ROLES-MORE-2.md §5)
}

func with(base []string, more ...string) Options { return opts(append(slices.Clone(base), more...)...) }

var presets = []*Preset{
	{
		Name: "classic", Chinese: "经典", MinPlayers: 8, MaxPlayers: 18,
		Description: "Miller's Hollow base game (000): wolves, a seer and villagers",
		cards: func(n int) []Role {
			w := classicWolves(n)
			return slices.Concat(repeat(Werewolf, w), []Role{Seer}, repeat(Villager, n-w-1))
		},
		Options: opts("sheriff", "before_first_night", "sheriff_vote_weight", "2",
			"last_words", "none", "speech_order", "free", "vote_tie", "nobody",
			"seer_sees", "role", "witch_informed", "always", "witch_self_heal", "always",
			"witch_both_same_night", "on", "wolf_win", "kill_all", "reveal_role_on_death", "on",
			"hunter_shoots_when_poisoned", "on", "hunter_shoots_on_heartbreak", "on",
			"win_check_before_shot", "off"),
	},
	{
		Name: "std-9", Chinese: "九人预女猎", MinPlayers: 9, MaxPlayers: 9,
		Description: "3 wolves, seer, witch, hunter, 3 villagers (001)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Seer, Witch, Hunter}, repeat(Villager, 3)),
		Options:     with(std001, "sheriff", "none"),
	},
	{
		Name: "std-12", Chinese: "预女猎白", MinPlayers: 12, MaxPlayers: 12,
		Description: "4 wolves, seer, witch, hunter, idiot, 4 villagers (001)",
		cards:       fixed(repeat(Werewolf, 4), []Role{Seer, Witch, Hunter, Idiot}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-fox", Chinese: "预女猎狐", MinPlayers: 12, MaxPlayers: 12,
		Description: "std-12 with the nine-tailed fox for the idiot (001)",
		cards:       fixed(repeat(Werewolf, 4), []Role{Seer, Witch, Hunter, NineTailedFox}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-wwk", Chinese: "白狼王守卫", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, white wolf king, seer, witch, hunter, guard, 4 villagers (001)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WhiteWolfKing, Seer, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	},
	{
		Name: "std-12-beauty", Chinese: "狼美守卫", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf beauty, seer, witch, hunter, guard, 4 villagers (001)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfBeauty, Seer, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-wolf-king-guard", Chinese: "狼王守卫", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf king, seer, witch, hunter, guard, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfKing, Seer, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-wwk-knight", Chinese: "白狼王骑士", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, white wolf king, seer, witch, knight, guard, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WhiteWolfKing, Seer, Witch, Knight, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	},
	{
		Name: "std-12-beauty-knight", Chinese: "狼美骑士", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf beauty, seer, witch, knight, guard, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfBeauty, Seer, Witch, Knight, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	},
	{
		Name: "std-12-psychic", Chinese: "通灵师", MinPlayers: 12, MaxPlayers: 12,
		Description: "4 wolves, psychic, witch, hunter, guard, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 4), []Role{Psychic, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	},
	{
		Name: "std-12-spirit-knight", Chinese: "恶灵骑士", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, spirit knight, seer, witch, hunter, guard, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{SpiritKnight, Seer, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	},
	{
		Name: "std-12-nightmare", Chinese: "噩梦之影", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, nightmare, seer, witch, hunter, guard, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Nightmare, Seer, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	},
	{
		Name: "std-12-dreamcatcher", Chinese: "狼王摄梦人", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf king, seer, witch, hunter, dreamcatcher, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfKing, Seer, Witch, Hunter, Dreamcatcher}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-magician", Chinese: "狼王魔术师", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf king, seer, witch, hunter, magician, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfKing, Seer, Witch, Hunter, Magician}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "new-moon", Chinese: "新月", MinPlayers: 8, MaxPlayers: 18,
		Description: "classic with New Moon's roles: idiot, elder, scapegoat, defender (guard), and the piper from 10 players; event cards (000)",
		cards: func(n int) []Role {
			w := classicWolves(n)
			special := []Role{Seer, Idiot, Elder, Scapegoat, Guard}
			if n >= 10 {
				special = append(special, Piper)
			}
			return slices.Concat(repeat(Werewolf, w), special, repeat(Villager, n-w-len(special)))
		},
		Options: opts("sheriff", "before_first_night", "sheriff_vote_weight", "2",
			"last_words", "none", "speech_order", "free", "vote_tie", "nobody",
			"seer_sees", "role", "witch_informed", "always", "witch_self_heal", "always",
			"witch_both_same_night", "on", "wolf_win", "kill_all", "reveal_role_on_death", "on",
			"hunter_shoots_when_poisoned", "on", "hunter_shoots_on_heartbreak", "on",
			"win_check_before_shot", "off", "event_cards", "on"),
	},
	{
		Name: "forum", Chinese: "版杀", MinPlayers: 9, MaxPlayers: 20,
		Description: "the forum ruleset (002): day first, seer, witch, guard, hunter, cupid and black lovers",
		cards: func(n int) []Role {
			w := max(2, n/4)
			special := []Role{Seer, Witch, Guard, Hunter, Cupid}
			return slices.Concat(repeat(Werewolf, w), special, repeat(Villager, n-w-len(special)))
		},
		Options: opts("first_phase", "day", "sheriff", "day1_top_vote", "sheriff_vote_weight", "1.5",
			"last_words", "all", "speech_order", "free", "vote_tie", "nobody",
			"seer_sees", "village_or_not", "witch_informed", "while_heal_unused",
			"witch_self_heal", "always", "witch_both_same_night", "off",
			"guard_repeat", "once_per_target", "guard_heal_same_target", "survives",
			"wolf_win", "half_or_kill_side", "reveal_role_on_death", "off",
			"hunter_shoots_when_poisoned", "on", "hunter_shoots_on_heartbreak", "on",
			"win_check_before_shot", "off", "cupid_camp", "lovers", "black_lovers", "on", "wolves_learn_attack_result", "on",
			"night_shot", "in_night",
			"action_feedback", "on", "night_order", "wolves_first"),
	},
	{
		Name: "std-12-wild-child", Chinese: "野孩子", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, seer, witch, hunter, idiot, wild child, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Seer, Witch, Hunter, Idiot, WildChild}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "aiwolf-5", Chinese: "人狼知能五人", MinPlayers: 5, MaxPlayers: 5,
		Description: "AIWolf's 5-player regulation: werewolf, possessed, seer, 2 villagers; no sheriff, parity, no attack on night 1",
		cards:       fixed([]Role{Werewolf, Possessed, Seer}, repeat(Villager, 2)),
		Options: with(std001, "sheriff", "none", "wolf_win", "parity", "last_words", "none",
			"self_explosion", "off", "seer_sees", "wolf_or_not", "first_night_attack", "off",
			"wolf_no_target", "off", "night_order", "seer_first", "wolf_attack_wolves", "off"),
	},
	{
		Name: "std-12-gargoyle", Chinese: "石像鬼守墓人", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, gargoyle, seer, witch, hunter, gravekeeper, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Gargoyle, Seer, Witch, Hunter, Gravekeeper}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-blood-moon", Chinese: "血月猎魔", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, blood moon apostle, seer, witch, idiot, witch hunter, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{BloodMoon, Seer, Witch, Idiot, WitchHunter}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-hidden-wolf", Chinese: "隐狼乌鸦", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, hidden wolf, seer, witch, hunter, crow, 4 villagers (ROLES-MORE)",
		cards:       fixed(repeat(Werewolf, 3), []Role{HiddenWolf, Seer, Witch, Hunter, Crow}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "aiwolf-13", Chinese: "人狼知能十三人", MinPlayers: 13, MaxPlayers: 13,
		Description: "AIWolf's 13-player regulation: 3 werewolves, possessed, seer, medium (gravekeeper), bodyguard (guard), 6 villagers; no sheriff, parity, no attack on night 1",
		cards:       fixed(repeat(Werewolf, 3), []Role{Possessed, Seer, Gravekeeper, Guard}, repeat(Villager, 6)),
		Options: with(std001, "sheriff", "none", "wolf_win", "parity", "last_words", "none",
			"self_explosion", "off", "seer_sees", "wolf_or_not", "first_night_attack", "off",
			"wolf_no_target", "off", "night_order", "seer_first", "wolf_attack_wolves", "off",
			"guard_repeat", "any"),
	},
	{
		Name: "std-12-mechanical-wolf", Chinese: "机械狼通灵师", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, mechanical wolf, psychic, witch, hunter, guard, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{MechanicalWolf, Psychic, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001, "mechanical_wolf_learns", "first_night"),
	},
	{
		Name: "std-12-bear", Chinese: "熊隐狼", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, hidden wolf, bear tamer, witch, hunter, idiot, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{HiddenWolf, BearTamer, Witch, Hunter, Idiot}, repeat(Villager, 4)),
		Options:     with(std001, "bear_reads", "reads_as"),
	},
	{
		Name: "std-12-pure-white", Chinese: "纯白夜影", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf witch, pure white, witch, hunter, guard, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfWitch, PureWhite, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-wolf-king-knight", Chinese: "狼王骑士", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf king, seer, witch, knight, guard, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfKing, Seer, Witch, Knight, Guard}, repeat(Villager, 4)),
		Options:     with(std001),
	},
	{
		Name: "std-12-beauty-hunter", Chinese: "狼美人猎人", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf beauty, seer, witch, hunter, guard, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfBeauty, Seer, Witch, Hunter, Guard}, repeat(Villager, 4)),
		Options:     with(std001),
	},
}

func init() {
	presets = append(presets, &Preset{
		Name: "std-12-mirror-seer", Chinese: "灯影预言家", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf king, seer, witch, guard, knight, mirror seer, 3 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfKing, Seer, Witch, Guard, Knight, MirrorSeer}, repeat(Villager, 3)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	}, &Preset{
		Name: "std-12-mixed-blood", Chinese: "预女猎白混", MinPlayers: 12, MaxPlayers: 12,
		Description: "4 wolves, seer, witch, hunter, idiot, mixed blood, 3 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 4), []Role{Seer, Witch, Hunter, Idiot, MixedBlood}, repeat(Villager, 3)),
		Options:     with(std001),
	}, &Preset{
		Name: "std-12-silence-mixed", Chinese: "预女猎禁混", MinPlayers: 12, MaxPlayers: 12,
		Description: "4 wolves, seer, witch, hunter, silence elder, mixed blood, 3 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 4), []Role{Seer, Witch, Hunter, SilenceElder, MixedBlood}, repeat(Villager, 3)),
		Options:     with(std001),
	}, &Preset{
		Name: "std-12-cursed-fox", Chinese: "咒狐乌鸦", MinPlayers: 12, MaxPlayers: 12,
		Description: "2 wolves, wolf king, seer, witch, hunter, crow, cursed fox, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 2), []Role{WolfKing, Seer, Witch, Hunter, Crow, CursedFox}, repeat(Villager, 4)),
		Options:     with(std001),
	}, &Preset{
		Name: "std-12-masquerade", Chinese: "假面舞会", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, masquerade, seer, witch, dancer, idiot, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Masquerade, Seer, Witch, Dancer, Idiot}, repeat(Villager, 4)),
		Options:     with(std001),
	}, &Preset{
		Name: "std-12-ghost-bride", Chinese: "鬼魂新娘", MinPlayers: 12, MaxPlayers: 12,
		Description: "4 wolves, seer, witch, hunter, guard, ghost bride, 3 villagers: the bride weds a groom and names a witness, the newlyweds' camp (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 4), []Role{Seer, Witch, Hunter, Guard, GhostBride}, repeat(Villager, 3)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	}, &Preset{
		Name: "std-12-warden", Chinese: "孤注一掷", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, warden, seer, witch, hunter, dreamcatcher, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Warden, Seer, Witch, Hunter, Dreamcatcher}, repeat(Villager, 4)),
		Options:     with(std001),
	}, &Preset{
		Name: "std-12-miracle-merchant", Chinese: "奇迹商人", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, wolf king, seer, witch, hunter, miracle merchant, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{WolfKing, Seer, Witch, Hunter, MiracleMerchant}, repeat(Villager, 4)),
		Options:     with(std001),
	}, &Preset{
		Name: "std-12-thief-cupid", Chinese: "盗贼丘比特", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, seer, witch, hunter, idiot, thief, cupid, 5 villagers: 14 cards, two in the middle for the thief (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{Seer, Witch, Hunter, Idiot, Thief, Cupid}, repeat(Villager, 5)),
		Options:     with(std001, "thief_must_take_wolf", "on", "cupid_camp", "village", "black_lovers", "off"),
	}, &Preset{
		Name: "mh-angel", Chinese: "天使", MinPlayers: 8, MaxPlayers: 18,
		Description: "classic with the angel, who wins if exiled on day 1 or eaten on night 1; the game starts by day; two sisters from 10 players, the bear tamer from 11, three brothers from 13 (ROLES-MORE-2)",
		cards: func(n int) []Role {
			w := classicWolves(n)
			special := []Role{Seer, Angel}
			if n >= 10 {
				special = append(special, Sister, Sister)
			}
			if n >= 11 {
				special = append(special, BearTamer)
			}
			if n >= 13 {
				special = append(special, Brother, Brother, Brother)
			}
			return slices.Concat(repeat(Werewolf, w), special, repeat(Villager, n-w-len(special)))
		},
		Options: opts("first_phase", "day", "sheriff", "day1_campaign", "sheriff_vote_weight", "2",
			"last_words", "none", "speech_order", "free", "vote_tie", "nobody",
			"seer_sees", "role", "witch_informed", "always", "witch_self_heal", "always",
			"witch_both_same_night", "on", "wolf_win", "kill_all", "reveal_role_on_death", "on",
			"hunter_shoots_when_poisoned", "on", "hunter_shoots_on_heartbreak", "on",
			"win_check_before_shot", "off", "sisters_wake_every", "2", "brothers_wake_every", "2",
			"bear_reads", "true_camp"), // Miller's Hollow judges the card
	})
}

// Presets lists the named boards.
func Presets() []*Preset { return presets }

// LookupPreset finds a preset by name.
func LookupPreset(name string) (*Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return nil, fmt.Errorf("rules: unknown preset %q (known: %v)", name, names)
}

// CardList writes cards as "werewolf×4, seer, …" in deck order, each run of
// one card counted; with chinese, each with its 中文 name: "werewolf×4 (狼人)".
func CardList(cards []Role, chinese bool) string {
	var parts []string
	for i := 0; i < len(cards); {
		j := i
		for j < len(cards) && cards[j] == cards[i] {
			j++
		}
		p := cards[i].String()
		if j-i > 1 {
			p += "×" + strconv.Itoa(j-i)
		}
		if chinese {
			p += " (" + cards[i].Chinese() + ")"
		}
		parts = append(parts, p)
		i = j
	}
	return strings.Join(parts, ", ")
}

// 永序之轮 (ROLES-MORE-2.md §8): the eclipse wolf queen against the
// sequence prince.
func init() {
	presets = append(presets, &Preset{
		Name: "std-12-eternal", Chinese: "永序之轮", MinPlayers: 12, MaxPlayers: 12,
		Description: "3 wolves, eclipse wolf queen, seer, witch, guard, sequence prince, 4 villagers (ROLES-MORE-2)",
		cards:       fixed(repeat(Werewolf, 3), []Role{EclipseWolfQueen, Seer, Witch, Guard, SequencePrince}, repeat(Villager, 4)),
		Options:     with(std001, "guard_heal_same_target", "dies"),
	})
}
