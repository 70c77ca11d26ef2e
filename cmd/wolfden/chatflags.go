package main

import (
	"errors"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/discord"
	"github.com/wolfden/wolfden/internal/chat/onebot"
	"github.com/wolfden/wolfden/internal/chat/telegram"
)

// chatFlags are serve's flags for the chat platforms (docs/chat.md). A
// token is best given by its environment variable: a flag's value is seen
// by whoever lists the machine's processes.
type chatFlags struct {
	onebot, onebotToken string
	onebotReverse       bool
	telegram, discord   string
}

func (f *chatFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.onebot, "onebot", "", "QQ through OneBot v11: the implementation's forward WebSocket, e.g. ws://127.0.0.1:3001 (docs/chat.md)")
	fs.StringVar(&f.onebotToken, "onebot-token", "", "the OneBot access token (env WOLFDEN_ONEBOT_TOKEN)")
	fs.BoolVar(&f.onebotReverse, "onebot-reverse", false, "accept OneBot implementations dialling in at /onebot/ws (needs the access token)")
	fs.StringVar(&f.telegram, "telegram-token", "", "play in Telegram groups as this bot (env WOLFDEN_TELEGRAM_TOKEN; from @BotFather)")
	fs.StringVar(&f.discord, "discord-token", "", "play in Discord channels as this bot (env WOLFDEN_DISCORD_TOKEN)")
}

// platforms are the platforms asked for, checked; none is no error.
func (f *chatFlags) platforms(changed func(string) bool, log *slog.Logger) ([]chat.Platform, error) {
	env := func(flag, name string, v *string) {
		if !changed(flag) {
			*v = os.Getenv(name)
		}
	}
	env("onebot-token", "WOLFDEN_ONEBOT_TOKEN", &f.onebotToken)
	env("telegram-token", "WOLFDEN_TELEGRAM_TOKEN", &f.telegram)
	env("discord-token", "WOLFDEN_DISCORD_TOKEN", &f.discord)
	var out []chat.Platform
	if f.onebot != "" || f.onebotReverse {
		p, err := onebot.New(onebot.Options{URL: f.onebot, Token: f.onebotToken, Reverse: f.onebotReverse, Log: log})
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	} else if changed("onebot-token") {
		return nil, errors.New("--onebot-token without --onebot URL or --onebot-reverse: say how wolfden meets the OneBot implementation")
	}
	if f.telegram != "" || changed("telegram-token") {
		p, err := telegram.New(telegram.Options{Token: f.telegram, Log: log})
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if f.discord != "" || changed("discord-token") {
		p, err := discord.New(discord.Options{Token: f.discord, Log: log})
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	for _, p := range out { // the names only: never a token
		log.Info("chat platform", "platform", p.Name())
	}
	return out, nil
}
