package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func nightMessage() []byte {
	msg := []byte(`{"type":"tick","n":7}` + "\n" + `{"type":"ack","id":3}` + "\n" + `{"type":"pad","p":"`)
	msg = append(msg, bytes.Repeat([]byte{' '}, 4096-len(msg)-2)...)
	return append(msg, `"}`...)
}

// The fast path for the padding must read it as the JSON decoder would.
func TestSplitPadAsDecoded(t *testing.T) {
	msg := nightMessage()
	fs, err := Split(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 3 || fs[0].Type != "tick" || fs[1].Type != "ack" || fs[1].ID != 3 || fs[2].Type != "pad" {
		t.Fatalf("frames %+v", fs)
	}
	pad := fs[2].Raw
	var slow Frame
	if err := jsonUnmarshal(pad, &slow); err != nil {
		t.Fatal(err)
	}
	slow.Raw = pad
	if !reflect.DeepEqual(slow, fs[2]) {
		t.Fatalf("fast path %+v, decoder %+v", fs[2], slow)
	}
	// Something that only looks like padding goes through the decoder.
	odd := []byte(`{"type":"pad","p":"x","code":"y"}`)
	fs, err = Split(odd)
	if err != nil || fs[0].Code != "y" {
		t.Fatalf("%+v %v", fs, err)
	}
	if _, err := Split([]byte(`{"type":"pad","p":"  "`)); err == nil {
		t.Fatal("a truncated pad frame was accepted")
	}
}

func BenchmarkSplitNightMessage(b *testing.B) {
	msg := nightMessage()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, err := Split(msg); err != nil {
			b.Fatal(err)
		}
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
