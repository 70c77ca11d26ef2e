package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestChatFlagsBuildThePlatformsAndNeverLogATokens: each flag (or its
// environment variable) adds its platform; a bad URL or token is refused
// at start-up by name, and neither the log nor an error holds a token.
func TestChatFlagsBuildThePlatformsAndNeverLogATokens(t *testing.T) {
	const tgToken, dcToken, obToken = "123456:tg-secret", "dc-secret", "ob-secret"
	parse := func(args ...string) (*chatFlags, *cobra.Command) {
		var f chatFlags
		cmd := &cobra.Command{}
		f.add(cmd)
		if err := cmd.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		return &f, cmd
	}
	for _, v := range []string{"WOLFDEN_ONEBOT_TOKEN", "WOLFDEN_TELEGRAM_TOKEN", "WOLFDEN_DISCORD_TOKEN"} {
		t.Setenv(v, "")
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	f, cmd := parse()
	if ps, err := f.platforms(cmd.Flags().Changed, log); len(ps) != 0 || err != nil {
		t.Fatalf("no flag: %v %v", ps, err)
	}
	t.Setenv("WOLFDEN_TELEGRAM_TOKEN", tgToken)
	t.Setenv("WOLFDEN_DISCORD_TOKEN", dcToken)
	t.Setenv("WOLFDEN_ONEBOT_TOKEN", obToken)
	f, cmd = parse("--onebot", "ws://127.0.0.1:3001", "--onebot-reverse")
	ps, err := f.platforms(cmd.Flags().Changed, log)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name())
	}
	if strings.Join(names, ",") != "onebot,telegram,discord" {
		t.Errorf("platforms %v, want onebot, telegram and discord", names)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--onebot", "http://127.0.0.1:3001"}, "not a WebSocket URL"},
		{[]string{"--onebot", "ws://127.0.0.1:3001/?access_token=" + obToken}, ""}, // fine: the token is only redacted
		{[]string{"--telegram-token", "tg-secret-without-id"}, "not a bot token"},
		{[]string{"--discord-token", ""}, "no bot token"},
	} {
		f, cmd := parse(c.args...)
		_, err := f.platforms(cmd.Flags().Changed, log)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%v: %v, want an error naming %q without the token", c.args, err, c.want)
		}
	}
	t.Setenv("WOLFDEN_ONEBOT_TOKEN", "")
	f, cmd = parse("--onebot-reverse")
	if _, err := f.platforms(cmd.Flags().Changed, log); err == nil || !strings.Contains(err.Error(), "access token") {
		t.Errorf("reverse without a token: %v", err)
	}
	if strings.Contains(logs.String(), "secret") {
		t.Errorf("a token in the log:\n%s", logs.String())
	}
}
