package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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
	code := run(context.Background(), append([]string{"-json", "-timeout", "10m"}, args...), &stdout, &stderr)
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

// strictFindings returns the findings of the strict tier in the run
// called name.
func strictFindings(rep *report, name string) []finding {
	for _, c := range rep.Cases {
		if c.Name == name {
			return c.Strict
		}
	}
	return nil
}

// notesOf returns the notes of the run called name.
func notesOf(rep *report, name string) []finding {
	for _, c := range rep.Cases {
		if c.Name == name {
			return c.Notes
		}
	}
	return nil
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
	// The fingerprint is set to one value whatever the model sent, as the
	// seed bug sets the room to "lobby": reported, since only the author
	// can tell the hook's own member from the model's value lost.
	require.Len(t, rep.Constant, 1)
	assert.Equal(t, "/tool_input/fingerprint", rep.Constant[0].Pointer)
	assert.False(t, rep.Constant[0].Declared)
	fp := findings(rep, "pretooluse-mcp-listen_here /tool_input/fingerprint = title", kindMangled)
	require.Len(t, fp, 1, failing(rep))
	assert.Contains(t, fp[0].Message, "whatever the model sent")
	assert.Contains(t, fp[0].Message, "give -changed fingerprint")
	// Declared, it is the hook's own and not reported.
	_, rep = hookcheck(t, "-event", "PreToolUse", "-matcher", listenHere, "-values", "title,quote,looks like JSON", "-changed", "fingerprint",
		"--", "testdata/bash/handbuilt.sh")
	require.Len(t, rep.Constant, 1)
	assert.True(t, rep.Constant[0].Declared)
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			assert.NotEqual(t, "/tool_input/fingerprint", f.Pointer, "%s: %s", c.Name, f.Message)
		}
	}
}

func TestBashFixedPasses(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-strict", "-matcher", listenHere, "-changed", "fingerprint", "--", "testdata/bash/fixed.sh")
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.True(t, rep.Passed)
	// The room is copied into updatedInput, so every tricky value goes
	// there at least once.
	assert.Equal(t, allValueNames(), valuesIn(rep, "/tool_input/room"))
	assert.True(t, slices.ContainsFunc(rep.Constant, func(c constantMember) bool {
		return c.Fixture == "pretooluse-mcp-listen_here" && c.Pointer == "/tool_input/fingerprint" && c.Declared && c.Inputs > 2
	}), "%v", rep.Constant)
}

func TestBashJQ(t *testing.T) {
	needs(t, "jq")
	code, rep := hookcheck(t, "-full", "-matcher", listenHere, "-changed", "fingerprint", "-values", "title,slash escape,unicode escape of ö,lone low surrogate escape,lone high surrogate escape",
		"--", "testdata/bash/jq.sh")
	assert.Equal(t, exitFindings, code)
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here", kindLost), "jq keeps every member")

	// A lone surrogate, which JSON.stringify sends: U+FFFD, or exit 4.
	fs := findings(rep, "pretooluse-mcp-listen_here /tool_input/room = lone low surrogate escape", kindMangled)
	require.Len(t, fs, 1, "jq turns a lone low surrogate into U+FFFD:\n%s", failing(rep))
	assert.Equal(t, "/tool_input/room", fs[0].Pointer)
	assert.Equal(t, hooktest.ProblemChanged, fs[0].Detail)
	assert.Contains(t, fs[0].Message, `member changed from "x\udfffy" to "x\ufffdy"`[:36])
	assert.NotEmpty(t, findings(rep, "pretooluse-mcp-listen_here /tool_input/room = lone high surrogate escape", kindCrash), failing(rep))

	// Escapes JSON.stringify never writes: the strict tier, reported apart.
	for v, out := range map[string]string{"slash escape": `"a/b"`, "unicode escape of ö": `"Köln"`} {
		name := "pretooluse-mcp-listen_here /tool_input/room = " + v
		assert.Empty(t, findings(rep, name, kindMangled), v)
		fs := strictFindings(rep, name)
		require.Len(t, fs, 1, "jq rewrites the %s:\n%s", v, failing(rep))
		assert.Equal(t, hooktest.ProblemRespelled, fs[0].Detail)
		assert.Contains(t, fs[0].Message, out)
	}
	assert.Positive(t, rep.StrictRuns)
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here /tool_input/room = title", kindMangled))
}

