package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/rawjson"
)

// These tests run hookcheck in-process on the small hooks of testdata,
// good ones and ones broken in each way hookcheck reports, with flags that
// keep each run to a few dozen hook runs.

// hookcheck runs hookcheck with -json and args and returns its exit
// status and report. Each run may take a minute unless args say
// otherwise: a busy test machine can be slow.
func hookcheck(t *testing.T, args ...string) (int, *report) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"-json", "-timeout", "1m"}, args...), &stdout, &stderr)
	require.NotEqual(t, exitUsage, code, "usage error: %s", stderr.String())
	var rep report
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep), "stderr: %s", stderr.String())
	require.Equal(t, len(rep.Cases), rep.Runs)
	return code, &rep
}

// findings returns the findings of kind in the run called name.
func findings(rep *report, name, kind string) []finding {
	var out []finding
	for _, c := range rep.Cases {
		if c.Name != name {
			continue
		}
		for _, f := range c.Findings {
			if f.Kind == kind {
				out = append(out, f)
			}
		}
	}
	return out
}

// caseNames returns the names of the runs, to show in failure messages.
func caseNames(rep *report) []string {
	var out []string
	for _, c := range rep.Cases {
		out = append(out, c.Name)
	}
	return out
}

// failing returns every run with findings, one line each, for failure
// messages.
func failing(rep *report) string {
	var b strings.Builder
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			b.WriteString(c.Name + ": " + f.Message + "\n")
		}
	}
	return b.String()
}

// valuesIn returns the names of the tricky values that runs put into a
// member called pointer, in any fixture.
func valuesIn(rep *report, pointer string) []string {
	var out []string
	for _, c := range rep.Cases {
		if c.Pointer == pointer && !slices.Contains(out, c.Value) {
			out = append(out, c.Value)
		}
	}
	slices.Sort(out)
	return out
}

func allValueNames() []string {
	var out []string
	for _, v := range hooktest.TrickyValues() {
		out = append(out, v.Name)
	}
	slices.Sort(out)
	return out
}

// needs skips the test when the program is not installed.
func needs(t *testing.T, program string) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s is not installed: the %s hooks are not checked", program, program)
	}
}

// needsPython3 skips the test without python3, and puts the directory of
// the real interpreter first in PATH: a version manager's shim costs a
// second a run.
func needsPython3(t *testing.T) {
	t.Helper()
	needs(t, "python3")
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	require.NoError(t, err)
	t.Setenv("PATH", filepath.Dir(strings.TrimSpace(string(out)))+string(os.PathListSeparator)+os.Getenv("PATH"))
}

const listenHere = "mcp__.*__listen_here"

func TestBashHandBuiltLosesTheRoom(t *testing.T) {
	code, rep := hookcheck(t, "-event", "PreToolUse", "-matcher", listenHere, "-values", "title,quote,looks like JSON",
		"--", "testdata/bash/handbuilt.sh")
	assert.Equal(t, exitFindings, code)
	assert.False(t, rep.Passed)

	lost := findings(rep, "pretooluse-mcp-listen_here", kindLost)
	require.Len(t, lost, 1, "the control run loses the room:\n%s", failing(rep))
	assert.Equal(t, "/tool_input/room", lost[0].Pointer)
	assert.Equal(t, hooktest.ProblemLost, lost[0].Detail)

	for _, v := range []string{"quote", "looks like JSON"} {
		name := "pretooluse-mcp-listen_here /tool_input/room = " + v
		assert.NotEmpty(t, findings(rep, name, kindInvalid), "a %s in the room breaks the hand-built JSON:\n%s", v, failing(rep))
	}
	// The fingerprint is the hook's to set: not reported, listed as owned.
	assert.Contains(t, rep.Owned, ownedMember{Fixture: "pretooluse-mcp-listen_here", Pointer: "/tool_input/fingerprint"})
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			assert.NotEqual(t, "/tool_input/fingerprint", f.Pointer, "%s: %s", c.Name, f.Message)
		}
	}
}

func TestBashFixedPasses(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-event", "PreToolUse", "-matcher", listenHere, "--", "testdata/bash/fixed.sh")
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.True(t, rep.Passed)
	// The room is copied into updatedInput, so every tricky value goes
	// there at least once.
	assert.Equal(t, allValueNames(), valuesIn(rep, "/tool_input/room"))
	assert.Contains(t, rep.Owned, ownedMember{Fixture: "pretooluse-mcp-listen_here", Pointer: "/tool_input/fingerprint"})
}

