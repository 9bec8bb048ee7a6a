package hook

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matcherCase is one matcher tested against values of one event.
type matcherCase struct {
	event, matcher string
	match, miss    []string
	kind           error // the CompileMatcher error kind, nil for none
}

// matcherCases are spec §8 (the rules and what the real 2.1.332 did),
// plus the edges of each rule.
var matcherCases = []matcherCase{
	// Empty and "*".
	{event: EventPreToolUse, matcher: "", match: []string{"Bash", "", "mcp__x__y"}},
	{event: EventPreToolUse, matcher: "*", match: []string{"Bash", "Edit", ""}},
	// Exact names and lists.
	{event: EventPreToolUse, matcher: "Bash", match: []string{"Bash"}, miss: []string{"bash", "Bash2", "MyBash", ""}},
	{event: EventPreToolUse, matcher: "Edit|Write", match: []string{"Edit", "Write"}, miss: []string{"NotebookEdit", "Edit|Write"}},
	{event: EventPreToolUse, matcher: "Edit, Write", match: []string{"Edit", "Write"}, miss: []string{"Edit, Write", " Write"}},
	{event: EventPreToolUse, matcher: " Edit ,Write | Read ", match: []string{"Edit", "Write", "Read"}},
	{event: EventPreToolUse, matcher: "mcp__memory", match: []string{"mcp__memory"}, miss: []string{"mcp__memory__store", "mcp__memory__"}},
	{event: EventSubagentStart, matcher: "general-purpose", match: []string{"general-purpose"}, miss: []string{"general"}},
	{event: EventPreToolUse, matcher: "Edit Write", match: []string{"Edit Write"}, miss: []string{"Edit", "Write"}},
	{event: EventPreToolUse, matcher: "|", miss: []string{"", "Bash"}},
	{event: EventPreToolUse, matcher: " ", miss: []string{"", " ", "Bash"}},
	{event: EventPreToolUse, matcher: ",,", miss: []string{"", ","}},
	// Legacy names in lists.
	{event: EventPreToolUse, matcher: "Task", match: []string{"Agent"}, miss: []string{"Task", "TaskCreate"}},
	{event: EventPreToolUse, matcher: "KillShell|Read", match: []string{"TaskStop", "Read"}, miss: []string{"KillShell"}},
	{event: EventPreToolUse, matcher: "KillBash", match: []string{"TaskStop"}},
	{event: EventPreToolUse, matcher: "ListPeers", match: []string{"ListAgents"}},
	{event: EventPreToolUse, matcher: "Brief", match: []string{"SendUserMessage"}},
	{event: EventPreToolUse, matcher: "ListMcpResources", match: []string{"ListMcpResourcesTool"}},
	{event: EventPreToolUse, matcher: "ReadMcpResource", match: []string{"ReadMcpResourceTool"}, miss: []string{"ReadMcpResourceDirTool"}},
	{event: EventPreToolUse, matcher: "ReadMcpResourceDir", match: []string{"ReadMcpResourceDirTool"}},
	{event: EventPreToolUse, matcher: "ProposeGoal", match: []string{"SetGoal"}},
	{event: EventPreToolUse, matcher: "Agent", match: []string{"Agent"}},
	// Regular expressions: unanchored, JavaScript dialect.
	{event: EventPreToolUse, matcher: "Edit.*", match: []string{"Edit", "NotebookEdit", "EditX"}, miss: []string{"Write"}},
	{event: EventPreToolUse, matcher: "^Edit$", match: []string{"Edit"}, miss: []string{"NotebookEdit"}},
	{event: EventPreToolUse, matcher: "mcp__memory__.*", match: []string{"mcp__memory__store"}, miss: []string{"mcp__memory"}},
	{event: EventPreToolUse, matcher: "mcp__.*", match: []string{"mcp__a__b"}, miss: []string{"Bash"}},
	{event: EventPreToolUse, matcher: "mcp__plugin_p_s__.*", match: []string{"mcp__plugin_p_s__t"}},
	{event: EventSubagentStart, matcher: "^p:reviewer$", match: []string{"p:reviewer"}, miss: []string{"reviewer", "p:reviewer2"}},
	{event: EventSubagentStart, matcher: "p:reviewer", match: []string{"p:reviewer", "xp:reviewerx"}},
	{event: EventPreToolUse, matcher: `\u0042ash`, match: []string{"Bash"}},
	{event: EventPreToolUse, matcher: "[^]", match: []string{"Bash", "\n"}, miss: []string{""}},
	// Regexps are tested against legacy names too (observed live).
	{event: EventPreToolUse, matcher: "Bash.*", match: []string{"Bash", "TaskStop"}, miss: []string{"TaskCreate"}},
	{event: EventPreToolUse, matcher: "Bash$", match: []string{"TaskStop"}},
	{event: EventPreToolUse, matcher: "^Task$", match: []string{"Agent", "Task"}, miss: []string{"TaskCreate"}},
	{event: EventPreToolUse, matcher: ".*Peers", match: []string{"ListAgents"}},
	{event: EventPreToolUse, matcher: "^Kill", match: []string{"TaskStop"}},
	// Invalid regexps match nothing, not even the names of an alternation.
	{event: EventPreToolUse, matcher: "Bash|Read(", miss: []string{"Bash", "Read", "Bash|Read("}, kind: ErrInvalidMatcher},
	{event: EventPreToolUse, matcher: "(?i)bash", miss: []string{"bash", "Bash"}, kind: ErrInvalidMatcher},
	{event: EventPreToolUse, matcher: "(?P<n>Bash)", miss: []string{"Bash"}, kind: ErrInvalidMatcher},
	{event: EventPreToolUse, matcher: "(?i:bash)", match: []string{"Bash", "BASH"}, miss: []string{"Read"}},
	{event: EventPreToolUse, matcher: "*Bash", miss: []string{"Bash"}, kind: ErrInvalidMatcher},
	{event: EventPreToolUse, matcher: "[a", miss: []string{"a"}, kind: ErrInvalidMatcher},
	// Go-only syntax has its JavaScript meaning.
	{event: EventPreToolUse, matcher: `Bash\z`, match: []string{"Bashz"}, miss: []string{"Bash"}, kind: ErrGoRegexpSyntax},
	{event: EventPreToolUse, matcher: `\ABash`, match: []string{"ABash"}, miss: []string{"Bash"}, kind: ErrGoRegexpSyntax},
	{event: EventPreToolUse, matcher: `[[:alpha:]]`, match: []string{"x:]"}, miss: []string{"Bash"}, kind: ErrGoRegexpSyntax},
	{event: EventPreToolUse, matcher: `^\pL`, match: []string{"pL"}, miss: []string{"Bash"}, kind: ErrGoRegexpSyntax},
	// What RE2 cannot express is an error, and matches nothing.
	{event: EventPreToolUse, matcher: "^(?!Bash$)", miss: []string{"Read", "Bash"}, kind: ErrUnsupportedMatcher},
	{event: EventPreToolUse, matcher: "(?<!Notebook)Edit", miss: []string{"Edit"}, kind: ErrUnsupportedMatcher},
	{event: EventPreToolUse, matcher: `(Bash)\1`, miss: []string{"BashBash"}, kind: ErrUnsupportedMatcher},
	// FileChanged and StopFailure: the narrow set, split on '|' only.
	{event: EventFileChanged, matcher: ".env|.envrc", match: []string{".env", ".envrc", "x.env", "aenv"}, miss: []string{"env"}},
	{event: EventFileChanged, matcher: "envrc|package_json", match: []string{"envrc", "package_json"}, miss: []string{".envrc"}},
	{event: EventStopFailure, matcher: "server_error, rate_limit", match: []string{"server_error, rate_limit"}, miss: []string{"rate_limit", "server_error"}},
	{event: EventStopFailure, matcher: "server_error|rate_limit", match: []string{"server_error", "rate_limit"}, miss: []string{"server_error|rate_limit"}},
	{event: EventStopFailure, matcher: "billing-error", match: []string{"billing-error", "xbilling-errorx"}},
	// Events without matcher support match whatever the matcher.
	{event: EventStop, matcher: "Bash", match: []string{"", "Read"}},
	{event: EventUserPromptSubmit, matcher: "Bash|Read(", match: []string{"", "x"}},
	{event: EventPostToolBatch, matcher: "(?=x)", match: []string{""}},
	{event: "FutureEvent", matcher: "(", match: []string{"x"}},
	// Model switches drop a [1m] suffix.
	{event: EventPreModelSwitch, matcher: "claude-opus-5[1m]", match: []string{"claude-opus-5"}, miss: []string{"claude-opus-5[1m]"}},
	{event: EventPostModelSwitch, matcher: "a[1M] | b[2m]", match: []string{"a", "b"}},
	{event: EventPreModelSwitch, matcher: "[1m]", match: []string{"1", "m"}, miss: []string{"2"}},
	{event: EventPreToolUse, matcher: "Bash[1m]", match: []string{"Bash1", "Bashm"}, miss: []string{"Bash"}},
}

