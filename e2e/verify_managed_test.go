package e2e_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
)

// TestVerifyManaged runs hookctl verify on a machine whose guard is
// configured only in Claude Code's managed settings. Claude Code reads
// those from /etc/claude-code, which verify never writes: it runs the
// real Claude Code in a private user and mount namespace that shows the
// scratch managed settings there. The guard fires and blocks; a drop-in's
// hook fires; the managed allowManagedHooksOnly, kept in the scratch,
// keeps a user hook from running, as on the machine; the scratch keeps
// every other managed member; and the real /etc is as it was.
//
// "user's managed dir" reads the user's managed settings from a folder
// of the test (HOOKCTL_MANAGED_DIR), so that /etc/claude-code does not
// exist and verify lays an overlay on /etc to hold it. "system path"
// runs verify itself in a namespace whose /etc/claude-code holds the
// managed settings, where verify reads them as on a real machine and
// binds its scratch over them.
func TestVerifyManaged(t *testing.T) {
	claudetest.Need(t)
	if runtime.GOOS != "linux" {
		t.Skip("verify checks managed hooks on Linux only: elsewhere they are not checked (see TestVerifyManagedNotChecked in cmd/hookctl)")
	}
	t.Parallel()
	bin, _, err := claudeClient()
	require.NoError(t, err)
	hookctl := filepath.Join(t.TempDir(), "hookctl")
	out, err := exec.Command("go", "build", "-o", hookctl, "../cmd/hookctl").CombinedOutput()
	require.NoError(t, err, "go build ../cmd/hookctl: %s", out)

	etcBefore := etcState(t)
	for _, systemPath := range []bool{false, true} {
		name := map[bool]string{false: "user's managed dir", true: "system path"}[systemPath]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
			managed := filepath.Join(dir, "managed")
			if systemPath {
				// The upper layer of the test's /etc overlay.
				managed = filepath.Join(dir, "etc-upper", "claude-code")
			}
			script := func(name, body string) string {
				p := filepath.Join(dir, "bin", name)
				require.NoError(t, writeFile(p, []byte("#!/bin/sh\n"+body), 0o755))
				return p
			}
			guard := script("guard", "cat >/dev/null\necho 'no Bash on this machine' >&2\nexit 2\n")
			ctx := script("context", "cat >/dev/null\necho 'managed context'\n")
			userHook := script("userhook", "cat >/dev/null\n")
			main := `{
  "companyAnnouncements": ["kept by verify"],
  "allowManagedHooksOnly": true,
  "env": {"MANAGED_KEEP": "1", "ANTHROPIC_BASE_URL": "https://example.invalid"},
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + guard + `", "timeout": 20}]}]}
}
`
			dropIn := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "` + ctx + `"}]}]}}`
			require.NoError(t, writeFile(filepath.Join(managed, "managed-settings.json"), []byte(main), 0o644))
			require.NoError(t, writeFile(filepath.Join(managed, "managed-settings.d", "10-context.json"), []byte(dropIn), 0o644))
			require.NoError(t, writeFile(filepath.Join(managed, "managed-mcp.json"), []byte(`{"mcpServers":{}}`), 0o644))
			require.NoError(t, writeFile(filepath.Join(managed, "managed-policy.txt"), []byte("kept\n"), 0o644))
			user := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + userHook + `"}]}]}}`
			require.NoError(t, writeFile(filepath.Join(home, ".claude", "settings.json"), []byte(user), 0o644))
			require.NoError(t, os.MkdirAll(proj, 0o755))
			before := digestTree(t, dir)

			keep := filepath.Join(t.TempDir(), "keep")
			args := []string{hookctl, "verify", "-json", "-claude", bin, "-netns", "off", "-keep", keep}
			env := append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "CLAUDE_CODE_PLUGIN_CACHE_DIR=")
			if systemPath {
				for i, e := range env {
					if strings.HasPrefix(e, "HOOKCTL_MANAGED_DIR=") {
						env[i] = "HOOKCTL_MANAGED_DIR_UNSET=1"
					}
				}
				upper, work := filepath.Join(dir, "etc-upper"), filepath.Join(dir, "etc-work")
				require.NoError(t, os.MkdirAll(work, 0o755))
				if err := exec.Command("unshare", "-Urm", "true").Run(); err != nil {
					t.Skipf("the test cannot make the machine's /etc/claude-code (unshare -Urm: %v); the other subtest covers verify's namespace", err)
				}
				args = append([]string{"unshare", "-Urm", "sh", "-c",
					`mount -t overlay overlay -o lowerdir=/etc,upperdir="$0",workdir="$1" /etc && shift && exec "$@"`, upper, work}, args...)
			} else {
				env = append(env, "HOOKCTL_MANAGED_DIR="+managed)
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = proj
			cmd.Env = env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, "stdout %s\nstderr %s", stdout.Bytes(), stderr.Bytes())
			assert.Equal(t, 1, ee.ExitCode(), "the user hook did not fire: exit 1; stderr %s", stderr.Bytes())

			var reps []verifyReport
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &reps), "stdout %s\nstderr %s", stdout.Bytes(), stderr.Bytes())
			require.Len(t, reps, 3, "%s", stdout.Bytes())
			by := map[string]verifyReport{}
			for _, r := range reps {
				by[filepath.Base(strings.Fields(r.Command)[0])] = r
			}
			g := by["guard"]
			assert.Equal(t, "managed", g.Scope)
			assert.Equal(t, "fired", g.Status, "%+v\nstderr %s", g, stderr.Bytes())
			assert.Equal(t, "blocked", g.Did)
			assert.Equal(t, "blocked", g.Outcome, "the call did not run")
			assert.Equal(t, 20.0, g.Timeout)
			c := by["context"]
			assert.Equal(t, "managed", c.Scope)
			assert.Equal(t, "fired", c.Status, "the drop-in's hook: %+v", c)
			assert.Equal(t, "added context", c.Did)
			u := by["userhook"]
			assert.Equal(t, "user", u.Scope)
			assert.Equal(t, "did not fire", u.Status, "the scratch managed settings kept allowManagedHooksOnly: %+v", u)
			assert.Contains(t, u.Why, "allowManagedHooksOnly")

			// The scratch managed settings are the user's, every member
			// kept but what would leave loopback, with the hook under
			// test wrapped in the recorder; the drop-in is there, hook-less.
			hookDir := ""
			for i, r := range reps {
				if r.Scope == "managed" && strings.Contains(r.Command, "guard") {
					hookDir = filepath.Join(keep, "hook-"+strconv.Itoa(i+1))
				}
			}
			scratch, err := os.ReadFile(filepath.Join(hookDir, "managed", "managed-settings.json"))
			require.NoError(t, err)
			for _, s := range []string{`"companyAnnouncements"`, `"kept by verify"`, `"allowManagedHooksOnly": true`, `"MANAGED_KEEP"`, `"__tap"`, guard} {
				assert.Contains(t, string(scratch), s)
			}
			assert.NotContains(t, string(scratch), "example.invalid")
			d, err := os.ReadFile(filepath.Join(hookDir, "managed", "managed-settings.d", "10-context.json"))
			require.NoError(t, err)
			assert.NotContains(t, string(d), ctx, "only the hook under test runs")
			_, err = os.Stat(filepath.Join(hookDir, "managed", "managed-policy.txt"))
			assert.NoError(t, err, "the rest of the managed folder is kept")
			_, err = os.Stat(filepath.Join(hookDir, "managed", "managed-mcp.json"))
			assert.ErrorIs(t, err, os.ErrNotExist, "verify's MCP configuration replaces the managed one (claude refuses --strict-mcp-config beside it)")

			assert.Equal(t, before, digestTree(t, dir), "the user's files, managed settings included, are byte for byte as they were")
		})
	}
	assert.Equal(t, etcBefore, etcState(t), "the real /etc is untouched")
}

// etcState returns what verify must not change in /etc: its entries and
// /etc/claude-code's, with their sizes and times.
func etcState(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, d := range []string{"/etc", "/etc/claude-code", "/etc/claude-code/managed-settings.d"} {
		fi, err := os.Stat(d)
		if err != nil {
			out = append(out, d+": "+err.Error())
			continue
		}
		out = append(out, d+": "+fi.ModTime().String())
		es, err := os.ReadDir(d)
		require.NoError(t, err)
		for _, e := range es {
			info, err := e.Info()
			if err != nil {
				continue
			}
			out = append(out, filepath.Join(d, e.Name())+" "+info.ModTime().String()+" "+info.Mode().String())
		}
	}
	slices.Sort(out)
	return out
}
