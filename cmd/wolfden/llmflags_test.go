package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestLLMFlagsTakeTheKeyFromTheEnvironment: the endpoint comes from the
// flags or their environment variables, the key only from WOLFDEN_LLM_KEY;
// no endpoint is no config, and a half-given or bad one is refused by name.
func TestLLMFlagsTakeTheKeyFromTheEnvironment(t *testing.T) {
	parse := func(args ...string) (*llmFlags, *cobra.Command) {
		var f llmFlags
		cmd := &cobra.Command{}
		f.add(cmd)
		if err := cmd.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		return &f, cmd
	}
	t.Setenv("WOLFDEN_LLM_KEY", "sk-secret")
	t.Setenv("WOLFDEN_LLM_URL", "")
	t.Setenv("WOLFDEN_LLM_MODEL", "")
	f, cmd := parse()
	if c, err := f.config(cmd.Flags().Changed); c != nil || err != nil {
		t.Fatalf("no endpoint: %v %v", c, err)
	}
	f, cmd = parse("--llm-url", "http://u:p@127.0.0.1:1/v1", "--llm-model", "qwen", "--llm-lang", "zh-Hans")
	c, err := f.config(cmd.Flags().Changed)
	if err != nil || c.Key != "sk-secret" || c.Model != "qwen" || c.Lang != "zh-Hans" {
		t.Fatalf("%+v %v", c, err)
	}
	if e := c.Endpoint(); strings.Contains(e, ":p@") || !strings.HasSuffix(e, "/v1/chat/completions") {
		t.Fatalf("the endpoint as logged: %s", e)
	}
	t.Setenv("WOLFDEN_LLM_URL", "http://127.0.0.1:1/v1")
	t.Setenv("WOLFDEN_LLM_MODEL", "llama")
	f, cmd = parse()
	if c, err := f.config(cmd.Flags().Changed); err != nil || c.Model != "llama" {
		t.Fatalf("from the environment: %+v %v", c, err)
	}
	for _, args := range [][]string{{"--llm-url", "http://x/v1", "--llm-model", ""}, {"--llm-url", "x", "--llm-model", "m"},
		{"--llm-url", "http://x/v1", "--llm-model", "m", "--llm-lang", "fr"}, {"--llm-url", "http://x/v1", "--llm-model", "m", "--llm-temperature", "3"}} {
		t.Setenv("WOLFDEN_LLM_MODEL", "")
		f, cmd = parse(args...)
		if _, err := f.config(cmd.Flags().Changed); err == nil || !strings.Contains(err.Error(), "--llm-") {
			t.Errorf("%v: %v", args, err)
		}
	}
}
