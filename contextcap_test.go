package hook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// capField is one place of an answer whose text Claude Code caps: the
// event, how to set the text in an answer, and where to read it back.
type capField struct {
	event string
	name  string // the member, or "Text" for a plain-text answer
	set   func(text string) hook.Output
}

// capFields lists every capped text of every answer type: the
// AdditionalContext, InitialUserMessage and Text fields, found by
// reflection, and the SystemMessage every answer has.
func capFields(t *testing.T) []capField {
	t.Helper()
	outputs := []hook.Output{
		&hook.PreCompactOutput{}, &hook.PostCompactOutput{}, &hook.ConfigChangeOutput{}, &hook.ElicitationOutput{},
		&hook.ElicitationResultOutput{}, &hook.InstructionsLoadedOutput{}, &hook.CwdChangedOutput{}, &hook.FileChangedOutput{},
		&hook.DirectoryAddedOutput{}, &hook.InterruptOutput{}, &hook.MessageDisplayOutput{}, &hook.PreModelSwitchOutput{},
		&hook.PostModelSwitchOutput{}, &hook.NotificationOutput{}, &hook.PermissionDeniedOutput{},
		&hook.PostToolBatchOutput{}, &hook.PostToolUseOutput{}, &hook.PostToolUseFailureOutput{}, &hook.PreSkillShellCommandOutput{},
		&hook.PreToolUseOutput{}, &hook.UserPromptSubmitOutput{}, &hook.UserPromptExpansionOutput{}, &hook.SessionStartOutput{},
		&hook.SessionEndOutput{}, &hook.SetupOutput{}, &hook.StopOutput{}, &hook.StopFailureOutput{}, &hook.SubagentStartOutput{},
		&hook.SubagentStopOutput{}, &hook.TeammateIdleOutput{}, &hook.TaskCreatedOutput{}, &hook.TaskCompletedOutput{},
	}
	members := map[string]string{"AdditionalContext": "additionalContext", "InitialUserMessage": "initialUserMessage", "Text": "Text"}
	var fs []capField
	for _, o := range outputs {
		typ := reflect.TypeOf(o).Elem()
		event := strings.TrimSuffix(typ.Name(), "Output")
		for _, goName := range []string{"AdditionalContext", "InitialUserMessage", "Text", "SystemMessage"} {
			if _, ok := typ.FieldByName(goName); !ok {
				continue
			}
			member := members[goName]
			if goName == "SystemMessage" {
				member = "systemMessage"
			}
			fs = append(fs, capField{event: event, name: member, set: func(text string) hook.Output {
				v := reflect.New(typ)
				v.Elem().FieldByName(goName).SetString(text)
				return v.Interface().(hook.Output)
			}})
		}
	}
	require.Greater(t, len(fs), 40, "the answer types were found")
	return fs
}

