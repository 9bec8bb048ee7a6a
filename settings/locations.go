package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The scopes a hook can come from.
const (
	ScopeUser    = "user"    // ~/.claude/settings.json
	ScopeProject = "project" // .claude/settings.json, shared with the project
	ScopeLocal   = "local"   // .claude/settings.local.json, this machine only
	ScopePlugin  = "plugin"  // a plugin's hooks/hooks.json
	// ScopeManaged is the machine's managed (policy) settings:
	// managed-settings.json and managed-settings.d/*.json in
	// [Locations.ManagedDir]. Its hooks run too, and its
	// allowManagedHooksOnly can turn the others off.
	ScopeManaged = "managed"
)

// Locations are the places Claude Code 2.1.336 reads hooks from for one
// project. Every field can be set by hand (tests do); [DefaultLocations]
// fills them in from the environment as the client does.
type Locations struct {
	// ConfigDir is $CLAUDE_CONFIG_DIR, else $HOME/.claude: it holds the
	// user settings.json and the plugins folder.
	ConfigDir string
	// Project is the folder Claude Code is started in; its .claude folder
	// holds the project and local settings.
	Project string
	// PluginsDir is $CLAUDE_CODE_PLUGIN_CACHE_DIR, else ConfigDir/plugins:
	// it holds installed_plugins.json, the record of installed plugins.
	PluginsDir string
	// PluginDirs are plugins loaded for one session only (claude
	// --plugin-dir DIR); they need no install record.
	PluginDirs []string
	// ManagedDir holds the managed settings: /etc/claude-code on Linux,
	// /Library/Application Support/ClaudeCode on macOS, C:\Program
	// Files\ClaudeCode on Windows. Empty means none.
	ManagedDir string
}

// managedDir is where Claude Code 2.1.336 looks for managed settings.
func managedDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}

// DefaultLocations returns the locations for the project folder project
// (the current folder when empty), honouring $CLAUDE_CONFIG_DIR, $HOME and
// $CLAUDE_CODE_PLUGIN_CACHE_DIR as Claude Code does.
func DefaultLocations(project string) (Locations, error) {
	var l Locations
	if project == "" {
		wd, err := os.Getwd()
		if err != nil {
			return l, err
		}
		project = wd
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return l, err
	}
	l.Project = abs
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		l.ConfigDir = d
	} else {
		home, err := os.UserHomeDir()
		if err != nil {
			return l, fmt.Errorf("settings: no home folder (set HOME or CLAUDE_CONFIG_DIR): %w", err)
		}
		l.ConfigDir = filepath.Join(home, ".claude")
	}
	l.ManagedDir = managedDir()
	l.PluginsDir = os.Getenv("CLAUDE_CODE_PLUGIN_CACHE_DIR")
	if l.PluginsDir == "" {
		l.PluginsDir = filepath.Join(l.ConfigDir, "plugins")
	}
	return l, nil
}

// SettingsFile returns the settings file of a scope: ScopeUser,
// ScopeProject, ScopeLocal or ScopeManaged (its main file).
func (l Locations) SettingsFile(scope string) (string, error) {
	switch scope {
	case ScopeManaged:
		if l.ManagedDir == "" {
			return "", errors.New("settings: no managed settings folder")
		}
		return filepath.Join(l.ManagedDir, "managed-settings.json"), nil
	case ScopeUser:
		return filepath.Join(l.ConfigDir, "settings.json"), nil
	case ScopeProject:
		return filepath.Join(l.Project, ".claude", "settings.json"), nil
	case ScopeLocal:
		return filepath.Join(l.Project, ".claude", "settings.local.json"), nil
	}
	return "", fmt.Errorf("settings: unknown scope %q (want user, project or local)", scope)
}

// PluginHooksFile returns the hooks file of the plugin in folder dir:
// dir/hooks/hooks.json, the one place Claude Code looks for it.
func PluginHooksFile(dir string) string { return filepath.Join(dir, "hooks", "hooks.json") }

// Source is one file Claude Code reads hooks from.
type Source struct {
	Scope string // ScopeUser, ScopeProject, ScopeLocal or ScopePlugin
	Path  string // the settings file or the plugin's hooks/hooks.json
	// Plugin is the plugin's id ("name@marketplace", or the folder's name
	// for a --plugin-dir plugin) and PluginRoot its folder, which
	// ${CLAUDE_PLUGIN_ROOT} stands for; both empty for settings files.
	Plugin, PluginRoot string
}

// Plugin is a plugin recorded in installed_plugins.json for this project
// (of user scope, or of project or local scope with this project's path).
type Plugin struct {
	ID   string // "name@marketplace"
	Root string // its installPath, which ${CLAUDE_PLUGIN_ROOT} stands for
	// Enabled: the merged enabledPlugins of the user, project and local
	// settings (local wins over project over user) has it true.
	Enabled bool
	// MarketplaceKnown: its marketplace is recorded in
	// known_marketplaces.json or declared with a "directory" or "file"
	// source under extraKnownMarketplaces in one of the settings files.
	// Claude Code 2.1.336 loads nothing of a plugin whose marketplace it
	// does not know.
	MarketplaceKnown bool
}

