package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/stoprules"
	"github.com/gohooks/hook/hooktest"
)

// project returns a project folder, with the marker holding note unless
// note is nil, and points $CLAUDE_PROJECT_DIR at it.
func project(t *testing.T, note *string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", dir)
	if note != nil {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, ".claude"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, Marker), []byte(*note), 0o644))
	}
	return dir
}

func stop(t *testing.T, active bool) *hooktest.Recorder {
	t.Helper()
	p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "stop_hook_active", active)
	rec := hooktest.Record(Handler(), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code, "stderr %s", rec.Stderr)
	return rec
}

func ptr(s string) *string { return &s }

func TestBlocksWhileTheMarkerSaysUnfinished(t *testing.T) {
	dir := project(t, ptr("- run the integration tests\n- update CHANGELOG.md\n"))
	rec := stop(t, false)
	assert.Equal(t, "block", rec.Decision)
	marker := filepath.Join(dir, ".claude", "unfinished")
	assert.Equal(t, "stopguard: the work is not finished yet: "+marker+" is still there. It says what is left:\n- run the integration tests\n- update CHANGELOG.md\n\nFinish it, then delete "+marker+". If something cannot be done, say why and delete the file.", rec.Reason)
}

func TestEmptyMarkerStillBlocks(t *testing.T) {
	dir := project(t, ptr(""))
	rec := stop(t, false)
	assert.Equal(t, "block", rec.Decision)
	marker := filepath.Join(dir, ".claude", "unfinished")
	assert.Equal(t, "stopguard: the work is not finished yet: "+marker+" is still there. Finish it, then delete "+marker+". If something cannot be done, say why and delete the file.", rec.Reason)
}

func TestNeverLoops(t *testing.T) {
	dir := project(t, ptr("- everything"))
	rec := stop(t, true)
	assert.Empty(t, rec.Decision, "stop_hook_active: Claude may stop")
	assert.Equal(t, `{"systemMessage":"stopguard: Claude stopped although `+filepath.Join(dir, ".claude", "unfinished")+` says the work is unfinished."}`+"\n", string(rec.Stdout))
}

func TestNoMarkerNoAnswer(t *testing.T) {
	project(t, nil)
	for _, active := range []bool{false, true} {
		rec := stop(t, active)
		assert.Empty(t, rec.Stdout)
	}
}

func TestFallsBackToTheSessionFolder(t *testing.T) {
	dir := project(t, ptr("- one more thing"))
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "cwd", dir)
	rec := hooktest.Record(Handler(), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Contains(t, rec.Reason, "- one more thing")
}

func TestLongNotesAreCut(t *testing.T) {
	project(t, ptr(strings.Repeat("ü", 3000)))
	rec := stop(t, false)
	assert.Equal(t, "block", rec.Decision)
	assert.Contains(t, rec.Reason, "\n… (cut)\n")
	assert.Less(t, len(rec.Reason), stoprules.MaxNote+400)
}

func TestUnreadableMarkerIsAnError(t *testing.T) {
	dir := project(t, nil)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, Marker), 0o755)) // a folder, not a file
	rec := hooktest.Record(Handler(), hooktest.NewEvent(hook.EventStop))
	assert.Equal(t, hook.ExitError, rec.Code, "a non-blocking error: Claude may stop")
	assert.Contains(t, string(rec.Stderr), "stopguard:")
}