// fieldText returns the text of f in the answer stdout.
func fieldText(t *testing.T, f capField, stdout string) string {
	t.Helper()
	if f.name == "Text" {
		return strings.TrimSuffix(stdout, "\n")
	}
	var a struct {
		SystemMessage string `json:"systemMessage"`
		Specific      map[string]any
		HSO           map[string]any `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &a), "%s", stdout)
	if f.name == "systemMessage" {
		return a.SystemMessage
	}
	s, _ := a.HSO[f.name].(string)
	return s
}

// capTexts returns texts of n UTF-16 code units made of one unit
// repeated: ASCII, two-byte, three-byte, astral characters, and CRLF lines.
func capTexts(n int) map[string]string {
	line := func(eol string) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "line %05d é😀%s", i, eol)
		}
		return cutUnits(b.String(), n)
	}
	return map[string]string{
		"ascii":  strings.Repeat("a", n),
		"é":      strings.Repeat("é", n),
		"€":      strings.Repeat("€", n),
		"astral": strings.Repeat("😀", n/2) + strings.Repeat("b", n%2),
		"lf":     line("\n"),
		"crlf":   line("\r\n"),
	}
}

// cutUnits returns the head of s of exactly n UTF-16 code units, padded
// with "c" where an astral character would be split.
func cutUnits(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i] + strings.Repeat("c", n-units)
		}
		units += w
	}
	return s + strings.Repeat("c", n-units)
}

func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// serveCap serves one answer to event with s, the event's payload naming
// transcript.
func serveCap(t *testing.T, s hook.Server, event string, out hook.Output, transcript string) (int, string, string) {
	t.Helper()
	s.Handler = hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return out, nil })
	in := fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":"/w","hook_event_name":%q,"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`, transcript, event)
	var stdout, stderr bytes.Buffer
	code := s.Serve(context.Background(), strings.NewReader(in), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// serveCapID is serveCap for a SessionStart payload with session id id.
func serveCapID(t *testing.T, s hook.Server, id string, out hook.Output, transcript string) (int, string, string) {
	t.Helper()
	s.Handler = hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return out, nil })
	in := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/w","hook_event_name":"SessionStart","source":"startup"}`, id, transcript)
	var stdout, stderr bytes.Buffer
	code := s.Serve(context.Background(), strings.NewReader(in), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

var (
	spillNotice    = regexp.MustCompile(`\n\n\[Cut here: this text is (\d+) characters, over the 10000 Claude Code passes on\. The whole text is in the file (.+); read it for the rest\.\]$`)
	truncateNotice = regexp.MustCompile(`\n\n\[Cut here: the last (\d+) of this text's (\d+) characters were left out, over the 10000 Claude Code passes on\.\]$`)
)

// TestLongTextAtTheCap: a text of at most MaxTextChars UTF-16 code units
// is written whole under every policy, on every capped field of every
// answer, whatever its characters; so is one over the cap for Codex.
func TestLongTextAtTheCap(t *testing.T) {
	for _, f := range capFields(t) {
		for _, n := range []int{hook.MaxTextChars - 1, hook.MaxTextChars} {
			for kind, text := range capTexts(n) {
				if f.name == "Text" && (kind == "lf" || kind == "crlf") {
					text = "x" + text[1:]
				}
				for _, p := range []hook.LongTextPolicy{hook.LongTextSpill, hook.LongTextTruncate, hook.LongTextRefuse} {
					code, stdout, stderr := serveCap(t, hook.Server{LongText: p, SpillDir: t.TempDir()}, f.event, f.set(text), "/t/s1.jsonl")
					if !assert.Equal(t, hook.ExitOK, code, "%s %s %s %d: %s", f.event, f.name, kind, n, stderr) {
						continue
					}
					assert.Equal(t, strings.TrimRight(text, " \r\n"), fieldText(t, f, stdout), "%s %s %s %d %v", f.event, f.name, kind, n, p)
				}
			}
		}
	}
}

// TestLongTextOverTheCap: a text over the cap, on every capped field of
// every answer, is spilled (the answer within the cap, its head and a
// line naming a file holding every byte), truncated (its head and a line
// counting what was cut) or refused, as the policy says, and hooktest's
// checker agrees that the answer written is within the cap.
func TestLongTextOverTheCap(t *testing.T) {
	dir := t.TempDir()
	for _, f := range capFields(t) {
		for _, n := range []int{hook.MaxTextChars + 1, 30000} {
			for kind, text := range capTexts(n) {
				what := fmt.Sprintf("%s %s %s %d", f.event, f.name, kind, n)
				// Spill.
				code, stdout, stderr := serveCap(t, hook.Server{SpillDir: dir}, f.event, f.set(text), "/t/s1.jsonl")
				require.Equal(t, hook.ExitOK, code, "%s: %s", what, stderr)
				got := fieldText(t, f, stdout)
				assert.LessOrEqual(t, jsLen(got), hook.MaxTextChars, what)
				m := spillNotice.FindStringSubmatchIndex(got)
				require.NotNil(t, m, "%s: %q", what, got[max(0, len(got)-300):])
				head := got[:m[0]]
				assert.Equal(t, strconv.Itoa(n), got[m[2]:m[3]], what)
				assert.True(t, strings.HasPrefix(text, head), "%s: the head is the text's", what)
				assert.Greater(t, jsLen(head), hook.MaxTextChars/2, what)
				assert.True(t, utf8.ValidString(head), what)
				if strings.Contains(text[:len(head)], "\n") {
					assert.True(t, strings.HasSuffix(head, "\n"), "%s: cut at a line break", what)
				}
				path := got[m[4]:m[5]]
				assert.True(t, filepath.IsAbs(path), what)
				b, err := os.ReadFile(path)
				require.NoError(t, err, what)
				assert.True(t, string(b) == text, "%s: the file holds the whole text", what)
				assert.Empty(t, capViolations(hooktest.CheckAnswer(serveIn(f.event), code, []byte(stdout), nil)), "%s: hooktest agrees the answer is within the cap", what)
				assert.NotEmpty(t, capViolations(hooktest.CheckAnswer(serveIn(f.event), code, []byte(rawAnswer(t, f, text)), nil)), "%s: hooktest flags the text written whole", what)

				// Truncate.
				code, stdout, stderr = serveCap(t, hook.Server{LongText: hook.LongTextTruncate}, f.event, f.set(text), "/t/s1.jsonl")
				require.Equal(t, hook.ExitOK, code, "%s: %s", what, stderr)
				got = fieldText(t, f, stdout)
				assert.LessOrEqual(t, jsLen(got), hook.MaxTextChars, what)
				m = truncateNotice.FindStringSubmatchIndex(got)
				require.NotNil(t, m, "%s: %q", what, got[max(0, len(got)-300):])
				head = got[:m[0]]
				assert.True(t, strings.HasPrefix(text, head), "%s: the head is the text's", what)
				assert.Equal(t, strconv.Itoa(n-jsLen(head)), got[m[2]:m[3]], "%s: the count of what was cut", what)
				assert.Equal(t, strconv.Itoa(n), got[m[4]:m[5]], what)
				assert.Empty(t, capViolations(hooktest.CheckAnswer(serveIn(f.event), code, []byte(stdout), nil)), what)

				// Refuse: nothing written, a failure naming the field.
				code, stdout, stderr = serveCap(t, hook.Server{LongText: hook.LongTextRefuse}, f.event, f.set(text), "/t/s1.jsonl")
				assert.Equal(t, hook.ExitError, code, what)
				assert.Empty(t, stdout, what)
				assert.Contains(t, stderr, fmt.Sprintf("%s is %d characters", f.name, n), what)
			}
		}
	}
}

// rawAnswer is the answer of f holding text whole, as the library would
// write it without the cap.
func rawAnswer(t *testing.T, f capField, text string) string {
	t.Helper()
	if f.name == "Text" {
		return strings.TrimRight(text, " \r\n") + "\n"
	}
	q, err := json.Marshal(text)
	require.NoError(t, err)
	if f.name == "systemMessage" {
		return `{"systemMessage":` + string(q) + "}\n"
	}
	return fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":%q,%q:%s}}`, f.event, f.name, q) + "\n"
}

// capViolations returns the hooktest.RuleOutputCap violations of err.
func capViolations(err error) []*hooktest.Violation {
	var out []*hooktest.Violation
	var walk func(error)
	walk = func(err error) {
		if v, ok := err.(*hooktest.Violation); ok && v.Rule == hooktest.RuleOutputCap {
			out = append(out, v)
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

// serveIn is the payload serveCap sends, for hooktest.CheckAnswer.
func serveIn(event string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","hook_event_name":%q,"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`, event))
}

// TestLongTextSpillPlace: by default the whole text goes to the session's
// folder beside its transcript, where Claude Code keeps its own long
// outputs; to the temporary folder when the payload names no absolute
// transcript path or a session id that is not a plain name; the same
// text to the same file, written once.
func TestLongTextSpillPlace(t *testing.T) {
	text := strings.Repeat("x", 20000)
	out := &hook.SessionStartOutput{AdditionalContext: text}
	pathOf := func(stdout string) string {
		m := spillNotice.FindStringSubmatch(fieldText(t, capField{name: "additionalContext"}, stdout))
		require.NotNil(t, m, stdout)
		return m[2]
	}
	session := t.TempDir()
	code, stdout, stderr := serveCap(t, hook.Server{}, "SessionStart", out, filepath.Join(session, "s1.jsonl"))
	require.Equal(t, hook.ExitOK, code, stderr)
	p := pathOf(stdout)
	assert.Equal(t, filepath.Join(session, "s1", "hook-context"), filepath.Dir(p))
	assert.True(t, strings.HasPrefix(filepath.Base(p), "SessionStart-additionalContext-"), p)
	fi, err := os.Stat(p)
	require.NoError(t, err)
	before := fi.ModTime()
	code, stdout, _ = serveCap(t, hook.Server{}, "SessionStart", out, filepath.Join(session, "s1.jsonl"))
	require.Equal(t, hook.ExitOK, code)
	assert.Equal(t, p, pathOf(stdout), "the same text, the same file")
	fi, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, before, fi.ModTime(), "not written again")
	entries, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")
	code, stdout, _ = serveCap(t, hook.Server{}, "SessionStart", &hook.SessionStartOutput{AdditionalContext: text + "y"}, filepath.Join(session, "s1.jsonl"))
	require.Equal(t, hook.ExitOK, code)
	assert.NotEqual(t, p, pathOf(stdout), "another text, another file")

	// A first session: Claude Code has not made the project's folder
	// yet, but its config folder is there.
	config := t.TempDir()
	transcript := filepath.Join(config, "projects", "-w", "s1.jsonl")
	code, stdout, stderr = serveCap(t, hook.Server{}, "SessionStart", out, transcript)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, filepath.Join(config, "projects", "-w", "s1", "hook-context"), filepath.Dir(pathOf(stdout)))

	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("TMP", tmp)
	t.Setenv("TEMP", tmp)
	missing := filepath.Join(t.TempDir(), "gone")
	for _, transcript := range []string{
		"", "relative/s1.jsonl",
		filepath.Join(missing, ".claude", "projects", "-w", "s1.jsonl"), // no config folder
		filepath.Join(missing, "s1.jsonl"),                              // not Claude Code's layout
		filepath.Join(session, "s1.jsonl"),                              // with a session id that is a path, below
	} {
		o := out
		s := hook.Server{}
		in := transcript
		if transcript == filepath.Join(session, "s1.jsonl") {
			code, stdout, stderr = serveCapID(t, s, "../../x", o, in)
		} else {
			code, stdout, stderr = serveCap(t, s, "SessionStart", o, in)
		}
		require.Equal(t, hook.ExitOK, code, stderr)
		assert.Equal(t, filepath.Join(tmp, "gohooks-context"), filepath.Dir(pathOf(stdout)), "transcript %q", transcript)
	}
	_, err = os.Stat(missing)
	assert.True(t, os.IsNotExist(err), "no folder made where a payload points")
}

// TestLongTextSpillFails: a file that cannot be written is a failure of
// the answer, never a silent cut: exit 1, or 2 for a guard that fails
// closed.
func TestLongTextSpillFails(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notDir, nil, 0o600))
	long := strings.Repeat("x", 20000)
	code, stdout, stderr := serveCap(t, hook.Server{SpillDir: notDir}, "SessionStart", &hook.SessionStartOutput{AdditionalContext: long}, "")
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "could not be saved to a file")
	code, stdout, _ = serveCap(t, hook.Server{SpillDir: notDir, FailClosed: true}, "PreToolUse", &hook.PreToolUseOutput{Decision: hook.Allow, AdditionalContext: long}, "")
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)

	// The library's own folder in a shared temporary folder: one that
	// others may open, or a link another user put there, is not written
	// to.
	if runtime.GOOS == "windows" {
		return
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	own := filepath.Join(tmp, "gohooks-context")
	require.NoError(t, os.Mkdir(own, 0o700))
	require.NoError(t, os.Chmod(own, 0o777))
	code, stdout, stderr = serveCap(t, hook.Server{}, "SessionStart", &hook.SessionStartOutput{AdditionalContext: long}, "")
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "only it can open")
	require.NoError(t, os.Remove(own))
	require.NoError(t, os.Symlink(t.TempDir(), own))
	code, stdout, _ = serveCap(t, hook.Server{}, "SessionStart", &hook.SessionStartOutput{AdditionalContext: long}, "")
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
}

// TestLongTextKeepsTheRest: only the long text changes; every other
// member of the answer is written as it would be, and a systemMessage and
// an additionalContext both over the cap are both spilled.
func TestLongTextKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	out := &hook.PreToolUseOutput{
		Common:            hook.Common{SystemMessage: strings.Repeat("s", 12000)},
		Decision:          hook.Deny,
		Reason:            "no",
		AdditionalContext: strings.Repeat("c", 12000),
	}
	code, stdout, stderr := serveCap(t, hook.Server{SpillDir: dir}, "PreToolUse", out, "")
	require.Equal(t, hook.ExitOK, code, stderr)
	var a struct {
		SystemMessage string `json:"systemMessage"`
		HSO           struct {
			HookEventName, PermissionDecision, PermissionDecisionReason, AdditionalContext string
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &a))
	assert.Equal(t, "deny", a.HSO.PermissionDecision)
	assert.Equal(t, "no", a.HSO.PermissionDecisionReason)
	assert.Regexp(t, spillNotice, a.SystemMessage)
	assert.Regexp(t, spillNotice, a.HSO.AdditionalContext)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2)
	// Codex: written whole.
	in := `{"session_id":"s1","transcript_path":"/h/.codex/sessions/2026/12/04/rollout-2026-12-04T10-00-00-s1.jsonl","cwd":"/w","hook_event_name":"SessionStart","model":"gpt-5","source":"startup"}`
	s := hook.Server{SpillDir: dir, Handler: hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return &hook.SessionStartOutput{AdditionalContext: strings.Repeat("c", 12000)}, nil
	})}
	var o, e bytes.Buffer
	code = s.Serve(context.Background(), strings.NewReader(in), &o, &e)
	require.Equal(t, hook.ExitOK, code, e.String())
	assert.Contains(t, o.String(), strings.Repeat("c", 12000))
}

// TestLongTextHTTP: an http hook's answer is capped as a command hook's,
// including a plain-text answer, which an http hook writes as context.
func TestLongTextHTTP(t *testing.T) {
	dir := t.TempDir()
	s := hook.Server{SpillDir: dir, Handler: hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return &hook.UserPromptSubmitOutput{Text: strings.Repeat("t\n", 10000)}, nil
	})}
	in := `{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"hi"}`
	rep := s.ServeHTTPBody(context.Background(), strings.NewReader(in), int64(len(in)), nil)
	require.Equal(t, 200, rep.Status, string(rep.Body))
	ctx := fieldText(t, capField{name: "additionalContext"}, string(rep.Body))
	assert.LessOrEqual(t, jsLen(ctx), hook.MaxTextChars)
	assert.Regexp(t, spillNotice, ctx)
}

// ExampleServer_longText: a SessionStart hook whose context may be long.
// By default a text over the cap is saved to a file and the answer keeps
// its head and a line naming the file; LongTextTruncate cuts it instead.
func ExampleServer_longText() {
	s := hook.Server{
		LongText: hook.LongTextTruncate,
		Handler: hook.SessionStartFunc(func(ctx context.Context, e *hook.SessionStart) (*hook.SessionStartOutput, error) {
			return &hook.SessionStartOutput{AdditionalContext: strings.Repeat("a rule\n", 2000)}, nil
		}),
	}
	in := `{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}`
	var stdout bytes.Buffer
	s.Serve(context.Background(), strings.NewReader(in), &stdout, os.Stderr)
	var a struct {
		HookSpecificOutput struct{ AdditionalContext string }
	}
	json.Unmarshal(stdout.Bytes(), &a)
	ctx := a.HookSpecificOutput.AdditionalContext
	fmt.Println(len(ctx), strings.Count(ctx, "a rule\n"))
	fmt.Println(ctx[strings.LastIndex(ctx, "\n")+1:])
	// Output:
	// 9996 1412
	// [Cut here: the last 4116 of this text's 14000 characters were left out, over the 10000 Claude Code passes on.]
}
