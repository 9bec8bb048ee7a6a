package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// GoTestUserModule proves that a hook author's module can use this one
// with its documented API alone: it makes a module of its own
// (example.com/norm) in a temporary folder, requiring this module (the
// folder root) through a replace line, with this module's requirements
// and go.sum and the files given (name: path of its content), and runs go
// test -v there offline (the module cache and go.sum have everything). It
// returns go test's output and error; the caller checks which tests
// passed.
func GoTestUserModule(t testing.TB, root string, files map[string]string) (string, error) {
	t.Helper()
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// The user's go.mod: this module's requirements, plus this module
	// itself through a replace line.
	mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(gomod, []byte("module example.com/norm"))
	mod = append(mod, []byte("\nrequire github.com/gohooks/hook v0.0.0-00010101000000-000000000000\n\nreplace github.com/gohooks/hook => "+strconv.Quote(root)+"\n")...)
	dir := t.TempDir()
	content := map[string][]byte{"go.mod": mod, "go.sum": gosum}
	for name, src := range files {
		if content[name], err = os.ReadFile(src); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range content {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off", "HOOK_E2E_WORK=")
	out, err := cmd.CombinedOutput()
	t.Logf("the user module's go test:\n%s", out)
	return string(out), err
}
