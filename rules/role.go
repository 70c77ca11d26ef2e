// Package rules is the Werewolf (狼人杀) moderator as a pure library: given a
// board, a seed and the players' commands it produces the same events, byte
// for byte. It does no I/O, reads no clock and starts no goroutine.
package rules

import "fmt"

// Seat is a player's place at the table, numbered from 1. NoSeat (0) means
// "nobody", for example an attack on no one (空刀).
type Seat int8

// NoSeat is the absence of a seat.
const NoSeat Seat = 0

// MaxSeats is the largest table the engine supports (the forum preset goes to 20).
const MaxSeats = 20

func (s Seat) bit() uint32 { return 1 << uint(s) }

// Role is a card of the deck.
type Role uint8

// The roles of RULES.md §1. The order is part of the stored format: append only.
const (
	NoRole        Role = iota
	Werewolf           // 狼人
	WhiteWolfKing      // 白狼王: may take one player with him when self-exploding
	WolfBeauty         // 狼美人: charms one player a night, who dies with her
	WolfKing           // 狼王: shoots like a hunter when he dies (not poisoned)
	Villager           // 村民 / 平民
	Seer               // 预言家: checks one player a night
	Witch              // 女巫: one heal, one poison
	Hunter             // 猎人: shoots when he dies
	Guard              // 守卫: protects one player a night from the attack
	Idiot              // 白痴: survives his first exile by revealing
	NineTailedFox      // 九尾狐: loses tails as good players die
	Elder              // 长者 (part 2)
	Scapegoat          // 替罪羊 (part 2)
	Cupid              // 丘比特 (part 2)
	Thief              // 小偷 (part 2)
	LittleGirl         // 小女孩 (part 2)
	Piper              // 吹笛人 (part 2)
	// The catalogue beyond the seeds (ROLES-MORE.md). Not dealt until the
	// engine implements them (roleInfo.ready).
	Knight       // 骑士: once, by day, duels a player: a wolf dies, else the knight
	Gravekeeper  // 守墓人: learns how yesterday's exiled reads
	Psychic      // 通灵师: checks one player's card a night
	WitchHunter  // 猎魔人: from night 2 hunts a player: a wolf dies, else the hunter
	Dreamcatcher // 摄梦人: a dreamer a night, who cannot die that night
	Crow         // 乌鸦: curses a player: one more vote against him tomorrow
	Magician     // 魔术师: swaps two players for the night's actions
	Gargoyle     // 石像鬼: a lone wolf who checks cards; the kill when the pack is gone
	SpiritKnight // 恶灵骑士: a wolf nothing kills at night; reflects a check or poison
	Nightmare    // 噩梦之影: a wolf who fears one player a night: no power for him
	BloodMoon    // 血月使徒: a wolf whose explosion takes the village's night powers
	HiddenWolf   // 隐狼: knows the wolves, unknown to them, reads as good
	Possessed    // 狂人: a human of the wolf camp (AIWolf POSSESSED)
	WildChild    // 野孩子: becomes a wolf when his model dies
	// ROLES-MORE-2.md.
	SilenceElder // 禁言长老: silences a player a night: no speech the next day
	VoteBanElder // 禁票长老: bans a player a night from the next day's exile vote
	BearTamer    // 驯熊师: each dawn the bear growls if a neighbour of his reads as a wolf
	PureWhite    // 纯白之女: checks a card a night; from night 2 a wolf she checks dies
	WolfWitch    // 狼巫: a wolf who checks a card a night; from night 2 the pure white she checks dies
	// The catalogue's part 2 (ROLES-MORE-2.md).
	MirrorSeer // 灯影预言家: a seer who does not know his results are reversed
	Sister     // 姐妹: two cards; they meet on night 1 and share a channel on their nights
	Brother    // 三兄弟: three cards; as the sisters
	Angel      // 天使: wins alone if exiled on day 1 or killed by the wolves on night 1 (Miller's Hollow)
	MixedBlood // 混血儿: takes the camp of a model he chooses on night 1, not knowing it
	CursedFox  // 咒狐: immune to the attack, killed by the seer's check; steals a win alive

	MechanicalWolf   // 机械狼: a lone wolf who imitates a player on night 1 and gains what that card gives
	EclipseWolfQueen // 蚀时狼妃: a wolf who shelters a player a night: the gods' powers on him rebound, once
	SequencePrince   // 定序王子: once, voids a day's first exile vote and has it taken again
	Dancer           // 舞者: from night 2 makes three players dance; the odd camp out dies
	Masquerade       // 假面: a lone wolf who asks about the dance and masks one dancer's camp
	GhostBride       // 鬼魂新娘: weds a groom and names a witness on night 1: the newlyweds' camp
	Warden           // 典狱长: a wolf who from night 2 names two players to trade or betray
	MiracleMerchant  // 奇迹商人: once, gives another player a check, a poison or a shield
	numRoles
)

