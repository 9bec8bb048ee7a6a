package hooktest_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// needs skips the test when the interpreter name is not installed: the
// hooks it runs are written for it.
func needs(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
}

// rules returns "<rule> at <pointer>: <detail>" for each problem of r.
func problems(t *testing.T, r *hooktest.Recorder) []*hooktest.Violation {
	t.Helper()
	var out []*hooktest.Violation
	for _, p := range r.Problems {
		var v *hooktest.Violation
		require.True(t, errors.As(p, &v), "%v", p)
		out = append(out, v)
	}
	return out
}

func run(t *testing.T, payload []byte, name string, args ...string) *hooktest.Recorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := (&hooktest.Command{Path: name, Args: args}).Run(ctx, payload)
	require.NoError(t, err)
	return r
}

// seedPayload is the recorded PreToolUse call of the seed case.
func seedPayload() []byte {
	return hooktest.Payload("captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1")
}

func TestKnownBadPartialAnswer(t *testing.T) {
	needs(t, "bash")
	r := run(t, seedPayload(), "testdata/partial.sh")
	assert.Equal(t, 0, r.Code)
	assert.Equal(t, `{"fingerprint":"0123456789abcdef"}`, string(r.UpdatedInput))
	assert.EqualError(t, r.Err(), "/hookSpecificOutput/updatedInput/room: member lost (a hook must keep every tool_input member it did not change)")
}

func TestKnownBadMapRoundTrip(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/maproundtrip")
	in := hooktest.NewPreToolUse("mcp__probe__listen_here", `{"room":"Bob's \u0022war room\u0022 <ops>","seats":12345678901234567890,"price":2.50}`)
	r := run(t, in, bin)
	assert.Equal(t, 0, r.Code)
	vs := problems(t, r)
	var got []string
	for _, v := range vs {
		assert.Equal(t, hooktest.RuleKeep, v.Rule)
		got = append(got, v.Pointer+": "+v.Detail)
	}
	assert.Equal(t, []string{
		`/hookSpecificOutput/updatedInput/room: member rewritten from "Bob's \u0022war room\u0022 <ops>" to "Bob's \"war room\" \u003cops\u003e"`,
		`/hookSpecificOutput/updatedInput/seats: member rewritten from 12345678901234567890 to 12345678901234567000`,
		`/hookSpecificOutput/updatedInput/price: member rewritten from 2.50 to 2.5`,
		`/hookSpecificOutput/updatedInput/price: member moved`,
	}, got)
}

func TestKnownBadExit2WithJSON(t *testing.T) {
	needs(t, "bash")
	r := run(t, hooktest.Payload("pretooluse-bash"), "testdata/exit2json.sh")
	assert.Equal(t, 2, r.Code)
	assert.Equal(t, "not allowed\n", string(r.Stderr))
	vs := problems(t, r)
	require.Len(t, vs, 1)
	assert.Equal(t, hooktest.RuleBlockStdout, vs[0].Rule)
	assert.Equal(t, `exit code 2 with 82 bytes on stdout ({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"all...); Claude Code blocks with stderr and does not act on them (a hook that exits with 2 must print nothing on stdout)`, vs[0].Error())
}

func TestKnownBadBrokenJSON(t *testing.T) {
	needs(t, "bash")
	r := run(t, hooktest.Payload("pretooluse-bash"), "testdata/brokenjson.sh")
	assert.Equal(t, 0, r.Code)
	vs := problems(t, r)
	require.Len(t, vs, 1)
	assert.Equal(t, hooktest.RuleStdout, vs[0].Rule)
	assert.Contains(t, vs[0].Detail, "looks like a JSON object but is not valid JSON")
	assert.Nil(t, r.Answer)
}

func TestKnownBadNullField(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/nullfield")
	r := run(t, hooktest.Payload("pretooluse-bash"), bin)
	assert.Equal(t, 0, r.Code)
	vs := problems(t, r)
	require.Len(t, vs, 3, "%v", r.Err())
	for _, v := range vs {
		assert.Equal(t, hooktest.RuleNull, v.Rule)
	}
	assert.Equal(t, "/systemMessage: is null; leave the field out instead (Claude Code rejects null and ignores the whole answer) (an answer must leave an optional field out, never set it to null)", vs[0].Error())
	assert.Equal(t, "/hookSpecificOutput/permissionDecisionReason", vs[1].Pointer)
	assert.Equal(t, "/hookSpecificOutput/updatedInput", vs[2].Pointer)
}

func TestKnownBadCrash(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/crash")
	r := run(t, hooktest.Payload("pretooluse-bash"), bin)
	assert.Equal(t, 2, r.Code, "a Go panic exits with 2, which blocks")
	vs := problems(t, r)
	require.Len(t, vs, 1)
	assert.Equal(t, hooktest.RuleCrash, vs[0].Rule)
	assert.Contains(t, vs[0].Detail, "nothing on stderr but the Go runtime's crash report (panic: runtime error: index out of range")
	assert.True(t, r.FailsOpen() == false, "exit 2 blocks: a crash that fails closed")
	assert.Empty(t, r.Notes)
}

