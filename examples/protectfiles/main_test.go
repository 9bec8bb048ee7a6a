package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// call returns a PreToolUse payload for tool with the input members in.
func call(t *testing.T, tool string, in map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(in, json.Deterministic(true))
	require.NoError(t, err)
	return hooktest.NewPreToolUse(tool, string(b))
}

func TestDeniesSecrets(t *testing.T) {
	tests := []struct {
		tool string
		in   map[string]any
		says string
	}{
		{hook.ToolRead, map[string]any{"file_path": "/home/dev/acme-api/.env"}, "protectfiles blocked Read of /home/dev/acme-api/.env: it looks like a secret (.env file)"},
		{hook.ToolRead, map[string]any{"file_path": "/home/dev/.ssh/id_ed25519", "offset": 1, "limit": 5}, "SSH private key"},
		{hook.ToolRead, map[string]any{"file_path": "/home/dev/.aws/credentials"}, "AWS credentials"},
		{hook.ToolWrite, map[string]any{"file_path": "/home/dev/acme-api/.env.local", "content": "TOKEN=x"}, "blocked Write of /home/dev/acme-api/.env.local"},
		{hook.ToolWrite, map[string]any{"file_path": "/etc/ssl/private/server.pem", "content": "x"}, "PEM key"},
		{hook.ToolEdit, map[string]any{"file_path": "/home/dev/.netrc", "old_string": "a", "new_string": "b", "replace_all": false}, "netrc credentials"},
		{hook.ToolEdit, map[string]any{"file_path": "/home/dev/acme-api/certs/tls.key", "old_string": "a", "new_string": "b"}, "private key"},
		{hook.ToolNotebookEdit, map[string]any{"notebook_path": "/home/dev/acme-api/nb/.env.ipynb.env", "new_source": "x"}, ".env file"},
		{hook.ToolRead, map[string]any{"file_path": ".env"}, "Read of /home/dev/acme-api/.env"}, // relative: against cwd
	}
	for _, tt := range tests {
		rec := hooktest.Record(Handler(), call(t, tt.tool, tt.in))
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code)
		assert.Equal(t, hook.Deny, rec.PermissionDecision, "%s %v", tt.tool, tt.in)
		assert.Contains(t, rec.Reason, tt.says)
		assert.Contains(t, rec.Reason, ".env.example", "the reason says what to do instead")
	}
}

func TestAllowsOrdinaryFiles(t *testing.T) {
	tests := []struct {
		tool string
		in   map[string]any
	}{
		{hook.ToolRead, map[string]any{"file_path": "/home/dev/acme-api/.env.example"}},
		{hook.ToolRead, map[string]any{"file_path": "/home/dev/acme-api/main.go"}},
		{hook.ToolRead, map[string]any{"file_path": "/home/dev/.ssh/id_rsa.pub"}},
		{hook.ToolWrite, map[string]any{"file_path": "/home/dev/acme-api/.env.sample", "content": "TOKEN="}},
		{hook.ToolEdit, map[string]any{"file_path": "/home/dev/acme-api/README.md", "old_string": ".env", "new_string": ".env.local"}},
		{hook.ToolNotebookEdit, map[string]any{"notebook_path": "/home/dev/acme-api/analysis.ipynb", "new_source": "open('.env')"}},
		{hook.ToolBash, map[string]any{"command": "cat .env"}}, // not a file tool
		{hook.ToolGlob, map[string]any{"pattern": "**/.env"}},
		{hook.ToolRead, map[string]any{}}, // no path: the tool refuses it itself
	}
	for _, tt := range tests {
		rec := hooktest.Record(Handler(), call(t, tt.tool, tt.in))
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code, "%s %v", tt.tool, tt.in)
		assert.Empty(t, rec.Stdout, "%s %v", tt.tool, tt.in)
	}
}

func TestFollowsSymbolicLinks(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=secret\n"), 0o600))
	require.NoError(t, os.Symlink(".env", filepath.Join(dir, "notes.txt")))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "real", ".ssh"), 0o700))
	require.NoError(t, os.Symlink(filepath.Join(dir, "real", ".ssh"), filepath.Join(dir, "keys")))
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)

	rec := hooktest.Record(Handler(), call(t, hook.ToolRead, map[string]any{"file_path": filepath.Join(dir, "notes.txt")}))
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.Contains(t, rec.Reason, "(a link to "+filepath.Join(real, ".env")+")")

	// A new file in a folder reached through a link.
	rec = hooktest.Record(Handler(), call(t, hook.ToolWrite, map[string]any{"file_path": filepath.Join(dir, "keys", "deploy"), "content": "x"}))
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.Contains(t, rec.Reason, "file in .ssh")

	// A link to an ordinary file is fine.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	require.NoError(t, os.Symlink("main.go", filepath.Join(dir, "link.go")))
	rec = hooktest.Record(Handler(), call(t, hook.ToolRead, map[string]any{"file_path": filepath.Join(dir, "link.go")}))
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.Stdout)
}

func TestFailsClosed(t *testing.T) {
	rec := hooktest.Record(Handler(), hooktest.NewPreToolUse(hook.ToolRead, `{"file_path":42}`))
	assert.Equal(t, hook.ExitBlock, rec.Code)
	assert.Empty(t, rec.Stdout)
	assert.NotEmpty(t, rec.Stderr)
}

