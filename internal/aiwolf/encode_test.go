package aiwolf

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// Every packet the conductor makes is written byte for byte as
// json.Marshal writes it, the setting given encoded or not.
func TestPacketsAreWrittenAsJSONMarshalWritesThem(t *testing.T) {
	set := regulation(&rules.Board{}, 0, 0).Setting
	two, zero := 2, 0
	packets := []Packet{
		{Request: ReqName},
		{Request: ReqInitialize, Info: &Info{GameID: "01M8S5GMQT5CDYHNH5938K0RZE", Day: 0, Agent: "Agent[03]",
			StatusMap: map[string]string{"Agent[02]": "ALIVE", "Agent[01]": "DEAD", "Agent[10]": "ALIVE"},
			RoleMap:   map[string]string{"Agent[03]": "SEER"}}, Setting: &set},
		{Request: ReqDailyInitialize, Info: &Info{Day: 2, Agent: "Agent[01]", Profile: "p<&>",
			MediumResult:  &Judge{Day: 1, Agent: "Agent[01]", Target: "Agent[04]", Result: "HUMAN"},
			DivineResult:  &Judge{Day: 1, Agent: "Agent[01]", Target: "Agent[05]", Result: "WEREWOLF"},
			ExecutedAgent: "Agent[04]", AttackedAgent: "Agent[02]",
			VoteList:       []Vote{{Day: 1, Agent: "Agent[01]", Target: "Agent[04]"}, {Day: 1, Agent: "Agent[02]", Target: "Agent[04]"}},
			AttackVoteList: []Vote{{Day: 1, Agent: "Agent[05]", Target: "Agent[02]"}},
			StatusMap:      map[string]string{}}, Setting: &set},
		{Request: ReqTalk, Info: &Info{Day: 1, Agent: "Agent[02]", StatusMap: map[string]string{"Agent[01]": "ALIVE"},
			RoleMap: map[string]string{}, RemainCount: &two, RemainLength: &zero, RemainSkip: &two},
			TalkHistory: &[]Talk{{Idx: 0, Day: 1, Turn: 0, Agent: "Agent[01]", Text: `I "think" Agent[05] is a \ wolf <b>&`, Time: 1764600000123},
				{Idx: 1, Day: 1, Turn: 0, Agent: "Agent[03]", Text: "Skip", Skip: true}, {Idx: 2, Agent: "Agent[04]", Text: "人狼は\u2028Agent[05]\x01\xff", Over: true, Time: -1}}},
		{Request: ReqWhisper, Info: &Info{Agent: "Agent[05]"}, WhisperHistory: &[]Talk{{Agent: "Agent[05]", Text: "Over", Over: true}}, TalkHistory: &[]Talk{}},
		{Request: ReqFinish, Info: &Info{Agent: "Agent[05]", StatusMap: map[string]string{"Agent[05]": "ALIVE"}, RoleMap: map[string]string{"Agent[05]": "WEREWOLF", "Agent[01]": "SEER"}}},
	}
	enc, _ := json.Marshal(set)
	for i := range packets {
		want, err := json.Marshal(&packets[i])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range [][]byte{nil, enc} {
			if got := encodePacket(&packets[i], s); !bytes.Equal(got, want) {
				t.Errorf("packet %d:\ngot  %s\nwant %s", i, got, want)
			}
		}
	}
}

