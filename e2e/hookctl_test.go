package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/e2e"
)

// TestHookctl: hookctl installs a library-built hook (bashguard, run under
// hooktap) into the project's settings and into a local plugin installed
// for the user; the real client runs it from each, the plugin's copy with
// ${CLAUDE_PLUGIN_ROOT} substituted in its exec-form arguments; and
// `hookctl list` names exactly the hooks the client ran.
func TestHookctl(t *testing.T) {
	needE2E(t)
	t.Parallel()
	ctl := hookctlFor(t)
	var projectSettings []byte
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{{bash(t, "echo ran > marker.txt")}}},
		Setup: func(r *e2e.Run) error {
			capDir := filepath.Join(r.Dir, "cap")
			// The project: into the settings the harness wrote.
			if _, err := ctl(r, "install", "-event", "PreToolUse", "-matcher", "Bash", "--",
				harness.Path("hooktap"), capDir, "project", harness.Path("bashguard")); err != nil {
				return err
			}
			var err error
			if projectSettings, err = os.ReadFile(filepath.Join(r.Project, ".claude", "settings.json")); err != nil {
				return err
			}
			// The plugin: its programs inside it, so hookctl writes
			// ${CLAUDE_PLUGIN_ROOT} paths.
			plugin := filepath.Join(r.Dir, "plugins", "guard")
			for _, name := range []string{"hooktap", "bashguard"} {
				b, err := os.ReadFile(harness.Path(name))
				if err != nil {
					return err
				}
				if err := writeFile(filepath.Join(plugin, "bin", name), b, 0o755); err != nil {
					return err
				}
			}
			if err := writeFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"), []byte(`{"name": "guard", "version": "1.0.0"}`), 0o644); err != nil {
				return err
			}
			if _, err := ctl(r, "install", "-plugin", plugin, "-event", "PreToolUse", "-matcher", "Bash", "--",
				filepath.Join(plugin, "bin", "hooktap"), capDir, "plugin", filepath.Join(plugin, "bin", "bashguard")); err != nil {
				return err
			}
			return registerPlugin(r, plugin)
		},
	})

	hooks, err := os.ReadFile(filepath.Join(r.Dir, "plugins", "guard", "hooks", "hooks.json"))
	require.NoError(t, err)
	assert.Contains(t, string(hooks), `"command": "${CLAUDE_PLUGIN_ROOT}/bin/hooktap"`)
	assert.Contains(t, string(hooks), `"${CLAUDE_PLUGIN_ROOT}/bin/bashguard"`)
	assert.Contains(t, string(projectSettings), `"permissions"`, "the harness's settings were kept")

	// The client ran the hook from each place, once, and the command ran.
	cs, err := r.Captures()
	require.NoError(t, err)
	var ran []string
	for _, c := range cs {
		if c.Event == "PreToolUse" {
			ran = append(ran, c.Label)
			assert.Equal(t, "Bash", c.Tool)
			assert.Equal(t, 0, c.Code, "%s: %s", c.Label, c.Err)
		}
	}
	slices.Sort(ran)
	assert.Equal(t, []string{"plugin", "project"}, ran, "PreToolUse hooks the client ran")
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
		require.Len(t, l.Args, 3, "%+v", l)
		names = append(names, l.Args[1]) // hooktap's label
		assert.Equal(t, "PreToolUse", l.Event)
		assert.Equal(t, "Bash", l.Matcher)
		assert.Positive(t, l.Line)
		switch l.Scope {
		case "project":
			assert.Equal(t, ".claude/settings.json", l.File)
			assert.Equal(t, "project", l.Args[1])
		case "plugin":
			assert.Equal(t, "guard@local", l.Plugin)
			assert.Equal(t, "${CLAUDE_PLUGIN_ROOT}/bin/hooktap", l.Command)
			assert.Equal(t, "plugin", l.Args[1])
		default:
			t.Errorf("unexpected scope %q", l.Scope)
		}
	}
	slices.Sort(names)
	assert.Equal(t, ran, names, "hookctl list and the hooks the client ran")

	// doctor finds nothing wrong with what install wrote.
	doc, err := ctl(r, "doctor", "-q")
	assert.NoError(t, err, "%s", doc)
	assert.Contains(t, string(doc), "2 hooks in 3 files: 0 errors, 0 warnings")
}

