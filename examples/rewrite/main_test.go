package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/timeout"
	"github.com/gohooks/hook/hooktest"
)

// onPath is a fake $PATH: these programs exist, nothing else does.
func onPath(name string) (string, error) {
	switch name {
	case "go", "make", "npm", "ls", "tail", "grep", "sleep", "echo", "sh", "git", "cat":
		return "/usr/bin/" + name, nil
	}
	return "", errors.New("not found")
}

func TestBound(t *testing.T) {
	rewritten := map[string]string{
		"go test ./...":                         "timeout 600 go test ./...",
		"  go test ./...":                       "  timeout 600 go test ./...",
		"go test ./...\n":                       "timeout 600 go test ./...\n",
		"FOO=1 BAR='a b' go test":               "FOO=1 BAR='a b' timeout 600 go test",
		"go test ./... 2>&1 | tail -20":         "timeout 600 go test ./... 2>&1 | tail -20",
		"make -j4 |& grep -v warning":           "timeout 600 make -j4 |& grep -v warning",
		">build.log make":                       ">build.log timeout 600 make",
		"/opt/tools/bin/lint --all":             "timeout 600 /opt/tools/bin/lint --all",
		"./scripts/build.sh":                    "timeout 600 ./scripts/build.sh",
		"go test \\\n  ./...":                   "timeout 600 go test \\\n  ./...",
		`echo "a && b; c" | cat`:                `timeout 600 echo "a && b; c" | cat`,
		"ls $(git rev-parse --show-toplevel)":   "timeout 600 ls $(git rev-parse --show-toplevel)",
		"grep -r 'TODO' . # find the leftovers": "timeout 600 grep -r 'TODO' . # find the leftovers",
		"sleep 5 # 'quoted' \"comment\"":        "timeout 600 sleep 5 # 'quoted' \"comment\"",
		"npm test -- --runInBand":               "timeout 600 npm test -- --runInBand",
		"sh -c 'make && make test'":             "timeout 600 sh -c 'make && make test'",
	}
	for in, want := range rewritten {
		got, ok := timeout.Bound(in, onPath)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
		// Never twice.
		again, ok := timeout.Bound(got, onPath)
		assert.False(t, ok, "prefixed twice: %q", got)
		assert.Equal(t, got, again)
	}
	unchanged := []string{
		"timeout 30 make",
		"/usr/bin/timeout 5m go test",
		"FOO=1 timeout 10 make",
		"cd sub && make",
		"make; make test",
		"make || echo failed",
		"sleep 60 &",
		"(cd sub; make)",
		"{ make; }",
		"if true; then make; fi",
		"for f in *.go; do gofmt -l $f; done",
		"cd /tmp",
		"export FOO=1",
		"source .venv/bin/activate",
		". ./env.sh",
		"FOO=1",
		">empty.txt",
		"ll -a",             // an alias: not on PATH
		"my_function arg",   // a shell function
		"$EDITOR README.md", // unknown program
		"*.sh",
		"echo 'unterminated",
		"",
		"   ",
		"# only a comment",
	}
	for _, in := range unchanged {
		got, ok := timeout.Bound(in, onPath)
		assert.False(t, ok, in)
		assert.Equal(t, in, got, in)
	}
}

// bashCall returns a PreToolUse payload for a Bash call whose tool_input
// is the exact text in.
func bashCall(in string) []byte { return hooktest.NewPreToolUse(hook.ToolBash, in) }

func TestRewriteKeepsEveryOtherMember(t *testing.T) {
	in := `{"command":"go test ./...","description":"Run \"unit\" tests \u2014 K\u00f6ln\tnight \ud800","timeout":120000,"run_in_background":false,"dangerouslyDisableSandbox":false,"future_member":{"z":[1,2.50,12345678901234567890]}}`
	rec := hooktest.Record(newHandler(onPath), bashCall(in))
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code)
	assert.Empty(t, rec.PermissionDecision, "a rewrite makes no permission decision")
	want := `{"command":"timeout 600 go test ./...","description":"Run \"unit\" tests \u2014 K\u00f6ln\tnight \ud800","timeout":120000,"run_in_background":false,"dangerouslyDisableSandbox":false,"future_member":{"z":[1,2.50,12345678901234567890]}}`
	assert.Equal(t, want, string(rec.UpdatedInput), "byte for byte")
	assert.NoError(t, hooktest.CheckPreserved(jsontext.Value(in), rec.UpdatedInput, "command"))
}

func TestNoAnswerWhenNothingChanges(t *testing.T) {
	for _, in := range []string{
		`{"command":"timeout 60 go test ./...","description":"x"}`,
		`{"command":"cd sub && make","description":"x"}`,
		`{"command":"go test ./...","run_in_background":true}`,
	} {
		rec := hooktest.Record(newHandler(onPath), bashCall(in))
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code, in)
		assert.Empty(t, rec.Stdout, in)
	}
	rec := hooktest.Record(newHandler(onPath), hooktest.NewPreToolUse(hook.ToolWrite, `{"file_path":"/tmp/x","content":"go test"}`))
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.Stdout)
}

func TestCommandWithTrickyText(t *testing.T) {
	for _, tv := range hooktest.TrickyValues() {
		var s string
		if json.Unmarshal(tv.JSON, &s, jsontext.AllowInvalidUTF8(true)) != nil {
			continue
		}
		// A command whose argument is the tricky string, quoted for sh.
		cmd := "echo " + shellQuote(s)
		in, err := json.Marshal(map[string]string{"command": cmd, "description": s}, json.Deterministic(true), jsontext.AllowInvalidUTF8(true))
		require.NoError(t, err)
		rec := hooktest.Record(newHandler(onPath), bashCall(string(in)))
		require.NoError(t, rec.Err(), tv.Name)
		require.NotNil(t, rec.UpdatedInput, tv.Name)
		got, ok := hooktest.Field(rec.UpdatedInput, "command")
		require.True(t, ok)
		var gotCmd string
		require.NoError(t, json.Unmarshal(got, &gotCmd, jsontext.AllowInvalidUTF8(true)))
		assert.Equal(t, timeout.Prefix+cmd, gotCmd, tv.Name)
		assert.NoError(t, hooktest.CheckPreserved(jsontext.Value(in), rec.UpdatedInput, "command"), tv.Name)
	}
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func TestPropertyKeepsMembers(t *testing.T) {
	// Tricky values in place of and next to every member of every
	// fixture: the update changes "command" only.
	rep := hooktest.CheckHandler(t, newHandler(onPath), &hooktest.Options{Changes: []string{"command"}})
	assert.Greater(t, rep.Updates, 10)
}

func TestExampleFile(t *testing.T) {
	b, err := os.ReadFile("testdata/go-test.json")
	require.NoError(t, err)
	rec := hooktest.Record(newHandler(onPath), b)
	require.NoError(t, rec.Err())
	cmd, ok := hooktest.Field(rec.UpdatedInput, "command")
	require.True(t, ok)
	assert.Equal(t, `"CGO_ENABLED=0 timeout 600 go test ./... 2>&1 | tail -20"`, string(cmd))
	in, ok := hooktest.Field(jsontext.Value(b), "tool_input")
	require.True(t, ok)
	assert.NoError(t, hooktest.CheckPreserved(in, rec.UpdatedInput, "command"))
}
