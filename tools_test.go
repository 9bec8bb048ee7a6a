package hook

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

func TestSplitMCPToolName(t *testing.T) {
	cases := []struct {
		name, server, tool string
		ok                 bool
	}{
		{"mcp__probe__listen_here", "probe", "listen_here", true},
		{"mcp__github__create_pull_request", "github", "create_pull_request", true},
		{"mcp__plugin_acme_db__query", "plugin_acme_db", "query", true},
		{"mcp__a__b__c", "a", "b__c", true},
		{"mcp__my-server__do-it", "my-server", "do-it", true},
		{"Bash", "", "", false},
		{"mcp__memory", "", "", false},
		{"mcp__", "", "", false},
		{"mcp____tool", "", "", false},
		{"mcp__server__", "", "", false},
		{"MCP__a__b", "", "", false},
		{"", "", "", false},
	}
	for _, c := range cases {
		server, tool, ok := SplitMCPToolName(c.name)
		assert.Equal(t, c.ok, ok, c.name)
		assert.Equal(t, c.server, server, c.name)
		assert.Equal(t, c.tool, tool, c.name)
		assert.Equal(t, c.ok, isMCPTool(c.name), c.name)
	}
}

func TestSplitMCPToolNameOfFixtures(t *testing.T) {
	e := decodeWithAdapter(t, fixtureEvent(t, "pretooluse-mcp-listen_here.json")).(*PreToolUse)
	server, tool, ok := SplitMCPToolName(e.ToolName)
	require.True(t, ok)
	assert.Equal(t, "probe", server)
	assert.Equal(t, "listen_here", tool)
	require.NotNil(t, e.MCPServer)
	assert.Equal(t, e.MCPServer.Name, server, "the fixture's server name matches the tool-name prefix")
}

// checkView decodes sample into the view T and checks that the view knows
// every member of sample (its encoding has each member with an equal
// value) and that an unchanged view updates nothing: Update returns the
// sample's exact bytes.
func checkView[T any](t *testing.T, sample jsontext.Value) *T {
	t.Helper()
	v, err := DecodeView[T](sample)
	require.NoError(t, err)
	enc, err := wire.Marshal(v)
	require.NoError(t, err)
	sms, err := rawjson.Members(sample)
	require.NoError(t, err)
	ems, err := rawjson.Members(enc)
	require.NoError(t, err)
	for _, m := range sms {
		e, ok := rawjson.Find(ems, m.Key)
		if !assert.True(t, ok, "%T does not know member %q", v, m.Key) {
			continue
		}
		var want, got any
		require.NoError(t, json.Unmarshal(m.Value, &want))
		require.NoError(t, json.Unmarshal(e.Value, &got))
		if want == nil {
			continue // null reads as the zero value
		}
		assert.Equal(t, want, got, "%T member %q", v, m.Key)
	}
	same, err := Update(sample, v)
	require.NoError(t, err)
	assert.Equal(t, string(sample), string(same), "an unchanged %T changes nothing", v)
	return v
}

// toolInput returns the raw tool_input of an input fixture.
func toolInput(t *testing.T, fixture string) jsontext.Value {
	t.Helper()
	v, ok := fixtureEvent(t, fixture).Field("tool_input")
	require.True(t, ok)
	return v
}

