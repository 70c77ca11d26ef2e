package aiwolf

import (
	"encoding/json"
	"strconv"

	"github.com/wolfden/wolfden/internal/wire"
)

// encodePacket writes p exactly as json.Marshal would (encode_test.go
// checks it), without reflection: encoding the packets was most of what
// the conductor spends after reading the frames. setting is the table's
// Setting already encoded (it never changes in a game), or nil to encode
// p.Setting here.
func encodePacket(p *Packet, setting []byte) []byte {
	n := 512
	if p.Setting != nil {
		n += len(setting) // room for it: it is most of the packet
	}
	b := make([]byte, 0, n)
	b = append(b, `{"request":`...)
	b = wire.AppendString(b, p.Request)
	if p.Info != nil {
		b = append(b, `,"info":`...)
		b = appendInfo(b, p.Info)
	}
	if p.Setting != nil {
		b = append(b, `,"setting":`...)
		if setting == nil {
			setting, _ = json.Marshal(p.Setting)
		}
		b = append(b, setting...)
	}
	if p.TalkHistory != nil {
		b = append(b, `,"talk_history":`...)
		b = appendTalks(b, *p.TalkHistory)
	}
	if p.WhisperHistory != nil {
		b = append(b, `,"whisper_history":`...)
		b = appendTalks(b, *p.WhisperHistory)
	}
	return append(b, '}')
}

func appendInfo(b []byte, in *Info) []byte {
	b = append(b, `{"game_id":`...)
	b = wire.AppendString(b, in.GameID)
	b = append(b, `,"day":`...)
	b = strconv.AppendInt(b, int64(in.Day), 10)
	b = append(b, `,"agent":`...)
	b = wire.AppendString(b, in.Agent)
	if in.Profile != "" {
		b = append(b, `,"profile":`...)
		b = wire.AppendString(b, in.Profile)
	}
	if in.MediumResult != nil {
		b = append(b, `,"medium_result":`...)
		b = appendJudge(b, in.MediumResult)
	}
	if in.DivineResult != nil {
		b = append(b, `,"divine_result":`...)
		b = appendJudge(b, in.DivineResult)
	}
	if in.ExecutedAgent != "" {
		b = append(b, `,"executed_agent":`...)
		b = wire.AppendString(b, in.ExecutedAgent)
	}
	if in.AttackedAgent != "" {
		b = append(b, `,"attacked_agent":`...)
		b = wire.AppendString(b, in.AttackedAgent)
	}
	if len(in.VoteList) > 0 {
		b = append(b, `,"vote_list":`...)
		b = appendVotes(b, in.VoteList)
	}
	if len(in.AttackVoteList) > 0 {
		b = append(b, `,"attack_vote_list":`...)
		b = appendVotes(b, in.AttackVoteList)
	}
	for _, f := range []struct {
		key string
		v   *int
	}{{`,"remain_count":`, in.RemainCount}, {`,"remain_length":`, in.RemainLength}, {`,"remain_skip":`, in.RemainSkip}} {
		if f.v != nil {
			b = append(b, f.key...)
			b = strconv.AppendInt(b, int64(*f.v), 10)
		}
	}
	b = append(b, `,"status_map":`...)
	if in.statusList != nil {
		b = appendPairs(b, in.statusList)
	} else {
		b = wire.AppendStringMap(b, in.StatusMap)
	}
	b = append(b, `,"role_map":`...)
	if in.roleList != nil {
		b = appendPairs(b, in.roleList)
	} else {
		b = wire.AppendStringMap(b, in.RoleMap)
	}
	return append(b, '}')
}

// appendPairs writes a map's entries, given in its keys' order.
func appendPairs(b []byte, ps []pair) []byte {
	b = append(b, '{')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, p.k)
		b = append(b, ':')
		b = wire.AppendString(b, p.v)
	}
	return append(b, '}')
}

func appendJudge(b []byte, j *Judge) []byte {
	b = append(b, `{"day":`...)
	b = strconv.AppendInt(b, int64(j.Day), 10)
	b = append(b, `,"agent":`...)
	b = wire.AppendString(b, j.Agent)
	b = append(b, `,"target":`...)
	b = wire.AppendString(b, j.Target)
	b = append(b, `,"result":`...)
	b = wire.AppendString(b, j.Result)
	return append(b, '}')
}

func appendVotes(b []byte, vs []Vote) []byte {
	b = append(b, '[')
	for i := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"day":`...)
		b = strconv.AppendInt(b, int64(vs[i].Day), 10)
		b = append(b, `,"agent":`...)
		b = wire.AppendString(b, vs[i].Agent)
		b = append(b, `,"target":`...)
		b = wire.AppendString(b, vs[i].Target)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendTalks(b []byte, ts []Talk) []byte {
	if ts == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range ts {
		t := &ts[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"idx":`...)
		b = strconv.AppendInt(b, int64(t.Idx), 10)
		b = append(b, `,"day":`...)
		b = strconv.AppendInt(b, int64(t.Day), 10)
		b = append(b, `,"turn":`...)
		b = strconv.AppendInt(b, int64(t.Turn), 10)
		b = append(b, `,"agent":`...)
		b = wire.AppendString(b, t.Agent)
		b = append(b, `,"text":`...)
		b = wire.AppendString(b, t.Text)
		b = append(b, `,"skip":`...)
		b = strconv.AppendBool(b, t.Skip)
		b = append(b, `,"over":`...)
		b = strconv.AppendBool(b, t.Over)
		b = append(b, `,"time":`...)
		b = strconv.AppendInt(b, t.Time, 10)
		b = append(b, '}')
	}
	return append(b, ']')
}
