package main

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/llm"
)

// llmFlags are serve's flags for the seats played by a language model
// (docs/bots.md, "LLM players").
type llmFlags struct {
	url, model, lang string
	timeout          time.Duration
	temperature      float64
	maxTokens        int
	jsonMode         bool
}

func (f *llmFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.url, "llm-url", "", "OpenAI-compatible endpoint for bot level llm, e.g. http://127.0.0.1:11434/v1 (env WOLFDEN_LLM_URL; key in env "+llm.KeyEnv+")")
	fs.StringVar(&f.model, "llm-model", "", "the model the llm bots ask (env WOLFDEN_LLM_MODEL)")
	fs.DurationVar(&f.timeout, "llm-timeout", 30*time.Second, "longest call to the model (a call also ends before its step's timer)")
	fs.Float64Var(&f.temperature, "llm-temperature", 0, "temperature sent with every call (0 to 2)")
	fs.IntVar(&f.maxTokens, "llm-max-tokens", 600, "longest reply, in tokens")
	fs.BoolVar(&f.jsonMode, "llm-json", false, `ask for {"response_format": {"type": "json_object"}} (if the server takes it)`)
	fs.StringVar(&f.lang, "llm-lang", "en", "language the llm bots speak: en, zh-Hans or zh-Hant")
}

// config is the endpoint, or nil when none was given.
func (f *llmFlags) config(changed func(string) bool) (*llm.Config, error) {
	if !changed("llm-url") {
		f.url = os.Getenv("WOLFDEN_LLM_URL")
	}
	if !changed("llm-model") {
		f.model = os.Getenv("WOLFDEN_LLM_MODEL")
	}
	if f.url == "" && f.model == "" {
		return nil, nil
	}
	c := &llm.Config{URL: f.url, Model: f.model, Key: os.Getenv(llm.KeyEnv), Timeout: f.timeout, Temperature: f.temperature,
		MaxTokens: f.maxTokens, JSONMode: f.jsonMode, Lang: f.lang}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return c, nil
}

// endpoint is the endpoint without a model, for wolfden arena, whose
// --players name the models (llm:MODEL); nil when no --llm-url was given.
func (f *llmFlags) endpoint(changed func(string) bool) (*llm.Config, error) {
	if !changed("llm-url") {
		f.url = os.Getenv("WOLFDEN_LLM_URL")
	}
	if f.url == "" {
		return nil, nil
	}
	c := &llm.Config{URL: f.url, Model: "-", Key: os.Getenv(llm.KeyEnv), Timeout: f.timeout, Temperature: f.temperature,
		MaxTokens: f.maxTokens, JSONMode: f.jsonMode, Lang: f.lang}
	if err := c.Check(); err != nil {
		return nil, err
	}
	c.Model = ""
	return c, nil
}
