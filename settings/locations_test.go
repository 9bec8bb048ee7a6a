package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultLocations(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_CODE_PLUGIN_CACHE_DIR", "")
	l, err := DefaultLocations("proj")
	require.NoError(t, err)
	wd, _ := os.Getwd()
	assert.Equal(t, filepath.Join(wd, "proj"), l.Project)
	assert.Equal(t, filepath.Join(home, ".claude"), l.ConfigDir)
	assert.Equal(t, filepath.Join(home, ".claude", "plugins"), l.PluginsDir)
	for scope, want := range map[string]string{
		ScopeUser:    filepath.Join(home, ".claude", "settings.json"),
		ScopeProject: filepath.Join(wd, "proj", ".claude", "settings.json"),
		ScopeLocal:   filepath.Join(wd, "proj", ".claude", "settings.local.json"),
	} {
		got, err := l.SettingsFile(scope)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err = l.SettingsFile("global")
	assert.Error(t, err)

	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "cfg"))
	l, err = DefaultLocations("")
	require.NoError(t, err)
	assert.Equal(t, wd, l.Project)
	assert.Equal(t, filepath.Join(home, "cfg"), l.ConfigDir)
	assert.Equal(t, filepath.Join(home, "cfg", "plugins"), l.PluginsDir)
	t.Setenv("CLAUDE_CODE_PLUGIN_CACHE_DIR", filepath.Join(home, "pc"))
	l, err = DefaultLocations("")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(home, "pc"), l.PluginsDir)
}

// TestSources checks which installed plugins are read: enabled ones, of
// user scope or of this project, with local settings winning.
func TestSources(t *testing.T) {
	root := t.TempDir()
	l := Locations{ConfigDir: filepath.Join(root, "cfg"), Project: filepath.Join(root, "proj"), PluginsDir: filepath.Join(root, "cfg", "plugins"),
		PluginDirs: []string{filepath.Join(root, "dev")}}
	require.NoError(t, os.MkdirAll(l.PluginsDir, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(l.Project, ".claude"), 0o755))
	rec := `{"version": 2, "plugins": {
  "a@m": [{"scope": "user", "installPath": "/p/a"}],
  "b@m": [{"scope": "project", "projectPath": "/elsewhere", "installPath": "/p/b-other"}, {"scope": "project", "projectPath": ` + jsonQuote(l.Project) + `, "installPath": "/p/b"}],
  "c@m": [{"scope": "user", "installPath": "/p/c"}],
  "d@m": [{"scope": "local", "projectPath": "/elsewhere", "installPath": "/p/d"}],
  "e@unknown": [{"scope": "user", "installPath": "/p/e"}],
  "f@dir": [{"scope": "user", "installPath": "/p/f"}]
}}`
	require.NoError(t, os.WriteFile(filepath.Join(l.PluginsDir, "known_marketplaces.json"), []byte(`{"m": {"source": {"source": "github", "repo": "o/m"}}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(l.Project, ".claude", "settings.json"), []byte(`{"enabledPlugins": {"f@dir": true}, "extraKnownMarketplaces": {"dir": {"source": {"source": "directory", "path": "/p"}}, "unknown": {"source": {"source": "github", "repo": "o/u"}}}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(l.PluginsDir, "installed_plugins.json"), []byte(rec), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(l.ConfigDir, "settings.json"), []byte(`{"enabledPlugins": {"a@m": true, "b@m": true, "c@m": true, "d@m": true, "e@unknown": true}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(l.Project, ".claude", "settings.local.json"), []byte(`{"enabledPlugins": {"c@m": false}}`), 0o644))
	srcs, err := l.Sources()
	require.NoError(t, err)
	var got []string
	for _, s := range srcs {
		got = append(got, s.Scope+" "+s.Plugin+" "+s.Path)
	}
	assert.Equal(t, []string{
		"user  " + filepath.Join(l.ConfigDir, "settings.json"),
		"project  " + filepath.Join(l.Project, ".claude", "settings.json"),
		"local  " + filepath.Join(l.Project, ".claude", "settings.local.json"),
		"plugin a@m " + filepath.Join("/p/a", "hooks", "hooks.json"),
		"plugin b@m " + filepath.Join("/p/b", "hooks", "hooks.json"),
		"plugin f@dir " + filepath.Join("/p/f", "hooks", "hooks.json"),
		"plugin dev " + filepath.Join(root, "dev", "hooks", "hooks.json"),
	}, got)
	ps, err := l.Plugins()
	require.NoError(t, err)
	var ids []string
	for _, p := range ps {
		ids = append(ids, fmt.Sprintf("%s enabled=%v known=%v", p.ID, p.Enabled, p.MarketplaceKnown))
	}
	assert.Equal(t, []string{"a@m enabled=true known=true", "b@m enabled=true known=true", "c@m enabled=false known=true",
		"e@unknown enabled=true known=false", "f@dir enabled=true known=true"}, ids)

	l.ManagedDir = filepath.Join(root, "managed")
	require.NoError(t, os.MkdirAll(filepath.Join(l.ManagedDir, "managed-settings.d"), 0o755))
	for _, f := range []string{"managed-settings.json", "managed-settings.d/20-b.json", "managed-settings.d/10-a.json", "managed-settings.d/notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(l.ManagedDir, f), []byte("{}"), 0o644))
	}
	srcs, err = l.Sources()
	require.NoError(t, err)
	require.Greater(t, len(srcs), 3)
	for i, f := range []string{"managed-settings.json", "managed-settings.d/10-a.json", "managed-settings.d/20-b.json"} {
		assert.Equal(t, Source{Scope: ScopeManaged, Path: filepath.Join(l.ManagedDir, filepath.FromSlash(f))}, srcs[i])
	}
	assert.Equal(t, ScopeUser, srcs[3].Scope)
	p, err := l.SettingsFile(ScopeManaged)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(l.ManagedDir, "managed-settings.json"), p)

	require.NoError(t, os.WriteFile(filepath.Join(l.PluginsDir, "installed_plugins.json"), []byte(`{"version": 2,`), 0o644))
	_, err = l.Sources()
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, filepath.Join(l.PluginsDir, "installed_plugins.json"), se.Path)
}

func jsonQuote(s string) string { return string(render(nil, s, "", style{}, false)) }
