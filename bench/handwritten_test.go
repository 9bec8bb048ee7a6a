package bench_test

import (
	"bytes"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/benchpayload"
)

// TestHandwrittenAnswersAsFingerprint checks that bench/handwritten, the
// reference that run.sh divides fingerprint's time by, does the same work:
// on every benchmark payload it writes exactly fingerprint's answer.
func TestHandwrittenAnswersAsFingerprint(t *testing.T) {
	fingerprint := hooktest.BuildGo(t, "../examples/fingerprint")
	handwritten := hooktest.BuildGo(t, "./handwritten")
	run := func(bin string, in []byte) []byte {
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		require.NoError(t, err, bin)
		return out
	}
	for _, p := range benchpayload.All() {
		want := run(fingerprint, p.Data)
		got := run(handwritten, p.Data)
		assert.Equal(t, string(want), string(got), p.Name)
	}
	assert.NotEmpty(t, run(handwritten, benchpayload.MCP()), "the MCP call gets an answer")
}