// TestHookctlDuplicates: what doctor says about a command registered twice
// is what the real client does. The same command in the project and the
// local settings (with another timeout) runs once; once more from a
// plugin, concurrently.
func TestHookctlDuplicates(t *testing.T) {
	needE2E(t)
	t.Parallel()
	ctl := hookctlFor(t)
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{{bash(t, "echo ran > marker.txt")}}},
		Setup: func(r *e2e.Run) error {
			cmd := []string{"--", harness.Path("hooktap"), filepath.Join(r.Dir, "cap"), "dup", harness.Path("bashguard")}
			plugin := filepath.Join(r.Dir, "plugins", "guard")
			for _, sel := range [][]string{{"-scope", "project"}, {"-scope", "local", "-timeout", "30"}, {"-plugin", plugin}} {
				args := append(append([]string{"install", "-event", "PreToolUse", "-matcher", "Bash"}, sel...), cmd...)
				if _, err := ctl(r, args...); err != nil {
					return err
				}
			}
			if err := writeFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"), []byte(`{"name": "guard", "version": "1.0.0"}`), 0o644); err != nil {
				return err
			}
			return registerPlugin(r, plugin)
		},
	})
	captures(t, r, "dup", "PreToolUse", 2)
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
	var doc []byte
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{{bash(t, "echo ran > marker.txt")}}},
		Setup: func(r *e2e.Run) error {
			for _, name := range []string{"hooktap", "bashguard"} {
				b, err := os.ReadFile(harness.Path(name))
				if err != nil {
					return err
				}
				if err := writeFile(filepath.Join(r.Project, "bin", name), b, 0o755); err != nil {
					return err
				}
			}
			capDir := filepath.Join(r.Dir, "cap")
			for _, c := range [][]string{
				{"${CLAUDE_PROJECT_DIR}/bin/hooktap", capDir, "braced", "${CLAUDE_PROJECT_DIR}/bin/bashguard"},
				{"$CLAUDE_PROJECT_DIR/bin/hooktap", capDir, "unbraced", "$CLAUDE_PROJECT_DIR/bin/bashguard"},
				{"bin/hooktap", capDir, "relative", "bin/bashguard"},
			} {
				if _, err := ctl(r, append([]string{"install", "-event", "PreToolUse", "-matcher", "Bash", "--"}, c...)...); err != nil {
					return err
				}
			}
			doc, _ = ctl(r, "doctor", "-q")
			return nil
		},
	})
	cs, err := r.Captures()
	require.NoError(t, err)
	var ran []string
	for _, c := range cs {
		ran = append(ran, c.Label)
	}
	slices.Sort(ran)
	assert.Equal(t, []string{"braced", "relative"}, ran, "the hooks that started")
	assert.Contains(t, string(doc), "error: $CLAUDE_PROJECT_DIR is not substituted in exec form: the program path is looked for literally")
	assert.Contains(t, string(doc), "warning: command bin/hooktap is a relative path")
	assert.Contains(t, string(doc), "3 hooks in 1 files: 2 errors, 1 warnings", "%s", doc)
}

// hookctlFor builds hookctl and returns a function that runs it as the
// user of a run (its HOME), in the run's project.
func hookctlFor(t *testing.T) func(r *e2e.Run, args ...string) ([]byte, error) {
	t.Helper()
	require.NoError(t, buildHookctl())
	hookctl := harness.Path("hookctl")
	return func(r *e2e.Run, args ...string) ([]byte, error) {
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

// buildHookctl builds hookctl once, beside the other binaries of the run.
var buildHookctl = sync.OnceValue(func() error {
	return e2e.Build(context.Background(), "..", harness.Bin, "./cmd/hookctl")
})

// registerPlugin records the plugin folder dir as installed for the user
// and enabled, from a marketplace "local" (dir's parent) declared in the
// user settings: Claude Code loads a plugin only from a marketplace it knows.
func registerPlugin(r *e2e.Run, dir string) error {
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
	return writeFile(filepath.Join(r.Home, ".claude", "settings.json"), user, 0o644)
}

// writeFile writes a file, making its folder.
func writeFile(path string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, mode)
}