func TestToolInputViewsOfFixtures(t *testing.T) {
	bash := checkView[BashInput](t, toolInput(t, "pretooluse-bash.json"))
	assert.Equal(t, BashInput{Command: "npm test -- --runInBand", Description: "Run the test suite", Timeout: 120000}, *bash)
	assert.True(t, checkView[BashInput](t, toolInput(t, "pretooluse-bash-background.json")).RunInBackground)
	ps := checkView[PowerShellInput](t, toolInput(t, "pretooluse-powershell.json"))
	assert.Equal(t, "Get-ChildItem -Recurse -Filter *.ps1", ps.Command)
	assert.Equal(t, "/home/dev/acme-api/src/health.ts", checkView[WriteInput](t, toolInput(t, "pretooluse-write.json")).FilePath)
	assert.Equal(t, "const port = 3000;", checkView[EditInput](t, toolInput(t, "pretooluse-edit.json")).OldString)
	rd := checkView[ReadInput](t, toolInput(t, "pretooluse-read-range.json"))
	assert.Equal(t, ReadInput{FilePath: "/home/dev/acme-api/src/routes/users.ts", Offset: 120, Limit: 80}, *rd)
	checkView[ReadInput](t, toolInput(t, "pretooluse-read.json"))
	assert.Equal(t, "src/**/*.test.ts", checkView[GlobInput](t, toolInput(t, "pretooluse-glob.json")).Pattern)
	grep := checkView[GrepInput](t, toolInput(t, "pretooluse-grep.json"))
	assert.Equal(t, GrepInput{Pattern: `TODO\(.*\)`, Path: "/home/dev/acme-api/src", Glob: "*.ts", OutputMode: "content", LineNumbers: true}, *grep)
	assert.Equal(t, "https://nodejs.org/api/http.html", checkView[WebFetchInput](t, toolInput(t, "pretooluse-webfetch.json")).URL)
	assert.Equal(t, []string{"expressjs.com"}, checkView[WebSearchInput](t, toolInput(t, "pretooluse-websearch.json")).AllowedDomains)
	assert.Equal(t, "Explore", checkView[AgentInput](t, toolInput(t, "pretooluse-agent.json")).SubagentType)
	assert.Equal(t, "replace", checkView[NotebookEditInput](t, toolInput(t, "pretooluse-notebookedit.json")).EditMode)
	todos := checkView[TodoWriteInput](t, toolInput(t, "pretooluse-todowrite.json"))
	require.Len(t, todos.Todos, 3)
	assert.Equal(t, Todo{Content: "Write tests for /health", Status: "in_progress", ActiveForm: "Writing tests for /health"}, todos.Todos[1])
	assert.Equal(t, "/home/dev/.claude/plans/add-health-endpoint.md", checkView[ExitPlanModeInput](t, toolInput(t, "pretooluse-exitplanmode.json")).PlanFilePath)
	q := checkView[AskUserQuestionInput](t, toolInput(t, "pretooluse-askuserquestion.json"))
	require.Len(t, q.Questions, 1)
	assert.Equal(t, "Vitest", q.Questions[0].Options[0].Label)
	assert.Equal(t, SkillInput{Skill: "code-review", Args: "src/server.ts"}, *checkView[SkillInput](t, toolInput(t, "pretooluse-skill.json")))
	assert.Equal(t, "Adding rate limiting to /login", checkView[TaskCreateInput](t, toolInput(t, "pretooluse-taskcreate.json")).ActiveForm)
}

func TestToolInputViewsOfTheOtherTools(t *testing.T) {
	tu := checkView[TaskUpdateInput](t, raw(`{"taskId":"3","subject":"s","description":"d","activeForm":"a","status":"deleted","addBlocks":["4"],"addBlockedBy":["1","2"],"owner":"ana","metadata":{"n":12345678901234567890}}`))
	assert.Equal(t, "deleted", tu.Status)
	assert.Equal(t, `{"n":12345678901234567890}`, string(tu.Metadata))
	assert.Equal(t, "3", checkView[TaskGetInput](t, raw(`{"taskId":"3"}`)).TaskID)
	assert.Equal(t, TaskStopInput{TaskID: "b7k2m9", ShellID: "old"}, *checkView[TaskStopInput](t, raw(`{"task_id":"b7k2m9","shell_id":"old"}`)))
	assert.Equal(t, CronCreateInput{Cron: "*/10 * * * *", Prompt: "p", Recurring: true, Durable: true}, *checkView[CronCreateInput](t, raw(`{"cron":"*/10 * * * *","prompt":"p","recurring":true,"durable":true}`)))
	assert.Equal(t, "c3f8a1", checkView[CronDeleteInput](t, raw(`{"id":"c3f8a1"}`)).ID)
	assert.Equal(t, EnterWorktreeInput{Name: "wt", Path: "/wt"}, *checkView[EnterWorktreeInput](t, raw(`{"name":"wt","path":"/wt"}`)))
	assert.Equal(t, ExitWorktreeInput{Action: "remove", DiscardChanges: true}, *checkView[ExitWorktreeInput](t, raw(`{"action":"remove","discard_changes":true}`)))
	assert.Equal(t, "probe", checkView[ListMcpResourcesInput](t, raw(`{"server":"probe"}`)).Server)
	assert.Equal(t, "file:///a", checkView[ReadMcpResourceInput](t, raw(`{"server":"probe","uri":"file:///a"}`)).URI)
	assert.Equal(t, int64(60000), checkView[MonitorInput](t, raw(`{"description":"d","timeout_ms":60000,"command":"tail -f log","ws":{"url":"wss://x"}}`)).TimeoutMS)
	assert.True(t, checkView[ScheduleWakeupInput](t, raw(`{"delaySeconds":300,"reason":"r","prompt":"p","stop":true,"noop":false}`)).Stop)
	assert.Equal(t, "done", checkView[PushNotificationInput](t, raw(`{"message":"done","status":"proactive"}`)).Message)
	checkView[GrepInput](t, raw(`{"pattern":"x","type":"go","-B":1,"-A":2,"-C":3,"context":4,"-o":true,"head_limit":5,"offset":6,"multiline":true}`))
	checkView[ReadInput](t, raw(`{"file_path":"/a.pdf","pages":"1-5","allow_large":true}`))
	checkView[BashInput](t, raw(`{"command":"ls","dangerouslyDisableSandbox":true}`))
	checkView[AgentInput](t, raw(`{"description":"d","prompt":"p","model":"opus","effort":"max","run_in_background":true,"name":"n","team_name":"t","mode":"plan","isolation":"worktree"}`))
	checkView[WebSearchInput](t, raw(`{"query":"q","blocked_domains":["a.com"]}`))
	checkView[WebFetchInput](t, raw(`{"url":"https://a","prompt":"p","offset":100}`))
	checkView[ExitPlanModeInput](t, raw(`{"allowedPrompts":[{"tool":"Bash","prompt":"run tests"}],"plan":"p","planFilePath":"/p.md"}`))
	checkView[AskUserQuestionInput](t, raw(`{"questions":[{"question":"q?","header":"h","options":[{"label":"a","description":"d","preview":"p"},{"label":"b","description":"e"}],"multiSelect":true}],"answers":{"q?":"a"},"annotations":{"q?":{"notes":"n"}},"metadata":{"source":"remember"}}`))
}

