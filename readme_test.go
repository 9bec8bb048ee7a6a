package hook_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needGo skips t where no Go toolchain runs (under Wine, the go command
// is a stand-in that only copies prebuilt hooks).
func needGo(t *testing.T) {
	t.Helper()
	if out, err := exec.Command("go", "version").CombinedOutput(); err != nil {
		t.Skipf("no go toolchain here (go version: %v %s)", err, bytes.TrimSpace(out))
	}
}

// readmeBlocks returns the fenced code blocks of README.md with the
// given language, in order.
func readmeBlocks(t *testing.T, lang string) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	re := regexp.MustCompile("(?ms)^```" + regexp.QuoteMeta(lang) + "\n(.*?)^```$")
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestReadmeHookAndTestsPass puts the README's whole hook and the tests
// it shows next to it into a module of their own, with a replace line to
// this repository, and runs go vet and go test there: the README's code
// compiles and its tests pass on its hook. (The claudetest test skips
// without HOOK_E2E=1, as the README says; it is compiled and vetted.)
func TestReadmeHookAndTestsPass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own: skipped with -short")
	}
	needGo(t)
	blocks := readmeBlocks(t, "go")
	var hookSrc, testSnippets []string
	for _, b := range blocks {
		switch {
		case strings.HasPrefix(b, "package main\n") && strings.Contains(b, "func main()"):
			hookSrc = append(hookSrc, b)
		case strings.HasPrefix(b, "func Test"):
			testSnippets = append(testSnippets, b)
		}
	}
	require.Len(t, hookSrc, 1, "the README shows one whole hook")
	require.Len(t, testSnippets, 2, "the README shows the hooktest and the claudetest test of that hook")

	root, err := filepath.Abs(".")
	require.NoError(t, err)
	goMod, err := os.ReadFile("go.mod")
	require.NoError(t, err)
	goSum, err := os.ReadFile("go.sum")
	require.NoError(t, err)
	requires := regexp.MustCompile(`(?m)^\t(\S+ v\S+)`).FindAllStringSubmatch(string(goMod), -1)

	dir := t.TempDir()
	var mod strings.Builder
	mod.WriteString("module example.com/myhook\n\ngo 1.26\n\nrequire github.com/gohooks/hook v0.0.0-00010101000000-000000000000\n\nrequire (\n")
	for _, r := range requires {
		mod.WriteString("\t" + r[1] + " // indirect\n")
	}
	mod.WriteString(")\n\nreplace github.com/gohooks/hook => " + filepath.ToSlash(root) + "\n")
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("go.mod", mod.String())
	write("go.sum", string(goSum))
	write("main.go", hookSrc[0])
	write("main_test.go", `package main

import (
	"os"
	"strings"
	"testing"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
)

`+strings.Join(testSnippets, "\n"))

	run := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "HOOK_E2E=")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s in a module holding the README's hook and tests:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	run("vet", ".")
	out := run("test", "-count=1", "-v", ".")
	assert.Contains(t, out, "--- PASS: TestHook")
	assert.Contains(t, out, "--- SKIP: TestRealClaudeCode")
}

// TestReadmeFirstCommands checks the README's first screen: it gives
// exactly two commands, one that runs an example hook on a bundled
// payload and one that runs the tests, and the first prints the answer
// the README shows.
func TestReadmeFirstCommands(t *testing.T) {
	sh := readmeBlocks(t, "sh")
	require.NotEmpty(t, sh)
	lines := strings.Split(strings.TrimSpace(sh[0]), "\n")
	require.Equal(t, []string{"go run ./examples/fingerprint < examples/fingerprint/testdata/listen_here.json", "go test ./..."}, lines)
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	// The answer block right after the commands.
	m := regexp.MustCompile("(?s)```sh\n" + regexp.QuoteMeta(sh[0]) + "```.*?```\n(\\{.*?\\})\n```").FindSubmatch(b)
	require.NotNil(t, m, "the README shows the first command's answer")
	if testing.Short() {
		return
	}
	needGo(t)
	payload, err := os.Open(filepath.FromSlash("examples/fingerprint/testdata/listen_here.json"))
	require.NoError(t, err)
	defer payload.Close()
	cmd := exec.Command("go", "run", "./examples/fingerprint")
	cmd.Stdin = payload
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, string(m[1])+"\n", string(out))
}
