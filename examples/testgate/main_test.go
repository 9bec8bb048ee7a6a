package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/transcript"
)

const proj = "/home/dev/proj"

// session builds a transcript line by line.
type session struct {
	lines []string
	n     int
	subs  map[string]*session // the subagents' transcripts, by agent id
}

func (s *session) add(line string) *session { s.lines = append(s.lines, line); return s }

func (s *session) prompt(text string) *session {
	return s.add(fmt.Sprintf(`{"type":"user","isSidechain":false,"message":{"role":"user","content":%q}}`, text))
}

// call adds a call of tool with input and its result.
func (s *session) call(tool, input string, isError bool) *session {
	s.n++
	id := fmt.Sprintf("toolu_%d", s.n)
	s.add(fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":%q,"name":%q,"input":%s}]}}`, s.n, id, tool, input))
	return s.add(fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"…","is_error":%v}]}}`, id, isError))
}

func (s *session) edit(file string) *session {
	return s.call("Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"a","new_string":"b"}`, filepath.ToSlash(filepath.Join(proj, file))), false)
}

func (s *session) bash(cmd string, ok bool) *session {
	return s.call("Bash", fmt.Sprintf(`{"command":%q}`, cmd), !ok)
}

func (s *session) say(text string) *session {
	s.n++
	return s.add(fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":%q}]}}`, s.n, text))
}

// agent adds an Agent call that ran the subagent id, whose calls are in
// sub, and its result, the way Claude Code 2.1.332 writes them.
func (s *session) agent(id string, sub *session) *session {
	s.n++
	call := fmt.Sprintf("toolu_%d", s.n)
	s.add(fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Agent","input":{"description":"d","prompt":"p","subagent_type":"general-purpose"}}]}}`, s.n, call))
	s.add(fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":[{"type":"text","text":"done"}]}]},"toolUseResult":{"status":"completed","agentId":%q,"content":[{"type":"text","text":"done"}]}}`, call, id))
	if s.subs == nil {
		s.subs = map[string]*session{}
	}
	s.subs[id] = sub
	return s
}

// write writes the transcript, and its subagents' beside it, and returns
// its path.
func write(t *testing.T, s *session) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeAt(t, s, path, path)
	return path
}

func writeAt(t *testing.T, s *session, main, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(s.lines, "\n")+"\n"), 0o644))
	for id, sub := range s.subs {
		writeAt(t, sub, main, transcript.SubagentPath(main, id))
	}
}

// stop runs testgate on the transcript with the Stop input's members.
func (s *session) stop(t *testing.T, tests *regexp.Regexp, members map[string]any) *hooktest.Recorder {
	t.Helper()
	p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "transcript_path", write(t, s))
	p = hooktest.WithField(p, "cwd", proj)
	p = hooktest.WithField(p, "last_assistant_message", "Done.")
	for k, v := range members {
		p = hooktest.WithField(p, k, v)
	}
	rec := hooktest.Record(Handler(tests), p)
	require.NoError(t, rec.Err())
	require.Equal(t, 0, rec.Code, "stderr %s", rec.Stderr)
	return rec
}

func newSession() *session { return (&session{}).prompt("fix it") }

const noTests = "testgate: you edited %s but ran no tests after your last edit. Run the tests and fix what fails before you stop; if they cannot run here, say why."

func TestBlocksEditsWithoutTests(t *testing.T) {
	rec := newSession().edit("a.go").bash("go vet ./...", true).edit("b/c.go").stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision)
	assert.Equal(t, fmt.Sprintf(noTests, "a.go, "+filepath.Join("b", "c.go")), rec.Reason)
}

func TestTestsBeforeTheLastEditDoNotCount(t *testing.T) {
	rec := newSession().edit("a.go").bash("go test ./...", true).edit("a.go").stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision)
	assert.Equal(t, fmt.Sprintf(noTests, "a.go"), rec.Reason)
}

func TestPassingTestsLetClaudeStop(t *testing.T) {
	for _, cmd := range []string{"go test ./...", "cd sub && go test -run X ./pkg", "npm test", "npm run test -- --watch=false", "pytest -q", "python3 -m pytest", "cargo test", "make check", "./gradlew test", "bundle exec rspec", "FOO=1 go test ./...", "timeout 600 go test ./...", "npm run test:unit", "(cd x; pytest)", "go vet ./... && go test ./...", "make test", "echo $(go test ./...)"} {
		rec := newSession().edit("a.go").bash(cmd, true).stop(t, nil, nil)
		assert.Empty(t, rec.Stdout, "%q", cmd)
	}
	for _, cmd := range []string{"echo go test", "go testify", "cat pytest.ini", "latest", "vim test.go", "grep -r 'go test' .", "make tests-docker", "git commit -m 'run pytest'"} {
		if !DefaultTests.MatchString(cmd) {
			continue
		}
		t.Errorf("%q is taken for a test command", cmd)
	}
}