func TestBashJQRewritesEscapes(t *testing.T) {
	needs(t, "jq")
	code, rep := hookcheck(t, "-event", "PreToolUse", "-matcher", listenHere, "-values", "title,slash escape,unicode escape of ö",
		"--", "testdata/bash/jq.sh")
	assert.Equal(t, exitFindings, code)
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here", kindLost), "jq keeps every member")
	for v, out := range map[string]string{"slash escape": `"a/b"`, "unicode escape of ö": `"Köln"`} {
		fs := findings(rep, "pretooluse-mcp-listen_here /tool_input/room = "+v, kindMangled)
		require.Len(t, fs, 1, "jq rewrites the %s:\n%s", v, failing(rep))
		assert.Equal(t, "/tool_input/room", fs[0].Pointer)
		assert.Equal(t, hooktest.ProblemRewritten, fs[0].Detail)
		assert.Contains(t, fs[0].Message, out)
	}
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here /tool_input/room = title", kindMangled))
}

func TestBashGuard(t *testing.T) {
	code, rep := hookcheck(t, "-fixtures", "testdata/fixtures", "-values", "title,unicode escape of ö,big integer",
		"--", "testdata/bash/guard.sh")
	assert.Equal(t, exitFindings, code)

	// Exit 2 with a JSON answer on stdout.
	assert.NotEmpty(t, findings(rep, "pretooluse-bash-rm", kindExit2), failing(rep))
	// PreToolUse's decision on PermissionRequest.
	rejected := findings(rep, "permissionrequest-bash", kindRejected)
	require.NotEmpty(t, rejected, failing(rep))
	var pointers []string
	for _, f := range rejected {
		assert.Equal(t, hooktest.RuleFields, f.Detail)
		pointers = append(pointers, f.Pointer)
	}
	assert.Contains(t, pointers, "/hookSpecificOutput/permissionDecision")
	// A harmless string blocks the call.
	blocked := findings(rep, "pretooluse-bash-ls /tool_input/command = unicode escape of ö", kindBlocked)
	require.Len(t, blocked, 1, failing(rep))
	assert.Contains(t, blocked[0].Message, "cannot read the command")
	// A number where the command was a string may be refused.
	assert.Empty(t, findings(rep, "pretooluse-bash-ls /tool_input/command = big integer", kindBlocked))
	assert.Empty(t, findings(rep, "pretooluse-bash-ls", kindBlocked))
	assert.Empty(t, findings(rep, "pretooluse-bash-ls /tool_input/command = title", kindBlocked))
}

func TestBashTimeoutKillsTheProcessGroup(t *testing.T) {
	start := time.Now()
	code, rep := hookcheck(t, "-event", "Stop", "-timeout", "300ms", "--", "testdata/bash/sleepy.sh")
	assert.Equal(t, exitFindings, code)
	require.NotEmpty(t, rep.Cases)
	for _, c := range rep.Cases {
		assert.True(t, c.TimedOut, c.Name)
		require.Len(t, c.Findings, 1, c.Name)
		assert.Equal(t, kindTimeout, c.Findings[0].Kind)
	}
	// The hook's child sleeps for a minute and holds stdout open; only
	// killing the group ends the runs before it wakes.
	assert.Less(t, time.Since(start), 45*time.Second)
}

func TestNodeSpreadRoundsBigIntegers(t *testing.T) {
	needs(t, "node")
	code, rep := hookcheck(t, "-event", "PreToolUse,PermissionRequest", "-matcher", "mcp__.*", "-values", "title,big integer",
		"--", "node", "testdata/node/spread.mjs")
	assert.Equal(t, exitFindings, code)

	fs := findings(rep, "pretooluse-mcp-listen_here /tool_input/room = big integer", kindMangled)
	require.Len(t, fs, 1, "JSON.parse rounds the big integer:\n%s", failing(rep))
	assert.Equal(t, "/tool_input/room", fs[0].Pointer)
	assert.Contains(t, fs[0].Message, "12345678901234567890")
	assert.Contains(t, fs[0].Message, "12345678901234567000")
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here /tool_input/room = title", kindMangled))
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here", kindLost), "the spread keeps every member")

	rejected := findings(rep, "permissionrequest-mcp", kindRejected)
	require.NotEmpty(t, rejected, "PreToolUse's hookEventName on PermissionRequest:\n%s", failing(rep))
	assert.Equal(t, hooktest.RuleEventName, rejected[0].Detail)
	assert.Equal(t, "/hookSpecificOutput/hookEventName", rejected[0].Pointer)
}

