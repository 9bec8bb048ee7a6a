package e2e_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hookctl tests install ctlmark (e2e/testdata/ctlmark, a hook built
// with the library that appends "LABEL TOOL" to a log) with hookctl, the
// way a user would, and see what the real client runs. The harness writes
// the project's .claude/settings.json itself after Setup, so hookctl
// installs into the project's local settings (.claude/settings.local.json)
// and into the user settings (which Setup creates, so hookctl edits an
// existing file); the project settings are covered by the unit tests.

// TestHookctl: hooks installed by hookctl into the local and user settings
// and into a plugin all fire (the plugin's from ${CLAUDE_PLUGIN_ROOT}
// paths in exec form), and `hookctl list` names exactly the hooks the
// client ran.
func TestHookctl(t *testing.T) {
	needE2E(t)
	t.Parallel()
	ctl := hookctlFor(t)
	mark := hook("ctlmark")[0]
	var log string
	r := run(t, Case{
		Script: Script{Turns: []Turn{{bash(t, "echo ran > marker.txt")}}},
		Setup: func(r *Run) error {
			log = filepath.Join(r.Dir, "ctlmark.log")
			plugin := filepath.Join(r.Dir, "plugins", "guard")
			if err := copyFile(mark, filepath.Join(plugin, "bin", "ctlmark")); err != nil {
				return err
			}
			if err := writeFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"), []byte(`{"name": "guard", "version": "1.0.0"}`), 0o644); err != nil {
				return err
			}
			if err := registerPlugin(r, plugin); err != nil {
				return err
			}
			for _, args := range [][]string{
				{"-scope", "local", "--", mark, log, "local"},
				{"-scope", "user", "--", mark, log, "user"},
				{"-plugin", plugin, "--", filepath.Join(plugin, "bin", "ctlmark"), log, "plugin"},
			} {
				if _, err := ctl(r, append([]string{"install", "-event", "PreToolUse", "-matcher", "Bash"}, args...)...); err != nil {
					return err
				}
			}
			return nil
		},
	})

	hooks, err := os.ReadFile(filepath.Join(r.Dir, "plugins", "guard", "hooks", "hooks.json"))
	require.NoError(t, err)
	assert.Contains(t, string(hooks), `"command": "${CLAUDE_PLUGIN_ROOT}/bin/ctlmark"`)
	user, err := os.ReadFile(filepath.Join(r.Home, ".claude", "settings.json"))
	require.NoError(t, err)
	assert.Contains(t, string(user), `"enabledPlugins"`, "hookctl kept the user settings it edited")

	// The client ran the hook from each place, once, and the command ran.
	ran := marks(t, log)
	assert.Equal(t, []string{"local Bash", "plugin Bash", "user Bash"}, ran, "the hooks the client ran")
	out, ok := r.File("marker.txt")
	assert.True(t, ok, "the Bash call did not run")
	assert.Equal(t, "ran\n", out)

	// hookctl list names exactly those hooks.
	listOut, err := ctl(r, "list", "-json")
	require.NoError(t, err)
	var listed []struct {
		Scope   string   `json:"scope"`
		Plugin  string   `json:"plugin"`
		File    string   `json:"file"`
		Line    int      `json:"line"`
		Event   string   `json:"event"`
		Matcher string   `json:"matcher"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	require.NoError(t, json.Unmarshal(listOut, &listed), "%s", listOut)
	var names []string
	for _, l := range listed {
		if len(l.Args) != 2 || l.Args[0] != log {
			continue // not one of this test's hooks
		}
		names = append(names, l.Args[1]+" "+l.Matcher)
		assert.Equal(t, "PreToolUse", l.Event)
		assert.Positive(t, l.Line)
		assert.Equal(t, l.Args[1], l.Scope, "listed from the wrong scope: %+v", l)
		switch l.Scope {
		case "local":
			assert.Equal(t, ".claude/settings.local.json", l.File)
		case "user":
			assert.Equal(t, "~/.claude/settings.json", l.File)
		case "plugin":
			assert.Equal(t, "guard@local", l.Plugin)
			assert.Equal(t, "${CLAUDE_PLUGIN_ROOT}/bin/ctlmark", l.Command)
		}
	}
	slices.Sort(names)
	assert.Equal(t, ran, names, "hookctl list and the hooks the client ran")

	// doctor finds nothing wrong with what install wrote.
	doc, err := ctl(r, "doctor", "-q")
	assert.NoError(t, err, "%s", doc)
	assert.NotContains(t, string(doc), "warning:")
}

// TestHookctlDuplicates: what doctor says about a command registered twice
// is what the real client does. The same command in the user and the
// local settings (with another timeout) runs once; once more from a
// plugin, concurrently.
func TestHookctlDuplicates(t *testing.T) {
	needE2E(t)
	t.Parallel()
	ctl := hookctlFor(t)
	mark := hook("ctlmark")[0]
	var log string
	r := run(t, Case{
		Script: Script{Turns: []Turn{{bash(t, "echo ran > marker.txt")}}},
		Setup: func(r *Run) error {
			log = filepath.Join(r.Dir, "ctlmark.log")
			plugin := filepath.Join(r.Dir, "plugins", "guard")
			if err := writeFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"), []byte(`{"name": "guard", "version": "1.0.0"}`), 0o644); err != nil {
				return err
			}
			if err := registerPlugin(r, plugin); err != nil {
				return err
			}
			for _, sel := range [][]string{{"-scope", "user"}, {"-scope", "local", "-timeout", "30"}, {"-plugin", plugin}} {
				args := append(append([]string{"install", "-event", "PreToolUse", "-matcher", "Bash"}, sel...), "--", mark, log, "dup")
				if _, err := ctl(r, args...); err != nil {
					return err
				}
			}
			return nil
		},
	})
	assert.Equal(t, []string{"dup Bash", "dup Bash"}, marks(t, log), "once for the settings files, once for the plugin")
	doc, err := ctl(r, "doctor", "-q")
	require.NoError(t, err, "%s", doc) // warnings only
	assert.Equal(t, 3, strings.Count(string(doc), "it runs 2 times, concurrently"), "%s", doc)
}

// TestHookctlExecFormPlaceholders: in exec form the real client
// substitutes ${CLAUDE_PROJECT_DIR} but not $CLAUDE_PROJECT_DIR, and finds
// a relative program from the project folder; doctor says so beforehand.
func TestHookctlExecFormPlaceholders(t *testing.T) {
	needE2E(t)
	t.Parallel()
	ctl := hookctlFor(t)
	mark := hook("ctlmark")[0]
	var log string
	var doc []byte
	run(t, Case{
		Script: Script{Turns: []Turn{{bash(t, "echo ran > marker.txt")}}},
		Setup: func(r *Run) error {
			log = filepath.Join(r.Dir, "ctlmark.log")
			if err := copyFile(mark, filepath.Join(r.Project, "bin", "ctlmark")); err != nil {
				return err
			}
			for _, c := range [][]string{
				{"${CLAUDE_PROJECT_DIR}/bin/ctlmark", log, "braced"},
				{"$CLAUDE_PROJECT_DIR/bin/ctlmark", log, "unbraced"},
				{"bin/ctlmark", log, "relative"},
			} {
				if _, err := ctl(r, append([]string{"install", "-scope", "local", "-event", "PreToolUse", "-matcher", "Bash", "--"}, c...)...); err != nil {
					return err
				}
			}
			doc, _ = ctl(r, "doctor", "-q")
			return nil
		},
	})
	assert.Equal(t, []string{"braced Bash", "relative Bash"}, marks(t, log), "the hooks that started")
	assert.Contains(t, string(doc), "error: $CLAUDE_PROJECT_DIR is not substituted in exec form: the program path is looked for literally")
	assert.Contains(t, string(doc), "warning: command bin/ctlmark is a relative path")
	assert.Contains(t, string(doc), ": 1 errors, 1 warnings", "%s", doc)
}

// marks returns the sorted lines ctlmark wrote to log.
func marks(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	slices.Sort(lines)
	return lines
}

// hookctlFor builds hookctl and returns a function that runs it as the
// user of a run (its HOME), in the run's project.
func hookctlFor(t *testing.T) func(r *Run, args ...string) ([]byte, error) {
	t.Helper()
	hookctl := filepath.Join(t.TempDir(), "hookctl")
	out, err := exec.Command("go", "build", "-o", hookctl, "../cmd/hookctl").CombinedOutput()
	require.NoError(t, err, "go build ../cmd/hookctl: %s", out)
	return func(r *Run, args ...string) ([]byte, error) {
		cmd := exec.Command(hookctl, args...)
		cmd.Dir = r.Project
		cmd.Env = append(os.Environ(), "HOME="+r.Home, "CLAUDE_CONFIG_DIR=", "CLAUDE_CODE_PLUGIN_CACHE_DIR=")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return out.Bytes(), fmt.Errorf("hookctl %v: %w\n%s%s", args, err, out.Bytes(), errb.Bytes())
		}
		return out.Bytes(), nil
	}
}

// registerPlugin records the plugin folder dir as installed for the user
// and enabled, from a marketplace "local" (dir's parent) declared in the
// user settings: Claude Code loads a plugin only from a marketplace it knows.
func registerPlugin(r *Run, dir string) error {
	name := filepath.Base(dir)
	rec, err := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{
		name + "@local": []map[string]string{{"scope": "user", "installPath": dir, "version": "1.0.0"}}}})
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(r.Home, ".claude", "plugins", "installed_plugins.json"), rec, 0o644); err != nil {
		return err
	}
	market := filepath.Dir(dir)
	mj, err := json.Marshal(map[string]any{"name": "local", "owner": map[string]string{"name": "e2e"},
		"plugins": []map[string]string{{"name": name, "source": "./" + name}}})
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(market, ".claude-plugin", "marketplace.json"), mj, 0o644); err != nil {
		return err
	}
	user, err := json.Marshal(map[string]any{
		"enabledPlugins":         map[string]bool{name + "@local": true},
		"extraKnownMarketplaces": map[string]any{"local": map[string]any{"source": map[string]string{"source": "directory", "path": market}}},
	})
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(r.Home, ".claude", "settings.json"), append(user, '\n'), 0o644)
}

// copyFile copies the program src to dst, making dst's folder.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeFile(dst, b, 0o755)
}

// writeFile writes a file, making its folder.
func writeFile(path string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, mode)
}
