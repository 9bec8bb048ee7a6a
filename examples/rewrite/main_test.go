package main

import (
	"bytes"
	"context"
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
	"github.com/gohooks/hook/internal/agent"
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

// codexBashCall returns a Codex 0.171.0 PreToolUse payload for its shell
// tool with the tool_input in.
func codexBashCall(in string) []byte {
	return []byte(`{"session_id":"019a8c2e-4b1f-7d30-9e21-5c6a7b8d9e0f","transcript_path":"/home/dev/.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-019a8c2e-4b1f-7d30-9e21-5c6a7b8d9e0f.jsonl","cwd":"/home/dev/acme-api","hook_event_name":"PreToolUse","turn_id":"019a8c2e-5000-7000-8000-000000000001","model":"gpt-5.1-codex","permission_mode":"default","tool_name":"Bash","tool_input":` + in + `,"tool_use_id":"call_Ab12Cd34"}`)
}

// TestRewriteTwiceUnderEveryAgent: the hook, called on a command and
// then on the command it wrote, answers under Claude Code and Codex, with
// and without failing closed, with what the agent accepts both times:
// the rewrite (beside an allow under Codex, without a decision under
// Claude Code), then nothing. Never a failure, never a block.
func TestRewriteTwiceUnderEveryAgent(t *testing.T) {
	for agentName, call := range map[string]func(string) []byte{"Claude Code": bashCall, "Codex": codexBashCall} {
		for how, srv := range map[string]*hook.Server{
			"plain":             {Handler: newHandler(onPath)},
			"Server.FailClosed": {Handler: newHandler(onPath), FailClosed: true},
			"hook.FailClosed":   {Handler: hook.FailClosed(newHandler(onPath))},
		} {
			t.Run(agentName+"/"+how, func(t *testing.T) {
				decision := ``
				if agentName == "Codex" {
					decision = `"permissionDecision":"allow",`
				}
				input := `{"command":"go test ./..."}`
				for i, want := range []string{
					`{"hookSpecificOutput":{"hookEventName":"PreToolUse",` + decision + `"updatedInput":{"command":"timeout 600 go test ./..."}}}` + "\n",
					"",
				} {
					var stdout, stderr bytes.Buffer
					code := srv.Serve(context.Background(), bytes.NewReader(call(input)), &stdout, &stderr)
					require.Equal(t, hook.ExitOK, code, "call %d: %s", i+1, stderr.String())
					assert.Empty(t, stderr.String(), "call %d", i+1)
					assert.Equal(t, want, stdout.String(), "call %d", i+1)
					if agentName == "Codex" {
						assert.NoError(t, agent.CheckCodexAnswer(hook.EventPreToolUse, stdout.Bytes()), "call %d", i+1)
					}
					input = `{"command":"timeout 600 go test ./..."}`
				}
			})
		}
	}
}
