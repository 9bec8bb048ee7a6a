package codextest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/codextest"
)

// TestCodexInAUserModule proves that a hook author's module can use codextest
// with its documented API alone: it makes a module of its own in a
// temporary folder, requiring this one through a replace line, with the
// small hook of testdata/usermodule and its test, and runs that test on
// the real Codex (offline: the module cache and go.sum have everything).
func TestCodexInAUserModule(t *testing.T) {
	codextest.Need(t)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	hookSrc, err := os.ReadFile(filepath.Join("testdata", "usermodule", "main.go"))
	require.NoError(t, err)
	testSrc, err := os.ReadFile(filepath.Join("testdata", "usermodule", "norm_test.go"))
	require.NoError(t, err)

	// The user's go.mod: this module's requirements, plus this module
	// itself through a replace line.
	mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(gomod, []byte("module example.com/norm"))
	mod = append(mod, []byte("\nrequire github.com/gohooks/hook v0.0.0-00010101000000-000000000000\n\nreplace github.com/gohooks/hook => "+strconv.Quote(root)+"\n")...)
	dir := t.TempDir()
	for name, b := range map[string][]byte{"go.mod": mod, "go.sum": gosum, "main.go": hookSrc, "norm_test.go": testSrc} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off", "HOOK_E2E_WORK=")
	out, err := cmd.CombinedOutput()
	t.Logf("the user module's go test:\n%s", out)
	require.NoError(t, err, "go test in the user module")
	assert.Regexp(t, `(?m)^--- PASS: TestNormDeniesRm `, string(out))
	assert.NotContains(t, string(out), "--- SKIP")
}
