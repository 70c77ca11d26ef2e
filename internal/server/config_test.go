package server

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A room's options and timers are stored byte for byte as json.Marshal
// stores a map[string]string: keys sorted, strings escaped alike.
func TestRoomMapsAreStoredAsJSONMarshalStoresThem(t *testing.T) {
	for _, m := range []map[string]string{
		nil,
		{},
		{"witch_self_save": "first_night", "sheriff": "on", "night_order": "wolves_first"},
		{"z": "", "a<b>": "&", "é": "\u2028\x01\xff", `q"\`: "人狼", "": "x"},
	} {
		want, err := json.Marshal(struct {
			O map[string]string `json:"options"`
		}{m})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(struct {
			O textMap `json:"options"`
		}{m})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
