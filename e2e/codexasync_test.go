package e2e_test

// What the real Codex does with a command hook whose handler says
// "async": true (docs/agents.md, "Async hooks under Codex"; the rules are
// agent.CheckCodexAsyncAnswer's).

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
)

// TestCodexAsync: Codex runs async hooks without waiting for them. A
// library hook's deny on PreToolUse does not stop the command, and no
// hook status is reported; the payload says nothing of async. A
// PostToolUse answer that fits the schema has its additionalContext
// added for the model at a later request and its systemMessage shown;
// one that breaks the schema is dropped whole. agent.CheckCodexAsyncAnswer
// says the same of each answer.
func TestCodexAsync(t *testing.T) {
	bin := needCodex(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/shellhook")
	dir := t.TempDir()
	preLog, postLog, badLog := filepath.Join(dir, "pre.log"), filepath.Join(dir, "post.log"), filepath.Join(dir, "bad.log")
	done, badDone := filepath.Join(dir, "done"), filepath.Join(dir, "bad-done")
	const (
		context = `{"systemMessage":"SYS-ASYNC","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-ASYNC"}}`
		broken  = `{"bogus":1,"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-DROPPED"}}`
	)
	line := func(words ...string) string {
		q := make([]string, len(words))
		for i, w := range words {
			q[i] = shellQuote(w)
		}
		return strings.Join(q, " ")
	}
	async := func(command string) map[string]any {
		return map[string]any{"type": "command", "command": command, "async": true}
	}
	hooks, err := json.Marshal(map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{async(line(hook, preLog, "deny"))}}},
		"PostToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
			// touch runs once the hook has exited, its answer written.
			async(line(hook, postLog, "print", context) + " && touch " + shellQuote(done)),
			async(line(hook, badLog, "print", broken) + " && touch " + shellQuote(badDone)),
		}}},
	}})
	require.NoError(t, err)
	// The second call waits for the async hooks of the first, so that
	// their answers are in before the turn goes on.
	wait := "until [ -s " + shellQuote(preLog) + " ] && [ -f " + shellQuote(done) + " ] && [ -f " + shellQuote(badDone) + " ]; do sleep 0.05; done"
	r := runCodex(t, bin, codexSession{
		Turns: []any{execCommand("echo ran > marker.txt"), execCommand(wait), execCommand("true"), map[string]any{"say": "ok"}},
		Hooks: string(hooks),
	})

	// The deny did not stop the command, and no status was reported.
	assert.FileExists(t, filepath.Join(r.Project, "marker.txt"), "an async hook's deny stopped the command")
	assert.Empty(t, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.Empty(t, r.hookStatuses("PostToolUse"), "stderr:\n%s", r.Stderr)
	pre := payloads(t, preLog)
	require.NotEmpty(t, pre, "the async PreToolUse hook did not run")
	assert.Equal(t, `"PreToolUse"`, string(field(t, pre[0], "hook_event_name")))
	assert.NotContains(t, string(pre[0]), "async", "the payload tells the hook it runs async: %s", pre[0])

	// The context reached the model at a later request; the broken
	// answer's did not; the systemMessage was shown.
	var with []int
	for _, q := range r.Requests {
		if strings.Contains(q.Body, "CTX-ASYNC") {
			with = append(with, q.N)
		}
		assert.NotContains(t, q.Body, "CTX-DROPPED", "request %d", q.N)
	}
	require.NotEmpty(t, with, "the async hook's additionalContext never reached the model")
	assert.Greater(t, with[0], 1)
	assert.Contains(t, r.Stderr+r.Stdout, "SYS-ASYNC")

	// What agent.CheckCodexAsyncAnswer says of the three answers.
	deny := answerOf(t, pre[0], hook, filepath.Join(dir, "check.log"), "deny")
	require.NoError(t, agent.CheckCodexAnswer("PreToolUse", deny), "%s", deny)
	var ce *agent.CodexError
	require.ErrorAs(t, agent.CheckCodexAsyncAnswer("PreToolUse", deny), &ce, "%s", deny)
	assert.Equal(t, "hookSpecificOutput.permissionDecision", ce.Field)
	assert.NoError(t, agent.CheckCodexAsyncAnswer("PostToolUse", []byte(context)))
	require.ErrorAs(t, agent.CheckCodexAsyncAnswer("PostToolUse", []byte(broken)), &ce)
	assert.Contains(t, ce.Rule, "drops the whole answer")
}