func TestCompileMatcher(t *testing.T) {
	for _, c := range matcherCases {
		t.Run(c.event+" "+c.matcher, func(t *testing.T) {
			m, err := CompileMatcher(c.event, c.matcher)
			if c.kind == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, c.kind)
				var me *MatcherError
				require.ErrorAs(t, err, &me)
				assert.Equal(t, c.matcher, me.Matcher)
				assert.Contains(t, err.Error(), fmt.Sprintf("%q", c.matcher))
			}
			assert.Equal(t, c.matcher, m.String())
			assert.Equal(t, c.event, m.Event())
			for _, v := range c.match {
				assert.True(t, m.Match(v), "should match %q", v)
			}
			for _, v := range c.miss {
				assert.False(t, m.Match(v), "should not match %q", v)
			}
		})
	}
}

func TestMatcherNames(t *testing.T) {
	m, err := CompileMatcher(EventPreToolUse, "Task, Edit|mcp__memory")
	require.NoError(t, err)
	names, ok := m.Names()
	assert.True(t, ok)
	assert.Equal(t, []string{"Agent", "Edit", "mcp__memory"}, names)
	names[0] = "changed"
	again, _ := m.Names()
	assert.Equal(t, "Agent", again[0], "Names returns a copy")
	for _, src := range []string{"", "*", "Edit.*", "Bash|("} {
		m, _ := CompileMatcher(EventPreToolUse, src)
		_, ok := m.Names()
		assert.False(t, ok, src)
	}
	m, _ = CompileMatcher(EventPreToolUse, "|")
	names, ok = m.Names()
	assert.True(t, ok)
	assert.Empty(t, names)
}

