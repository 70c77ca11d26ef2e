package rules

import "math/bits"

// View is what one seat may know of the game. It is built from the public
// state and the events the seat was sent, never from the hidden state, so it
// cannot hold a secret the seat was not told.
type View struct {
	Seat       Seat
	Role       Role
	Players    int
	Day        int
	Night      bool
	Step       Step
	Turn       Seat   // whose turn it is, in a turn step
	Alive      uint32 // alive as announced
	Sheriff    Seat
	Wolves     uint32             // the wolf team, for a wolf
	Known      [MaxSeats + 1]Role // cards this seat knows: its own, its mates', revealed ones, checks by role
	Checks     [MaxSeats + 1]int8 // seer results: 0 unknown, 1 good, 2 wolf, 3 not village
	Candidates uint32             // sheriff candidates still standing (public)
	Exposed    uint32             // known to the whole table as of the wolf camp: the self-exploded (自爆), card hidden unless revealed
	Attacked   Seat               // witch: tonight's attack target as told
	HealUsed   bool               // witch
	PoisonUsed bool               // witch
	Tails      int                // fox: tails as last told
	Extra      [2]Role            // thief: the two extra cards
	Lovers     uint32             // the lovers, for them and cupid
	Charmed    uint32             // the charmed, for them and the piper
	Ally       bool               // this seat is the wolves' ally
	KillPower  bool               // this seat holds the night kill (a black lover's widow knife)
	Voters     uint32             // who may vote today, when the scapegoat named them (0: everyone)
	Pending    bool               // the seat must act now
	Dueled     bool               // the knight's duel is spent (public: the duel is)
	Cursed     Seat               // crow: the last curse cast, until the next night
	Graves     [MaxSeats + 1]int8 // gravekeeper: how each exiled read, 1 good, 2 wolf (also in Checks)
	Model      Seat               // wild child: his model
	Turned     bool               // wild child: his model died, he is a werewolf (in Wolves with the pack)
	Feared     bool               // this seat is feared tonight: no night power (噩梦之影)
	NoAttack   bool               // wolves: the nightmare feared one of the wolf camp, no attack tonight
	Swapped    uint32             // magician: the players he has swapped (magician_swap_once)
	Dreamed    Seat               // dreamcatcher: his last dreamer as he named him
	LastFear   Seat               // nightmare: whom he feared last (not the same two nights in a row)
	Silenced   Seat               // public: the player silenced today, no speech (禁言长老), until nightfall
	VoteBanned Seat               // public: the player banned from today's exile vote (禁票长老), until nightfall
	Growl      int8               // public: today's bear (驯熊师): 1 growls, -1 does not, 0 not told; until nightfall
	GrowlAlive uint32             // public: the players alive to the table when the bear was heard (the tamer's neighbours are among them)
	Siblings   uint32             // sisters, brothers: the seats of his group, as told at their first meeting
	Met        uint32             // sisters, brothers: who of his group met tonight (their channel); 0 by day
	Danced     uint32             // dancer: the players who danced with him (himself aside), as he chose them
	Dance      uint32             // dancer: tonight's three as he chose them; 0 by day
	Asked      Seat               // masquerade: whom he asked about tonight (NoSeat: nobody yet)
	AskDances  bool               // masquerade: the player he asked about dances tonight
	Bride      Seat               // the newlyweds: the ghost bride, as told (to her, the groom, the witness)
	Groom      Seat               // the newlyweds: her groom, as told (to her, the groom, the witness)
	Witness    Seat               // the bride and the witness: the witness, as told
	Couple     uint32             // the bride and groom: who of them met tonight (their channel); 0 by day
	Traders    uint32             // the two the warden named tonight, for them (典狱长); 0 by day
	Gift       int8               // the lucky one: his gift (GiftCheck…, 奇迹商人), 0 none or used
	Winner     Camp
	Over       bool

	Options Options // the board's rules, public

	seen                  int // events already read by UpdateView
	votersDay, votersMask int32
}

// View builds the seat's view.
func (g *Game) View(s Seat) View {
	v := View{Seat: s}
	g.UpdateView(&v)
	return v
}

