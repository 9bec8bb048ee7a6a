package codextest_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/codextest"
	"github.com/gohooks/hook/internal/testutil"
)

// TestCodexInAUserModule proves that a hook author's module can use
// codextest with its documented API alone: it makes a module of its own
// with the small hook claudetest's TestAUserModule builds
// (claudetest/testdata/usermodule/main.go) and the test of
// testdata/usermodule, and runs that test on the real Codex (see
// testutil.GoTestUserModule).
func TestCodexInAUserModule(t *testing.T) {
	codextest.Need(t)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	out, err := testutil.GoTestUserModule(t, root, map[string]string{
		"main.go":      filepath.Join(root, "claudetest", "testdata", "usermodule", "main.go"),
		"norm_test.go": filepath.Join("testdata", "usermodule", "norm_test.go"),
	})
	require.NoError(t, err, "go test in the user module")
	assert.Regexp(t, `(?m)^--- PASS: TestNormDeniesRm `, out)
	assert.NotContains(t, out, "--- SKIP")
}
