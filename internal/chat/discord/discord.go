// Package discord is the chat.Platform of Discord, through
// github.com/bwmarrin/discordgo: a group is a text channel, a private chat
// a direct message. Users type commands in the channel (the Message
// Content intent) or through the slash command /wolf; a message's buttons
// become components (a row of buttons, or a select menu for a row wider
// than Discord allows). A user whose direct messages are closed gets his
// private messages as ephemeral follow-ups of his last interaction while
// Discord keeps it, else his channel is told, once, to open them.
package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/inbox"
	"github.com/wolfden/wolfden/internal/i18n"
)

// Options configure the platform.
type Options struct {
	Token string // the bot's token, from the Developer Portal; never logged
	Log   *slog.Logger

	client *http.Client // REST (tests point it at a fake)
}

// Command is the slash command's name; its one option, "command", is the
// text command (/wolf command: 投 7).
const Command = "wolf"

const (
	maxButtons   = 5    // buttons in an action row
	maxRows      = 5    // action rows in a message
	maxOptions   = 25   // options of a select menu
	maxCustomID  = 100  // bytes of a component's custom_id, and of an option's value
	maxLabel     = 80   // characters of a button's label
	maxContent   = 1900 // bytes of one message's content (Discord: 2000 characters)
	maxUsers     = 4096 // users remembered (DM channel, last interaction, locale)
	maxShort     = 4096 // long commands remembered under a short id
	followupLife = 14 * time.Minute
)

// Platform is one Discord bot.
type Platform struct {
	o   Options
	log *slog.Logger
	in  *inbox.Inbox
	s   *discordgo.Session

	minBackoff, maxBackoff time.Duration
	now                    func() time.Time

	mu    sync.Mutex
	self  string // the bot's user id, from READY
	users map[string]*user
	short *chat.ShortIDs // long commands under short ids
}

type user struct {
	dm       string // his DM channel's id
	channel  string // the channel he last wrote in
	locale   string
	last     *discordgo.Interaction // his last interaction, for ephemeral follow-ups
	lastAt   time.Time
	told     bool
	username string
}

// New checks o and returns the platform; nothing connects before Run.
func New(o Options) (*Platform, error) {
	o.Token = strings.TrimPrefix(strings.TrimSpace(o.Token), "Bot ")
	if o.Token == "" || strings.ContainsAny(o.Token, " \t\n") {
		return nil, errors.New("discord: no bot token: set --discord-token or WOLFDEN_DISCORD_TOKEN (Developer Portal → your application → Bot → Reset Token)")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	s, err := discordgo.New("Bot " + o.Token)
	if err != nil {
		return nil, errors.New("discord: cannot make a session")
	}
	if o.client != nil {
		s.Client = o.client
	}
	s.LogLevel = discordgo.LogError
	s.SyncEvents = true // one event at a time: a flood waits on the socket, not in goroutines
	s.StateEnabled = false
	s.Identify.Intents = discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages | discordgo.IntentMessageContent
	p := &Platform{o: o, log: o.Log, in: inbox.New("discord", o.Log), s: s, minBackoff: time.Second, maxBackoff: time.Minute,
		now: time.Now, users: make(map[string]*user), short: chat.NewShortIDs(maxShort)}
	s.AddHandler(p.ready)
	s.AddHandler(p.message)
	s.AddHandler(p.interaction)
	return p, nil
}

// Name implements chat.Platform.
func (p *Platform) Name() string { return "discord" }

// Run implements chat.Platform: it opens the gateway (retrying while
// Discord is unreachable; a refused token or intent is fatal), registers
// /wolf, and delivers until ctx ends. discordgo reconnects a dropped
// gateway itself.
func (p *Platform) Run(ctx context.Context, in chan<- chat.Incoming) error {
	wait := p.minBackoff
	for {
		err := p.s.Open()
		if err == nil {
			break
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			switch ce.Code {
			case 4004:
				return errors.New("discord: Discord refused the bot token: check --discord-token or WOLFDEN_DISCORD_TOKEN")
			case 4013, 4014:
				return errors.New("discord: Discord refused the intents: turn on Message Content Intent (Developer Portal → Bot → Privileged Gateway Intents)")
			}
		}
		var re *discordgo.RESTError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized {
			return errors.New("discord: Discord refused the bot token: check --discord-token or WOLFDEN_DISCORD_TOKEN")
		}
		p.log.Warn("discord: cannot open the gateway, retrying", "err", p.scrub(err), "in", wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, p.maxBackoff)
	}
	defer p.s.Close()
	p.mu.Lock()
	self := p.self
	p.mu.Unlock()
	if _, err := p.s.ApplicationCommandBulkOverwrite(self, "", []*discordgo.ApplicationCommand{slash()}); err != nil {
		p.log.Warn("discord: registering /"+Command+" failed (commands typed in the channel still work)", "err", p.scrub(err))
	}
	p.in.Run(ctx, in)
	return ctx.Err()
}

// slash is /wolf, with the command's name and option named in each
// language.
func slash() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:                     Command,
		NameLocalizations:        &map[discordgo.Locale]string{discordgo.ChineseCN: "狼人杀", discordgo.ChineseTW: "狼人殺"},
		Description:              "Werewolf: a command for the judge (join, start, vote 7, check 5, pass)",
		DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.ChineseCN: "狼人杀：给法官的指令（加入、开局、投 7、查验 5、过）", discordgo.ChineseTW: "狼人殺：給法官的指令（加入、開局、投 7、查驗 5、過）"},
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionString, Name: "command", Required: true,
			NameLocalizations: map[discordgo.Locale]string{discordgo.ChineseCN: "指令", discordgo.ChineseTW: "指令"},
			Description:       "the command, as you would type it",
			DescriptionLocalizations: map[discordgo.Locale]string{discordgo.ChineseCN: "指令，和打字时一样",
				discordgo.ChineseTW: "指令，和打字時一樣"},
		}},
	}
}

