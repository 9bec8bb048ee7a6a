package claudetest_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/internal/testutil"
)

// TestAUserModule proves that a hook author's module can use claudetest
// with its documented API alone: it makes a module of its own with the
// small hook of testdata/usermodule and its test, and runs that test on
// the real client (see testutil.GoTestUserModule).
func TestAUserModule(t *testing.T) {
	claudetest.Need(t)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	out, err := testutil.GoTestUserModule(t, root, map[string]string{
		"main.go":      filepath.Join("testdata", "usermodule", "main.go"),
		"norm_test.go": filepath.Join("testdata", "usermodule", "norm_test.go"),
	})
	require.NoError(t, err, "go test in the user module")
	assert.Regexp(t, `(?m)^--- PASS: TestNormDeniesRm `, out)
	assert.NotContains(t, out, "--- SKIP")
}
