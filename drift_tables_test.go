package hook

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/wire"
)

// The tables of the drift check (drift_test.go): which library types
// stand for which SDK types, what is deliberately left unmapped, and the
// known differences. TestDriftTables checks them against the library's
// source, without the SDK.

// libraryEvents returns the names of the hook events the library knows.
// Today it reads the Event* string constants from the package's source
// and keeps those KnownEvent accepts (TestDriftTables checks the two
// agree).
func libraryEvents() ([]string, error) {
	var events []string
	for _, e := range protocol.Events {
		if !knownEvent(e.Name) {
			return nil, fmt.Errorf("the protocol table's %s is not a KnownEvent: run go generate", e.Name)
		}
		events = append(events, e.Name)
	}
	return events, nil
}

// eventInputs is the input struct of every event; TestDriftTables checks
// that it covers libraryEvents and that each type is named after its
// event.
var eventInputs = map[string]reflect.Type{
	EventPreToolUse:           reflect.TypeFor[PreToolUse](),
	EventPostToolUse:          reflect.TypeFor[PostToolUse](),
	EventPostToolUseFailure:   reflect.TypeFor[PostToolUseFailure](),
	EventPostToolBatch:        reflect.TypeFor[PostToolBatch](),
	EventNotification:         reflect.TypeFor[Notification](),
	EventUserPromptSubmit:     reflect.TypeFor[UserPromptSubmit](),
	EventUserPromptExpansion:  reflect.TypeFor[UserPromptExpansion](),
	EventSessionStart:         reflect.TypeFor[SessionStart](),
	EventSessionEnd:           reflect.TypeFor[SessionEnd](),
	EventStop:                 reflect.TypeFor[Stop](),
	EventStopFailure:          reflect.TypeFor[StopFailure](),
	EventInterrupt:            reflect.TypeFor[Interrupt](),
	EventSubagentStart:        reflect.TypeFor[SubagentStart](),
	EventSubagentStop:         reflect.TypeFor[SubagentStop](),
	EventPreCompact:           reflect.TypeFor[PreCompact](),
	EventPostCompact:          reflect.TypeFor[PostCompact](),
	EventPreModelSwitch:       reflect.TypeFor[PreModelSwitch](),
	EventPostModelSwitch:      reflect.TypeFor[PostModelSwitch](),
	EventPermissionRequest:    reflect.TypeFor[PermissionRequest](),
	EventPermissionDenied:     reflect.TypeFor[PermissionDenied](),
	EventSetup:                reflect.TypeFor[Setup](),
	EventTeammateIdle:         reflect.TypeFor[TeammateIdle](),
	EventTaskCreated:          reflect.TypeFor[TaskCreated](),
	EventTaskCompleted:        reflect.TypeFor[TaskCompleted](),
	EventElicitation:          reflect.TypeFor[Elicitation](),
	EventElicitationResult:    reflect.TypeFor[ElicitationResult](),
	EventConfigChange:         reflect.TypeFor[ConfigChange](),
	EventWorktreeCreate:       reflect.TypeFor[WorktreeCreate](),
	EventWorktreeRemove:       reflect.TypeFor[WorktreeRemove](),
	EventInstructionsLoaded:   reflect.TypeFor[InstructionsLoaded](),
	EventCwdChanged:           reflect.TypeFor[CwdChanged](),
	EventFileChanged:          reflect.TypeFor[FileChanged](),
	EventDirectoryAdded:       reflect.TypeFor[DirectoryAdded](),
	EventMessageDisplay:       reflect.TypeFor[MessageDisplay](),
	EventPreSkillShellCommand: reflect.TypeFor[PreSkillShellCommand](),
}

// eventSpecific is the wire struct of the hookSpecificOutput the library
// writes for each event that has one (the others have none);
// TestDriftTables checks that every *Specific struct of the package is
// used here.
var eventSpecific = map[string]reflect.Type{
	EventPreToolUse:           reflect.TypeFor[preToolUseSpecific](),
	EventPostToolUse:          reflect.TypeFor[postToolUseSpecific](),
	EventPostToolUseFailure:   reflect.TypeFor[contextSpecific](),
	EventPostToolBatch:        reflect.TypeFor[contextSpecific](),
	EventNotification:         reflect.TypeFor[contextSpecific](),
	EventUserPromptSubmit:     reflect.TypeFor[userPromptSubmitSpecific](),
	EventUserPromptExpansion:  reflect.TypeFor[userPromptExpansionSpecific](),
	EventSessionStart:         reflect.TypeFor[sessionStartSpecific](),
	EventSetup:                reflect.TypeFor[contextSpecific](),
	EventStop:                 reflect.TypeFor[contextSpecific](),
	EventSubagentStart:        reflect.TypeFor[contextSpecific](),
	EventSubagentStop:         reflect.TypeFor[contextSpecific](),
	EventPreModelSwitch:       reflect.TypeFor[permissionDecisionSpecific](),
	EventPostModelSwitch:      reflect.TypeFor[contextSpecific](),
	EventPermissionRequest:    reflect.TypeFor[permissionRequestSpecific](),
	EventPermissionDenied:     reflect.TypeFor[permissionDeniedSpecific](),
	EventElicitation:          reflect.TypeFor[elicitationSpecific](),
	EventElicitationResult:    reflect.TypeFor[elicitationSpecific](),
	EventCwdChanged:           reflect.TypeFor[watchPathsSpecific](),
	EventFileChanged:          reflect.TypeFor[watchPathsSpecific](),
	EventWorktreeCreate:       reflect.TypeFor[worktreeCreateSpecific](),
	EventMessageDisplay:       reflect.TypeFor[messageDisplaySpecific](),
	EventPreSkillShellCommand: reflect.TypeFor[permissionDecisionSpecific](),
}