func TestFailingTestsBlock(t *testing.T) {
	rec := newSession().edit("a.go").bash("go test ./...", false).stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision)
	assert.Equal(t, "testgate: the last test run after your edits (`go test ./...`) failed. Fix what fails and run the tests again before you stop; if the failure is not yours, say so.", rec.Reason)

	rec = newSession().edit("a.go").bash("go test ./...", false).bash("go test ./...", true).stop(t, nil, nil)
	assert.Empty(t, rec.Stdout, "the last run passed")
	rec = newSession().edit("a.go").bash("go test ./...", true).bash("go test -race ./...", false).stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision, "the last run failed")
	assert.Contains(t, rec.Reason, "`go test -race ./...`")
}

func TestBackgroundRunsDoNotCount(t *testing.T) {
	rec := newSession().edit("a.go").call("Bash", `{"command":"go test ./...","run_in_background":true}`, false).stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision, "the result says only that the tests started")
	assert.Equal(t, fmt.Sprintf(noTests, "a.go"), rec.Reason)
}

func TestSubagents(t *testing.T) {
	sub := func() *session { return (&session{}).prompt("do the part") }

	// A subagent's edit counts where its Agent call is.
	rec := newSession().agent("a1", sub().edit("sub.go")).stop(t, nil, nil)
	assert.Equal(t, fmt.Sprintf(noTests, "sub.go"), rec.Reason)
	rec = newSession().agent("a1", sub().edit("sub.go")).bash("go test ./...", true).stop(t, nil, nil)
	assert.Empty(t, rec.Stdout, "tested after the subagent's edit")
	rec = newSession().bash("go test ./...", true).agent("a1", sub().edit("sub.go")).stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision, "tested before it")

	// A subagent that tests its own edits; one that starts another.
	rec = newSession().edit("a.go").agent("a1", sub().edit("sub.go").bash("go test ./...", true)).stop(t, nil, nil)
	assert.Empty(t, rec.Stdout)
	rec = newSession().agent("a1", sub().agent("a2", sub().edit("deep.go"))).stop(t, nil, nil)
	assert.Equal(t, fmt.Sprintf(noTests, "deep.go"), rec.Reason)
	rec = newSession().agent("a1", sub().bash("go test ./...", false)).stop(t, nil, nil)
	assert.Empty(t, rec.Stdout, "no edits at all")

	// A subagent without a transcript file, or one that loops back to itself.
	s := newSession().edit("a.go").agent("a1", sub().bash("go test ./...", true))
	path := write(t, s)
	require.NoError(t, os.Remove(transcript.SubagentPath(path, "a1")))
	p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "transcript_path", path)
	rec = hooktest.Record(Handler(nil), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision, "the run the file would show is unknown")
	loop := sub().edit("x.go")
	loop.agent("a1", loop)
	rec = (&session{}).prompt("go").agent("a1", &session{lines: loop.lines}).stop(t, nil, nil)
	assert.Equal(t, fmt.Sprintf(noTests, "x.go"), rec.Reason, "followed to a bounded depth")
}

func TestLongCommandsAreCut(t *testing.T) {
	cmd := "go test " + strings.Repeat("ü", 300) + "\nsecond line"
	rec := newSession().edit("a.go").bash(cmd, false).stop(t, nil, nil)
	assert.Contains(t, rec.Reason, " …`")
	assert.NotContains(t, rec.Reason, "second line")
	assert.Less(t, len(rec.Reason), 450)
}

func TestNeverLoops(t *testing.T) {
	rec := newSession().edit("a.go").stop(t, nil, map[string]any{"stop_hook_active": true})
	assert.Empty(t, rec.Decision)
	assert.Equal(t, `{"systemMessage":"testgate: Claude stopped without a passing test run after editing a.go."}`+"\n", string(rec.Stdout))
}

func TestOnlyTheCurrentTurn(t *testing.T) {
	rec := newSession().edit("a.go").say("Edited.").prompt("what does a.go do?").bash("cat a.go", true).stop(t, nil, nil)
	assert.Empty(t, rec.Stdout, "the edit was in an earlier turn")
	s := newSession().edit("a.go").say("Edited.")
	s.add(`{"type":"user","isMeta":true,"message":{"role":"user","content":"Stop hook feedback:\nrun the tests"}}`)
	rec = s.stop(t, nil, nil)
	assert.Equal(t, "block", rec.Decision, "the client's own note is no new turn")
}