func TestBashGuard(t *testing.T) {
	code, rep := hookcheck(t, "-full", "-fixtures", "testdata/fixtures", "-values", "title,NUL escape,unicode escape of ö,big integer",
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
	// A harmless string that Claude Code sends blocks the call.
	blocked := findings(rep, "pretooluse-bash-ls /tool_input/command = NUL escape", kindBlocked)
	require.Len(t, blocked, 1, failing(rep))
	assert.Contains(t, blocked[0].Message, "cannot read the command")
	// One it never sends (\u00f6) is a strict finding only.
	assert.Empty(t, findings(rep, "pretooluse-bash-ls /tool_input/command = unicode escape of ö", kindBlocked))
	assert.NotEmpty(t, strictFindings(rep, "pretooluse-bash-ls /tool_input/command = unicode escape of ö"))
	// A number where the command was a string may be refused.
	assert.Empty(t, findings(rep, "pretooluse-bash-ls /tool_input/command = big integer", kindBlocked))
	assert.Empty(t, findings(rep, "pretooluse-bash-ls", kindBlocked))
	assert.Empty(t, findings(rep, "pretooluse-bash-ls /tool_input/command = title", kindBlocked))
}

// TestBashTimeoutKillsTheProcessGroup: a hook that never ends (its child
// holds stdout open and never exits) is killed at the limit, with its
// whole process group; the timeout says it is one and names the limit, and
// the first timeout ends the check. The limit is short, since the timeout
// is what is tested: the hook never finishes, however fast the machine.
func TestBashTimeoutKillsTheProcessGroup(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv("SLEEPY_PIDS", pids)
	code, rep := hookcheck(t, "-event", "Stop", "-parallel", "1", "-timeout", "300ms", "--", "testdata/bash/sleepy.sh")
	assert.Equal(t, exitFindings, code)
	require.Len(t, rep.Cases, 1, "the first timeout ends the check")
	assert.Equal(t, 1, rep.Skipped, "Stop has two shapes (stop_hook_active false and true)")
	c := rep.Cases[0]
	assert.True(t, c.TimedOut, c.Name)
	require.Len(t, c.Findings, 1, c.Name)
	assert.Equal(t, kindTimeout, c.Findings[0].Kind)
	assert.Contains(t, c.Findings[0].Message, "timed out: no exit within the 0.3s limit given with -timeout; hookcheck killed its process tree")
	assert.Equal(t, "0.3s each (-timeout)", rep.Limit)

	// The child that held stdout, if the hook got as far as starting it
	// before the limit (hooktest's own test waits for it), was killed with
	// the group.
	b, err := os.ReadFile(pids)
	if err != nil {
		require.ErrorIs(t, err, os.ErrNotExist)
	}
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err)
		assert.Eventually(t, func() bool { return gone(pid) }, 5*time.Minute, 20*time.Millisecond, "the child %d was killed", pid)
	}
}

func TestNodeSpreadOnPermissionRequest(t *testing.T) {
	needs(t, "node")
	code, rep := hookcheck(t, "-event", "PreToolUse,PermissionRequest", "-matcher", "mcp__.*", "-changed", "fingerprint", "-values", "title,big integer",
		"--", "node", "testdata/node/spread.mjs")
	assert.Equal(t, exitFindings, code)
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here", kindLost), "the spread keeps every member")
	assert.Empty(t, findings(rep, "pretooluse-mcp-listen_here /tool_input/room = big integer", kindMangled), "a strict finding only")

	rejected := findings(rep, "permissionrequest-mcp", kindRejected)
	require.NotEmpty(t, rejected, "PreToolUse's hookEventName on PermissionRequest:\n%s", failing(rep))
	assert.Equal(t, hooktest.RuleEventName, rejected[0].Detail)
	assert.Equal(t, "/hookSpecificOutput/hookEventName", rejected[0].Pointer)
}

