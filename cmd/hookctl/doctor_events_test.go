package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
)

// TestEveryEventInstallsListsAndPassesDoctor: install takes a hook for
// each event of the protocol table (Interrupt, the newest, too), list
// shows each, and doctor calls none of them unknown.
func TestEveryEventInstallsListsAndPassesDoctor(t *testing.T) {
	e := newEnv(t)
	onSystem(t, "linux")
	prog := write(t, filepath.Join(e.project, "bin", "h"), "#!/bin/sh\n", 0o755)
	for _, ev := range protocol.Names() {
		_, errOut, code := e.run("install", "-event", ev, "--", prog)
		require.Equal(t, 0, code, "%s: %s", ev, errOut)
	}
	out, errOut, code := e.run("list", "-json")
	require.Equal(t, 0, code, errOut)
	var listed []struct {
		Event string `json:"event"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &listed), out)
	var events []string
	for _, l := range listed {
		events = append(events, l.Event)
	}
	assert.ElementsMatch(t, protocol.Names(), events)
	assert.Contains(t, events, "Interrupt")

	out, errOut, code = e.run("doctor", "-json")
	var got []finding
	require.NoError(t, json.Unmarshal([]byte(out), &got), out+errOut)
	for _, f := range got {
		assert.NotContains(t, f.Msg, "unknown event", "%+v", f)
		assert.NotEqual(t, sevError, f.Severity, "%+v", f)
	}
	assert.Equal(t, 0, code, out+errOut)
}

// TestDoctorInterruptMatcher: Interrupt's matcher is tested against its
// source, so a list of sources is fine, and a misspelt event name is
// answered with the right spelling and the table's count of events.
func TestDoctorInterruptMatcher(t *testing.T) {
	e := newEnv(t)
	onSystem(t, "linux")
	prog := write(t, filepath.Join(e.project, "bin", "h"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {
  "Interrupt": [{"matcher": "user|system", "hooks": [{"type": "command", "command": `+quote(prog)+`}]}],
  "interrupt": [{"hooks": [{"type": "command", "command": `+quote(prog)+`}]}],
  "Interupt": [{"hooks": [{"type": "command", "command": `+quote(prog)+`}]}]
}}`, 0o644)
	out, errOut, code := e.run("doctor", "-json")
	assert.Equal(t, 1, code, errOut)
	var got []finding
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	var unknown []finding
	for _, f := range got {
		if strings.Contains(f.Msg, "unknown event") {
			unknown = append(unknown, f)
		}
		assert.NotContains(t, f.Msg, `"Interrupt"`, "%+v", f)
	}
	require.Len(t, unknown, 2, "%+v", got)
	assert.Contains(t, unknown[0].Msg, `"interrupt"`)
	assert.Equal(t, `write "Interrupt" (event names are case-sensitive)`, unknown[0].Fix)
	assert.Contains(t, unknown[1].Msg, `"Interupt"`)
	assert.Equal(t, fmt.Sprintf("use one of the %d events of Claude Code %s (PreToolUse, PostToolUse, Stop, ...)", len(protocol.Events), protocol.ClaudeCode), unknown[1].Fix)
}

// TestDoctorMatcherValues: on the events whose matcher is tested against
// a closed set of values (Interrupt's source, SessionStart's source, …),
// doctor names the values a matcher matches, and warns when it matches
// none, since such a hook never runs; a regular expression is read as
// Claude Code reads it.
func TestDoctorMatcherValues(t *testing.T) {
	e := newEnv(t)
	onSystem(t, "linux")
	prog := write(t, filepath.Join(e.project, "bin", "h"), "#!/bin/sh\n", 0o755)
	entry := func(matcher string) string {
		return `[{"matcher": ` + quote(matcher) + `, "hooks": [{"type": "command", "command": ` + quote(prog) + `}]}]`
	}
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {
  "Interrupt": `+entry("usr")+`,
  "SessionStart": `+entry("startup, resume")+`,
  "PreCompact": `+entry("^(man|aut)")+`,
  "SessionEnd": `+entry("Logout")+`,
  "StopFailure": `+entry("*")+`
}}`, 0o644)
	out, errOut, code := e.run("doctor", "-json")
	assert.Equal(t, 0, code, errOut)
	var got []finding
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	msgs := map[string]finding{}
	for _, f := range got {
		msgs[f.Msg] = f
	}
	w, ok := msgs[`matcher "usr" matches none of the values of source that Claude Code sends on Interrupt (user, session, system): the hook never runs`]
	if assert.True(t, ok, "%+v", got) {
		assert.Equal(t, sevWarning, w.Severity)
		assert.Equal(t, `write one of them, such as "user" (values are case-sensitive)`, w.Fix)
	}
	assert.Contains(t, msgs, `matcher "startup, resume" matches source startup, resume`)
	assert.Contains(t, msgs, `matcher "^(man|aut)" matches trigger manual, auto`)
	assert.Contains(t, msgs, `matcher "Logout" matches none of the values of reason that Claude Code sends on SessionEnd (clear, resume, logout, prompt_input_exit, other): the hook never runs`)
	for m := range msgs {
		assert.NotContains(t, m, `"*"`, "a matcher of everything gets no note")
	}
}
