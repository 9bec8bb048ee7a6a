package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// fixtureDir is where the shared fixtures are copied, relative to this
// package's directory.
var fixtureDir = filepath.Join("hooktest", "fixtures")

// readFixture returns the bytes of a file under fixtureDir.
func readFixture(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, rel))
	require.NoError(t, err)
	return b
}

// compactFixture returns the wire form of a pretty-printed fixture:
// whitespace dropped, strings and numbers untouched.
func compactFixture(t *testing.T, b []byte) []byte {
	t.Helper()
	v := jsontext.Value(bytes.Clone(b))
	require.NoError(t, v.Compact())
	return v
}

// eventFromBytes reads one event the way Serve does.
func eventFromBytes(t *testing.T, b []byte) *Event {
	t.Helper()
	ev, err := readEvent(bytes.NewReader(b), -1)
	require.NoError(t, err)
	return ev
}

// fixtureEvent reads the input fixture rel in its compact wire form.
func fixtureEvent(t *testing.T, rel string) *Event {
	t.Helper()
	return eventFromBytes(t, append(compactFixture(t, readFixture(t, rel)), '\n'))
}

// adapters builds, for every event, the typed adapter of that event with
// a function that records the decoded input in *got and answers nothing.
var adapters = map[string]func(got *any) Handler{
	EventPreToolUse: func(got *any) Handler {
		return PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) { *got = e; return nil, nil })
	},
	EventPermissionRequest: func(got *any) Handler {
		return PermissionRequestFunc(func(_ context.Context, e *PermissionRequest) (*PermissionRequestOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventPermissionDenied: func(got *any) Handler {
		return PermissionDeniedFunc(func(_ context.Context, e *PermissionDenied) (*PermissionDeniedOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventPostToolUse: func(got *any) Handler {
		return PostToolUseFunc(func(_ context.Context, e *PostToolUse) (*PostToolUseOutput, error) { *got = e; return nil, nil })
	},
	EventPostToolUseFailure: func(got *any) Handler {
		return PostToolUseFailureFunc(func(_ context.Context, e *PostToolUseFailure) (*PostToolUseFailureOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventPostToolBatch: func(got *any) Handler {
		return PostToolBatchFunc(func(_ context.Context, e *PostToolBatch) (*PostToolBatchOutput, error) { *got = e; return nil, nil })
	},
	EventNotification: func(got *any) Handler {
		return NotificationFunc(func(_ context.Context, e *Notification) (*NotificationOutput, error) { *got = e; return nil, nil })
	},
	EventUserPromptSubmit: func(got *any) Handler {
		return UserPromptSubmitFunc(func(_ context.Context, e *UserPromptSubmit) (*UserPromptSubmitOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventUserPromptExpansion: func(got *any) Handler {
		return UserPromptExpansionFunc(func(_ context.Context, e *UserPromptExpansion) (*UserPromptExpansionOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventSessionStart: func(got *any) Handler {
		return SessionStartFunc(func(_ context.Context, e *SessionStart) (*SessionStartOutput, error) { *got = e; return nil, nil })
	},
	EventSessionEnd: func(got *any) Handler {
		return SessionEndFunc(func(_ context.Context, e *SessionEnd) (*SessionEndOutput, error) { *got = e; return nil, nil })
	},
	EventStop: func(got *any) Handler {
		return StopFunc(func(_ context.Context, e *Stop) (*StopOutput, error) { *got = e; return nil, nil })
	},
	EventStopFailure: func(got *any) Handler {
		return StopFailureFunc(func(_ context.Context, e *StopFailure) (*StopFailureOutput, error) { *got = e; return nil, nil })
	},
	EventInterrupt: func(got *any) Handler {
		return InterruptFunc(func(_ context.Context, e *Interrupt) (*InterruptOutput, error) { *got = e; return nil, nil })
	},
	EventSubagentStart: func(got *any) Handler {
		return SubagentStartFunc(func(_ context.Context, e *SubagentStart) (*SubagentStartOutput, error) { *got = e; return nil, nil })
	},
	EventSubagentStop: func(got *any) Handler {
		return SubagentStopFunc(func(_ context.Context, e *SubagentStop) (*SubagentStopOutput, error) { *got = e; return nil, nil })
	},
	EventPreCompact: func(got *any) Handler {
		return PreCompactFunc(func(_ context.Context, e *PreCompact) (*PreCompactOutput, error) { *got = e; return nil, nil })
	},
	EventPostCompact: func(got *any) Handler {
		return PostCompactFunc(func(_ context.Context, e *PostCompact) (*PostCompactOutput, error) { *got = e; return nil, nil })
	},
	EventPreModelSwitch: func(got *any) Handler {
		return PreModelSwitchFunc(func(_ context.Context, e *PreModelSwitch) (*PreModelSwitchOutput, error) { *got = e; return nil, nil })
	},
	EventPostModelSwitch: func(got *any) Handler {
		return PostModelSwitchFunc(func(_ context.Context, e *PostModelSwitch) (*PostModelSwitchOutput, error) { *got = e; return nil, nil })
	},
	EventSetup: func(got *any) Handler {
		return SetupFunc(func(_ context.Context, e *Setup) (*SetupOutput, error) { *got = e; return nil, nil })
	},
	EventTeammateIdle: func(got *any) Handler {
		return TeammateIdleFunc(func(_ context.Context, e *TeammateIdle) (*TeammateIdleOutput, error) { *got = e; return nil, nil })
	},
	EventTaskCreated: func(got *any) Handler {
		return TaskCreatedFunc(func(_ context.Context, e *TaskCreated) (*TaskCreatedOutput, error) { *got = e; return nil, nil })
	},
	EventTaskCompleted: func(got *any) Handler {
		return TaskCompletedFunc(func(_ context.Context, e *TaskCompleted) (*TaskCompletedOutput, error) { *got = e; return nil, nil })
	},
	EventElicitation: func(got *any) Handler {
		return ElicitationFunc(func(_ context.Context, e *Elicitation) (*ElicitationOutput, error) { *got = e; return nil, nil })
	},
	EventElicitationResult: func(got *any) Handler {
		return ElicitationResultFunc(func(_ context.Context, e *ElicitationResult) (*ElicitationResultOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventConfigChange: func(got *any) Handler {
		return ConfigChangeFunc(func(_ context.Context, e *ConfigChange) (*ConfigChangeOutput, error) { *got = e; return nil, nil })
	},
	EventWorktreeCreate: func(got *any) Handler {
		return WorktreeCreateFunc(func(_ context.Context, e *WorktreeCreate) (*WorktreeCreateOutput, error) { *got = e; return nil, nil })
	},
	EventWorktreeRemove: func(got *any) Handler {
		return WorktreeRemoveFunc(func(_ context.Context, e *WorktreeRemove) (*WorktreeRemoveOutput, error) { *got = e; return nil, nil })
	},
	EventInstructionsLoaded: func(got *any) Handler {
		return InstructionsLoadedFunc(func(_ context.Context, e *InstructionsLoaded) (*InstructionsLoadedOutput, error) {
			*got = e
			return nil, nil
		})
	},
	EventCwdChanged: func(got *any) Handler {
		return CwdChangedFunc(func(_ context.Context, e *CwdChanged) (*CwdChangedOutput, error) { *got = e; return nil, nil })
	},
	EventFileChanged: func(got *any) Handler {
		return FileChangedFunc(func(_ context.Context, e *FileChanged) (*FileChangedOutput, error) { *got = e; return nil, nil })
	},
	EventDirectoryAdded: func(got *any) Handler {
		return DirectoryAddedFunc(func(_ context.Context, e *DirectoryAdded) (*DirectoryAddedOutput, error) { *got = e; return nil, nil })
	},
	EventMessageDisplay: func(got *any) Handler {
		return MessageDisplayFunc(func(_ context.Context, e *MessageDisplay) (*MessageDisplayOutput, error) { *got = e; return nil, nil })
	},
	EventPreSkillShellCommand: func(got *any) Handler {
		return PreSkillShellCommandFunc(func(_ context.Context, e *PreSkillShellCommand) (*PreSkillShellCommandOutput, error) {
			*got = e
			return nil, nil
		})
	},
}

// decodeWithAdapter runs the typed adapter of ev's event on ev, as Serve
// does, and returns the typed input the handler received.
func decodeWithAdapter(t *testing.T, ev *Event) any {
	t.Helper()
	mk, ok := adapters[ev.HookEventName]
	require.True(t, ok, "no adapter for %s", ev.HookEventName)
	var got any
	out, err := mk(&got).ServeHook(context.Background(), ev)
	require.NoError(t, err)
	assert.Nil(t, out)
	require.NotNil(t, got, "the %s adapter did not call its function", ev.HookEventName)
	return got
}

func TestAdaptersCoverEveryEvent(t *testing.T) {
	assert.Len(t, adapters, 35)
	for name := range adapters {
		assert.True(t, knownEvent(name), name)
	}
}

func TestAdapterIgnoresOtherEvents(t *testing.T) {
	ev := fixtureEvent(t, "stop.json")
	for name, mk := range adapters {
		if name == EventStop {
			continue
		}
		var got any
		out, err := mk(&got).ServeHook(context.Background(), ev)
		assert.NoError(t, err, name)
		assert.Nil(t, out, name)
		assert.Nil(t, got, "the %s adapter was called for a Stop event", name)
	}
}

// nullableRequired lists required string members that may legitimately be
// empty (null or "" on the wire).
var nullableRequired = map[string]bool{
	"custom_instructions": true, // null for auto compaction
	"requested_model":     true, // null for the default model
	"delta":               true, // the final batch may be empty
}

// checkDecoded checks the typed input got decoded from ev: the common and
// required fields are set, and every raw member is byte-equal to the
// member in ev's input.
func checkDecoded(t *testing.T, ev *Event, got any) {
	t.Helper()
	rv := reflect.ValueOf(got).Elem()
	e := rv.FieldByName("Event").Interface().(Event)
	assert.NotEmpty(t, e.SessionID)
	assert.NotEmpty(t, e.Cwd)
	assert.NotEmpty(t, e.TranscriptPath)
	assert.Equal(t, ev.HookEventName, e.HookEventName)
	assert.Equal(t, string(ev.Raw()), string(e.Raw()), "the typed event keeps the whole input")
	if ev.HookEventName == EventSubagentStart || ev.HookEventName == EventSubagentStop {
		assert.NotEmpty(t, e.AgentID)
		assert.NotEmpty(t, e.AgentType)
	}
	rt := rv.Type()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		member, present := ev.Field(name)
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		if !optional {
			assert.True(t, present, "required member %q is missing", name)
		}
		fv := rv.Field(i)
		switch {
		case f.Type == reflect.TypeFor[jsontext.Value]():
			if present {
				assert.Equal(t, string(member), string(fv.Bytes()), "raw member %q must be byte-exact", name)
				assert.True(t, bytes.Contains(ev.Raw(), append([]byte(`"`+name+`":`), fv.Bytes()...)), "raw member %q is a slice of the input", name)
			} else {
				assert.Nil(t, fv.Bytes(), "absent raw member %q", name)
			}
		case f.Type.Kind() == reflect.String && !optional && !nullableRequired[name]:
			assert.NotEmpty(t, fv.String(), "required member %q", name)
		}
	}
	if b, ok := got.(*PostToolBatch); ok {
		raw, present := ev.Field("tool_calls")
		require.True(t, present)
		elems := arrayElements(t, raw)
		require.Len(t, b.ToolCalls, len(elems))
		for i, el := range elems {
			ms, err := rawjson.Members(el)
			require.NoError(t, err)
			in, _ := rawjson.Find(ms, "tool_input")
			assert.Equal(t, string(in.Value), string(b.ToolCalls[i].ToolInput), "tool_calls[%d].tool_input", i)
			resp, ok := rawjson.Find(ms, "tool_response")
			if ok {
				assert.Equal(t, string(resp.Value), string(b.ToolCalls[i].ToolResponse), "tool_calls[%d].tool_response", i)
			} else {
				assert.Nil(t, b.ToolCalls[i].ToolResponse)
			}
			assert.NotEmpty(t, b.ToolCalls[i].ToolName)
			assert.NotEmpty(t, b.ToolCalls[i].ToolUseID)
		}
	}
}

// arrayElements splits a raw JSON array into its elements' raw bytes.
func arrayElements(t *testing.T, raw []byte) [][]byte {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsonopts.Lenient())
	tok, err := dec.ReadToken()
	require.NoError(t, err)
	require.Equal(t, jsontext.Kind('['), tok.Kind())
	var out [][]byte
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		require.NoError(t, err)
		end := dec.InputOffset()
		out = append(out, raw[end-int64(len(v)):end])
	}
	return out
}

// inputFixtures lists the input fixtures at the top of fixtureDir.
func inputFixtures(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

func TestEveryInputFixtureDecodes(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range inputFixtures(t) {
		t.Run(name, func(t *testing.T) {
			wire := compactFixture(t, readFixture(t, name))
			ev := eventFromBytes(t, append(bytes.Clone(wire), '\n'))
			assert.Equal(t, string(wire), string(ev.Raw()), "Raw is the wire bytes without the newline")
			seen[ev.HookEventName] = true
			checkDecoded(t, ev, decodeWithAdapter(t, ev))
		})
	}
	var missing []string
	for name := range adapters {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "events without an input fixture")
}

func TestEveryCapturedPayloadDecodes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "captured", "*", "*.json"))
	require.NoError(t, err)
	n := 0
	for _, path := range files {
		base := filepath.Base(path)
		event, _, _ := strings.Cut(base, ".")
		if !knownEvent(event) {
			continue // model-saw.tool_results.json and the like are not inputs
		}
		n++
		rel, err := filepath.Rel(fixtureDir, path)
		require.NoError(t, err)
		t.Run(rel, func(t *testing.T) {
			b := readFixture(t, rel)
			require.True(t, bytes.HasSuffix(b, []byte("\n")), "captured payloads end with a newline")
			ev := eventFromBytes(t, b)
			assert.Equal(t, event, ev.HookEventName)
			assert.Equal(t, string(bytes.TrimSuffix(b, []byte("\n"))), string(ev.Raw()), "Raw is the captured bytes without the newline")
			checkDecoded(t, ev, decodeWithAdapter(t, ev))
		})
	}
	assert.Greater(t, n, 150, "captured payloads found")
}

func TestUnknownMembersStayReachable(t *testing.T) {
	wire := compactFixture(t, readFixture(t, "posttooluse-bash.json"))
	future := `"future_field":{"n":12345678901234567890,"s":"\ud800 K\u00f6ln","f":2.50}`
	in := append(append(bytes.Clone(wire[:len(wire)-1]), ","+future+"}"...), '\n')
	ev := eventFromBytes(t, in)
	got := decodeWithAdapter(t, ev).(*PostToolUse)
	v, ok := got.Field("future_field")
	require.True(t, ok)
	assert.Equal(t, `{"n":12345678901234567890,"s":"\ud800 K\u00f6ln","f":2.50}`, string(v))
	assert.Equal(t, string(bytes.TrimSuffix(in, []byte("\n"))), string(got.Raw()))
	assert.Equal(t, "Bash", got.ToolName)
	assert.InDelta(t, 4187, got.DurationMS, 0)
}

func TestToolCallsKeepTrickyBytes(t *testing.T) {
	in := `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PostToolBatch","tool_calls":[` +
		`{"tool_name":"Read","tool_input":{ "file_path" : "a\u00f6.txt","n":2.50 },"tool_use_id":"toolu_1","tool_response":"1\tx\ud800"},` +
		`{"tool_name":"Agent","tool_input":{"prompt":"\u003cb\u003e"},"tool_use_id":"toolu_2","tool_response":[{"type":"text","text":"ok","citations":null}]},` +
		`{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_3"}]}` + "\n"
	ev := eventFromBytes(t, []byte(in))
	got := decodeWithAdapter(t, ev).(*PostToolBatch)
	checkDecoded(t, ev, got)
	require.Len(t, got.ToolCalls, 3)
	assert.Equal(t, `{ "file_path" : "a\u00f6.txt","n":2.50 }`, string(got.ToolCalls[0].ToolInput))
	assert.Equal(t, `"1\tx\ud800"`, string(got.ToolCalls[0].ToolResponse))
	assert.Equal(t, `[{"type":"text","text":"ok","citations":null}]`, string(got.ToolCalls[1].ToolResponse))
	assert.Nil(t, got.ToolCalls[2].ToolResponse)
	blocks, err := DecodeView[[]ContentBlock](got.ToolCalls[1].ToolResponse)
	require.NoError(t, err)
	assert.Equal(t, []ContentBlock{{Type: "text", Text: "ok"}}, *blocks)
}

func TestTypedFieldsOfSomeFixtures(t *testing.T) {
	pr := decodeWithAdapter(t, fixtureEvent(t, "permissionrequest-bash.json")).(*PermissionRequest)
	require.Len(t, pr.PermissionSuggestions, 2)
	assert.Equal(t, PermissionUpdate{Type: PermissionUpdateAddDirectories, Directories: []string{"/home/dev/acme-api/dist"}, Destination: DestinationSession}, pr.PermissionSuggestions[0])
	assert.Equal(t, PermissionUpdate{Type: PermissionUpdateSetMode, Mode: PermissionModeAcceptEdits, Destination: DestinationSession}, pr.PermissionSuggestions[1])

	st := decodeWithAdapter(t, fixtureEvent(t, "stop-active.json")).(*Stop)
	assert.True(t, st.StopHookActive)
	assert.Equal(t, []BackgroundTask{{ID: "b7k2m9", Type: "shell", Status: "running", Description: "Start the dev server", Command: "npm run dev"}}, st.BackgroundTasks)
	assert.Equal(t, []SessionCron{{ID: "c3f8a1", Schedule: "*/10 * * * *", Recurring: true, Prompt: "check the CI status of the open PR"}}, st.SessionCrons)

	pc := decodeWithAdapter(t, fixtureEvent(t, "precompact-auto.json")).(*PreCompact)
	assert.Equal(t, CompactAuto, pc.Trigger)
	assert.Empty(t, pc.CustomInstructions, "null reads as empty")

	ms := decodeWithAdapter(t, fixtureEvent(t, "premodelswitch.json")).(*PreModelSwitch)
	assert.Equal(t, PreModelSwitch{Event: ms.Event, FromModel: "claude-sonnet-5", ToModel: "claude-opus-5-5", RequestedModel: "opus",
		Source: ModelSwitchCommand, ContextTokens: 61234, PromptCacheWarm: true, CacheTTL: CacheTTL5m, EstimatedCacheWriteUSD: 0.3827, Pricing: PricingCatalog}, *ms)

	ss := decodeWithAdapter(t, fixtureEvent(t, "sessionstart-resume.json")).(*SessionStart)
	assert.Equal(t, SessionStartResume, ss.Source)
	assert.InDelta(t, 5412, ss.SecondsSinceLastResponse, 0)
	assert.True(t, ss.PromptCacheLikelyExpired)

	sa := decodeWithAdapter(t, fixtureEvent(t, "sessionstart-agent.json")).(*SessionStart)
	assert.Equal(t, "security-reviewer", sa.AgentType)

	fc := decodeWithAdapter(t, fixtureEvent(t, "filechanged.json")).(*FileChanged)
	assert.Equal(t, FileEventChange, fc.Change)

	il := decodeWithAdapter(t, fixtureEvent(t, "instructionsloaded-glob.json")).(*InstructionsLoaded)
	assert.Equal(t, LoadPathGlobMatch, il.LoadReason)
	assert.Equal(t, MemoryProject, il.MemoryType)
	assert.Equal(t, []string{"src/db/**/*.sql"}, il.Globs)

	el := decodeWithAdapter(t, fixtureEvent(t, "elicitation-url.json")).(*Elicitation)
	assert.Equal(t, ElicitationModeURL, el.Mode)
	assert.Equal(t, "elic_7Hq2", el.ElicitationID)
	assert.Nil(t, el.RequestedSchema)

	sk := decodeWithAdapter(t, fixtureEvent(t, "preskillshellcommand.json")).(*PreSkillShellCommand)
	cmd, err := sk.Command()
	require.NoError(t, err)
	assert.Equal(t, "git log --oneline -5", cmd)
	assert.Equal(t, InvokedByUser, sk.InvokedBy)

	md := decodeWithAdapter(t, fixtureEvent(t, "messagedisplay-final.json")).(*MessageDisplay)
	assert.Equal(t, int64(2), md.Index)
	assert.True(t, md.Final)

	nt := decodeWithAdapter(t, fixtureEvent(t, "notification-permission_prompt.json")).(*Notification)
	assert.Equal(t, NotificationPermissionPrompt, nt.NotificationType)

	sf := decodeWithAdapter(t, fixtureEvent(t, "stopfailure.json")).(*StopFailure)
	assert.Equal(t, StopErrorRateLimit, sf.Error)

	mcp := decodeWithAdapter(t, fixtureEvent(t, "permissionrequest-mcp.json")).(*PermissionRequest)
	require.NotNil(t, mcp.MCPServer)
	assert.Equal(t, MCPServer{Name: "github", Source: "user"}, *mcp.MCPServer)
	assert.Equal(t, []PermissionRule{{ToolName: "mcp__github__create_pull_request"}}, mcp.PermissionSuggestions[0].Rules)
}
