package hook

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
)

// driftSDK and driftTools are a made-up SDK that differs from the library
// in every way the drift check looks for.
const driftSDK = `
/** Events: PostToolUse and others gone, BrandNew added. */
export declare const HOOK_EVENTS: readonly ['PreToolUse', 'Stop', 'BrandNew'];
export declare type BaseHookInput = {
    session_id: string;
    transcript_path: string;
    cwd: string;
    prompt_id?: string;
    permission_mode?: string;
    agent_id?: string;
    agent_type?: string;
    effort?: {
        level: string;
        budget?: number;
    };
};
// tool_use_id gone, new_field added, mcp_server without source.
export declare type PreToolUseHookInput = BaseHookInput & {
    hook_event_name: 'PreToolUse';
    tool_name: string;
    tool_input: unknown;
    new_field?: string;
    mcp_server?: { name: string };
};
// No StopHookInput at all.
export declare type SyncHookJSONOutput = {
    continue?: boolean;
    suppressOutput?: boolean;
    stopReason?: string;
    decision?: 'approve' | 'block';
    systemMessage?: string;
    reason?: string;
    newCommon?: string;
    hookSpecificOutput?: PreToolUseHookSpecificOutput | BrandNewHookSpecificOutput;
};
export declare type AsyncHookJSONOutput = { async: true; asyncTimeout?: number; };
export declare type PreToolUseHookSpecificOutput = {
    hookEventName: 'PreToolUse';
    permissionDecision?: HookPermissionDecision;
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    extraOut?: string;
};
export declare type BrandNewHookSpecificOutput = { hookEventName: 'BrandNew'; x?: string; };
export declare type BrandNewHookInput = BaseHookInput & { hook_event_name: 'BrandNew'; brand_field: number; };
`

const driftTools = `
export type ToolInputSchemas =
  | BashInput
  | TodoWriteInput
  | ExitPlanModeInput
  | McpInput
  | NewToolInput
  | ToolOutputSchemas;
export type ToolOutputSchemas = BashOutput;
export interface BashInput {
  command: string;
  timeout?: number;
  description?: string;
  run_in_background?: boolean;
  dangerouslyDisableSandbox?: boolean;
  sandbox_profile?: string;
}
export interface TodoWriteInput {
  todos: {
    content: string;
    status: "pending" | "in_progress" | "completed";
  }[];
}
export interface ExitPlanModeInput {
  allowedPrompts?: { tool: "Bash"; prompt: string; }[];
  [k: string]: unknown;
}
export interface McpInput { [k: string]: unknown; }
export interface NewToolInput { a: string; }
export interface BashOutput { stdout: string; }
`

func TestDriftDetects(t *testing.T) {
	c, err := checkDrift(driftSDK, driftTools)
	require.NoError(t, err)
	assert.Empty(t, c.errs)
	var got []string
	for _, d := range c.found {
		got = append(got, d.String())
	}
	for _, want := range []string{
		`events: library lacks "BrandNew"`,
		`events: SDK lacks "PostToolUse"`,
		`events: SDK lacks "PreSkillShellCommand"`,
		`inputs: SDK lacks "StopHookInput"`,
		`input PreToolUse: library lacks "new_field"`,
		`input PreToolUse: SDK lacks "tool_use_id"`,
		`input PreToolUse.effort: library lacks "budget"`,
		`input PreToolUse.mcp_server: SDK lacks "source"`,
		`output: library lacks "newCommon"`,
		`output: SDK lacks "terminalSequence"`,
		`hookSpecificOutput PreToolUse: library lacks "extraOut"`,
		`hookSpecificOutput PreToolUse: SDK lacks "additionalContext"`,
		`hookSpecificOutput variants: library lacks "BrandNew"`,
		`hookSpecificOutput variants: SDK lacks "Stop"`,
		`input BrandNew: library lacks "brand_field"`,
		`hookSpecificOutput BrandNew: library lacks "x"`,
		`tool BashInput: library lacks "sandbox_profile"`,
		`tool PowerShellInput: library lacks "sandbox_profile"`,
		`tool TodoWriteInput.todos[]: SDK lacks "activeForm"`,
		`tool inputs: library lacks "NewToolInput"`,
		`tool inputs: SDK lacks "GlobInput"`,
	} {
		assert.Contains(t, got, want)
	}
	for _, d := range c.found {
		assert.NotContains(t, []string{"ToolOutputSchemas", "McpInput", "BashOutput"}, d.member, "%v", d)
		assert.NotEqual(t, "tool ExitPlanModeInput", d.where, "an open object may hold the library's extra members: %v", d)
		assert.NotEqual(t, "async output", d.where, "%v", d)
		if d.where == "input BrandNew" {
			assert.Equal(t, "brand_field", d.member, "the new event's own fields, not the common ones: %v", d)
		}
		if d.where == "input PreToolUse" || d.where == "input PreToolUse.effort" {
			assert.Contains(t, []string{"new_field", "tool_use_id", "budget"}, d.member, "%v", d)
		}
	}
	assert.Positive(t, c.compared)
}

