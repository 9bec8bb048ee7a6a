package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/calllog"
)

// TestCallLogOffIsFree: with no log, the invocation keeps no state and
// allocates nothing for it.
func TestCallLogOffIsFree(t *testing.T) {
	t.Setenv(CallLogEnv, "")
	s := &Server{}
	assert.Nil(t, s.callLog())
	if runtime.GOOS == "windows" {
		// Windows's GetEnvironmentVariable is called on each lookup and
		// allocates its UTF-16 buffers; Unix reads the environment in
		// place. Nothing else is allocated: the check below holds there.
		return
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		l := s.callLog()
		l.done(outcome{}, 0, nil)
	}))
}

// TestCallLogRun checks the process path, Server.Run's body, for a
// handler that panics: one line, exit 1, where it panicked.
func TestCallLogRun(t *testing.T) {
	t.Setenv(CallLogEnv, "")
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	s := &Server{CallLog: log, Handler: HandlerFunc(func(context.Context, *Event) (Output, error) { panic("boom") })}
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/","hook_event_name":"Stop"}`
	var stdout, stderr bytes.Buffer
	exited := -1
	code := s.run(strings.NewReader(in), &stdout, &stderr, func(c int) { exited = c })
	assert.Equal(t, ExitError, code)
	assert.Equal(t, -1, exited, "the panic path returns its code")
	lines, err := calllog.ReadFile(log)
	require.NoError(t, err)
	require.Len(t, lines, 1)
	assert.Equal(t, "Stop", lines[0].Event)
	assert.Equal(t, "error", lines[0].Answer)
	assert.Contains(t, lines[0].At, "calllog_internal_test.go:")
	assert.Contains(t, lines[0].Error, "boom")
	_, err = os.Stat(log)
	require.NoError(t, err)
}
