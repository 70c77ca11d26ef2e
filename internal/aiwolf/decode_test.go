package aiwolf

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// The frames the actor sends most, as it encodes them: each is read by
// hand (flatFrame) and reads as json.Unmarshal reads it.
func TestFlatFramesAreReadByHandAsJSONReadsThem(t *testing.T) {
	frames := []any{
		game.EventFrame{Type: "event", Seq: 1, Kind: "deal", Seat: 3, Role: "seer"},
		game.EventFrame{Type: "event", Seq: 12, Kind: "step", Value: 7, Step: "wolves"},
		game.EventFrame{Type: "event", Seq: 40, Kind: "vote_result", Seat: 2, Target: 5, Step: "exile_vote", Mask: []rules.Seat{1, 4}, Drawn: true},
		game.EventFrame{Type: "event", Seq: 41, Kind: "death", Seat: 5, Value: -3},
		game.ChatFrame{Type: "chat", Seq: 9, Channel: "day", Seat: 4, Text: "Agent[01] は 人狼 だと思う", At: 1764600000123},
		game.ChatFrame{Type: "chat", Seq: 10, Channel: "wolves", Seat: 0, Text: "", At: 0},
		game.AckFrame{Type: "ack", ID: 9007199254740993},
		game.StateFrame{Type: "state", Seat: 2, Role: "werewolf", Day: 1, Night: true, Step: "wolves", Alive: []rules.Seat{1, 2, 4, 5},
			Known: map[int]string{3: "seer", 5: "werewolf"}, Wolves: []rules.Seat{2, 5}, Pending: true, Deadline: 1764600000123,
			Choices:  []game.ChoiceJSON{{Cmd: "attack", Targets: []rules.Seat{1, 4}, NoTarget: true, Value: -2, Pick: -1, Roles: []string{"seer", "villager"}}, {Cmd: "skip"}},
			Channels: []string{"wolves"}, Bot: true, Sheriff: 4, Lovers: []rules.Seat{1, 4}, Exposed: []rules.Seat{}},
		game.StateFrame{Type: "state", Seat: 3, Role: "villager", Night: true, Alive: []rules.Seat{1, 2, 3, 4, 5}, Deadline: 1764600000123, NightEnd: 1764600000123,
			Calls: []wire.CallJSON{{Key: "night.falls"}, {Key: "role.open", Role: "seer"}, {Key: "role.open", Group: "wolves"}, {Key: "day.breaks"}}},
		game.StateFrame{Type: "state", Seat: 1, Day: 3, Alive: []rules.Seat{}, Over: true, Winner: "villagers", Known: map[int]string{2: "werewolf"}, Paused: true, SeeCard: true},
		game.ErrorFrame{Type: "error", ID: 7, Code: "not_your_turn", Message: "it is not your turn"},
	}
	for _, v := range frames {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var hand, std frame
		if !flatFrame(b, &hand) {
			t.Errorf("%s: not read by hand", b)
			continue
		}
		if err := json.Unmarshal(b, &std); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(hand, std) {
			t.Errorf("%s:\nby hand %+v\njson    %+v", b, hand, std)
		}
	}
}

// Whatever a frame holds, the conductor reads the same from it as
// json.Unmarshal would: the hand reader takes it and agrees, or leaves it
// to json.
func FuzzFrameReadsAsJSONDoes(f *testing.F) {
	for _, s := range []string{
		`{"type":"event","seq":3,"kind":"attack","seat":2,"target":4,"mask":[1,3],"drawn":true}`,
		`{"type":"chat","seq":1,"channel":"day","seat":1,"text":"a\"b","at":5}`,
		`{"type":"state","seat":1,"day":2,"night":false,"alive":[1,2],"known":{"2":"werewolf"},"pending":true,"choices":[{"cmd":"vote","targets":[2]}]}`,
		`{"type":"ack","id":1}`, `{"Type":"ack"}`, `{"seat":300}`, `{"value":40000}`, `{"seq":01}`, `{"seq":1.5}`,
		`{"mask":[]}`, `{"mask":null}`, `{"text":"\xff"}`, `{"seq":-0}`, `{}`, `{"type":"x"} `, `{"mask":[1,]}`,
		`{"type":"a","type":"b"}`, `{"known":{"02":"seer"}}`, `{"known":{}}`, `{"known":{"-1":"x","3":"y"}}`, `{"choices":[]}`,
		`{"choices":[{"cmd":"vote","targets":[],"value":200}]}`, `{"choices":[{"Cmd":"vote"}]}`, `{"channels":["day","wolves"]}`,
		`{"alive":[1,2],"lovers":[300],"sheriff":1e2}`, `{"calls":[{"key":"night.falls"}]}`, `{"calls":[{"key":"a","n":-1,"x":null,"y":[true,false,{}],"z":[]}]}`,
		`{"calls":[[[[[[[[[[1]]]]]]]]]]}`, `{"calls":[{"key":"a\u00e9"}]}`, `{"calls":[1.5]}`, `{"calls":{"a":1,}}`, `{"calls":[nul]}`, `{"calls":"\x01"}`, `{"choices":[{"cmd":"a","pick":-128,"roles":[]}]}`, `{"seq":1,}`, `{"over":true,"night":false}`, `{"seq":99999999999999999999}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var hand, std frame
		stdErr := json.Unmarshal(b, &std)
		if flatFrame(b, &hand) {
			if stdErr != nil {
				t.Fatalf("%q read by hand, but json refuses it: %v", b, stdErr)
			}
			if !reflect.DeepEqual(hand, std) {
				t.Fatalf("%q:\nby hand %+v\njson    %+v", b, hand, std)
			}
		}
		var got frame
		err := decodeFrame(b, &got)
		if (err == nil) != (stdErr == nil) || (err == nil && !reflect.DeepEqual(got, std)) {
			t.Fatalf("%q: decodeFrame %+v (%v), json %+v (%v)", b, got, err, std, stdErr)
		}
	})
}

func BenchmarkFrameRead(b *testing.B) {
	ev := []byte(`{"type":"event","seq":40,"kind":"vote_result","seat":2,"target":5,"step":"exile_vote","mask":[1,4],"drawn":true}`)
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var f frame
			_ = decodeFrame(ev, &f)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var f frame
			_ = json.Unmarshal(ev, &f)
		}
	})
}
