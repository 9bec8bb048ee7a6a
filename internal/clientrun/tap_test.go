package clientrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunRecordsAndPassesThrough(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cap")
	in := "{\"hook_event_name\":\"PreToolUse\",\"x\":\"\\ud800 ü\"}\n"
	var out, errb bytes.Buffer
	code := Tap{Dir: dir, Label: "guard", Argv: []string{"sh", "-c", "cat; echo oops >&2; exit 2"}}.Run(strings.NewReader(in), &out, &errb)
	assert.Equal(t, 2, code)
	assert.Equal(t, in, out.String(), "stdout passed through")
	assert.Equal(t, "oops\n", errb.String(), "stderr passed through")
	for ext, want := range map[string]string{".in": in, ".out": in, ".err": "oops\n", ".label": "guard", ".code": "2"} {
		b, err := os.ReadFile(filepath.Join(dir, "1"+ext))
		require.NoError(t, err)
		assert.Equal(t, want, string(b), ext)
	}

	// The next invocation gets the next number; without a command it only
	// records.
	out.Reset()
	code = Tap{Dir: dir, Label: "record"}.Run(strings.NewReader("{}"), &out, &errb)
	assert.Equal(t, 0, code)
	assert.Empty(t, out.String())
	b, err := os.ReadFile(filepath.Join(dir, "2.in"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
}

func TestRunReportsAMissingCommand(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	code := Tap{Dir: dir, Label: "x", Argv: []string{"/nonexistent/hook"}}.Run(strings.NewReader("{}"), &out, &errb)
	assert.Equal(t, 1, code)
	assert.Contains(t, errb.String(), "hook recorder: could not start the hook:")
	recs, err := ReadRecords(dir)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, "x", recs[0].Label)
	assert.Equal(t, 1, recs[0].Code)
	assert.Contains(t, recs[0].SpawnErr, "/nonexistent/hook", "the spawn failure is recorded")
	assert.False(t, recs[0].Start.IsZero())
}