// TestNodeFixPasses: the seed's Node fix passes by default and fails
// -strict naming the big integer.
func TestNodeFixPasses(t *testing.T) {
	needs(t, "node")
	args := []string{"-full", "-matcher", listenHere, "-changed", "fingerprint", "-tool", "mcp__aisle__listen_here", "-input", `{"room":"Quarterly Planning","seats":12}`,
		"-values", "title,quote,lone high surrogate escape,U+2028 and U+2029 raw,big integer,trailing zero,negative zero", "--", "node", "testdata/node/fix.mjs"}
	code, rep := hookcheck(t, args...)
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.True(t, rep.Passed)
	assert.Positive(t, rep.Updated)
	assert.Contains(t, caseNames(rep), "pretooluse mcp__aisle__listen_here")
	assert.Positive(t, rep.StrictRuns, "the big integer is rounded, in the strict tier")
	big := strictFindings(rep, "pretooluse mcp__aisle__listen_here /tool_input/room = big integer")
	require.NotEmpty(t, big)
	assert.Contains(t, big[0].Message, "12345678901234567890 to 12345678901234567000")

	code, rep = hookcheck(t, append([]string{"-strict"}, args...)...)
	assert.Equal(t, exitFindings, code)
	fs := findings(rep, "pretooluse mcp__aisle__listen_here /tool_input/room = big integer", kindMangled)
	require.Len(t, fs, 1, failing(rep))
	assert.Equal(t, "/tool_input/room", fs[0].Pointer)
	assert.Contains(t, fs[0].Message, "member respelled from 12345678901234567890 to 12345678901234567000")
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
		if c.Pointer != "" && !slices.Contains(used, c.Value) {
			used = append(used, c.Value)
		}
	}
	assert.Len(t, used, 6)
}

func TestPythonBrokenFindings(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-matcher", "Bash", "-values", "big integer,non-ASCII", "-changed", "timeout",
		"--", "python3", "testdata/python/broken.py")
	assert.Equal(t, exitFindings, code)

	null := findings(rep, "pretooluse-bash", kindRejected)
	require.NotEmpty(t, null, failing(rep))
	assert.Equal(t, hooktest.RuleNull, null[0].Detail)
	assert.Equal(t, "/hookSpecificOutput/permissionDecisionReason", null[0].Pointer)

	trace := strictFindings(rep, "pretooluse-bash /tool_input/command = big integer")
	require.NotEmpty(t, trace, failing(rep))
	assert.Contains(t, trace[0].Message, "AttributeError")

	// json.dumps escapes non-ASCII text: the same value, a note.
	name := "pretooluse-bash /tool_input/description = non-ASCII"
	assert.Empty(t, findings(rep, name, kindMangled), failing(rep))
	notes := notesOf(rep, name)
	require.NotEmpty(t, notes)
	assert.Contains(t, notes[0].Message, `\u00fc`)

	// The hook raises the timeout on purpose, and -changed says so.
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			assert.NotEqual(t, "/tool_input/timeout", f.Pointer, "%s: %s", c.Name, f.Message)
		}
	}
}

// TestPythonFixPasses: json.load and json.dumps keep every value Claude
// Code sends.
func TestPythonFixPasses(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-matcher", listenHere, "-changed", "fingerprint", "-per-member", "2", "--", "python3", "testdata/python/fix.py")
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.Positive(t, rep.Updated)
	assert.Positive(t, rep.NoteRuns, "json.dumps escapes non-ASCII text")
}

