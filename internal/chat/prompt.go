package chat

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// An option is one legal choice of a prompt: its label, what a user types
// for it, and the command its button sends.
type option struct {
	label, typed, button string
}

// verb is the first spelling of a command in lang.
func verb(lang, cmd string) string {
	v := i18n.Text(lang, "chat.verb."+cmd, nil)
	if v == "chat.verb."+cmd {
		return cmd
	}
	v, _, _ = strings.Cut(v, "|")
	return v
}

// act is the web client's label of an action (ui.act.*), or fallback.
func act(lang, key string, args map[string]string, fallback string) string {
	if s := i18n.Text(lang, key, args); s != key {
		return s
	}
	return fallback
}

// options lists a seat's legal choices, in the order of its state.
func options(lang string, seat rules.Seat, st *wire.StateFrame) (opts []option, multi []string) {
	own := "#" + strconv.Itoa(int(seat)) + " "
	for _, c := range st.Choices {
		v := verb(lang, c.Cmd)
		switch {
		case c.Cmd == rules.CmdClaim.String():
			// A claim is a speech's: said in the group, not offered here.
		case c.Pick != 0:
			n := strconv.Itoa(int(c.Pick))
			if c.Pick < 0 {
				n = "1+"
			}
			multi = append(multi, i18n.Text(lang, "chat.prompt.multi", map[string]string{
				"label": act(lang, "ui.act."+c.Cmd+".empty", nil, v), "verb": v, "value": n,
				"targets": seatList(lang, c.Targets)}))
		case len(c.Targets) > 0:
			for _, x := range c.Targets {
				n := strconv.Itoa(int(x))
				opts = append(opts, option{label: act(lang, "ui.act."+c.Cmd, map[string]string{"seat": n}, v+" "+n),
					typed: v + " " + n, button: own + c.Cmd + " " + n})
			}
			if c.NoTarget {
				opts = append(opts, option{label: act(lang, "ui.act."+c.Cmd+".none", nil, act(lang, "ui.act.skip", nil, v+" 0")),
					typed: v + " 0", button: own + c.Cmd + " 0"})
			}
		case c.Cmd == rules.CmdSkip.String():
			opts = append(opts, option{label: act(lang, "ui.act.skip."+st.Step, nil, act(lang, "ui.act.skip", nil, v)),
				typed: v, button: own + c.Cmd})
		case c.Cmd == rules.CmdOrder.String():
			for i := range 2 {
				n := strconv.Itoa(i)
				opts = append(opts, option{label: act(lang, "ui.act.order."+n, nil, v+" "+n), typed: v + " " + n, button: own + c.Cmd + " " + n})
			}
		case c.Cmd == rules.CmdTake.String():
			for i, r := range c.Roles {
				n := strconv.Itoa(i + 1)
				role := r
				if id, err := rules.ParseRole(r); err == nil {
					role = i18n.Role(lang, id)
				}
				opts = append(opts, option{label: act(lang, "ui.act.take", map[string]string{"n": n, "role": role}, v+" "+n),
					typed: v + " " + n, button: own + c.Cmd + " " + n})
			}
		default:
			opts = append(opts, option{label: act(lang, "ui.act."+c.Cmd, nil, v), typed: v, button: own + c.Cmd})
		}
	}
	return opts, multi
}

func seatList(lang string, ss []rules.Seat) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(int(s))
	}
	return strings.Join(parts, i18n.Text(lang, "chat.list.sep", nil))
}

// buttonRows lays options out as buttons, a few a row.
func buttonRows(opts []option) [][]Button {
	var rows [][]Button
	for i, o := range opts {
		if i%4 == 0 {
			rows = append(rows, nil)
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], Button{Label: o.label, Command: o.button})
	}
	return rows
}

// promptOf is the seat's prompt now and its digest; "" when it is not
// awaited.
func (t *table) promptOf(s *stream) (Message, string) {
	st := &s.st
	if !st.Pending || st.Over || st.Paused || len(st.Choices) == 0 {
		return Message{}, ""
	}
	opts, multi := options(t.lang, s.seat, st)
	if len(opts) == 0 && len(multi) == 0 {
		return Message{}, ""
	}
	lines := []string{t.text("chat.prompt", nil)}
	if st.Deadline > 0 {
		lines[0] += " " + t.deadline(time.UnixMilli(st.Deadline))
	}
	for i, o := range opts {
		lines = append(lines, fmt.Sprintf("%d. %s — %s", i+1, o.label, o.typed))
	}
	lines = append(lines, multi...)
	example := ""
	if len(opts) > 0 {
		example = opts[0].typed
	}
	if example != "" {
		lines = append(lines, t.text("chat.prompt.hint", map[string]string{"example": example}))
	}
	d, _ := json.Marshal([]any{st.Day, st.Night, st.Step, st.Turn, st.Deadline, st.Choices})
	return Message{Text: strings.Join(lines, "\n"), Buttons: buttonRows(opts)}, string(d)
}

// decoy is the night's prompt of a living player his role does not call
// now: the same shape as a real one (a line, numbered choices, buttons),
// and pressing one answers as a real choice does (game.Actor.Decoy).
func (t *table) decoy(s *stream) Message {
	var opts []option
	own := "#" + strconv.Itoa(int(s.seat)) + " decoy "
	for _, x := range t.spec.st.Alive {
		if x != s.seat {
			n := strconv.Itoa(int(x))
			opts = append(opts, option{label: t.text("chat.seat", map[string]string{"seat": n}), typed: n, button: own + n})
		}
	}
	lines := []string{t.text("chat.night.decoy", nil)}
	if end := s.st.NightEnd; end > 0 {
		lines[0] += " " + t.deadline(time.UnixMilli(end))
	}
	for i, o := range opts {
		lines = append(lines, fmt.Sprintf("%d. %s — %s", i+1, o.label, o.typed))
	}
	return Message{Text: strings.Join(lines, "\n"), Buttons: buttonRows(opts)}
}

// deadline renders when a prompt times out and how long is left.
func (t *table) deadline(at time.Time) string {
	return t.text("chat.deadline", map[string]string{"time": at.Local().Format("15:04"), "left": t.left(time.Until(at))})
}

// left says a duration in hours, minutes or seconds.
func (t *table) left(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d >= time.Hour:
		return t.text("chat.dur.hours", map[string]string{"value": strconv.Itoa(int(d.Round(time.Hour) / time.Hour))})
	case d >= time.Minute:
		return t.text("chat.dur.minutes", map[string]string{"value": strconv.Itoa(int(d.Round(time.Minute) / time.Minute))})
	}
	return t.text("chat.dur.seconds", map[string]string{"value": strconv.Itoa(int(d.Round(time.Second) / time.Second))})
}