func TestCrashInOtherLanguages(t *testing.T) {
	in := hooktest.Payload("pretooluse-bash")
	t.Run("python", func(t *testing.T) {
		needs(t, "python3")
		r := run(t, in, "python3", "-c", "import json, sys\nroom = json.load(sys.stdin)['tool_input']['room']\n")
		assert.Equal(t, 1, r.Code)
		vs := problems(t, r)
		require.Len(t, vs, 1)
		assert.Equal(t, hooktest.RuleCrash, vs[0].Rule)
		assert.Equal(t, "stderr shows a Python traceback: KeyError: 'room'", vs[0].Detail)
	})
	t.Run("node", func(t *testing.T) {
		needs(t, "node")
		r := run(t, in, "node", "-e", "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{JSON.parse(s).tool_input.room.name})")
		assert.Equal(t, 1, r.Code)
		vs := problems(t, r)
		require.Len(t, vs, 1)
		assert.Equal(t, hooktest.RuleCrash, vs[0].Rule)
		assert.Contains(t, vs[0].Detail, "Node.js")
	})
}

func TestGoodProgramPassesThePropertyRun(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/good")
	r := run(t, seedPayload(), bin)
	require.NoError(t, r.Err())
	assert.Equal(t, `{"room":"Probe","fingerprint":"`+fingerprint("<PROJECT_DIR>")+`"}`, string(r.UpdatedInput))

	// A program costs milliseconds per run: a few fixtures, the room
	// names and the numbers, two runs at a time.
	var fs []hooktest.Fixture
	for _, f := range hooktest.Fixtures() {
		switch f.Name {
		case "pretooluse-bash", "pretooluse-edit", "pretooluse-mcp-listen_here", "permissionrequest-bash",
			"captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1":
			fs = append(fs, f)
		}
	}
	vs := hooktest.RoomNames()
	for _, v := range hooktest.TrickyValues() {
		if v.JSON.Kind() == '0' {
			vs = append(vs, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	rep := hooktest.CheckCommand(t, ctx, &hooktest.Command{Path: bin}, &hooktest.Options{Fixtures: fs, Values: vs, Parallel: 2, Changes: []string{"fingerprint"}})
	t.Logf("%d fixtures, %d cases in %v", rep.Fixtures, rep.Cases, time.Since(start))
	assert.Equal(t, 5, rep.Fixtures)
	assert.Equal(t, rep.Cases, rep.Updates)
}

func TestRunCommandNotFound(t *testing.T) {
	r, err := (&hooktest.Command{Path: "testdata/no-such-hook"}).Run(context.Background(), hooktest.Payload("stop"))
	assert.Error(t, err)
	assert.Nil(t, r)
}

// values picks tricky values by name.
func values(t *testing.T, names ...string) []hooktest.Tricky {
	t.Helper()
	var out []hooktest.Tricky
	for _, v := range hooktest.TrickyValues() {
		for _, n := range names {
			if v.Name == n {
				out = append(out, v)
			}
		}
	}
	require.Len(t, out, len(names))
	return out
}

// TestCheckCommandJudgesAsClaudeCode runs hooks in three languages on the
// seed's own tool, which no fixture calls.
func TestCheckCommandJudgesAsClaudeCode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	opts := &hooktest.Options{
		Fixtures: []hooktest.Fixture{},
		Tools:    []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: `{"room":"Zürich","seats":12}`}},
		Values:   values(t, "quote", "non-ASCII", "lone high surrogate escape", "big integer"),
		Parallel: 4,
	}

	t.Run("node spread", func(t *testing.T) {
		needs(t, "node")
		c := &hooktest.Command{Path: "node", Args: []string{"testdata/spread.mjs"}}
		rep := hooktest.CheckCommand(t, ctx, c, opts)
		assert.Positive(t, rep.Updates)
		require.NotEmpty(t, rep.StrictFindings, "JSON.parse rounds the big integer")
		assert.Contains(t, rep.StrictFindings[0].Error(), "member respelled from 12345678901234567890 to 12345678901234567000")

		rec := &recordingTB{TB: t}
		strictOpts := *opts
		strictOpts.Strict = true
		strict := hooktest.CheckCommand(rec, ctx, c, &strictOpts)
		require.NotEmpty(t, strict.Failures)
		assert.Equal(t, "big integer", strict.Failures[0].Value)
		assert.Contains(t, strings.Join(rec.errors, "\n"), "12345678901234567890")
	})
	t.Run("python json.dumps", func(t *testing.T) {
		needs(t, "python3")
		rep := hooktest.CheckCommand(t, ctx, &hooktest.Command{Path: "python3", Args: []string{"testdata/dumps.py"}}, opts)
		assert.Positive(t, rep.Updates)
		require.NotEmpty(t, rep.Notes, "json.dumps escapes non-ASCII text")
		assert.Contains(t, rep.Notes[0].Error(), `\u00fc`)
	})
	t.Run("sh printf", func(t *testing.T) {
		needs(t, "sh")
		rec := &recordingTB{TB: t}
		rep := hooktest.CheckCommand(rec, ctx, &hooktest.Command{Path: "testdata/onefield.sh"}, opts)
		require.NotEmpty(t, rep.Failures)
		assert.Contains(t, rep.Failures[0].Error(), "/hookSpecificOutput/updatedInput/room: member lost")
		assert.Contains(t, rep.Failures[0].Error(), "/hookSpecificOutput/updatedInput/seats: member lost")
		assert.NotEmpty(t, rec.errors)
	})
}