func TestDriftCannotCompare(t *testing.T) {
	c, err := checkDrift("export declare type SyncHookJSONOutput = Omit<X, 'a'> & { b: 1 };", "export type ToolInputSchemas = string;")
	require.NoError(t, err)
	assert.Empty(t, c.found)
	require.Len(t, c.errs, 4)
	assert.Contains(t, c.errs[0], "HOOK_EVENTS is not declared")
	assert.Contains(t, c.errs[1], "Omit")
	assert.Contains(t, c.errs[2], "AsyncHookJSONOutput is not declared")
	assert.Contains(t, c.errs[3], "ToolInputSchemas is not a union")

	_, err = checkDrift("type A = 'open", "")
	assert.Error(t, err)
}

func TestDriftEventNames(t *testing.T) {
	sdk := strings.Replace(driftSDK, "hook_event_name: 'PreToolUse'", "hook_event_name: 'Stop'", 1)
	sdk = strings.Replace(sdk, "hookEventName: 'BrandNew'", "hookEventName: 'BrandNew' | 'Other'", 1)
	c, err := checkDrift(sdk, driftTools)
	require.NoError(t, err)
	require.Len(t, c.errs, 2)
	assert.Contains(t, c.errs[0], `PreToolUseHookInput.hook_event_name is [Stop], not the one string literal "PreToolUse"`)
	assert.Contains(t, c.errs[1], "BrandNewHookSpecificOutput's hookEventName is not one string literal")
}

func TestDriftAllowList(t *testing.T) {
	require.NotEmpty(t, driftAllowed)
	first := driftAllowed[0].drift
	other := drift{where: "events", member: "X", lacks: "SDK"}
	unexpected, allowed, stale := sortDrift([]drift{first, other})
	assert.Equal(t, []drift{other}, unexpected)
	require.Len(t, allowed, 1)
	assert.Contains(t, allowed[0], driftAllowed[0].reason)
	assert.Len(t, stale, len(driftAllowed)-1, "the entries that matched nothing")
	assert.NotContains(t, stale, first)
}

// TestDriftChecksTheDeclarations: an event whose input members as read
// from its Go declaration are not those of its compiled struct cannot be
// compared, and says which; the declarations as committed agree with
// every input struct.
func TestDriftChecksTheDeclarations(t *testing.T) {
	c, err := checkDrift(driftSDK, driftTools)
	require.NoError(t, err)
	require.Empty(t, c.errs)
	require.Contains(t, c.schema, EventPreToolUse)

	typ := c.schema[EventPreToolUse]
	i := slices.IndexFunc(typ.Fields, func(f protocol.Field) bool { return f.Member() == "tool_use_id" })
	require.GreaterOrEqual(t, i, 0)
	typ.Fields = slices.Delete(slices.Clone(typ.Fields), i, i+1)
	typ.Fields = append(typ.Fields, protocol.Field{Name: "Extra", Type: "string", JSON: "extra,omitempty"})
	c.schema[EventPreToolUse] = typ
	c.schemaInput(EventPreToolUse)
	require.Len(t, c.errs, 1)
	assert.Contains(t, c.errs[0], "input PreToolUse: the declaration's members [")
	assert.Contains(t, c.errs[0], "extra")
	assert.Contains(t, c.errs[0], "protocol.ReadTypes misreads it")

	delete(c.schema, EventStop)
	c.schemaInput(EventStop)
	assert.Contains(t, c.errs, "the source declares no input type Stop")
}
