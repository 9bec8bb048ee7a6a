package hook_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/testutil"
)

// completeInput returns an input holding every member RequiredMembers
// names for the view type t, each with a value of its field's type,
// leaving out skip and writing null for null.
func completeInput(t reflect.Type, skip, null string) string {
	var b strings.Builder
	b.WriteByte('{')
	for _, name := range hook.RequiredMembers(t) {
		if name == skip {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		v := `"x"`
		for j := range t.NumField() {
			f := t.Field(j)
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name {
				switch f.Type.Kind() {
				case reflect.Slice:
					v = `[]`
				case reflect.Int64:
					v = `1`
				}
			}
		}
		if name == null {
			v = "null"
		}
		b.WriteString(`"` + name + `":` + v)
	}
	b.WriteByte('}')
	return b.String()
}

// viewUses decodes and edits a served call's input with the view T in
// every way the library offers, returning each way's error.
func viewUses[T any](e *hook.PreToolUse) map[string]error {
	errs := map[string]error{}
	_, errs["DecodeView"] = hook.DecodeView[T](e.ToolInput)
	_, errs["Edit"] = hook.Edit(e.ToolInput, func(*T) error { return nil })
	_, errs["PreToolUse.Update"] = e.Update(new(T))
	return errs
}

// checkRequiredClass runs viewUses on the tool's complete input (every
// way works) and on it without each required member, and with it null
// (every way fails, naming the member).
func checkRequiredClass[T any](t *testing.T, tool string) {
	t.Helper()
	typ := reflect.TypeFor[T]()
	req := hook.RequiredMembers(typ)
	require.NotEmpty(t, req, typ.Name())
	run := func(in string) map[string]error {
		var got map[string]error
		h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			got = viewUses[T](e)
			return nil, nil
		})
		code, _, stderr := testutil.Serve(t, h, testutil.PreToolUse(tool, in))
		require.Equal(t, hook.ExitOK, code, stderr)
		require.Len(t, got, 3)
		return got
	}
	for way, err := range run(completeInput(typ, "", "")) {
		assert.NoError(t, err, "%s %s on a complete input", typ.Name(), way)
	}
	for _, m := range req {
		for _, in := range []string{completeInput(typ, m, ""), completeInput(typ, "", m)} {
			for way, err := range run(in) {
				require.Error(t, err, "%s %s on %s", typ.Name(), way, in)
				assert.Contains(t, err.Error(), `needs the member "`+m+`"`, way)
				assert.Contains(t, err.Error(), typ.Name(), way)
			}
		}
	}
}

// TestViewsRefuseInputsWithoutRequiredMembers: the class of every typed
// view of a built-in tool's input: a served call's input that lacks a
// member the tool always has, or has it null, is refused out loud by
// DecodeView, Edit and Update, instead of decoding to an empty field a
// guard would read as harmless.
func TestViewsRefuseInputsWithoutRequiredMembers(t *testing.T) {
	checkRequiredClass[hook.BashInput](t, hook.ToolBash)
	checkRequiredClass[hook.BashInput](t, hook.ToolPowerShell)
	checkRequiredClass[hook.PowerShellInput](t, hook.ToolPowerShell)
	checkRequiredClass[hook.WriteInput](t, hook.ToolWrite)
	checkRequiredClass[hook.EditInput](t, hook.ToolEdit)
	checkRequiredClass[hook.ReadInput](t, hook.ToolRead)
	checkRequiredClass[hook.GlobInput](t, hook.ToolGlob)
	checkRequiredClass[hook.GrepInput](t, hook.ToolGrep)
	checkRequiredClass[hook.WebFetchInput](t, hook.ToolWebFetch)
	checkRequiredClass[hook.WebSearchInput](t, hook.ToolWebSearch)
	checkRequiredClass[hook.AgentInput](t, hook.ToolAgent)
	checkRequiredClass[hook.NotebookEditInput](t, hook.ToolNotebookEdit)
	checkRequiredClass[hook.TodoWriteInput](t, hook.ToolTodoWrite)
	checkRequiredClass[hook.AskUserQuestionInput](t, hook.ToolAskUserQuestion)
	checkRequiredClass[hook.SkillInput](t, hook.ToolSkill)
	checkRequiredClass[hook.TaskCreateInput](t, hook.ToolTaskCreate)
	checkRequiredClass[hook.TaskUpdateInput](t, hook.ToolTaskUpdate)
	checkRequiredClass[hook.TaskGetInput](t, hook.ToolTaskGet)
	checkRequiredClass[hook.CronCreateInput](t, hook.ToolCronCreate)
	checkRequiredClass[hook.CronDeleteInput](t, hook.ToolCronDelete)
	checkRequiredClass[hook.ExitWorktreeInput](t, hook.ToolExitWorktree)
	checkRequiredClass[hook.ReadMcpResourceInput](t, hook.ToolReadMcpResource)
	checkRequiredClass[hook.MonitorInput](t, hook.ToolMonitor)
	checkRequiredClass[hook.PushNotificationInput](t, hook.ToolPushNotification)
	// Views whose members are all optional take any object.
	for _, v := range []any{hook.ExitPlanModeInput{}, hook.TaskStopInput{}, hook.EnterWorktreeInput{},
		hook.ListMcpResourcesInput{}, hook.ScheduleWakeupInput{}, hook.BashResponse{}, struct{ Path string }{}} {
		assert.Nil(t, hook.RequiredMembers(reflect.TypeOf(v)), "%T", v)
		assert.Nil(t, hook.RequiredMembers(reflect.PointerTo(reflect.TypeOf(v))), "*%T", v)
	}
	assert.Equal(t, []string{"file_path", "content"}, hook.RequiredMembers(reflect.TypeFor[*hook.WriteInput]()))
}

