package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/transcript"
)

// testgateSession is a session that edits a file and then does what
// tail says, with examples/testgate as its Stop hook, taking
// "run-tests" for the test command.
func testgateSession(t *testing.T, gate string, tail ...claudetest.Turn) claudetest.Session {
	t.Helper()
	return claudetest.Session{
		Files: map[string]string{"notes.txt": "alpha\nbeta\n", "run-tests": "exit 0\n", "fail-tests": "echo FAIL >&2; exit 1\n"},
		Hooks: []claudetest.Hook{{Event: "Stop", Command: []string{gate, "run-tests|fail-tests"}, Name: "testgate"}},
		Turns: append([]claudetest.Turn{{claudetest.Write("out.go", "package out\n")}}, tail...),
		Final: "Done: wrote out.go.",
	}
}

// TestTranscriptTestgate runs examples/testgate in the real client over a
// session that does what a transcript reader must read (a subagent, Bash,
// Read, Write, Edit, a failed Edit, an MCP call, a failed Bash), checks
// that the hook read the transcript Claude Code had written by then, and
// reads the whole transcript and the subagent's with package transcript.
func TestTranscriptTestgate(t *testing.T) {
	claudetest.Need(t)
	gate := hooktest.BuildGo(t, "../examples/testgate")
	s := testgateSession(t, gate,
		claudetest.Turn{claudetest.Tool("Agent", map[string]any{"description": "look around", "prompt": "list the files", "subagent_type": "Explore", "run_in_background": false})},
		claudetest.Turn{claudetest.Bash("echo hello"), claudetest.Read("notes.txt")},
		claudetest.Turn{claudetest.Tool("Edit", map[string]string{"file_path": claudetest.ProjectDir + "/out.go", "old_string": "package out", "new_string": "package gone"})},
		claudetest.Turn{claudetest.Tool("Edit", map[string]string{"file_path": claudetest.ProjectDir + "/notes.txt", "old_string": "not there", "new_string": "x"})},
		claudetest.Turn{claudetest.MCP("probe", "listen_here", map[string]string{"room": "Probe"})},
		claudetest.Turn{claudetest.Bash("exit 3")},
	)
	s.MCP = []claudetest.MCPServer{{Name: "probe", Tools: []claudetest.MCPTool{{Name: "listen_here", Reply: "heard"}}}}
	// A second Stop hook keeps the transcript as it is when Stop hooks run.
	s.Hooks = append(s.Hooks, claudetest.Hook{Event: "Stop", Name: "snapshot", Command: []string{"sh", "-c",
		`cat >/dev/null; n=$(ls "$CLAUDE_PROJECT_DIR"/at-stop-*.jsonl 2>/dev/null | wc -l); cp "$HOME"/.claude/projects/*/` + "*.jsonl" + ` "$CLAUDE_PROJECT_DIR/at-stop-$n.jsonl"`}})
	r := claudetest.Run(t, s)

	stops := r.HooksOf("testgate", "Stop")
	require.Len(t, stops, 2, "blocked once, then let Claude stop: %v", r.Events())
	assert.Equal(t, "false", string(input(t, stops[0], "stop_hook_active")))
	assert.Equal(t, `"block"`, string(output(t, stops[0], "decision")))
	assert.Equal(t, "testgate: you edited out.go but ran no tests after your last edit. Run the tests and fix what fails before you stop; if they cannot run here, say why.",
		str(t, output(t, stops[0], "reason")), "the failed Edit of notes.txt is not an edit")
	assert.Equal(t, "true", string(input(t, stops[1], "stop_hook_active")))
	assert.Equal(t, "testgate: Claude stopped without a passing test run after editing out.go.", str(t, output(t, stops[1], "systemMessage")))

	// The transcript, as the client left it.
	path := str(t, input(t, stops[1], "transcript_path"))
	sum, err := transcript.SummarizeFile(path)
	require.NoError(t, err)
	assert.Empty(t, sum.Errors)
	var names []string
	for _, c := range sum.Calls {
		names = append(names, c.Name)
		require.NotNil(t, c.Result, "call %s %s has its result", c.ID, c.Name)
		assert.Equal(t, c.ID == CallID(6) || c.ID == CallID(8), c.Result.IsError, "%s %s: %s", c.ID, c.Name, c.Result.Text())
	}
	assert.Equal(t, []string{"Write", "Agent", "Bash", "Read", "Edit", "Edit", "mcp__probe__listen_here", "Bash"}, names)
	assert.Equal(t, "hello", sum.Call(CallID(3)).Result.Text())
	assert.Equal(t, "heard", sum.Call(CallID(7)).Result.Text())
	proj := r.Project
	assert.Equal(t, transcript.Files{Edited: []string{filepath.Join(proj, "out.go")}, Read: []string{filepath.Join(proj, "notes.txt")}}, sum.Files())
	assert.Equal(t, "Done: wrote out.go.", sum.LastAssistantText())
	assert.Equal(t, str(t, input(t, stops[1], "last_assistant_message")), sum.LastAssistantText())

	// The transcript as a Stop hook reads it: whole lines, the last one
	// perhaps unfinished, never a failure.
	for i := range 2 {
		snap, ok := r.File(fmt.Sprintf("at-stop-%d.jsonl", i))
		require.True(t, ok, "the snapshot hook ran at Stop %d", i+1)
		at, err := transcript.Summarize(strings.NewReader(snap))
		require.NoError(t, err)
		for j, le := range at.Errors {
			assert.True(t, le.Truncated && j == len(at.Errors)-1, "Stop %d: %v", i+1, le)
		}
		assert.Len(t, at.Calls, len(sum.Calls), "Stop %d: every call is written", i+1)
		texts := 0
		rd := transcript.NewReader(strings.NewReader(snap))
		for rd.Next() {
			if e := rd.Entry(); e.Type == transcript.TypeAssistant && !e.IsSidechain && e.Text() != "" {
				texts++
			}
		}
		// Not asserted: whether the message Claude ended with is written by
		// then is the client's race (see docs/transcript.md).
		t.Logf("at Stop %d the transcript holds %d final texts, the last %q (last_assistant_message %q)", i+1, texts, at.LastAssistantText(), str(t, input(t, stops[i], "last_assistant_message")))
	}

	// The subagent's own transcript.
	subs, err := filepath.Glob(filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents", "agent-*.jsonl"))
	require.NoError(t, err)
	require.Len(t, subs, 1, "the Agent call wrote a subagent transcript")
	assert.Equal(t, subs[0], transcript.SubagentPath(path, sum.Call(CallID(2)).Result.AgentID), "the Agent call's result names it")
	sub, err := transcript.SummarizeFile(subs[0])
	require.NoError(t, err)
	assert.NotEmpty(t, sub.LastAssistantText(), "the subagent's last text")
	f, err := os.Open(subs[0])
	require.NoError(t, err)
	defer f.Close()
	rd := transcript.NewReader(f)
	n := 0
	for rd.Next() {
		if e := rd.Entry(); e.Type == transcript.TypeUser || e.Type == transcript.TypeAssistant {
			assert.True(t, e.IsSidechain, "line %d", e.Line)
			assert.NotEmpty(t, e.AgentID, "line %d", e.Line)
			n++
		}
	}
	require.NoError(t, rd.Err())
	assert.Positive(t, n)
}

// TestTranscriptTestgatePasses: a passing test run after the last edit
// lets Claude stop at once; a failing one blocks with the command.
func TestTranscriptTestgatePasses(t *testing.T) {
	claudetest.Need(t)
	gate := hooktest.BuildGo(t, "../examples/testgate")
	t.Run("passing", func(t *testing.T) {
		t.Parallel()
		r := claudetest.Run(t, testgateSession(t, gate, claudetest.Turn{claudetest.Bash("sh run-tests")}))
		stops := r.HooksOf("testgate", "Stop")
		require.Len(t, stops, 1, "%v", r.Events())
		assert.Empty(t, strings.TrimSpace(string(stops[0].Out)), "no answer: Claude may stop")
	})
	t.Run("failing", func(t *testing.T) {
		t.Parallel()
		r := claudetest.Run(t, testgateSession(t, gate, claudetest.Turn{claudetest.Bash("sh fail-tests")}))
		stops := r.HooksOf("testgate", "Stop")
		require.Len(t, stops, 2, "%v", r.Events())
		assert.Equal(t, "testgate: the last test run after your edits (`sh fail-tests`) failed. Fix what fails and run the tests again before you stop; if the failure is not yours, say so.",
			str(t, output(t, stops[0], "reason")))
	})
}