// Whatever the agents say and however the game is named, the packet is
// json.Marshal's.
func FuzzPacketWritesAsJSONMarshalDoes(f *testing.F) {
	f.Add("Agent[01]", "I vote Agent[02]", "01M8", 3, true)
	f.Add("\xff\x00<", "\u2028\"\\&>", "", -7, false)
	f.Fuzz(func(t *testing.T, name, text, id string, n int, flag bool) {
		p := Packet{Request: text, Info: &Info{GameID: id, Day: n, Agent: name, Profile: text, ExecutedAgent: name,
			VoteList:  []Vote{{Day: n, Agent: name, Target: text}},
			StatusMap: map[string]string{name: text, text: name, id: "ALIVE"}, RoleMap: map[string]string{id: text}, RemainSkip: &n},
			TalkHistory: &[]Talk{{Idx: n, Agent: name, Text: text, Skip: flag, Time: int64(n) << 20}}}
		want, err := json.Marshal(&p)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodePacket(&p, nil); !bytes.Equal(got, want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}

// A packet's status_map and role_map list their agents as json.Marshal
// lists a map's keys (sorted), whatever order the seats' names come in,
// and a wolf's role_map names the wolves, a villager's only himself.
func TestPacketMapsAreInTheirNamesOrder(t *testing.T) {
	tb := &table{n: 5, gameID: "g", names: nameList{"", "ミナト", "タクミ", "ケンジ", "Zed", "Abe"}}
	for _, c := range []struct {
		seat  rules.Seat
		role  string
		roles map[string]string
	}{
		{2, "werewolf", map[string]string{"タクミ": "WEREWOLF", "Abe": "WEREWOLF"}},
		{3, "villager", map[string]string{"ケンジ": "VILLAGER"}},
	} {
		s := &seat{t: tb, no: c.seat, st: frame{Day: 1, Role: c.role, Alive: []rules.Seat{1, 2, 3, 5},
			Known: map[int]string{int(c.seat): c.role}}}
		if c.role == "werewolf" {
			s.st.Wolves = []rules.Seat{2, 5}
			s.st.Known[5] = "werewolf"
		}
		body := tb.packet(s, ReqVote, false).body
		var p Packet
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		if want, _ := json.Marshal(&p); !bytes.Equal(body, want) {
			t.Errorf("seat %d:\ngot  %s\nwant %s", c.seat, body, want)
		}
		status := map[string]string{"ミナト": "ALIVE", "タクミ": "ALIVE", "ケンジ": "ALIVE", "Zed": "DEAD", "Abe": "ALIVE"}
		if !maps.Equal(p.Info.StatusMap, status) || !maps.Equal(p.Info.RoleMap, c.roles) {
			t.Errorf("seat %d: status_map %v, role_map %v; want %v, %v", c.seat, p.Info.StatusMap, p.Info.RoleMap, status, c.roles)
		}
	}
}

// Only FINISH shows every role. An agent back after its game's end (the
// bot played its seat to the end) is sent INITIALIZE first, as at the
// start: its own role, a wolf's fellow wolves too, and no one else's,
// though the game over has made every role known to its seat.
func TestOnlyFinishShowsEveryRole(t *testing.T) {
	tb := &table{n: 5, gameID: "g", names: nameList{"", "A", "B", "C", "D", "E"}}
	known := map[int]string{1: "seer", 2: "werewolf", 3: "villager", 4: "possessed", 5: "villager"}
	all := map[string]string{"A": "SEER", "B": "WEREWOLF", "C": "VILLAGER", "D": "POSSESSED", "E": "VILLAGER"}
	for _, c := range []struct {
		seat rules.Seat
		role string
		init map[string]string // INITIALIZE's role_map
	}{
		{1, "seer", map[string]string{"A": "SEER"}},
		{2, "werewolf", map[string]string{"B": "WEREWOLF"}},
		{4, "possessed", map[string]string{"D": "POSSESSED"}},
	} {
		s := &seat{t: tb, no: c.seat, st: frame{Day: 2, Over: true, Winner: "wolves", Role: c.role,
			Alive: []rules.Seat{2, 4}, Known: maps.Clone(known)}}
		if c.role == "werewolf" {
			s.st.Wolves = []rules.Seat{2}
		}
		for _, req := range []string{ReqInitialize, ReqFinish} {
			var p Packet
			if err := json.Unmarshal(tb.packet(s, req, req == ReqInitialize).body, &p); err != nil {
				t.Fatal(err)
			}
			want := c.init
			if req == ReqFinish {
				want = all
			}
			if !maps.Equal(p.Info.RoleMap, want) {
				t.Errorf("seat %d (%s), %s: role_map %v, want %v", c.seat, c.role, req, p.Info.RoleMap, want)
			}
		}
	}
}
