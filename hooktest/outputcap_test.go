package hooktest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// capViolations returns the RuleOutputCap violations of err.
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

func TestCheckAnswerOutputCap(t *testing.T) {
	post := hooktest.Payload("posttooluse-bash")
	prompt := hooktest.Payload("userpromptsubmit")
	text := func(n int, unit string) string { return strings.Repeat(unit, n) }
	specific := func(event, s string) string {
		return fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":%q,"additionalContext":%q}}`, event, s)
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		stdout string
		ptr    string
		chars  int
	}{
		{"additionalContext at the cap", post, specific("PostToolUse", text(10000, "é")), "", 0},
		{"additionalContext over the cap", post, specific("PostToolUse", text(10001, "é")), "/hookSpecificOutput/additionalContext", 10001},
		{"astral characters count twice", post, specific("PostToolUse", text(5000, "😀")), "", 0},
		{"astral characters over the cap", post, specific("PostToolUse", text(5000, "😀")+"x"), "/hookSpecificOutput/additionalContext", 10001},
		{"systemMessage over the cap", post, fmt.Sprintf(`{"systemMessage":%q}`, text(12000, "a")), "/systemMessage", 12000},
		{"initialUserMessage over the cap", hooktest.Payload("sessionstart-startup"), fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":"SessionStart","initialUserMessage":%q}}`, text(10001, "a")), "/hookSpecificOutput/initialUserMessage", 10001},
		{"plain text at the cap", prompt, text(10000, "a"), "", 0},
		{"plain text over the cap", prompt, text(10001, "a"), "", 10001},
		{"a long reason is not capped", post, fmt.Sprintf(`{"decision":"block","reason":%q}`, text(12000, "a")), "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := hooktest.CheckAnswer(tc.in, 0, []byte(tc.stdout), nil)
			vs := capViolations(err)
			if tc.chars == 0 {
				assert.Empty(t, vs, "%v", err)
				return
			}
			require.Len(t, vs, 1, "%v", err)
			assert.Equal(t, tc.ptr, vs[0].Pointer)
			assert.Contains(t, vs[0].Error(), fmt.Sprintf("%d characters", tc.chars))
			assert.Contains(t, vs[0].Error(), "10,000 characters")
		})
	}
}

// TestRecorderOutputCap: a hook built with the library that answers
// more context than Claude Code passes on is kept within the cap by the
// library (hook.Server's LongText, by default spilling the text to a
// file), so its Recorder finds nothing to flag; the same answer written
// whole is flagged.
func TestRecorderOutputCap(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("TMP", tmp)
	t.Setenv("TEMP", tmp)
	h := hook.SessionStartFunc(func(ctx context.Context, e *hook.SessionStart) (*hook.SessionStartOutput, error) {
		return &hook.SessionStartOutput{AdditionalContext: strings.Repeat("x", 20000)}, nil
	})
	rec := hooktest.Record(h, hooktest.Payload("sessionstart-startup"))
	require.Equal(t, hook.ExitOK, rec.Code, "%s", rec.Stderr)
	assert.Empty(t, capViolations(rec.Err()), "%v", rec.Err())
	var out struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal(rec.Stdout, &out), "%s", rec.Stdout)
	assert.Contains(t, out.HookSpecificOutput.AdditionalContext, "The whole text is in the file "+filepath.Join(tmp, "gohooks-context"))

	whole := fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":%q}}`, strings.Repeat("x", 20000))
	vs := capViolations(hooktest.CheckAnswer(hooktest.Payload("sessionstart-startup"), 0, []byte(whole), nil))
	require.Len(t, vs, 1)
	assert.Equal(t, "/hookSpecificOutput/additionalContext", vs[0].Pointer)
	assert.Contains(t, vs[0].Error(), "20000 characters")
}
