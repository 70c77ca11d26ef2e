package store

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

var codecCases = []struct {
	name string
	evs  []rules.Event
}{
	{"none", nil},
	{"zero event", []rules.Event{{}}},
	{"typical", []rules.Event{
		{Seq: 1, Kind: rules.EvGameStart, Public: true, Value: 12},
		{Seq: 2, Kind: rules.EvRole, Seat: 3, Role: rules.Seer, To: rules.Mask(3)},
		{Seq: 3, Kind: rules.EvAttack, Target: 7, Draws: 1},
		{Seq: 4, Kind: rules.EvVoteResult, Public: true, Target: rules.NoSeat, Mask: rules.Mask(2, 5, 20), Value: 9},
	}},
	{"extremes", []rules.Event{
		{Seq: math.MaxInt32, Kind: math.MaxUint8, Public: true, Draws: math.MaxUint8, Seat: math.MaxInt8, Target: math.MinInt8,
			Role: math.MaxUint8, Value: math.MinInt16, To: math.MaxUint32, Mask: math.MaxUint32},
		{Seq: math.MinInt32, Seat: -1, Target: -1, Value: math.MaxInt16, To: 1, Mask: 1 << 31},
	}},
}

func TestEventsRoundTrip(t *testing.T) {
	for _, c := range codecCases {
		t.Run(c.name, func(t *testing.T) {
			data := AppendEvents(nil, c.evs)
			if len(data) != eventSize*len(c.evs) {
				t.Fatalf("encoded %d events in %d bytes, want %d", len(c.evs), len(data), eventSize*len(c.evs))
			}
			got, err := DecodeEvents(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.evs) {
				t.Errorf("decode(encode(x)):\n got %v\nwant %v", got, c.evs)
			}
		})
	}
}

func TestAppendEventsKeepsPrefix(t *testing.T) {
	prefix := []byte("head")
	data := AppendEvents(prefix, codecCases[2].evs)
	if !bytes.HasPrefix(data, []byte("head")) {
		t.Fatalf("prefix lost: %q", data[:4])
	}
	got, err := DecodeEvents(data[len(prefix):])
	if err != nil || !reflect.DeepEqual(got, codecCases[2].evs) {
		t.Errorf("got %v, %v", got, err)
	}
}

func TestDecodeEventsRefusesMalformedData(t *testing.T) {
	valid := AppendEvents(nil, codecCases[2].evs)
	badFlag := bytes.Clone(valid)
	badFlag[eventSize+5] = 2
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"one byte short", valid[:len(valid)-1], "not a multiple of 20"},
		{"one byte over", append(bytes.Clone(valid), 0), "not a multiple of 20"},
		{"shorter than an event", valid[:7], "7 bytes"},
		{"public flag neither 0 nor 1", badFlag, "event 1: public flag is 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs, err := DecodeEvents(c.data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, %v; want an error containing %q", evs, err, c.want)
			}
			if evs != nil {
				t.Errorf("events returned with an error: %v", evs)
			}
		})
	}
}

// FuzzDecodeEvents checks that no input makes DecodeEvents panic and that
// what it accepts is exactly what AppendEvents writes.
func FuzzDecodeEvents(f *testing.F) {
	for _, c := range codecCases {
		f.Add(AppendEvents(nil, c.evs))
	}
	f.Add([]byte{1, 2, 3})
	f.Add(bytes.Repeat([]byte{0xff}, eventSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := DecodeEvents(data)
		if err != nil {
			return
		}
		enc := AppendEvents(nil, evs)
		if !bytes.Equal(enc, data) {
			t.Fatalf("encode(decode(%x)) = %x", data, enc)
		}
		again, err := DecodeEvents(enc)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again, evs) {
			t.Fatalf("decode(encode(%v)) = %v", evs, again)
		}
	})
}