// UpdateView brings v, a view of v.Seat, up to date. It reads only the
// events that came since its last update, so a player who keeps his View
// pays once for each event, not once for the whole log at every move.
func (g *Game) UpdateView(v *View) {
	s := v.Seat
	v.Players, v.Day, v.Night, v.Alive = int(g.n), int(g.day), g.isNight, g.pubAlive
	v.Options = g.board.Options
	v.Sheriff, v.Winner, v.Over, v.Candidates = g.sheriff, g.winner, g.over, g.cands
	if g.step == StepSignup {
		v.Candidates &= s.bit() // the others' hands are shown when the signup closes
	}
	pend := g.Pending()&s.bit() != 0
	// What step is running is public by day; at night a seat only knows
	// whether it is woken.
	v.Step, v.Turn = StepNone, NoSeat
	if !g.isNight || pend || g.step.turn() || g.step == StepOver {
		v.Step, v.Turn = g.step, g.stepSeat
	}
	v.Pending = pend
	for ; v.seen < len(g.events); v.seen++ {
		e := &g.events[v.seen]
		if !e.Visible(s) {
			continue
		}
		switch e.Kind {
		case EvRole, EvSwap:
			v.Role = e.Role
			v.Known[e.Seat] = e.Role
		case EvExtraCards:
			v.Extra = [2]Role{e.Role, Role(e.Value)}
		case EvLovers:
			v.Lovers = e.Mask
		case EvLoverRole:
			v.Known[e.Seat] = e.Role
		case EvCharmed, EvEnchant:
			v.Charmed |= e.Mask
		case EvAlly:
			v.Ally = e.Target == s && e.Value == 0
		case EvKillPower:
			v.KillPower = true
		case EvVoters:
			v.votersDay, v.votersMask = int32(e.Value), int32(e.Mask)
		case EvWolfTeam:
			v.Wolves = e.Mask
			for w := Seat(1); w <= g.n; w++ {
				if e.Mask&w.bit() != 0 {
					v.Known[w] = Werewolf
				}
			}
		case EvReveal:
			v.Known[e.Seat] = e.Role
		case EvImitate: // the mechanical wolf is told the card he imitated
			v.Known[e.Target] = e.Role
		case EvExplode:
			v.Exposed |= e.Seat.bit()
		case EvCheck:
			if e.Role != NoRole {
				v.Known[e.Target] = e.Role
				v.Checks[e.Target] = 1
				if e.Role.IsWolf() {
					v.Checks[e.Target] = 2
				}
			} else {
				v.Checks[e.Target] = int8(e.Value) + 1
				if e.Value == ResultNotVillage {
					v.Checks[e.Target] = 3
				}
			}
		case EvWitchTold:
			v.Attacked = e.Target
		case EvHeal:
			v.HealUsed = true
		case EvPoison:
			v.PoisonUsed = true
		case EvTails:
			v.Tails = int(e.Value)
		case EvNight:
			v.Attacked = NoSeat
			v.Feared, v.NoAttack = false, false
			v.Silenced, v.VoteBanned, v.Growl = NoSeat, NoSeat, 0
			v.Met, v.Couple = 0, 0
			v.Dance, v.Asked, v.AskDances = 0, NoSeat, false
		case EvDay:
			v.Met, v.Couple, v.Traders = 0, 0, 0
			v.Dance = 0
		case EvDance:
			v.Dance = e.Mask
			v.Danced |= e.Mask &^ e.Seat.bit()
		case EvAsk:
			v.Asked, v.AskDances = e.Target, e.Value == 1
		case EvGroom:
			v.Bride, v.Groom = e.Seat, e.Target
		case EvWitness:
			v.Bride, v.Witness = e.Seat, e.Target
			v.Groom = g.lowest(e.Mask &^ e.Seat.bit())
		case EvWed:
			v.Couple = e.To
		case EvTraders:
			v.Traders = e.Mask
		case EvLucky:
			v.Gift = int8(e.Value)
		case EvGiftUse:
			v.Gift = 0
		case EvSiblings:
			v.Siblings, v.Met = e.Mask, e.To
			for m := e.Mask; m != 0; m &= m - 1 {
				v.Known[bits.TrailingZeros32(m)] = e.Role
			}
		case EvSilenced:
			v.Silenced = e.Seat
		case EvVoteBanned:
			v.VoteBanned = e.Seat
		case EvGrowl:
			v.Growl, v.GrowlAlive = -1, e.Mask
			if e.Value == 1 {
				v.Growl = 1
			}
		case EvFeared:
			v.Feared = true
		case EvNoAttack:
			v.NoAttack = true
		case EvMagic:
			v.Swapped |= e.Mask
		case EvDream:
			v.Dreamed = e.Target
		case EvFear:
			v.LastFear = e.Target
			v.Cursed = NoSeat
		case EvDuel:
			v.Dueled = true
		case EvCurse:
			v.Cursed = e.Target
		case EvGrave:
			if e.Target != NoSeat {
				v.Graves[e.Target] = int8(e.Value) + 1
				v.Checks[e.Target] = int8(e.Value) + 1
			}
		case EvModel:
			v.Model = e.Target
		case EvWildWolf:
			v.Turned = true
		}
	}
	v.Voters = 0
	if int(v.votersDay) == v.Day {
		v.Voters = uint32(v.votersMask)
	}
	if v.Role != NoRole {
		v.Known[s] = v.Role
	}
	if g.over { // the cards are turned at the end
		for x := Seat(1); x <= g.n; x++ {
			v.Known[x] = g.role[x]
		}
	}
}

// Stream appends to buf the events seat receives, from the from-th on
// (counting from 0), numbered in the seat's own stream: Seq is 1 for the
// first event the seat receives, 2 for the second… A seat never learns that
// an event it may not see exists: a placeholder, or a gap in the numbers,
// would tell how many secrets happened (how many died before dawn, how many
// wolves picked a target, whether the witch still acts).
func (g *Game) Stream(s Seat, from int, buf []Event) []Event {
	n := 0
	for i := range g.events {
		e := g.events[i]
		if !e.Visible(s) {
			continue
		}
		n++
		if n > from {
			e.Seq = int32(n)
			buf = append(buf, e)
		}
	}
	return buf
}