func (p *Platform) ready(_ *discordgo.Session, r *discordgo.Ready) {
	if r.User == nil {
		return
	}
	p.mu.Lock()
	p.self = r.User.ID
	p.mu.Unlock()
	p.log.Info("discord: connected", "bot", r.User.Username)
}

func (p *Platform) message(_ *discordgo.Session, m *discordgo.MessageCreate) {
	if m.Author == nil || m.Author.Bot {
		return
	}
	p.mu.Lock()
	self := p.self
	p.mu.Unlock()
	text := m.Content
	for _, at := range []string{"<@" + self + ">", "<@!" + self + ">"} {
		text = strings.ReplaceAll(text, at, " ")
	}
	text = strings.Join(strings.Fields(text), " ")
	in := chat.Incoming{User: m.Author.ID, Name: displayName(m.Author, m.Member), Text: text}
	if m.GuildID != "" {
		in.Group = m.ChannelID
	}
	p.seen(in.User, in.Name, in.Group, "", nil)
	p.in.Offer(in)
}

func (p *Platform) interaction(s *discordgo.Session, i *discordgo.InteractionCreate) {
	if i.Interaction == nil {
		return
	}
	var u *discordgo.User
	var member *discordgo.Member
	if i.Member != nil {
		member, u = i.Member, i.Member.User
	} else {
		u = i.User
	}
	if u == nil {
		return
	}
	in := chat.Incoming{User: u.ID, Name: displayName(u, member)}
	if i.GuildID != "" {
		in.Group = i.ChannelID
	}
	var resp *discordgo.InteractionResponse
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		d := i.ApplicationCommandData()
		if d.Name != Command {
			return
		}
		for _, o := range d.Options {
			if o.Name == "command" && o.Type == discordgo.ApplicationCommandOptionString {
				in.Text, _ = o.Value.(string)
			}
		}
		// Shown to him only: what he asked for.
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "› " + inbox.Cut(in.Text, inbox.MaxText), Flags: discordgo.MessageFlagsEphemeral}}
	case discordgo.InteractionMessageComponent:
		d := i.MessageComponentData()
		in.Text = d.CustomID
		if len(d.Values) > 0 {
			in.Text = d.Values[0]
		}
		if strings.HasPrefix(in.Text, "~") {
			in.Text = p.short.Command(in.Text)
		}
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	default:
		return
	}
	if err := s.InteractionRespond(i.Interaction, resp); err != nil {
		p.log.Warn("discord: answering an interaction failed", "err", p.scrub(err))
	}
	p.seen(in.User, in.Name, in.Group, string(i.Locale), i.Interaction)
	p.in.Offer(in)
}