// toolViews maps the tool input types of sdk-tools.d.ts to the library's
// views of them.
var toolViews = map[string][]reflect.Type{
	"AgentInput":            {reflect.TypeFor[AgentInput]()},
	"AskUserQuestionInput":  {reflect.TypeFor[AskUserQuestionInput]()},
	"BashInput":             {reflect.TypeFor[BashInput](), reflect.TypeFor[PowerShellInput]()}, // PowerShell has Bash's fields (spec §9.1) and no type of its own in the SDK
	"CronCreateInput":       {reflect.TypeFor[CronCreateInput]()},
	"CronDeleteInput":       {reflect.TypeFor[CronDeleteInput]()},
	"EnterWorktreeInput":    {reflect.TypeFor[EnterWorktreeInput]()},
	"ExitPlanModeInput":     {reflect.TypeFor[ExitPlanModeInput]()},
	"ExitWorktreeInput":     {reflect.TypeFor[ExitWorktreeInput]()},
	"FileEditInput":         {reflect.TypeFor[EditInput]()},
	"FileReadInput":         {reflect.TypeFor[ReadInput]()},
	"FileWriteInput":        {reflect.TypeFor[WriteInput]()},
	"GlobInput":             {reflect.TypeFor[GlobInput]()},
	"GrepInput":             {reflect.TypeFor[GrepInput]()},
	"ListMcpResourcesInput": {reflect.TypeFor[ListMcpResourcesInput]()},
	"MonitorInput":          {reflect.TypeFor[MonitorInput]()},
	"NotebookEditInput":     {reflect.TypeFor[NotebookEditInput]()},
	"PushNotificationInput": {reflect.TypeFor[PushNotificationInput]()},
	"ReadMcpResourceInput":  {reflect.TypeFor[ReadMcpResourceInput]()},
	"ScheduleWakeupInput":   {reflect.TypeFor[ScheduleWakeupInput]()},
	"TaskCreateInput":       {reflect.TypeFor[TaskCreateInput]()},
	"TaskGetInput":          {reflect.TypeFor[TaskGetInput]()},
	"TaskStopInput":         {reflect.TypeFor[TaskStopInput]()},
	"TaskUpdateInput":       {reflect.TypeFor[TaskUpdateInput]()},
	"TodoWriteInput":        {reflect.TypeFor[TodoWriteInput]()},
	"WebFetchInput":         {reflect.TypeFor[WebFetchInput]()},
	"WebSearchInput":        {reflect.TypeFor[WebSearchInput]()},
}

const (
	noViewEmpty = "an empty object: there is nothing to view"
	noViewTool  = "not one of the tools the library gives a view (spec §9.1); DecodeView reads it into a type of the caller's"
)

// sdkToolsWithoutView lists the tool inputs of sdk-tools.d.ts that
// deliberately have no view, with the reason.
var sdkToolsWithoutView = map[string]string{
	"McpInput":                      "an MCP tool's input is whatever its server's schema says (an open object)",
	"CronListInput":                 noViewEmpty,
	"EnterPlanModeInput":            noViewEmpty,
	"ReadNotificationsInput":        noViewEmpty,
	"ShowOnboardingRolePickerInput": noViewEmpty,
	"TaskListInput":                 noViewEmpty,
	"ArtifactInput":                 noViewTool,
	"ClaudeDesignInput":             noViewTool,
	"OfferChromeSetupInput":         noViewTool,
	"ProjectsInput":                 noViewTool,
	"ProposeGoalInput":              noViewTool,
	"ProposeSkillsInput":            noViewTool,
	"ReadMcpResourceDirInput":       noViewTool,
	"RefreshMcpToolsInput":          noViewTool,
	"RemoteTriggerInput":            noViewTool,
	"ReportFindingsInput":           noViewTool,
	"SendFeedbackInput":             noViewTool,
	"WorkflowInput":                 noViewTool,
}

// viewsWithoutSDKType lists the library's tool views that sdk-tools.d.ts
// has no type for, with the reason.
var viewsWithoutSDKType = map[string]string{
	"SkillInput": "sdk-tools.d.ts declares no Skill input; the view follows Claude Code's schema (spec §9.1)",
}

