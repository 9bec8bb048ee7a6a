package claudetest

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
	code := tap(dir, "guard", []string{"sh", "-c", "cat; echo oops >&2; exit 2"}, strings.NewReader(in), &out, &errb)
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
	code = tap(dir, "record", nil, strings.NewReader("{}"), &out, &errb)
	assert.Equal(t, 0, code)
	assert.Empty(t, out.String())
	b, err := os.ReadFile(filepath.Join(dir, "2.in"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
}

func TestRunReportsAMissingCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := tap(t.TempDir(), "x", []string{"/nonexistent/hook"}, strings.NewReader("{}"), &out, &errb)
	assert.Equal(t, 1, code)
	assert.Contains(t, errb.String(), "claudetest hooktap:")
}