// TestViewsTakeAnyInputOffServedCalls: bytes whose tool is not known (a
// copy, an MCP tool's input, an input outside Serve) take any view, as a
// struct of the caller's would.
func TestViewsTakeAnyInputOffServedCalls(t *testing.T) {
	in := jsontext.Value(`{"path":"a.txt"}`)
	_, err := hook.DecodeView[hook.WriteInput](in)
	assert.NoError(t, err)
	_, err = hook.Edit(in, func(*hook.WriteInput) error { return nil })
	assert.NoError(t, err)
	var got error
	h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		_, got = hook.DecodeView[hook.WriteInput](e.ToolInput)
		return nil, nil
	})
	code, _, stderr := testutil.Serve(t, h, testutil.PreToolUse("mcp__fs__write", string(in)))
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.NoError(t, got)
}

// TestCopilotFileCallsFailOutLoud: the GitHub Copilot CLI's real Write
// and Edit calls (path, file_text, old_str, new_str) read with Claude
// Code's views fail, saying so, instead of giving a guard an empty
// FilePath; a fail-closed guard then denies the call with the reason.
func TestCopilotFileCallsFailOutLoud(t *testing.T) {
	for name, view := range map[string]func(e *hook.PreToolUse) error{
		"create": func(e *hook.PreToolUse) error { _, err := hook.DecodeView[hook.WriteInput](e.ToolInput); return err },
		"edit":   func(e *hook.PreToolUse) error { _, err := hook.DecodeView[hook.EditInput](e.ToolInput); return err },
	} {
		b, err := os.ReadFile("internal/agent/testdata/copilot/real-pascal-PreToolUse-" + name + ".json")
		require.NoError(t, err)
		guard := hook.FailClosed(hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			assert.Equal(t, hook.AgentCopilot, e.Agent(), name)
			if err := view(e); err != nil {
				return nil, err
			}
			return nil, nil // the guard found nothing wrong in an empty FilePath
		}))
		code, stdout, stderr := testutil.Serve(t, guard, b)
		assert.Equal(t, hook.ExitOK, code, name)
		assert.Contains(t, stdout, `"permissionDecision":"deny"`, name)
		assert.Contains(t, stdout, `needs the member \"file_path\"`, name)
		assert.Contains(t, stdout, `name the file \"path\"`, name)
		assert.Contains(t, stderr, `needs the member "file_path"`, name)
	}
}

// TestViewsRefuseUnderEveryAgentAndEvent: the refusal holds for the
// served input of every event that carries one (PreToolUse,
// PermissionRequest, PostToolUse) and under Codex and Copilot as under
// Claude Code; a complete input decodes under each.
func TestViewsRefuseUnderEveryAgentAndEvent(t *testing.T) {
	const cmd = `{"command":"ls"}`
	const bad = `{"cmd":"ls"}`
	copilot := func(in string) []byte {
		return []byte(`{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-04T17:00:06.800Z","cwd":"/p","tool_name":"Bash","tool_input":` + in + `}`)
	}
	payloads := map[string]func(in string) []byte{
		"Claude Code PreToolUse":        func(in string) []byte { return hooktest.NewPreToolUse(hook.ToolBash, in) },
		"Claude Code PermissionRequest": func(in string) []byte { return hooktest.NewPermissionRequest(hook.ToolBash, in) },
		"Claude Code PostToolUse": func(in string) []byte {
			return hooktest.NewPostToolUse(hook.ToolBash, in, `{"stdout":"","stderr":"","interrupted":false,"isImage":false}`)
		},
		// (Codex's builders refuse a shell input Codex cannot send: the
		// input is put in afterwards.)
		"Codex PreToolUse": func(in string) []byte {
			return hooktest.WithField(hooktest.NewCodexPreToolUse(hook.ToolBash, cmd), "tool_input", jsontext.Value(in))
		},
		"Codex PermissionRequest": func(in string) []byte {
			return hooktest.WithField(hooktest.NewCodexPermissionRequest(hook.ToolBash, cmd), "tool_input", jsontext.Value(in))
		},
		"Codex PostToolUse": func(in string) []byte {
			return hooktest.WithField(hooktest.NewCodexPostToolUse(hook.ToolBash, cmd, `"out"`), "tool_input", jsontext.Value(in))
		},
		"Copilot PreToolUse": copilot,
	}
	for name, build := range payloads {
		for in, ok := range map[string]bool{cmd: true, bad: false} {
			var got error
			ran := false
			h := hook.HandlerFunc(func(_ context.Context, e *hook.Event) (hook.Output, error) {
				raw, _ := e.Field("tool_input")
				ran = true
				if strings.HasPrefix(name, "Codex") {
					assert.Equal(t, hook.AgentCodex, e.Agent(), name)
				}
				_, got = hook.DecodeView[hook.BashInput](raw)
				return nil, nil
			})
			p := build(in)
			code, _, stderr := testutil.Serve(t, h, p)
			require.Equal(t, hook.ExitOK, code, "%s: %s", name, stderr)
			require.True(t, ran, name)
			assert.Contains(t, string(p), `"tool_input":`+in, name)
			if ok {
				assert.NoError(t, got, "%s %s", name, in)
			} else {
				assert.ErrorContains(t, got, `BashInput needs the member "command"`, "%s %s", name, in)
			}
		}
	}
}