// Camp is the side a player wins with.
type Camp uint8

// Camps. NoCamp as a winner means the game is not over; Draw is a draw.
const (
	NoCamp Camp = iota
	Village
	Wolves
	Lovers
	PiperCamp
	Draw
	AngelCamp // the angel alone (ROLES-MORE-2.md 天使)
	FoxCamp   // the cursed fox alone (ROLES-MORE-2.md 咒狐)
	Newlyweds // the ghost bride, her groom and her witness (ROLES-MORE-2.md 新人阵营)
	numCamps
)

// NumCamps counts the camps, NoCamp and Draw included: a camp is below it.
const NumCamps = numCamps

type roleInfo struct {
	id, zh string
	camp   Camp
	god    bool // a village role with a power (神职)
	ready  bool // implemented by the engine
}

var roleTable = [numRoles]roleInfo{
	NoRole:        {"none", "无", NoCamp, false, false},
	Werewolf:      {"werewolf", "狼人", Wolves, false, true},
	WhiteWolfKing: {"white_wolf_king", "白狼王", Wolves, false, true},
	WolfBeauty:    {"wolf_beauty", "狼美人", Wolves, false, true},
	WolfKing:      {"wolf_king", "狼王", Wolves, false, true},
	Villager:      {"villager", "村民", Village, false, true},
	Seer:          {"seer", "预言家", Village, true, true},
	Witch:         {"witch", "女巫", Village, true, true},
	Hunter:        {"hunter", "猎人", Village, true, true},
	Guard:         {"guard", "守卫", Village, true, true},
	Idiot:         {"idiot", "白痴", Village, true, true},
	NineTailedFox: {"nine_tailed_fox", "九尾狐", Village, true, true},
	Elder:         {"elder", "长者", Village, true, true},
	Scapegoat:     {"scapegoat", "替罪羊", Village, true, true},
	Cupid:         {"cupid", "丘比特", Village, true, true},
	Thief:         {"thief", "小偷", Village, false, true},
	LittleGirl:    {"little_girl", "小女孩", Village, true, true},
	Piper:         {"piper", "吹笛人", PiperCamp, false, true},
	Knight:        {"knight", "骑士", Village, true, true},
	Gravekeeper:   {"gravekeeper", "守墓人", Village, true, true},
	Psychic:       {"psychic", "通灵师", Village, true, true},
	WitchHunter:   {"witch_hunter", "猎魔人", Village, true, true},
	Dreamcatcher:  {"dreamcatcher", "摄梦人", Village, true, true},
	Crow:          {"crow", "乌鸦", Village, true, true},
	Magician:      {"magician", "魔术师", Village, true, true},
	Gargoyle:      {"gargoyle", "石像鬼", Wolves, false, true},
	SpiritKnight:  {"spirit_knight", "恶灵骑士", Wolves, false, true},
	Nightmare:     {"nightmare", "噩梦之影", Wolves, false, true},
	BloodMoon:     {"blood_moon", "血月使徒", Wolves, false, true},
	HiddenWolf:    {"hidden_wolf", "隐狼", Wolves, false, true},
	Possessed:     {"possessed", "狂人", Wolves, false, true},
	WildChild:     {"wild_child", "野孩子", Village, false, true},
	SilenceElder:  {"silence_elder", "禁言长老", Village, true, true},
	VoteBanElder:  {"vote_ban_elder", "禁票长老", Village, true, true},
	BearTamer:     {"bear_tamer", "驯熊师", Village, true, true},
	PureWhite:     {"pure_white", "纯白之女", Village, true, true},
	WolfWitch:     {"wolf_witch", "狼巫", Wolves, false, true},
	MirrorSeer:    {"mirror_seer", "灯影预言家", Village, false, true},
	Sister:        {"sister", "姐妹", Village, false, true},
	Brother:       {"brother", "三兄弟", Village, false, true},
	Angel:         {"angel", "天使", Village, false, true},
	MixedBlood:    {"mixed_blood", "混血儿", Village, false, true},
	CursedFox:     {"cursed_fox", "咒狐", FoxCamp, false, true},

	MechanicalWolf:   {"mechanical_wolf", "机械狼", Wolves, false, true},
	EclipseWolfQueen: {"eclipse_wolf_queen", "蚀时狼妃", Wolves, false, true},
	SequencePrince:   {"sequence_prince", "定序王子", Village, true, true},
	Dancer:           {"dancer", "舞者", Village, true, true},
	Masquerade:       {"masquerade", "假面", Wolves, false, true},
	GhostBride:       {"ghost_bride", "鬼魂新娘", Newlyweds, false, true},
	Warden:           {"warden", "典狱长", Wolves, false, true},
	MiracleMerchant:  {"miracle_merchant", "奇迹商人", Village, true, true},
}

