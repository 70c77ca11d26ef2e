// Package telegram is the chat.Platform of Telegram, on the Bot API
// through github.com/go-telegram/bot: long polling for group and private
// messages and inline keyboard presses, sendMessage with an inline keyboard
// for a message's buttons. A bot cannot write first to a user who never
// opened its private chat: such a user's private messages wait (a few, for
// a while) and the group he last wrote in is told, once, with a deep link
// t.me/<bot>?start=… that opens the chat; they are sent when he does.
package telegram

import (
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/inbox"
	"github.com/wolfden/wolfden/internal/i18n"
)

// Options configure the platform.
type Options struct {
	Token string // from @BotFather; never logged
	Log   *slog.Logger

	serverURL   string        // the Bot API's address; tests point it at a fake
	pollTimeout time.Duration // a getUpdates long poll's length
}

const (
	maxData      = 64   // Telegram's bound on a button's callback_data, in bytes
	maxShort     = 4096 // long commands remembered under a short id
	maxRow       = 8    // buttons a row of an inline keyboard holds
	maxUsers     = 4096 // users whose group, name and language are remembered
	maxWaiting   = 20   // private messages kept for a user who has not started the bot
	startPayload = "wolfden"
)

// ErrNotStarted wraps a private message's error when its user has not
// opened the bot's private chat: the message waits and is sent when he does.
var ErrNotStarted = errors.New("the user has not opened the bot's private chat")

// Platform is one Telegram bot.
type Platform struct {
	o   Options
	log *slog.Logger
	in  *inbox.Inbox
	b   *bot.Bot

	minBackoff, maxBackoff time.Duration

	mu       sync.Mutex
	username string              // the bot's, from getMe
	users    map[string]*user    // by user id
	short    *chat.ShortIDs      // long commands under short ids
	waiting  map[string][]queued // user id → private messages not yet delivered
}

type user struct {
	name, lang, group string
	told              bool // his group was told he must open the private chat
}

type queued struct {
	m chat.Message
}

// New checks the token's shape and returns the platform; nothing is
// asked of Telegram before Run.
func New(o Options) (*Platform, error) {
	id, secret, ok := strings.Cut(o.Token, ":")
	if _, err := strconv.ParseInt(id, 10, 64); !ok || err != nil || secret == "" {
		return nil, errors.New("telegram: the token is not a bot token (123456789:AA…, from @BotFather): set --telegram-token or WOLFDEN_TELEGRAM_TOKEN")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.pollTimeout == 0 {
		o.pollTimeout = time.Minute
	}
	p := &Platform{o: o, log: o.Log, in: inbox.New("telegram", o.Log), minBackoff: time.Second, maxBackoff: time.Minute,
		users: make(map[string]*user), short: chat.NewShortIDs(maxShort), waiting: make(map[string][]queued)}
	opts := []bot.Option{
		bot.WithSkipGetMe(), // Run asks, and retries while Telegram is unreachable
		bot.WithDefaultHandler(p.update),
		bot.WithErrorsHandler(func(err error) { p.log.Warn("telegram: error", "err", p.scrub(err)) }),
		bot.WithNotAsyncHandlers(), // one update at a time: a flood waits in the library's bounded channel
		bot.WithHTTPClient(o.pollTimeout, &http.Client{Timeout: o.pollTimeout + 10*time.Second}),
		bot.WithAllowedUpdates(bot.AllowedUpdates{"message", "callback_query"}),
	}
	if o.serverURL != "" {
		opts = append(opts, bot.WithServerURL(o.serverURL))
	}
	b, err := bot.New(o.Token, opts...)
	if err != nil {
		return nil, fmt.Errorf("telegram: %s", p.scrub(err))
	}
	p.b = b
	return p, nil
}

// Name implements chat.Platform.
func (p *Platform) Name() string { return "telegram" }

// Run implements chat.Platform: it asks Telegram who the bot is (a refused
// token is fatal; an unreachable Telegram is retried), then polls.
func (p *Platform) Run(ctx context.Context, in chan<- chat.Incoming) error {
	wait := p.minBackoff
	for {
		me, err := p.b.GetMe(ctx)
		if err == nil {
			p.mu.Lock()
			p.username = me.Username
			p.mu.Unlock()
			p.log.Info("telegram: connected", "bot", me.Username)
			break
		}
		if errors.Is(err, bot.ErrorUnauthorized) || errors.Is(err, bot.ErrorNotFound) {
			return errors.New("telegram: Telegram refused the bot token: check --telegram-token or WOLFDEN_TELEGRAM_TOKEN (from @BotFather)")
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.log.Warn("telegram: cannot reach the Bot API, retrying", "err", p.scrub(err), "in", wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, p.maxBackoff)
	}
	go p.in.Run(ctx, in)
	p.b.Start(ctx)
	return ctx.Err()
}

// DeepLink is the link that opens the bot's private chat and starts it.
func (p *Platform) DeepLink() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "https://t.me/" + p.username + "?start=" + startPayload
}

// update reads one update: a message or a button's press.
func (p *Platform) update(ctx context.Context, _ *bot.Bot, u *models.Update) {
	switch {
	case u.Message != nil:
		p.message(ctx, u.Message)
	case u.CallbackQuery != nil:
		p.callback(ctx, u.CallbackQuery)
	default:
		p.log.Warn("telegram: update of an unexpected kind ignored", "update", u.ID)
	}
}

func (p *Platform) message(ctx context.Context, m *models.Message) {
	if m.From == nil || m.From.IsBot {
		return
	}
	uid := strconv.FormatInt(m.From.ID, 10)
	text := p.strip(m.Text)
	if m.Chat.Type == models.ChatTypePrivate {
		p.seen(m.From, "")
		// /start (the deep link's, or the chat's first press of Start)
		// opens the private chat: it is not a command for the judge.
		if cmd, _, _ := strings.Cut(text, " "); cmd == "/start" {
			p.started(ctx, uid)
			return
		}
		p.in.Offer(chat.Incoming{User: uid, Name: p.name(m.From), Text: text})
		return
	}
	group := strconv.FormatInt(m.Chat.ID, 10)
	p.seen(m.From, group)
	p.in.Offer(chat.Incoming{Group: group, User: uid, Name: p.name(m.From), Text: text})
}

func (p *Platform) callback(ctx context.Context, q *models.CallbackQuery) {
	// Answer first, whatever the data: the user's button stops spinning.
	if _, err := p.b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID}); err != nil {
		p.log.Warn("telegram: answerCallbackQuery failed", "err", p.scrub(err))
	}
	cmd := q.Data
	if strings.HasPrefix(cmd, "~") {
		cmd = p.short.Command(cmd)
		if cmd == "" {
			p.log.Warn("telegram: press of a forgotten button ignored")
			return
		}
	}
	uid := strconv.FormatInt(q.From.ID, 10)
	in := chat.Incoming{User: uid, Name: p.name(&q.From), Text: cmd}
	if msg := q.Message.Message; msg != nil && msg.Chat.Type != models.ChatTypePrivate {
		in.Group = strconv.FormatInt(msg.Chat.ID, 10)
	} else if q.Message.InaccessibleMessage != nil && q.Message.InaccessibleMessage.Chat.Type != models.ChatTypePrivate {
		in.Group = strconv.FormatInt(q.Message.InaccessibleMessage.Chat.ID, 10)
	}
	p.seen(&q.From, in.Group)
	p.in.Offer(in)
}

