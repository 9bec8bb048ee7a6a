package bench_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/benchpayload"
)

// TestReferencesAnswerAsFingerprint checks that the references run.sh
// divides fingerprint's time by do the same work: on every benchmark
// payload bench/handwritten and bench/echovalidate write exactly
// fingerprint's answer, and every MCP payload (the listen_here calls) gets
// an answer that echoes its tool_input with the fingerprint added.
func TestReferencesAnswerAsFingerprint(t *testing.T) {
	fingerprint := hooktest.BuildGo(t, "../examples/fingerprint")
	refs := map[string]string{
		"handwritten":  hooktest.BuildGo(t, "./handwritten"),
		"echovalidate": hooktest.BuildGo(t, "./echovalidate"),
	}
	run := func(bin string, in []byte) []byte {
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		require.NoError(t, err, bin)
		return out
	}
	sum := sha256.Sum256([]byte(benchpayload.Cwd))
	member := `,"fingerprint":"` + hex.EncodeToString(sum[:8]) + `"}`
	answered := 0
	for _, p := range benchpayload.All() {
		want := run(fingerprint, p.Data)
		for name, bin := range refs {
			got := run(bin, p.Data)
			// Not assert.Equal: its diff of two 7 MB answers is useless.
			assert.True(t, bytes.Equal(want, got), "%s on %s: %d bytes, fingerprint %d; first 200: %.200q, fingerprint's: %.200q",
				name, p.Name, len(got), len(want), got, want)
		}
		if !strings.HasPrefix(p.Name, "mcp-") {
			assert.Empty(t, want, "fingerprint answers only listen_here, not %s", p.Name)
			continue
		}
		answered++
		_, after, ok := bytes.Cut(p.Data, []byte(`"tool_input":`))
		require.True(t, ok, p.Name)
		input, _, ok := bytes.Cut(after, []byte(`},"tool_use_id"`))
		require.True(t, ok, p.Name)
		assert.True(t, bytes.Equal(want, []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":`+
			string(input)+member+"}}\n")), "%s: the answer is the tool_input with the fingerprint added; first 200 bytes: %.200q", p.Name, want)
	}
	assert.Equal(t, 3, answered, "the three MCP payloads are answered")
}