func TestMatcherZeroValue(t *testing.T) {
	var m Matcher
	assert.Equal(t, matchAll, m.kind)
	assert.True(t, m.Match("anything"))
	assert.True(t, m.MatchEvent(fixtureEvent(t, "stop.json")))
	assert.True(t, m.MatchEvent(fixtureEvent(t, "pretooluse-bash.json")))
}

func TestCurrentToolName(t *testing.T) {
	assert.Equal(t, "Agent", currentToolName("Task"))
	assert.Equal(t, "TaskStop", currentToolName("KillShell"))
	assert.Equal(t, "TaskStop", currentToolName("KillBash"))
	assert.Equal(t, "Bash", currentToolName("Bash"))
	assert.Equal(t, "", currentToolName(""))
	legacy := []string{"Task", "KillShell", "KillBash", "ListPeers", "Brief", "ListMcpResources", "ReadMcpResource", "ReadMcpResourceDir", "ProposeGoal"}
	for _, old := range legacy { // spec §8 lists nine legacy names
		cur := currentToolName(old)
		assert.NotEqual(t, old, cur, old)
		assert.Contains(t, legacyNamesOf(cur), old, "legacyNamesOf is the inverse")
		assert.Equal(t, cur, currentToolName(cur), "current names are fixed points")
	}
	assert.Equal(t, []string{"KillBash", "KillShell"}, legacyNamesOf("TaskStop"))
	assert.Nil(t, legacyNamesOf("Bash"))
}

