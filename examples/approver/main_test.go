package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestAllowsReadOnlyTools(t *testing.T) {
	for _, c := range []struct{ tool, input string }{
		{hook.ToolRead, `{"file_path":"/home/dev/shared-notes/design.md"}`},
		{hook.ToolRead, `{"file_path":"/etc/hosts","offset":1,"limit":20}`},
		{hook.ToolRead, `{"file_path":"/home/dev/acme-api/.env.example"}`},
		{hook.ToolRead, `{"file_path":"/home/dev/.ssh/id_rsa.pub"}`},
		{hook.ToolGlob, `{"pattern":"**/*.go","path":"/home/dev/other-repo"}`},
		{hook.ToolGlob, `{"pattern":"*.md"}`},
		{hook.ToolGrep, `{"pattern":"TODO","path":"/home/dev/lib","output_mode":"content","-n":true}`},
		{"LS", `{"path":"/var/log"}`},
		{"NotebookRead", `{"notebook_path":"/home/dev/nb/analysis.ipynb"}`},
	} {
		rec := hooktest.Record(Handler(), hooktest.NewPermissionRequest(c.tool, c.input))
		require.NoError(t, rec.Err(), c.input)
		assert.Equal(t, 0, rec.Code)
		assert.Equal(t, hook.Allow, rec.PermissionDecision, "%s %s", c.tool, c.input)
		assert.Nil(t, rec.UpdatedInput, "an allow without a new input")
		assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`+"\n", string(rec.Stdout))
	}
}

func TestLeavesTheRestToThePerson(t *testing.T) {
	for _, c := range []struct{ tool, input string }{
		{hook.ToolBash, `{"command":"cat /etc/hosts","description":"read a file"}`},
		{hook.ToolWrite, `{"file_path":"/home/dev/acme-api/x.txt","content":"x"}`},
		{hook.ToolEdit, `{"file_path":"/home/dev/acme-api/x.txt","old_string":"a","new_string":"b","replace_all":false}`},
		{hook.ToolWebFetch, `{"url":"https://example.com/?q=secret","prompt":"summarise"}`},
		{"mcp__probe__listen_here", `{"room":"Ops"}`},
		// Read-only tools, but aimed at secrets.
		{hook.ToolRead, `{"file_path":"/home/dev/acme-api/.env"}`},
		{hook.ToolRead, `{"file_path":"/home/dev/.ssh/id_ed25519"}`},
		{hook.ToolRead, `{"file_path":".aws/credentials"}`},
		{hook.ToolGrep, `{"pattern":"BEGIN","path":"/home/dev/.ssh"}`},
		{hook.ToolGlob, `{"pattern":"*","path":"/home/dev/.gnupg"}`},
		// The same, the Windows way (see examples/internal/winpath).
		{hook.ToolRead, `{"file_path":"C:\\Users\\dev\\acme-api\\.env "}`},
		{hook.ToolRead, `{"file_path":"C:\\Users\\dev\\acme-api\\.env::$DATA"}`},
		{hook.ToolRead, `{"file_path":"\\\\?\\C:\\Users\\dev\\.ssh\\id_ed25519"}`},
		{hook.ToolGrep, `{"pattern":"BEGIN","path":"C:\\Users\\dev\\.SSH"}`},
		{hook.ToolGlob, `{"pattern":"*","path":"C:\\Users\\dev\\SSH~1"}`},
		// An input approver cannot read.
		{hook.ToolRead, `{"file_path":["/etc/hosts"]}`},
	} {
		rec := hooktest.Record(Handler(), hooktest.NewPermissionRequest(c.tool, c.input))
		require.NoError(t, rec.Err(), c.input)
		assert.Equal(t, 0, rec.Code)
		assert.Empty(t, rec.Stdout, "%s %s: the person decides", c.tool, c.input)
	}
}

func TestOtherEventsGetNoAnswer(t *testing.T) {
	rec := hooktest.Record(Handler(), hooktest.NewPreToolUse(hook.ToolRead, `{"file_path":"/etc/hosts"}`))
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.Stdout)
}

func TestAnswersAreValidForTrickyInput(t *testing.T) {
	// No fixture asks permission for a read-only tool: point the run at
	// two of them, or it tests nothing.
	rep := hooktest.CheckHandler(t, Handler(),
		&hooktest.Options{Tools: []hooktest.Tool{
			{Name: hook.ToolRead, Input: `{"file_path":"/home/dev/shared-notes/design.md"}`},
			{Name: hook.ToolGlob, Input: `{"pattern":"**/*.go","path":"/home/dev/other-repo"}`},
		}})
	assert.Greater(t, rep.Cases, 50)
	assert.Positive(t, rep.Answered)
	assert.Zero(t, rep.Updates)
}

func TestExampleFile(t *testing.T) {
	b, err := os.ReadFile("testdata/read-outside.json")
	require.NoError(t, err)
	rec := hooktest.Record(Handler(), b)
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Allow, rec.PermissionDecision)
}
