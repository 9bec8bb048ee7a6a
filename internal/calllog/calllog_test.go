package calllog

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendThenRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	at := time.Date(2026, 12, 4, 18, 40, 12, 123456789, time.UTC)
	require.NoError(t, Append(path, &Line{Time: at, PID: 7, Event: "Stop", Agent: "claude-code", Answer: "none", DurationMS: 1.5}))
	require.NoError(t, Append(path, &Line{Time: at, PID: 8, Event: "PreToolUse", Tool: "Bash", Agent: "codex", Answer: "error", Exit: 1, Error: "hook: bad \xff byte", At: "main.f main.go:3"}))
	lines, err := ReadFile(path)
	require.NoError(t, err)
	require.Len(t, lines, 2)
	assert.Equal(t, at, lines[0].Time)
	assert.Equal(t, "Stop", lines[0].Event)
	assert.Equal(t, 1.5, lines[0].DurationMS)
	assert.Equal(t, "Bash", lines[1].Tool)
	assert.Equal(t, "hook: bad \ufffd byte", lines[1].Error, "invalid UTF-8 is written as U+FFFD: every line is valid JSON")
	assert.Equal(t, "main.f main.go:3", lines[1].At)
}

func TestReadIsLenientForwardAndStrictOnGarbage(t *testing.T) {
	lines, err := Read(strings.NewReader("\n" + `{"time":"2026-12-04T18:40:12Z","pid":1,"event":"Stop","agent":"claude-code","answer":"none","exit":0,"duration_ms":0.1,"added_later":{"x":1}}` + "\n\n"))
	require.NoError(t, err)
	require.Len(t, lines, 1)
	assert.Equal(t, "Stop", lines[0].Event)

	lines, err = Read(strings.NewReader(`{"event":"Stop","answer":"none"}` + "\n" + `{"event":"Sto`))
	assert.ErrorContains(t, err, "call log line 2")
	assert.Len(t, lines, 1, "the lines before a bad one are returned")
}