// Loaded reports whether Claude Code loads the plugin's hooks.
func (p Plugin) Loaded() bool { return p.Enabled && p.MarketplaceKnown }

// Plugins returns the installed plugins recorded for this project, sorted
// by id, whether Claude Code loads them or not. A settings file that
// cannot be read counts as empty (its error is for [ReadFile] to report);
// trouble reading installed_plugins.json or known_marketplaces.json is
// returned with the plugins found.
func (l Locations) Plugins() ([]Plugin, error) {
	enabled := map[string]bool{}
	markets := map[string]bool{}
	var errs []error
	for _, sc := range []string{ScopeUser, ScopeProject, ScopeLocal} {
		p, _ := l.SettingsFile(sc)
		var s struct {
			EnabledPlugins map[string]jsontext.Value `json:"enabledPlugins"`
			Markets        map[string]struct {
				Source struct {
					Source string `json:"source"`
				} `json:"source"`
			} `json:"extraKnownMarketplaces"`
		}
		if err := readJSON(p, &s); err != nil {
			continue
		}
		for id, v := range s.EnabledPlugins {
			enabled[id] = string(v) == "true"
		}
		for name, m := range s.Markets {
			if m.Source.Source == "directory" || m.Source.Source == "file" {
				markets[name] = true
			}
		}
	}
	var known map[string]jsontext.Value
	if err := readJSON(filepath.Join(l.PluginsDir, "known_marketplaces.json"), &known); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	for name := range known {
		markets[name] = true
	}
	var rec struct {
		Plugins map[string][]struct {
			Scope       string `json:"scope"`
			InstallPath string `json:"installPath"`
			ProjectPath string `json:"projectPath"`
		} `json:"plugins"`
	}
	if err := readJSON(filepath.Join(l.PluginsDir, "installed_plugins.json"), &rec); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	ids := make([]string, 0, len(rec.Plugins))
	for id := range rec.Plugins {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []Plugin
	for _, id := range ids {
		for _, in := range rec.Plugins[id] {
			if in.InstallPath == "" || in.Scope != ScopeUser && !samePath(in.ProjectPath, l.Project) {
				continue
			}
			market := ""
			if i := strings.LastIndexByte(id, '@'); i >= 0 {
				market = id[i+1:]
			}
			out = append(out, Plugin{ID: id, Root: in.InstallPath, Enabled: enabled[id], MarketplaceKnown: markets[market]})
			break
		}
	}
	return out, errors.Join(errs...)
}

// Sources returns the files Claude Code reads hooks from: the managed
// settings files that exist (managed-settings.json, then
// managed-settings.d/*.json in name order), the user, project and local
// settings (whether they exist or not), the
// hooks/hooks.json of every installed plugin it loads (see [Plugin.Loaded]),
// then that of each of l.PluginDirs. Trouble reading the plugin records is
// returned with the sources found.
func (l Locations) Sources() ([]Source, error) {
	var out []Source
	for _, p := range l.managedFiles() {
		out = append(out, Source{Scope: ScopeManaged, Path: p})
	}
	for _, sc := range []string{ScopeUser, ScopeProject, ScopeLocal} {
		p, _ := l.SettingsFile(sc)
		out = append(out, Source{Scope: sc, Path: p})
	}
	ps, err := l.Plugins()
	for _, p := range ps {
		if p.Loaded() {
			out = append(out, Source{Scope: ScopePlugin, Path: PluginHooksFile(p.Root), Plugin: p.ID, PluginRoot: p.Root})
		}
	}
	for _, d := range l.PluginDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			abs = d
		}
		out = append(out, Source{Scope: ScopePlugin, Path: PluginHooksFile(abs), Plugin: filepath.Base(abs), PluginRoot: abs})
	}
	return out, err
}

// managedFiles returns the managed settings files that exist.
func (l Locations) managedFiles() []string {
	if l.ManagedDir == "" {
		return nil
	}
	var out []string
	main := filepath.Join(l.ManagedDir, "managed-settings.json")
	if _, err := os.Stat(main); err == nil {
		out = append(out, main)
	}
	more, _ := filepath.Glob(filepath.Join(l.ManagedDir, "managed-settings.d", "*.json"))
	slices.Sort(more)
	return append(out, more...)
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	data, err := ReadRegular(path)
	if err != nil {
		return err
	}
	root, err := parse(data)
	if err != nil {
		return withPath(err, path)
	}
	if root == nil {
		return nil
	}
	if err := json.Unmarshal(data, v, readOpts); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// samePath reports whether a and b name the same folder.
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