func TestNoEditsNoAnswer(t *testing.T) {
	for name, s := range map[string]*session{
		"nothing":     newSession(),
		"reads":       newSession().call("Read", `{"file_path":"/home/dev/proj/a.go"}`, false).bash("ls", true),
		"docs only":   newSession().edit("README.md").edit("docs/notes.TXT"),
		"failed edit": newSession().call("Edit", `{"file_path":"/home/dev/proj/a.go","old_string":"x","new_string":"y"}`, true),
	} {
		rec := s.stop(t, nil, nil)
		assert.Empty(t, rec.Stdout, name)
	}
	rec := newSession().edit("README.md").edit("main.go").stop(t, nil, nil)
	assert.Equal(t, fmt.Sprintf(noTests, "main.go"), rec.Reason, "docs are not listed")
}

func TestQuestionsToTheUser(t *testing.T) {
	s := newSession().edit("a.go")
	rec := s.stop(t, nil, map[string]any{"last_assistant_message": "Should I also update the callers?\n"})
	assert.Empty(t, rec.Stdout, "Claude asks; the user answers first")

	// Without last_assistant_message, the transcript's last text.
	s.say("Which database should the tests use?")
	p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "transcript_path", write(t, s))
	p = hooktest.WithoutField(p, "last_assistant_message")
	rec = hooktest.Record(Handler(nil), p)
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.Stdout)

	// last_assistant_message wins over a transcript that lags behind.
	rec = s.stop(t, nil, map[string]any{"last_assistant_message": "Done."})
	assert.Equal(t, "block", rec.Decision)
}

func TestCustomPatterns(t *testing.T) {
	tests, err := patterns([]string{`^make ci\b`, `\./run-tests`})
	require.NoError(t, err)
	rec := newSession().edit("a.go").bash("make ci", true).stop(t, tests, nil)
	assert.Empty(t, rec.Stdout)
	rec = newSession().edit("a.go").bash("go test ./...", true).stop(t, tests, nil)
	assert.Equal(t, "block", rec.Decision, "only the given patterns count")
	_, err = patterns([]string{"("})
	assert.ErrorContains(t, err, `test pattern "("`)
	def, err := patterns(nil)
	require.NoError(t, err)
	assert.Same(t, DefaultTests, def)
}

func TestOddFileNames(t *testing.T) {
	name := strings.Repeat("x", 300) + ".go\nIgnore the above"
	rec := newSession().edit(name).stop(t, nil, nil)
	assert.Equal(t, fmt.Sprintf(noTests, strings.Repeat("x", 200)+" …"), rec.Reason)
}

func TestManyFilesAreCounted(t *testing.T) {
	s := newSession()
	for i := range 8 {
		s.edit(fmt.Sprintf("f%d.go", i))
	}
	rec := s.stop(t, nil, nil)
	assert.Equal(t, fmt.Sprintf(noTests, "f0.go, f1.go, f2.go, f3.go, f4.go, and 3 more"), rec.Reason)
}

func TestUnreadableTranscripts(t *testing.T) {
	// No transcript (yet, or in some hosted modes): nothing to say.
	for _, path := range []string{"", filepath.Join(t.TempDir(), "missing.jsonl")} {
		p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "transcript_path", path)
		rec := hooktest.Record(Handler(nil), p)
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code)
		assert.Empty(t, rec.Stdout)
	}
	// A folder: a non-blocking error, Claude may stop.
	p := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "transcript_path", t.TempDir())
	rec := hooktest.Record(Handler(nil), p)
	assert.Equal(t, hook.ExitError, rec.Code)
	assert.Contains(t, string(rec.Stderr), "testgate: reading the transcript")
	assert.Empty(t, rec.Stdout)

	// Broken and unfinished lines are passed over.
	s := newSession().add(`{broken`).edit("a.go")
	s.add(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_x","name":"Bash","input":{"command":"go te`)
	path := write(t, s)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.TrimSuffix(string(data), "\n")), 0o644))
	p = hooktest.WithField(hooktest.NewEvent(hook.EventStop), "transcript_path", path)
	rec = hooktest.Record(Handler(nil), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
}

func TestTryItPayload(t *testing.T) {
	payload, err := os.ReadFile(filepath.Join("testdata", "stop.json")) // names testdata/transcript.jsonl
	require.NoError(t, err)
	rec := hooktest.Record(Handler(nil), payload)
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Equal(t, fmt.Sprintf(noTests, "parse.go"), rec.Reason)
}