// matcherFieldSpec is spec §3's "Matcher is tested against" column,
// written out again so that the table in matcher.go is checked against an
// independent copy.
var matcherFieldSpec = map[string]string{
	EventPreToolUse: "tool_name", EventPermissionRequest: "tool_name", EventPermissionDenied: "tool_name",
	EventPostToolUse: "tool_name", EventPostToolUseFailure: "tool_name", EventPostToolBatch: "",
	EventNotification: "notification_type", EventUserPromptSubmit: "", EventUserPromptExpansion: "command_name",
	EventSessionStart: "source", EventSessionEnd: "reason", EventStop: "", EventStopFailure: "error", EventInterrupt: "source",
	EventSubagentStart: "agent_type", EventSubagentStop: "agent_type", EventPreCompact: "trigger",
	EventPostCompact: "trigger", EventPreModelSwitch: "to_model", EventPostModelSwitch: "to_model",
	EventSetup: "trigger", EventTeammateIdle: "", EventTaskCreated: "", EventTaskCompleted: "",
	EventElicitation: "mcp_server_name", EventElicitationResult: "mcp_server_name", EventConfigChange: "source",
	EventWorktreeCreate: "", EventWorktreeRemove: "", EventInstructionsLoaded: "load_reason",
	EventCwdChanged: "", EventFileChanged: "file_path", EventDirectoryAdded: "source",
	EventMessageDisplay: "", EventPreSkillShellCommand: "tool_name",
}

// TestMatcherValueEveryEvent checks the query value of every input
// fixture, and that every event's query field is the spec's.
func TestMatcherValueEveryEvent(t *testing.T) {
	require.Len(t, matcherFieldSpec, 35)
	for ev, field := range matcherFieldSpec {
		assert.True(t, knownEvent(ev), ev)
		assert.Equal(t, field, matcherField(ev), ev)
		assert.Equal(t, field != "", hasMatcher(ev), ev)
	}
	seen := map[string]bool{}
	for _, name := range inputFixtures(t) {
		ev := fixtureEvent(t, name)
		seen[ev.HookEventName] = true
		v, ok := matcherValue(ev)
		field := matcherFieldSpec[ev.HookEventName]
		if field == "" {
			assert.False(t, ok, "%s: %s has no matcher", name, ev.HookEventName)
			continue
		}
		raw, present := ev.Field(field)
		require.True(t, present, "%s lacks %s", name, field)
		want := strings.Trim(string(raw), `"`)
		if ev.HookEventName == EventFileChanged {
			want = want[strings.LastIndexByte(want, '/')+1:]
		}
		assert.True(t, ok, name)
		assert.Equal(t, want, v, name)
		// A matcher of exactly that value fires on the event; one of
		// another value does not.
		if exactMatcherValue(ev.HookEventName, v) {
			m, err := CompileMatcher(ev.HookEventName, v)
			require.NoError(t, err)
			assert.True(t, m.MatchEvent(ev), "%s: matcher %q", name, v)
			other, err := CompileMatcher(ev.HookEventName, v+"X")
			require.NoError(t, err)
			assert.False(t, other.MatchEvent(ev), "%s: matcher %q", name, v+"X")
		}
	}
	assert.GreaterOrEqual(t, len(seen), 30, "fixtures cover most events")
}