// strip drops the bot's name from a command ("/join@wolfbot" → "/join")
// and a leading @mention of the bot.
func (p *Platform) strip(text string) string {
	p.mu.Lock()
	at := "@" + p.username
	p.mu.Unlock()
	text = strings.TrimSpace(text)
	if at == "@" {
		return text
	}
	if len(text) >= len(at) && strings.EqualFold(text[:len(at)], at) {
		text = strings.TrimSpace(text[len(at):])
	}
	if strings.HasPrefix(text, "/") {
		cmd, rest, _ := strings.Cut(text, " ")
		if i := strings.IndexByte(cmd, '@'); i > 0 {
			if !strings.EqualFold(cmd[i:], at) {
				return "" // another bot's command
			}
			text = strings.TrimSpace(cmd[:i] + " " + rest)
		}
	}
	return text
}

func (p *Platform) name(u *models.User) string {
	n := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if n == "" {
		n = u.Username
	}
	return n
}

// seen remembers a user's name, language and last group (for telling him
// there to open the private chat).
func (p *Platform) seen(from *models.User, group string) {
	id := strconv.FormatInt(from.ID, 10)
	p.mu.Lock()
	defer p.mu.Unlock()
	u := p.users[id]
	if u == nil {
		if len(p.users) >= maxUsers {
			for k := range p.users { // forget any one: a bound, not a cache policy
				delete(p.users, k)
				delete(p.waiting, k)
				break
			}
		}
		u = &user{}
		p.users[id] = u
	}
	u.name = inbox.Cut(p.name(from), 64)
	if l, err := i18n.Match(from.LanguageCode); err == nil {
		u.lang = l
	}
	if group != "" {
		u.group = group
	}
}