func TestAnswersAreValidForTrickyInput(t *testing.T) {
	rep := hooktest.CheckHandler(t, Handler(), nil)
	assert.Greater(t, rep.Cases, 50)
	assert.Zero(t, rep.Updates)
}

func TestExampleFile(t *testing.T) {
	b, err := os.ReadFile("testdata/read-env.json")
	require.NoError(t, err)
	rec := hooktest.Record(Handler(), b)
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.Contains(t, rec.Reason, "protectfiles blocked Read of /home/dev/acme-api/.env.production: it looks like a secret (.env file)")
}

// TestDeniesWindowsSpellings checks the paths of a session on Windows and
// the spellings under which Windows opens a secret, on every machine: a
// Write to ".env " (trailing space) creates .env there.
func TestDeniesWindowsSpellings(t *testing.T) {
	const cwd = `C:\Users\dev\acme-api`
	tests := []struct {
		tool string
		in   map[string]any
		says string
	}{
		{hook.ToolWrite, map[string]any{"file_path": `C:\Users\dev\acme-api\.env `, "content": "TOKEN=x"}, "blocked Write of C:\\Users\\dev\\acme-api\\.env : it looks like a secret (.env file)"},
		{hook.ToolWrite, map[string]any{"file_path": "/home/dev/acme-api/.env ", "content": "TOKEN=x"}, ".env file"},
		{hook.ToolWrite, map[string]any{"file_path": `C:\Users\dev\acme-api\.env.`, "content": "TOKEN=x"}, ".env file"},
		{hook.ToolEdit, map[string]any{"file_path": `C:\Users\dev\acme-api\.ENV`, "old_string": "a", "new_string": "b"}, ".env file"},
		{hook.ToolRead, map[string]any{"file_path": `C:\Users\dev\acme-api\.env::$DATA`}, ".env file"},
		{hook.ToolRead, map[string]any{"file_path": `\\?\C:\Users\dev\acme-api\.env.production`}, ".env file"},
		{hook.ToolRead, map[string]any{"file_path": `\\fileserver\share\team\.env`}, ".env file"},
		{hook.ToolRead, map[string]any{"file_path": `C:\Users\dev\acme-api\ENV~1`}, ".env file"},
		{hook.ToolRead, map[string]any{"file_path": `C:\Users\dev\AWS~1\credentials`}, "AWS credentials"},
		{hook.ToolRead, map[string]any{"file_path": `C:/Users/dev/.ssh/id_ed25519`}, "SSH private key"},
		{hook.ToolRead, map[string]any{"file_path": `.env `}, `Read of C:\Users\dev\acme-api\.env `}, // relative: against the Windows cwd
		{hook.ToolRead, map[string]any{"file_path": `config\prod.env`}, `Read of C:\Users\dev\acme-api\config\prod.env`},
	}
	for _, tt := range tests {
		p := hooktest.WithField(call(t, tt.tool, tt.in), "cwd", cwd)
		rec := hooktest.Record(Handler(), p)
		require.NoError(t, rec.Err())
		assert.Equal(t, hook.Deny, rec.PermissionDecision, "%s %v", tt.tool, tt.in)
		assert.Contains(t, rec.Reason, tt.says)
	}
	for _, in := range []map[string]any{
		{"file_path": `C:\Users\dev\acme-api\.env.example`},
		{"file_path": `C:\Users\dev\acme-api\main.go`},
		{"file_path": `C:\Users\dev\.ssh\id_rsa.pub`},
	} {
		p := hooktest.WithField(call(t, hook.ToolRead, in), "cwd", cwd)
		rec := hooktest.Record(Handler(), p)
		require.NoError(t, rec.Err())
		assert.Empty(t, rec.Stdout, "%v", in)
	}
}

// TestDeniesCopilotFileCalls: the GitHub Copilot CLI's create, edit and
// view calls reach hooks as Write, Edit and Read naming the file "path"
// (relative to cwd), not "file_path": they are guarded too, not let
// through as calls without a path.
func TestDeniesCopilotFileCalls(t *testing.T) {
	for tool, in := range map[string]string{
		hook.ToolWrite: `{"path":".env","file_text":"KEY=1\n"}`,
		hook.ToolEdit:  `{"path":"config/.env","old_str":"a","new_str":"b"}`,
		hook.ToolRead:  `{"path":"/home/dev/proj/id_rsa"}`,
	} {
		p := []byte(`{"hook_event_name":"PreToolUse","session_id":"484e6952-5598-4e56-b52b-7624d4de4556","timestamp":"2026-12-04T19:42:08.336Z","cwd":"/home/dev/proj","tool_name":"` + tool + `","tool_input":` + in + `}`)
		rec := hooktest.Record(Handler(), p)
		require.NoError(t, rec.Err(), tool)
		assert.Equal(t, hook.Deny, rec.PermissionDecision, "%s %s", tool, in)
		assert.Contains(t, rec.Reason, "protectfiles blocked "+tool, tool)
	}
	ok := []byte(`{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-04T19:42:08.336Z","cwd":"/home/dev/proj","tool_name":"Read","tool_input":{"path":"README.md"}}`)
	rec := hooktest.Record(Handler(), ok)
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.PermissionDecision)
}