func (r Role) String() string {
	if r >= numRoles {
		return fmt.Sprintf("role(%d)", uint8(r))
	}
	return roleTable[r].id
}

// Chinese is the role's 中文 name.
func (r Role) Chinese() string {
	if r >= numRoles {
		return "?"
	}
	return roleTable[r].zh
}

// Camp is the camp the card belongs to when dealt.
func (r Role) Camp() Camp {
	if r >= numRoles {
		return NoCamp
	}
	return roleTable[r].camp
}

// IsWolf reports whether the card is of the wolf camp.
func (r Role) IsWolf() bool { return r.Camp() == Wolves }

// multiple: a board may hold several of the card.
func (r Role) multiple() bool {
	return r == Werewolf || r == Villager || r == Sister || r == Brother
}

// IsGod reports whether the card is a village role with a power (神职).
func (r Role) IsGod() bool { return r < numRoles && roleTable[r].god }

// Implemented reports whether the engine can deal this card yet.
func (r Role) Implemented() bool { return r < numRoles && roleTable[r].ready }

// ParseRole reads a role id such as "white_wolf_king".
func ParseRole(s string) (Role, error) {
	for r := Role(1); r < numRoles; r++ {
		if roleTable[r].id == s {
			return r, nil
		}
	}
	return NoRole, fmt.Errorf("rules: unknown role %q", s)
}

// Roles lists every role id, for help texts.
func Roles() []Role {
	out := make([]Role, 0, numRoles-1)
	for r := Role(1); r < numRoles; r++ {
		out = append(out, r)
	}
	return out
}

var campNames = [...]string{"none", "village", "wolves", "lovers", "piper", "draw", "angel", "fox", "newlyweds"}

func (c Camp) String() string {
	if int(c) < len(campNames) {
		return campNames[c]
	}
	return fmt.Sprintf("camp(%d)", uint8(c))
}

// ParseCamp reads a camp name.
func ParseCamp(s string) (Camp, error) {
	for i, n := range campNames {
		if n == s {
			return Camp(i), nil
		}
	}
	return NoCamp, fmt.Errorf("rules: unknown camp %q", s)
}