func displayName(u *discordgo.User, m *discordgo.Member) string {
	if m != nil && m.Nick != "" {
		return m.Nick
	}
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// seen remembers what the user showed of himself.
func (p *Platform) seen(id, name, channel, locale string, last *discordgo.Interaction) {
	p.mu.Lock()
	defer p.mu.Unlock()
	u := p.users[id]
	if u == nil {
		if len(p.users) >= maxUsers {
			for k := range p.users { // forget any one: a bound, not a cache policy
				delete(p.users, k)
				break
			}
		}
		u = &user{}
		p.users[id] = u
	}
	if name != "" {
		u.username = inbox.Cut(name, 64)
	}
	if channel != "" {
		u.channel = channel
	}
	if l, err := i18n.Match(locale); err == nil {
		u.locale = l
	}
	if last != nil {
		u.last, u.lastAt = last, p.now()
	}
}

// Send implements chat.Platform.
func (p *Platform) Send(ctx context.Context, to chat.Target, m chat.Message) error {
	channel := to.Group
	if to.Private() {
		dm, err := p.dm(ctx, to.User)
		if err != nil {
			return err
		}
		channel = dm
	}
	err := p.post(ctx, channel, m, !to.Private())
	if err == nil || !to.Private() {
		return err
	}
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != discordgo.ErrCodeCannotSendMessagesToThisUser {
		return err
	}
	return p.dmClosed(ctx, to.User, m)
}

// dm is the user's DM channel, made once.
func (p *Platform) dm(ctx context.Context, uid string) (string, error) {
	if _, err := strconv.ParseUint(uid, 10, 64); err != nil {
		return "", fmt.Errorf("discord: user %q is not a Discord id", inbox.Cut(uid, 24))
	}
	p.mu.Lock()
	if u := p.users[uid]; u != nil && u.dm != "" {
		p.mu.Unlock()
		return u.dm, nil
	}
	p.mu.Unlock()
	ch, err := p.s.UserChannelCreate(uid, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("discord: opening a DM channel: %s", p.scrub(err))
	}
	p.seen(uid, "", "", "", nil)
	p.mu.Lock()
	if u := p.users[uid]; u != nil {
		u.dm = ch.ID
	}
	p.mu.Unlock()
	return ch.ID, nil
}

// post sends m to a channel, in as many messages as its length needs, the
// components on the last.
func (p *Platform) post(ctx context.Context, channel string, m chat.Message, group bool) error {
	if _, err := strconv.ParseUint(channel, 10, 64); err != nil && group {
		return fmt.Errorf("discord: channel %q is not a Discord id", inbox.Cut(channel, 24))
	}
	text := m.Text
	var allowed *discordgo.MessageAllowedMentions
	if group && len(m.Mention) > 0 {
		var b strings.Builder
		for _, id := range m.Mention {
			b.WriteString("<@" + id + "> ")
		}
		text = b.String() + text
		allowed = &discordgo.MessageAllowedMentions{Users: m.Mention}
	} else {
		allowed = &discordgo.MessageAllowedMentions{} // a "@everyone" in a text pings nobody
	}
	parts := split(text, maxContent)
	comps := p.components(m.Buttons)
	for i, part := range parts {
		msg := &discordgo.MessageSend{Content: part, AllowedMentions: allowed}
		if i == len(parts)-1 {
			msg.Components = comps
		}
		if _, err := p.s.ChannelMessageSendComplex(channel, msg, discordgo.WithContext(ctx)); err != nil {
			var re *discordgo.RESTError
			if errors.As(err, &re) {
				return fmt.Errorf("discord: sending a message: %w", re)
			}
			return fmt.Errorf("discord: sending a message: %s", p.scrub(err))
		}
	}
	return nil
}

// dmClosed delivers a private message to a user whose DMs are closed as
// an ephemeral follow-up of his last interaction, if Discord still keeps
// it; else tells his channel, once, to open them.
func (p *Platform) dmClosed(ctx context.Context, uid string, m chat.Message) error {
	p.mu.Lock()
	u := p.users[uid]
	var last *discordgo.Interaction
	var channel, name, locale string
	if u != nil {
		if u.last != nil && p.now().Sub(u.lastAt) < followupLife {
			last = u.last
		} else if !u.told && u.channel != "" {
			u.told = true
			channel, name, locale = u.channel, u.username, u.locale
		}
	}
	p.mu.Unlock()
	if last != nil {
		_, err := p.s.FollowupMessageCreate(last, true, &discordgo.WebhookParams{Content: inbox.Cut(m.Text, maxContent),
			Components: p.components(m.Buttons), Flags: discordgo.MessageFlagsEphemeral}, discordgo.WithContext(ctx))
		if err == nil {
			return nil
		}
		return fmt.Errorf("discord: DMs closed, and the ephemeral follow-up failed: %s", p.scrub(err))
	}
	if channel != "" {
		if locale == "" {
			locale = i18n.Languages[0]
		}
		notice := chat.Message{Text: i18n.Text(locale, "chat.platform.dm_closed", map[string]string{"name": name}), Mention: []string{uid}}
		if err := p.post(ctx, channel, notice, true); err != nil {
			p.log.Warn("discord: telling the channel about closed DMs failed", "err", p.scrub(err))
		}
	}
	return fmt.Errorf("discord: user %s does not take direct messages (code %d)", uid, discordgo.ErrCodeCannotSendMessagesToThisUser)
}

// components are m's buttons: a row of at most five as buttons, a wider
// one as select menus, at most five rows.
func (p *Platform) components(rows [][]chat.Button) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	menus := 0
	for _, row := range rows {
		if len(row) == 0 {
			continue
		}
		if len(row) <= maxButtons {
			var r discordgo.ActionsRow
			for _, b := range row {
				r.Components = append(r.Components, discordgo.Button{Label: label(b), Style: discordgo.SecondaryButton, CustomID: p.id(b.Command)})
			}
			out = append(out, r)
			continue
		}
		for start := 0; start < len(row); start += maxOptions {
			chunk := row[start:min(start+maxOptions, len(row))]
			menu := discordgo.SelectMenu{CustomID: "menu" + strconv.Itoa(menus), Placeholder: "…"}
			menus++
			seen := map[string]bool{}
			for _, b := range chunk {
				v := p.id(b.Command)
				if seen[v] { // a menu's values are distinct
					continue
				}
				seen[v] = true
				menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: label(b), Value: v})
			}
			out = append(out, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
		}
	}
	if len(out) > maxRows {
		p.log.Warn("discord: more rows of choices than a message holds; the text lists them all", "rows", len(out))
		out = out[:maxRows]
	}
	return out
}

func label(b chat.Button) string {
	l := b.Label
	if l == "" {
		l = b.Command
	}
	if r := []rune(l); len(r) > maxLabel {
		l = string(r[:maxLabel])
	}
	return l
}

// id is a component's custom_id for a command: itself when it fits and
// cannot be taken for a short id, else "~" and a short id.
func (p *Platform) id(cmd string) string {
	if len(cmd) <= maxCustomID && !strings.HasPrefix(cmd, "~") && !strings.HasPrefix(cmd, "menu") && cmd != "" {
		return cmd
	}
	return p.short.Add(cmd)
}

// split cuts s into parts of at most n bytes, at a line's end where it can.
func split(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := strings.LastIndexByte(s[:n], '\n')
		if cut <= 0 {
			cut = len(inbox.Cut(s, n))
		}
		out = append(out, s[:cut])
		s = strings.TrimPrefix(s[cut:], "\n")
	}
	return append(out, s)
}

// scrub removes the token from an error's text.
func (p *Platform) scrub(err error) string {
	return strings.ReplaceAll(err.Error(), p.o.Token, "***")
}