// driftAllowed lists the known, deliberate differences, each with its
// reason. In a strict run an entry that no longer matches any drift is an
// error, so the list cannot go stale.
var driftAllowed = []allowedDrift{
	{drift{"input PermissionRequest", "tool_kind", "SDK"},
		"Claude Code sends it for an MCP-served skill; the SDK type leaves it out (spec §4.1)"},
	{drift{"input PermissionRequest", "mcp_skill", "SDK"},
		"Claude Code sends it with tool_kind; the SDK type leaves it out (spec §4.1)"},
	{drift{"hookSpecificOutput PreSkillShellCommand", "updatedInput", "library"},
		"never applied: any value blocks the command (the SDK's own doc, spec §7.9), so the library does not write it"},
}

// allowedDrift is a known, deliberate difference and its reason.
type allowedDrift struct {
	drift
	reason string
}

// sourceConsts returns the values of the string constants of the
// package's non-test source whose names start with prefix, in source
// order (files by name).
func sourceConsts(prefix string) ([]string, error) {
	var values []string
	err := eachSourceFile(func(f *ast.File) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, prefix) || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if v, err := strconv.Unquote(lit.Value); err == nil {
							values = append(values, v)
						}
					}
				}
			}
		}
	})
	return values, err
}

// sourceTypes returns the names of the struct types declared in the
// package's non-test source that match keep.
func sourceTypes(keep func(file, name string) bool) ([]string, error) {
	var names []string
	err := eachSourceFile(func(f *ast.File) {
		file := sourceFileName(f)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				if ts := spec.(*ast.TypeSpec); keep(file, ts.Name.Name) {
					names = append(names, ts.Name.Name)
				}
			}
		}
	})
	return names, err
}

var driftFset = token.NewFileSet()

func sourceFileName(f *ast.File) string { return driftFset.Position(f.Package).Filename }

// eachSourceFile calls fn with each non-test Go file of the package.
func eachSourceFile(fn func(*ast.File)) error {
	entries, err := os.ReadDir(".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(driftFset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "hook" {
			fn(f)
		}
	}
	return nil
}

// TestDriftTables checks the drift check's own tables against the
// library, without the SDK.
func TestDriftTables(t *testing.T) {
	consts, err := sourceConsts("Event")
	require.NoError(t, err)
	require.NotEmpty(t, consts)
	for _, v := range consts {
		assert.True(t, knownEvent(v), "KnownEvent rejects the constant %q", v)
	}
	events, err := libraryEvents()
	require.NoError(t, err)
	assert.Len(t, events, 35)
	for _, e := range events {
		typ, ok := eventInputs[e]
		if assert.True(t, ok, "eventInputs has no %s", e) {
			assert.Equal(t, e, typ.Name(), "the input struct of %s", e)
			assert.True(t, reflect.PointerTo(typ).Implements(reflect.TypeFor[interface{ event() *Event }]()), "%s embeds Event", typ)
		}
	}
	assert.Len(t, eventInputs, len(events))

	used := map[string]bool{}
	for e, typ := range eventSpecific {
		assert.Contains(t, events, e)
		fields := wire.Fields(typ)
		if assert.NotEmpty(t, fields) {
			assert.Equal(t, "hookEventName", fields[0].Name, "%s starts with hookEventName", typ)
		}
		used[typ.Name()] = true
	}
	specific, err := sourceTypes(func(_, name string) bool { return strings.HasSuffix(name, "Specific") })
	require.NoError(t, err)
	require.NotEmpty(t, specific)
	for _, name := range specific {
		assert.True(t, used[name], "eventSpecific does not use %s", name)
	}

	views := map[string]bool{}
	for sdkName, vs := range toolViews {
		assert.True(t, strings.HasSuffix(sdkName, "Input"), sdkName)
		assert.NotContains(t, sdkToolsWithoutView, sdkName)
		for _, v := range vs {
			views[v.Name()] = true
		}
	}
	for name, reason := range viewsWithoutSDKType {
		assert.NotEmpty(t, reason)
		views[name] = true
	}
	isView := func(file, name string) bool {
		return file == "tools.go" && ast.IsExported(name) && strings.HasSuffix(name, "Input")
	}
	inTools, err := sourceTypes(isView)
	require.NoError(t, err)
	require.NotEmpty(t, inTools)
	for _, name := range inTools {
		assert.True(t, views[name], "the view %s is neither in toolViews nor in viewsWithoutSDKType", name)
		delete(views, name)
	}
	assert.Empty(t, views, "views the tables list that tools.go does not declare")
	for name, reason := range sdkToolsWithoutView {
		assert.NotEmpty(t, reason, name)
	}
	for _, a := range driftAllowed {
		assert.NotEmpty(t, a.reason, "%v", a.drift)
		assert.Contains(t, []string{"library", "SDK"}, a.lacks)
	}
}
