package server

import (
	"bytes"
	"encoding/json"
	"reflect"
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

// A room's config is stored byte for byte as json.Marshal stores it,
// every field set and none: a field added to roomConfig and not to its
// encoder fails here.
func TestARoomsConfigIsStoredAsJSONMarshalStoresIt(t *testing.T) {
	full := roomConfig{}
	v := reflect.ValueOf(&full).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(`a<b>&"\` + v.Type().Field(i).Name + "\u2028\xff人狼")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint64:
			f.SetUint(1<<63 + 7)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"werewolf", `q"`, ""}))
		case reflect.Map:
			f.Set(reflect.ValueOf(textMap{"z": "1", "a": "<&>"}))
		default:
			t.Fatalf("roomConfig.%s: a %s, which the test does not fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	type plain roomConfig // the same fields, encoded by reflection
	for _, c := range []roomConfig{full, {}, {Cards: []string{}, Options: textMap{}, Deal: []string{}}} {
		want, err := json.Marshal((*plain)(&c))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