func TestTypedEditsKeepEverythingElse(t *testing.T) {
	// A zero value set by an edit is written, in place.
	upd, err := Edit(toolInput(t, "pretooluse-bash.json"), func(in *BashInput) error { in.Timeout = 0; return nil })
	require.NoError(t, err)
	assert.Equal(t, `{"command":"npm test -- --runInBand","description":"Run the test suite","timeout":0}`, string(upd))

	// Grep's dash-named flags are replaced in place.
	upd, err = Edit(toolInput(t, "pretooluse-grep.json"), func(in *GrepInput) error { in.IgnoreCase = true; return nil })
	require.NoError(t, err)
	assert.Equal(t, `{"pattern":"TODO\\(.*\\)","path":"/home/dev/acme-api/src","glob":"*.ts","output_mode":"content","-n":true,"-i":true}`, string(upd))

	// Absent members stay absent; unknown and raw members keep their bytes.
	orig := raw(`{"subject":"a","description":"d","metadata":{"k":"\ud800","n":2.50},"future":[1e400]}`)
	upd, err = Edit(orig, func(in *TaskCreateInput) error { in.Subject = "[ACME-1] a"; return nil })
	require.NoError(t, err)
	assert.Equal(t, `{"subject":"[ACME-1] a","description":"d","metadata":{"k":"\ud800","n":2.50},"future":[1e400]}`, string(upd))

	// A new member is appended after the others.
	upd, err = Edit(toolInput(t, "pretooluse-read.json"), func(in *ReadInput) error { in.Limit = 100; return nil })
	require.NoError(t, err)
	assert.Equal(t, `{"file_path":"/home/dev/acme-api/package.json","limit":100}`, string(upd))
}

