package onebot

import (
	"encoding/json"
	"errors"
	"strings"
)

// A segment is one part of a OneBot message: text, an @ (at), an image…
type segment struct {
	Type string            `json:"type"`
	Data map[string]string `json:"data"`
}

// parseMessage reads a message in either of OneBot's formats: an array of
// segments, or a string with CQ codes ("[CQ:at,qq=123] 加入").
func parseMessage(raw json.RawMessage) ([]segment, error) {
	if len(raw) == 0 {
		return nil, errors.New("no message")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, errors.New("message is not a string")
		}
		return parseCQ(s), nil
	}
	// Values of data may be numbers in some implementations ("qq": 123).
	var segs []struct {
		Type string                     `json:"type"`
		Data map[string]json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &segs); err != nil {
		return nil, errors.New("message is neither a string nor an array of segments")
	}
	out := make([]segment, 0, len(segs))
	for _, s := range segs {
		d := make(map[string]string, len(s.Data))
		for k, v := range s.Data {
			var str string
			if json.Unmarshal(v, &str) != nil {
				str = string(v)
			}
			d[k] = str
		}
		out = append(out, segment{Type: s.Type, Data: d})
	}
	return out, nil
}

var cqText = strings.NewReplacer("&#91;", "[", "&#93;", "]", "&amp;", "&")
var cqParam = strings.NewReplacer("&#91;", "[", "&#93;", "]", "&#44;", ",", "&amp;", "&")

// parseCQ splits a CQ-coded string into segments.
func parseCQ(s string) []segment {
	var out []segment
	for s != "" {
		i := strings.Index(s, "[CQ:")
		if i < 0 {
			out = append(out, segment{Type: "text", Data: map[string]string{"text": cqText.Replace(s)}})
			break
		}
		if i > 0 {
			out = append(out, segment{Type: "text", Data: map[string]string{"text": cqText.Replace(s[:i])}})
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 { // an unclosed code: the rest is text
			out = append(out, segment{Type: "text", Data: map[string]string{"text": cqText.Replace(s[i:])}})
			break
		}
		code := s[i+4 : i+j]
		s = s[i+j+1:]
		parts := strings.Split(code, ",")
		seg := segment{Type: parts[0], Data: map[string]string{}}
		for _, kv := range parts[1:] {
			k, v, _ := strings.Cut(kv, "=")
			seg.Data[k] = cqParam.Replace(v)
		}
		out = append(out, seg)
	}
	return out
}

// textOf is a message's text: its text segments joined, without the @s
// (of the bot: the command is addressed to it; of others: a seat is named
// by its number, not by an @) nor images, replies and the like.
func textOf(segs []segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Type == "text" {
			b.WriteString(s.Data["text"])
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