func exactMatcherValue(event, v string) bool {
	if v == "" {
		return false
	}
	return isNameList(v, wideMatcherSet(event)) && !strings.ContainsAny(v, "|,")
}

func TestMatcherValueSpecifics(t *testing.T) {
	for _, c := range []struct{ fixture, value string }{
		{"filechanged.json", ".envrc"},
		{"stopfailure.json", "rate_limit"},
		{"sessionstart-compact.json", "compact"},
		{"notification-idle_prompt.json", "idle_prompt"},
		{"subagentstart.json", "Explore"},
		{"premodelswitch.json", "claude-opus-5-5"},
		{"instructionsloaded-glob.json", "path_glob_match"},
		{"userpromptexpansion.json", "deploy"},
		{"elicitation-form.json", "deploy-bot"},
		{"configchange.json", "project_settings"},
		{"directoryadded.json", "slash_command"},
		{"setup.json", "init"},
		{"precompact-auto.json", "auto"},
		{"sessionend-clear.json", "clear"},
		{"pretooluse-agent.json", "Agent"},
	} {
		v, ok := matcherValue(fixtureEvent(t, c.fixture))
		assert.True(t, ok, c.fixture)
		assert.Equal(t, c.value, v, c.fixture)
	}
	assert.Equal(t, "", jsBasename("/"))
	assert.Equal(t, "", jsBasename(""))
	assert.Equal(t, "b", jsBasename("/a/b/"))
	assert.Equal(t, "b", jsBasename("b"))
}

func TestMatchEvent(t *testing.T) {
	agent := fixtureEvent(t, "pretooluse-agent.json")
	task, err := CompileMatcher(EventPreToolUse, "Task")
	require.NoError(t, err)
	assert.True(t, task.MatchEvent(agent), "a legacy name in the matcher matches the current tool_name")
	re, err := CompileMatcher(EventPreToolUse, "^Task$")
	require.NoError(t, err)
	assert.True(t, re.MatchEvent(agent))

	// Another event never matches.
	post, err := CompileMatcher(EventPostToolUse, "*")
	require.NoError(t, err)
	assert.False(t, post.MatchEvent(agent))

	// An event without matcher support, or without the field, matches.
	stop, err := CompileMatcher(EventStop, "Bash")
	require.NoError(t, err)
	assert.True(t, stop.MatchEvent(fixtureEvent(t, "stop.json")))
	noName := eventFromBytes(t, []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PreToolUse","tool_input":{}}`))
	bash, err := CompileMatcher(EventPreToolUse, "Bash")
	require.NoError(t, err)
	assert.True(t, bash.MatchEvent(noName), "an absent tool_name is tested as undefined, which fires")
	notString := eventFromBytes(t, []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PreToolUse","tool_name":7}`))
	assert.True(t, bash.MatchEvent(notString))

	// An invalid matcher still matches nothing on an event.
	bad, err := CompileMatcher(EventPreToolUse, "Bash|(")
	require.True(t, errors.Is(err, ErrInvalidMatcher))
	assert.False(t, bad.MatchEvent(fixtureEvent(t, "pretooluse-bash.json")))

	// The Artifact family: the parts match the family name.
	art := eventFromBytes(t, []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Artifact","tool_input":{"action":"verify"}}`))
	check, err := CompileMatcher(EventPreToolUse, "ArtifactCheck")
	require.NoError(t, err)
	assert.True(t, check.MatchEvent(art))
	assert.False(t, check.Match("Artifact"), "without the input, no family")
	fam, err := CompileMatcher(EventPreToolUse, "^Artifact$")
	require.NoError(t, err)
	assert.True(t, fam.Match("ArtifactData"))
}

func BenchmarkMatcher(b *testing.B) {
	m, err := CompileMatcher(EventPreToolUse, "mcp__.*|Bash")
	require.NoError(b, err)
	for b.Loop() {
		m.Match("mcp__memory__store")
		m.Match("Read")
	}
}
