package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gohooks/hook"
)

// Claude Code's default timeouts of a command hook (the project's
// wire-format reference, §1.1): what a hook registered without a
// "timeout" gets before Claude Code kills it and takes no decision.
const (
	// defaultHookTimeout is the default of most events: 600 s.
	defaultHookTimeout = 600 * time.Second
	// sessionEndTimeout is the budget of all SessionEnd hooks together,
	// unless a settings file gives one of them a longer timeout (up to
	// 60 s).
	sessionEndTimeout = 1500 * time.Millisecond
)

// eventTimeouts are the events whose default differs from
// defaultHookTimeout.
var eventTimeouts = map[string]time.Duration{
	hook.EventUserPromptSubmit: 30 * time.Second,
	hook.EventMessageDisplay:   10 * time.Second,
	hook.EventPreModelSwitch:   30 * time.Second,
	hook.EventPostModelSwitch:  30 * time.Second,
	hook.EventSessionEnd:       sessionEndTimeout,
}

// claudeTimeout returns Claude Code's default timeout of a command hook
// registered for event.
func claudeTimeout(event string) time.Duration {
	if d, ok := eventTimeouts[event]; ok {
		return d
	}
	return defaultHookTimeout
}

// timeoutFlag is -timeout: the hook's timeout as settings.json gives it,
// a number of seconds ("30", "1.5"), or a Go duration ("90s", "2m"). Zero
// means Claude Code's default for each event.
type timeoutFlag struct{ d *time.Duration }

func (f timeoutFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return ""
	}
	return f.d.String()
}

func (f timeoutFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if !(secs > 0) || secs > (1<<63-1)/float64(time.Second) {
			return fmt.Errorf("%s is not a positive number of seconds", s)
		}
		*f.d = time.Duration(secs * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is neither seconds (as settings.json's timeout: 30) nor a duration (90s, 2m)", s)
	}
	if d <= 0 {
		return fmt.Errorf("%v is not positive", d)
	}
	*f.d = d
	return nil
}

// limitOf returns the time limit of a run on a payload of event: -timeout
// when given, else the agent's default for the event (Codex's: 600 s, the
// default its documentation gives for most hooks).
func (cfg *config) limitOf(event string) time.Duration {
	if cfg.timeout > 0 {
		return cfg.timeout
	}
	if cfg.codex {
		return defaultHookTimeout
	}
	return claudeTimeout(event)
}

// describeLimit says what the limit of a run on event is, for a timeout
// finding: "the 30s limit given with -timeout" or "Claude Code's default
// timeout of UserPromptSubmit hooks, 30s".
func describeLimit(limit time.Duration, given bool, event, agent string) string {
	if given {
		return fmt.Sprintf("the %s limit given with -timeout", seconds(limit))
	}
	what := fmt.Sprintf("%s's default timeout of a %s hook, %s", agent, event, seconds(limit))
	if event == hook.EventSessionEnd && agent == claudeCode {
		what += " (the budget of all SessionEnd hooks; a timeout in settings.json raises it to at most 60s)"
	}
	return what
}

// seconds writes d in seconds, as settings.json's timeout counts: "600s",
// "1.5s", "0.3s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}