// started sends what waited for the user and thanks him.
func (p *Platform) started(ctx context.Context, uid string) {
	p.mu.Lock()
	w := p.waiting[uid]
	delete(p.waiting, uid)
	lang := i18n.Languages[0]
	if u := p.users[uid]; u != nil {
		u.told = false
		if u.lang != "" {
			lang = u.lang
		}
	}
	p.mu.Unlock()
	if err := p.Send(ctx, chat.Target{User: uid}, chat.Message{Text: i18n.Text(lang, "chat.platform.private_open", nil)}); err != nil {
		p.log.Warn("telegram: greeting failed", "err", p.scrub(err))
	}
	for _, q := range w {
		if err := p.Send(ctx, chat.Target{User: uid}, q.m); err != nil {
			p.log.Warn("telegram: a waiting private message failed", "err", p.scrub(err))
		}
	}
}

// Send implements chat.Platform.
func (p *Platform) Send(ctx context.Context, to chat.Target, m chat.Message) error {
	id := to.Group
	if to.Private() {
		id = to.User
	}
	chatID, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return fmt.Errorf("telegram: chat %q is not a chat id", inbox.Cut(id, 24))
	}
	params := &bot.SendMessageParams{ChatID: chatID, Text: p.html(to, m), ParseMode: models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()}}
	if kb := p.keyboard(m.Buttons); kb != nil {
		params.ReplyMarkup = kb
	}
	_, err = p.b.SendMessage(ctx, params)
	if err == nil {
		return nil
	}
	if to.Private() && errors.Is(err, bot.ErrorForbidden) {
		return p.notStarted(ctx, to.User, m)
	}
	return fmt.Errorf("telegram: sendMessage: %s", p.scrub(err))
}

// notStarted keeps m for the user and tells his group, once, how to open
// the private chat.
func (p *Platform) notStarted(ctx context.Context, uid string, m chat.Message) error {
	p.mu.Lock()
	if _, ok := p.waiting[uid]; (ok || len(p.waiting) < maxUsers) && len(p.waiting[uid]) < maxWaiting {
		p.waiting[uid] = append(p.waiting[uid], queued{m})
	}
	u := p.users[uid]
	var group, name, lang string
	if u != nil && !u.told && u.group != "" {
		u.told = true
		group, name, lang = u.group, u.name, u.lang
	}
	link := "https://t.me/" + p.username + "?start=" + startPayload
	p.mu.Unlock()
	if group != "" {
		if lang == "" {
			lang = i18n.Languages[0]
		}
		notice := chat.Message{Text: i18n.Text(lang, "chat.platform.open_private", map[string]string{"name": name, "link": link}), Mention: []string{uid}}
		kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: i18n.Text(lang, "chat.platform.open_private_button", nil), URL: link}}}}
		if _, err := p.b.SendMessage(ctx, &bot.SendMessageParams{ChatID: group, Text: p.html(chat.Target{Group: group}, notice),
			ParseMode: models.ParseModeHTML, ReplyMarkup: kb, LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()}}); err != nil {
			p.log.Warn("telegram: telling the group to open the private chat failed", "err", p.scrub(err))
		}
	}
	return fmt.Errorf("telegram: private message to %s: %w; it is sent when he opens it", uid, ErrNotStarted)
}

// html is m's text for parse_mode HTML, the group's mentions first.
func (p *Platform) html(to chat.Target, m chat.Message) string {
	var b strings.Builder
	if !to.Private() && len(m.Mention) > 0 {
		p.mu.Lock()
		for _, id := range m.Mention {
			name := id
			if u := p.users[id]; u != nil && u.name != "" {
				name = u.name
			}
			fmt.Fprintf(&b, `<a href="tg://user?id=%s">%s</a> `, html.EscapeString(id), html.EscapeString(name))
		}
		p.mu.Unlock()
	}
	b.WriteString(html.EscapeString(m.Text))
	return b.String()
}

// keyboard is the inline keyboard of m's buttons, nil without any. A
// command longer than callback_data allows is sent as a short id.
func (p *Platform) keyboard(rows [][]chat.Button) *models.InlineKeyboardMarkup {
	var kb [][]models.InlineKeyboardButton
	for _, row := range rows {
		var r []models.InlineKeyboardButton
		for _, btn := range row {
			if len(r) == maxRow {
				kb = append(kb, r)
				r = nil
			}
			label := btn.Label
			if label == "" {
				label = btn.Command
			}
			r = append(r, models.InlineKeyboardButton{Text: label, CallbackData: p.data(btn.Command)})
		}
		if len(r) > 0 {
			kb = append(kb, r)
		}
	}
	if kb == nil {
		return nil
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: kb}
}

// data is a button's callback_data: the command itself when it fits and
// cannot be taken for a short id, else "~" and a short id.
func (p *Platform) data(cmd string) string {
	if len(cmd) <= maxData && !strings.HasPrefix(cmd, "~") {
		return cmd
	}
	return p.short.Add(cmd)
}

// scrub removes the token from an error's text.
func (p *Platform) scrub(err error) string {
	return strings.ReplaceAll(err.Error(), p.o.Token, "***")
}
