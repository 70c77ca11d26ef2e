// Package llm seats players that speak through an OpenAI-compatible
// chat-completions endpoint (bot level "llm", docs/bots.md). Such a player
// holds its seat as a connection does: it reads only the frames a person on
// that seat is sent, and acts only by the two requests a connection makes
// (act, chat). It chooses every action among the seat's legal choices, and
// its speech is checked against the public facts before it is said.
package llm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Level is the bot level of a seat played by a language model.
const Level = "llm"

// KeyEnv names the environment variable that holds the endpoint's key.
const KeyEnv = "WOLFDEN_LLM_KEY"

// Config is how to reach the model and how to ask it.
type Config struct {
	// URL is the endpoint's base, such as http://127.0.0.1:11434/v1; the
	// request goes to URL/chat/completions (a URL that already ends so is
	// taken as it is).
	URL   string
	Model string
	// Key, if set, is sent as a bearer token. It is never logged.
	Key string
	// Timeout bounds one call; a call is also cut short before the step's
	// own timer runs out. 0: 30 s.
	Timeout time.Duration
	// Temperature and the seat's seed are sent with every call, so that an
	// endpoint that honours them answers a prompt the same way each time.
	Temperature float64
	// MaxTokens bounds a reply (0: 600).
	MaxTokens int
	// JSONMode asks for {"response_format": {"type": "json_object"}}; not
	// every server takes it, and the reply is read leniently anyway.
	JSONMode bool
	// Lang is the language the model is asked to speak, and of the neutral
	// line said in place of an unfixable speech: en, zh-Hans or zh-Hant.
	Lang string
	// HTTP is the client calls go through (nil: a plain one).
	HTTP *http.Client
	// Usage, if set, counts the calls, their time and the tokens the
	// endpoint says they took (wolfden arena's figures per model).
	Usage *Usage
}

// Usage is what calls to a model cost, summed; safe for concurrent use.
type Usage struct {
	Calls            atomic.Int64
	PromptTokens     atomic.Int64 // as the answers' "usage" say: 0 from an endpoint that does not
	CompletionTokens atomic.Int64
	Nanos            atomic.Int64 // the calls' time, answered or not
}

// Check validates a configuration, naming the flag of what is wrong.
func (c *Config) Check() error {
	if c.URL == "" || c.Model == "" {
		return errors.New("llm: an endpoint needs both --llm-url and --llm-model")
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("llm: --llm-url %q is not an http:// or https:// URL", redactURL(c.URL))
	}
	if c.Timeout < 0 || c.MaxTokens < 0 || c.Temperature < 0 || c.Temperature > 2 {
		return errors.New("llm: --llm-timeout and --llm-max-tokens cannot be negative, --llm-temperature is 0 to 2")
	}
	switch c.Lang {
	case "", "en", "zh-Hans", "zh-Hant":
	default:
		return fmt.Errorf("llm: --llm-lang %q is not one of en, zh-Hans, zh-Hant", c.Lang)
	}
	return nil
}

// Endpoint is the URL calls are posted to, with any password hidden: what
// a log may show.
func (c *Config) Endpoint() string { return redactURL(c.endpoint()) }

func (c *Config) endpoint() string {
	u := strings.TrimRight(c.URL, "/")
	if strings.HasSuffix(u, "/chat/completions") {
		return u
	}
	return u + "/chat/completions"
}

func (c *Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return 30 * time.Second
	}
	return c.Timeout
}

func (c *Config) lang() string {
	if c.Lang == "" {
		return "en"
	}
	return c.Lang
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unreadable URL)"
	}
	return u.Redacted()
}

// Message is one message of a conversation.
type Message struct {
	Role    string `json:"role"` // system, user, assistant
	Content string `json:"content"`
}

type request struct {
	Model          string    `json:"model"`
	Messages       []Message `json:"messages"`
	Temperature    float64   `json:"temperature"`
	Seed           int64     `json:"seed"`
	MaxTokens      int       `json:"max_tokens"`
	Stream         bool      `json:"stream"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format,omitempty"`
}

type response struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
			// Reasoning some endpoints give apart (DeepSeek, vLLM, Ollama's
			// "thinking" models): kept as a <think> block before the
			// content, which the reply's reading leaves out.
			ReasoningContent string `json:"reasoning_content"`
			Reasoning        string `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// maxBody bounds what is read of an answer.
const maxBody = 1 << 20

// complete asks the endpoint for the next message of a conversation.
// Errors never hold the key, nor the endpoint's password.
func (c *Config) complete(ctx context.Context, msgs []Message, seed int64) (string, error) {
	req := request{Model: c.Model, Messages: msgs, Temperature: c.Temperature, Seed: seed, MaxTokens: c.MaxTokens}
	if req.MaxTokens == 0 {
		req.MaxTokens = 600
	}
	if c.JSONMode {
		req.ResponseFormat = &struct {
			Type string `json:"type"`
		}{"json_object"}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return "", err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", c.hide(err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.Key)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	if c.Usage != nil {
		c.Usage.Calls.Add(1)
		defer func(start time.Time) { c.Usage.Nanos.Add(int64(time.Since(start))) }(time.Now())
	}
	resp, err := hc.Do(hr)
	if err != nil {
		return "", c.hide(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return "", c.hide(err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", c.hide(fmt.Errorf("llm: the endpoint answered %d: %.200s", resp.StatusCode, bytes.TrimSpace(data)))
	}
	var out response
	if err := json.Unmarshal(data, &out); err != nil {
		return "", fmt.Errorf("llm: the endpoint's answer is not a chat completion: %v", err)
	}
	if c.Usage != nil {
		c.Usage.PromptTokens.Add(max(out.Usage.PromptTokens, 0))
		c.Usage.CompletionTokens.Add(max(out.Usage.CompletionTokens, 0))
	}
	if len(out.Choices) == 0 {
		return "", errors.New("llm: the endpoint's answer has no choices")
	}
	m := out.Choices[0].Message
	if r := cmp.Or(m.ReasoningContent, m.Reasoning); r != "" {
		return "<think>" + r + "</think>" + m.Content, nil
	}
	return m.Content, nil
}

// hide takes the key and the endpoint's password out of an error's text: an
// endpoint or a transport may echo what it was sent.
func (c *Config) hide(err error) error {
	msg := err.Error()
	if c.Key != "" {
		msg = strings.ReplaceAll(msg, c.Key, "[key]")
	}
	if u, perr := url.Parse(c.URL); perr == nil && u.User != nil {
		msg = strings.ReplaceAll(msg, c.URL, u.Redacted())
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	return errors.New(msg)
}
