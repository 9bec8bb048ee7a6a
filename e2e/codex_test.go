package e2e_test

// The same hook under the real OpenAI Codex CLI (see codexharness_test.go):
// what Codex sends a hook built with the library, and what it does with
// its answers. docs/agents.md records the runs.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/rawjson"
)

// rewritten is the text the rewrite tests' command writes: a quote, a
// backslash, a tab and non-ASCII text.
const rewritten = "q\"b\\\tKöln ☃ 日本"

// rewrittenCommand writes rewritten and a newline to out.txt.
var rewrittenCommand = "printf '%s\\n' " + shellQuote(rewritten) + " > out.txt"

// answerOf runs the hook command on payload, as Codex did, and returns
// what it wrote on stdout.
func answerOf(t *testing.T, payload []byte, command ...string) []byte {
	t.Helper()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin = bytes.NewReader(payload)
	out, err := cmd.Output()
	require.NoError(t, err)
	return out
}

// codexPayload checks what Codex sent for the shell call cmd, and returns
// it.
func codexPayload(t *testing.T, log, cmd string) []byte {
	t.Helper()
	ps := payloads(t, log)
	require.Len(t, ps, 1, "PreToolUse payloads")
	p := ps[0]
	assert.Equal(t, agent.Codex, agent.Detect(p), "%s", p)
	assert.Equal(t, `"PreToolUse"`, string(field(t, p, "hook_event_name")))
	assert.Equal(t, `"Bash"`, string(field(t, p, "tool_name")), "Codex's exec_command reaches hooks as Bash")
	in := field(t, p, "tool_input")
	ms, err := rawjson.Members(in)
	require.NoError(t, err)
	require.Len(t, ms, 1, "tool_input is {command} only: %s", in)
	assert.Equal(t, cmd, str(t, jsontext.Value(ms[0].Value)))
	for _, k := range []string{"turn_id", "model", "permission_mode", "tool_use_id", "session_id", "transcript_path", "cwd"} {
		field(t, p, k)
	}
	return p
}

// shellCall is one `codex exec` run in which the model makes one shell
// call, with shellhook built and the file it logs payloads to.
type shellCall struct {
	*codexResult
	Hook, Log string
}

// runShellCall skips t unless Codex can run, marks it parallel, builds
// shellhook and runs Codex once: the model calls the shell with cmd, then
// says "ok". hooks gives the session its hooks (Hooks or Setup) from the
// hook's path and its payload log.
func runShellCall(t *testing.T, cmd string, hooks func(s *codexSession, hook, log string)) shellCall {
	t.Helper()
	bin := needCodex(t)
	t.Parallel()
	c := shellCall{Hook: hooktest.BuildGo(t, "./testdata/shellhook"), Log: filepath.Join(t.TempDir(), "payloads.log")}
	s := codexSession{Turns: []any{execCommand(cmd), map[string]any{"say": "ok"}}}
	hooks(&s, c.Hook, c.Log)
	c.codexResult = runCodex(t, bin, s)
	return c
}

// TestCodexDeny: a deny from a library hook blocks Codex's shell call, the
// command never runs, and the model is told the hook's reason.
func TestCodexDeny(t *testing.T) {
	const cmd = "echo ran > marker.txt"
	r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
		s.Hooks = codexHooks(t, hook, log, "deny")
	})
	codexPayload(t, r.Log, cmd)
	assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the denied command ran")
	assert.Equal(t, "Command blocked by PreToolUse hook: shellhook: no "+cmd+". Command: "+cmd,
		r.toolOutput(t, "call_1"))
}

// TestCodexRewriteAllow: Allow with an UpdatedInput built with Merge
// reaches Codex's shell whole: the rewritten command runs, quote,
// backslash, tab and non-ASCII text intact, and the original does not;
// the answer passes Codex's rules as agent.CheckCodexAnswer applies them.
func TestCodexRewriteAllow(t *testing.T) {
	const cmd = "echo original > orig.txt"
	r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
		s.Hooks = codexHooks(t, hook, log, "allow", rewrittenCommand)
	})
	p := codexPayload(t, r.Log, cmd)
	assert.Equal(t, []string{"Completed"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.NoFileExists(t, filepath.Join(r.Project, "orig.txt"), "the original command ran")
	got, err := os.ReadFile(filepath.Join(r.Project, "out.txt"))
	require.NoError(t, err, "the rewritten command did not run; told the model: %s", r.toolOutput(t, "call_1"))
	assert.Equal(t, rewritten+"\n", string(got))

	answer := answerOf(t, p, r.Hook, r.Log, "allow", rewrittenCommand)
	assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", answer), "%s", answer)
	upd := field(t, answer, "hookSpecificOutput", "updatedInput")
	ms, err := rawjson.Members(upd)
	require.NoError(t, err)
	orig, _ := rawjson.Members(field(t, p, "tool_input"))
	require.Len(t, ms, len(orig), "every member kept: %s", upd)
	for i := range orig {
		assert.Equal(t, orig[i].Key, ms[i].Key)
	}
}

// TestCodexRewriteWithoutDecision: an UpdatedInput without a decision —
// what Claude Code applies before its permission flow — is reported
// Failed by Codex and the ORIGINAL command runs: the rewrite would be
// dropped in silence. A hook built with the library whose answer does
// not choose (PreToolUseOutput.CodexRewrite unset) does not write it to
// Codex: it exits 1 (the handler's failure, fail-open) and says on stderr
// what an allow costs and which choices there are, and
// agent.CheckCodexAnswer refuses the same answer, naming the field.
func TestCodexRewriteWithoutDecision(t *testing.T) {
	const cmd = "echo original > orig.txt"
	r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
		s.Hooks = codexHooks(t, hook, log, "bare", rewrittenCommand)
	})
	p := codexPayload(t, r.Log, cmd)
	assert.Equal(t, []string{"Failed"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.FileExists(t, filepath.Join(r.Project, "orig.txt"), "Codex ran the original command")
	assert.NoFileExists(t, filepath.Join(r.Project, "out.txt"), "the rewrite was applied")

	c := exec.Command(r.Hook, r.Log, "bare", rewrittenCommand)
	c.Stdin = bytes.NewReader(p)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "the hook exits non-zero: %v", err)
	assert.Equal(t, 1, ee.ExitCode(), "stderr: %s", stderr.String())
	assert.Empty(t, stdout.String(), "no answer Codex would refuse is written")
	assert.Contains(t, stderr.String(), "hookSpecificOutput.updatedInput")
	// The trade-off and the choices, not a prescription to allow.
	assert.Contains(t, stderr.String(), "an allow skips Codex's approval prompt")
	assert.Contains(t, stderr.String(), "hook.CodexRewriteSkip")

	q, err := json.Marshal(rewrittenCommand)
	require.NoError(t, err)
	bare := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":` + string(q) + `}}}`
	err = agent.CheckCodexAnswer("PreToolUse", []byte(bare))
	var ce *agent.CodexError
	require.True(t, errors.As(err, &ce), "refused: %v (%s)", err, bare)
	assert.Equal(t, "hookSpecificOutput.updatedInput", ce.Field)
	assert.True(t, strings.Contains(err.Error(), `"allow"`), "%v", err)
}