// TestOneFieldHookForAnUnknownMCPTool: the seed bug for a tool no fixture
// calls. An exact -matcher alone says how to give a call; -tool and
// -input send it, and the lost members are found.
func TestOneFieldHookForAnUnknownMCPTool(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-matcher", "mcp__aisle__listen_here", "--", "testdata/bash/onefield.sh"}, &stdout, &stderr)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr.String(), "no fixture of PreToolUse calls mcp__aisle__listen_here; give a call of it: -tool mcp__aisle__listen_here -input '{...its tool_input...}'")

	code, rep := hookcheck(t, "-matcher", "mcp__aisle__listen_here", "-input", `{"room":"Quarterly Planning","seats":12}`,
		"-values", "title", "--", "testdata/bash/onefield.sh")
	assert.Equal(t, exitFindings, code)
	lost := findings(rep, "pretooluse mcp__aisle__listen_here", kindLost)
	require.Len(t, lost, 2, failing(rep))
	assert.Equal(t, "/tool_input/room", lost[0].Pointer)
	assert.Equal(t, "/tool_input/seats", lost[1].Pointer)
	assert.Equal(t, 1+2+1, rep.Runs, "the call as it is, title in each member, and the unusual names")
	names := findings(rep, "pretooluse mcp__aisle__listen_here + unusual member names", kindLost)
	var lostNames []string
	for _, f := range names {
		lostNames = append(lostNames, f.Pointer)
	}
	assert.Contains(t, lostNames, "/tool_input/seat-count", "the hook keeps only the room")
	assert.Contains(t, lostNames, "/tool_input/Room")
}

// TestGoHookDefaultRun runs the whole default set on a hook built with the
// library, and checks the covering set: every tricky value is used, and
// every member of every PreToolUse and PermissionRequest fixture receives
// -per-member values.
func TestGoHookDefaultRun(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/gohook")
	code, rep := hookcheck(t, "-strict", "-changed", "fingerprint", "--", bin)
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
	assert.True(t, slices.ContainsFunc(rep.Constant, func(c constantMember) bool {
		return c.Fixture == "pretooluse-mcp-listen_here" && c.Pointer == "/tool_input/fingerprint" && c.Declared
	}), "%v", rep.Constant)
	assert.Contains(t, caseNames(rep), "pretooluse-mcp-listen_here")
	assert.Positive(t, rep.Names, "members of unusual names are added")
	assert.Contains(t, caseNames(rep), "pretooluse-mcp-listen_here + unusual member names")
}

// TestGoPartialShowsTheLibraryMessage: an answer the library refused is
// reported with its whole message, not a line cut short.
func TestGoPartialShowsTheLibraryMessage(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/gopartial")
	code, rep := hookcheck(t, "-matcher", "Bash", "-values", "title", "-per-member", "1", "--", bin)
	assert.Equal(t, exitFindings, code)
	fs := findings(rep, "pretooluse-bash", kindRejected)
	require.NotEmpty(t, fs, failing(rep))
	assert.Equal(t, hooktest.RuleRefused, fs[0].Detail)
	assert.Contains(t, fs[0].Message, "hook: invalid answer to PreToolUse: updatedInput is partial: it lacks /command, /description, /timeout of the incoming tool_input, and Claude Code replaces the whole input (build it with hook.Merge, or list removals in Removed)")
	assert.Empty(t, findings(rep, "pretooluse-bash", kindCrash), "reported once, as the refusal it is")
}

// TestStopHookLoop: a Stop hook that blocks whatever stop_hook_active
// says loops.
func TestStopHookLoop(t *testing.T) {
	code, rep := hookcheck(t, "-event", "Stop", "--", "sh", "-c", "cat >/dev/null; echo 'keep going' >&2; exit 2")
	assert.Equal(t, exitFindings, code)
	fs := findings(rep, "stop-active", kindStopLoop)
	require.Len(t, fs, 1, failing(rep))
	assert.Equal(t, hooktest.RuleStopLoop, fs[0].Detail)
	assert.Empty(t, findings(rep, "stop", kindStopLoop), "blocking once is what a Stop hook may do")
}