func TestNodeGoodPasses(t *testing.T) {
	needs(t, "node")
	code, rep := hookcheck(t, "-event", "PreToolUse,PermissionRequest", "-matcher", "Bash", "-per-member", "1",
		"-values", "title,quote,big integer,lone high surrogate escape,true,empty object", "--", "node", "testdata/node/good.mjs")
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.Positive(t, rep.Tricky)
}

func TestPythonGoodPasses(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-event", "PreToolUse", "-matcher", "Bash|Write", "-per-member", "1",
		"-values", "title,non-ASCII,lone high surrogate escape,big integer,null,deep nesting", "--", "python3", "testdata/python/good.py")
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	// With one value per member, the six values still all go somewhere.
	var used []string
	for _, c := range rep.Cases {
		if c.Value != "" && !slices.Contains(used, c.Value) {
			used = append(used, c.Value)
		}
	}
	assert.Len(t, used, 6)
}

func TestPythonBrokenFindings(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-event", "PreToolUse", "-matcher", "Bash", "-values", "big integer,non-ASCII", "-changed", "timeout",
		"--", "python3", "testdata/python/broken.py")
	assert.Equal(t, exitFindings, code)

	null := findings(rep, "pretooluse-bash", kindRejected)
	require.NotEmpty(t, null, failing(rep))
	assert.Equal(t, hooktest.RuleNull, null[0].Detail)
	assert.Equal(t, "/hookSpecificOutput/permissionDecisionReason", null[0].Pointer)

	trace := findings(rep, "pretooluse-bash /tool_input/command = big integer", kindStackTrace)
	require.Len(t, trace, 1, failing(rep))
	assert.Contains(t, trace[0].Message, "AttributeError")
	// A number where a string was: exit 1 alone is not held against it.
	assert.Empty(t, findings(rep, "pretooluse-bash /tool_input/command = big integer", kindCrash))

	mangled := findings(rep, "pretooluse-bash /tool_input/description = non-ASCII", kindMangled)
	require.Len(t, mangled, 1, "json.dumps escapes non-ASCII text:\n%s", failing(rep))
	assert.Contains(t, mangled[0].Message, `\u00fc`)

	// The hook raises the timeout on purpose, and -changed says so.
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			assert.NotEqual(t, "/tool_input/timeout", f.Pointer, "%s: %s", c.Name, f.Message)
		}
	}
}

// TestGoHookDefaultRun runs the whole default set on a hook built with the
// library, and checks the covering set: every tricky value is used, and
// every member of every PreToolUse and PermissionRequest fixture receives
// -per-member values.
func TestGoHookDefaultRun(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/gohook")
	code, rep := hookcheck(t, "--", bin)
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	t.Logf("%d runs (%d tricky) in %.0f ms; median %.1f ms, max %.1f ms", rep.Runs, rep.Tricky, rep.WallMS, rep.MedianMS, rep.MaxMS)

	used := map[string]bool{}
	perMember := map[[2]string]int{}
	for _, c := range rep.Cases {
		if c.Pointer != "" {
			used[c.Value] = true
			perMember[[2]string{c.Fixture, c.Pointer}]++
		}
	}
	assert.Len(t, used, len(hooktest.TrickyValues()))
	for _, fx := range hooktest.Fixtures() {
		if fx.Name != "pretooluse-bash" && fx.Name != "permissionrequest-mcp" {
			continue
		}
		ti, ok := hooktest.Field(fx.JSON, "tool_input")
		require.True(t, ok)
		ms, err := rawjson.Members(ti)
		require.NoError(t, err)
		for _, m := range ms {
			assert.GreaterOrEqual(t, perMember[[2]string{fx.Name, "/tool_input/" + m.Key}], 3, "%s %s", fx.Name, m.Key)
		}
	}
	assert.Contains(t, rep.Owned, ownedMember{Fixture: "pretooluse-mcp-listen_here", Pointer: "/tool_input/fingerprint"})
	assert.Contains(t, caseNames(rep), "pretooluse-mcp-listen_here")
}