// TestCodexIgnoresWhatCheckRefuses: answers that agent.CheckCodexAnswer
// refuses are, on the real Codex, a Failed hook whose answer is ignored:
// the call runs as if there were no hook. The last case is a control that
// the check accepts and Codex applies.
func TestCodexIgnoresWhatCheckRefuses(t *testing.T) {
	bin := needCodex(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/shellhook")
	tests := []struct {
		name, answer string
		field        string // the field CheckCodexAnswer names; "" for the control
	}{
		{"ask", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, "hookSpecificOutput.permissionDecision"},
		{"allow without updatedInput", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, "hookSpecificOutput.permissionDecision"},
		{"unknown member with a deny", `{"onFailure":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "onFailure"},
		{"continue false with a deny", `{"continue":false,"stopReason":"stop","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "continue"},
		{"deny without reason", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, "hookSpecificOutput.permissionDecisionReason"},
		{"control: legacy block", `{"decision":"block","reason":"legacy no"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := agent.CheckCodexAnswer("PreToolUse", []byte(tt.answer))
			if tt.field == "" {
				require.NoError(t, err)
			} else {
				var ce *agent.CodexError
				require.True(t, errors.As(err, &ce), "refused: %v", err)
				require.Equal(t, tt.field, ce.Field)
			}
			log := filepath.Join(t.TempDir(), "payloads.log")
			const cmd = "echo ran > marker.txt"
			r := runCodex(t, bin, codexSession{
				Turns: []any{execCommand(cmd), map[string]any{"say": "ok"}},
				Hooks: codexHooks(t, hook, log, "print", tt.answer),
			})
			require.Len(t, payloads(t, log), 1)
			if tt.field == "" {
				assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
				assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"))
				assert.Contains(t, r.toolOutput(t, "call_1"), "legacy no")
				return
			}
			assert.Equal(t, []string{"Failed"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
			assert.FileExists(t, filepath.Join(r.Project, "marker.txt"), "Codex ran the call as if there were no hook")
		})
	}
}

// TestCodexPayloadsAreDetected: every payload the real Codex sends a hook
// in a session with one shell call — SessionStart, UserPromptSubmit,
// PreToolUse, PostToolUse, Stop — is recognised as Codex's by
// agent.Detect.
func TestCodexPayloadsAreDetected(t *testing.T) {
	bin := needCodex(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/shellhook")
	dir := t.TempDir()
	events := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}
	hooks := map[string]any{}
	for _, ev := range events {
		command := shellQuote(hook) + " " + shellQuote(filepath.Join(dir, ev+".log")) + " print ''"
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}}
	}
	b, err := json.Marshal(map[string]any{"hooks": hooks})
	require.NoError(t, err)
	r := runCodex(t, bin, codexSession{
		Turns: []any{execCommand("echo ran > marker.txt"), map[string]any{"say": "ok"}},
		Hooks: string(b),
	})
	assert.FileExists(t, filepath.Join(r.Project, "marker.txt"))
	for _, ev := range events {
		ps := payloads(t, filepath.Join(dir, ev+".log"))
		require.NotEmpty(t, ps, "%s: no payload; stderr:\n%s", ev, r.Stderr)
		for _, p := range ps {
			assert.Equal(t, `"`+ev+`"`, string(field(t, p, "hook_event_name")))
			assert.Equal(t, agent.Codex.String(), agent.Detect(p).String(), "%s", p)
			t.Logf("%s", p)
		}
	}
}

// TestCodexBlock: hook.Block (exit code 2, the reason on stderr) blocks
// Codex's shell call and the model is told the reason.
func TestCodexBlock(t *testing.T) {
	const cmd = "echo ran > marker.txt"
	r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
		s.Hooks = codexHooks(t, hook, log, "block")
	})
	codexPayload(t, r.Log, cmd)
	assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the blocked command ran")
	assert.Contains(t, r.toolOutput(t, "call_1"), "shellhook blocks "+cmd)
	t.Logf("told the model: %s", r.toolOutput(t, "call_1"))
}