func TestToolResponseViews(t *testing.T) {
	resp := func(fixture string) jsontext.Value {
		t.Helper()
		v, ok := fixtureEvent(t, fixture).Field("tool_response")
		require.True(t, ok)
		return v
	}
	bash := checkView[BashResponse](t, resp("posttooluse-bash.json"))
	assert.Equal(t, "PASS src/health.test.ts\n  health\n    ✓ returns ok (3 ms)\n\nTests: 1 passed, 1 total", bash.Stdout)
	assert.False(t, bash.Interrupted)

	w := checkView[WriteResponse](t, resp("posttooluse-write.json"))
	assert.Equal(t, "create", w.Type)
	assert.Empty(t, w.OriginalFile, "null reads as empty")
	assert.Empty(t, w.StructuredPatch)

	ed := checkView[EditResponse](t, resp("posttooluse-edit.json"))
	require.Len(t, ed.StructuredPatch, 1)
	assert.Equal(t, PatchHunk{OldStart: 2, OldLines: 4, NewStart: 2, NewLines: 4, Lines: []string{" ", " const app = express();", "-const port = 3000;", "+const port = Number(process.env.PORT ?? 3000);", " app.listen(port);"}}, ed.StructuredPatch[0])

	rd, err := DecodeView[ReadResponse](resp("posttooluse-read.json"))
	require.NoError(t, err)
	assert.Equal(t, "text", rd.Type)
	assert.Equal(t, ReadFile{FilePath: "/home/dev/acme-api/package.json", Content: "{\n  \"name\": \"acme-api\",\n  \"version\": \"1.4.0\",\n  \"type\": \"module\"\n}\n", NumLines: 6, StartLine: 1, TotalLines: 6}, rd.File)
	checkView[ReadResponse](t, resp("posttooluse-read.json"))

	g := checkView[GlobResponse](t, resp("posttooluse-glob.json"))
	assert.Equal(t, []string{"src/health.test.ts", "src/routes/users.test.ts"}, g.Filenames)
	assert.Equal(t, int64(2), g.TotalMatches)

	gr := checkView[GrepResponse](t, resp("posttooluse-grep.json"))
	assert.Equal(t, "content", gr.Mode)
	assert.Equal(t, int64(2), gr.NumLines)

	// The Agent response carries members the SDK does not declare; the
	// view decodes leniently and Update keeps them.
	ag, err := DecodeView[AgentResponse](resp("posttooluse-agent.json"))
	require.NoError(t, err)
	assert.Equal(t, "completed", ag.Status)
	assert.Equal(t, "a882a806d90a12026", ag.AgentID)
	require.Len(t, ag.Content, 2)
	assert.Equal(t, "text", ag.Content[1].Type)
	assert.Contains(t, ag.Content[1].Text, "| GET | /users |")
	assert.Equal(t, int64(7), ag.TotalToolUseCount)
	assert.Contains(t, string(ag.Usage), `"fallback_credit":null`)
	same, err := Update(resp("posttooluse-agent.json"), ag)
	require.NoError(t, err)
	assert.Equal(t, string(resp("posttooluse-agent.json")), string(same))

	mcp, err := DecodeView[[]ContentBlock](resp("posttooluse-mcp-listen_here.json"))
	require.NoError(t, err)
	assert.Equal(t, []ContentBlock{{Type: "text", Text: `listening; got {"room":"general","fingerprint":"7c2e9a41"}`}}, *mcp)

	wf := checkView[WebFetchResponse](t, raw(`{"bytes":1024,"code":200,"codeText":"OK","result":"r","durationMs":12.5,"url":"https://a"}`))
	assert.InDelta(t, 12.5, wf.DurationMS, 0)
	checkView[WebSearchResponse](t, raw(`{"query":"q","results":[{"tool_use_id":"x","content":[{"title":"t","url":"u"}]},"note"],"durationSeconds":1.5,"searchCount":1}`))
	checkView[NotebookEditResponse](t, raw(`{"new_source":"n","old_source":"o","cell_id":"c","cell_type":"code","language":"python","edit_mode":"replace","notebook_path":"/n.ipynb","original_file":"{}","updated_file":"{}"}`))
	checkView[TodoWriteResponse](t, raw(`{"oldTodos":[],"newTodos":[{"content":"c","status":"pending","activeForm":"a"}]}`))
	checkView[ExitPlanModeResponse](t, raw(`{"plan":"p","isAgent":false,"filePath":"/p.md","planWasEdited":true}`))
	checkView[AgentResponse](t, raw(`{"status":"async_launched","agentId":"a1","description":"d","prompt":"p","outputFile":"/o","resolvedModel":"m"}`))
	checkView[BashResponse](t, raw(`{"stdout":"","stderr":"e","interrupted":true,"returnCodeInterpretation":"grep: no match","backgroundTaskId":"b1","persistedOutputPath":"/o","persistedOutputSize":12,"gitOperation":{"kind":"commit"}}`))
}

func TestDecodeViewErrors(t *testing.T) {
	_, err := DecodeView[BashInput](nil)
	assert.ErrorContains(t, err, "no value to decode")
	_, err = DecodeView[BashInput](raw(`{"command":42}`))
	assert.ErrorContains(t, err, "hook: DecodeView")
	_, err = DecodeView[BashInput](raw(`[1]`))
	assert.Error(t, err)
}
