package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/settings"
)

// cmdInstall runs install, or uninstall when remove is set.
func cmdInstall(args []string, stdout, stderr io.Writer, remove bool) error {
	name := "install"
	if remove {
		name = "uninstall"
	}
	fl := newFlags(name, stderr)
	var (
		scope    = fl.String("scope", "", "settings scope: user, project or local (default project)")
		file     = fl.String("settings", "", "a settings `FILE` to edit instead of a scope")
		plugin   = fl.String("plugin", "", "a plugin `DIR`: edit DIR/hooks/hooks.json")
		project  = fl.String("project", "", "the project `DIR` (default: the current folder)")
		event    = fl.String("event", "", "the hook `EVENT`, as in hook_event_name (PreToolUse, Stop, ...)")
		matcher  = fl.String("matcher", "", "the matcher group (tool names such as \"Edit|Write\", or a regex)")
		timeout  = fl.Float64("timeout", 0, "timeout in `SECONDS` (Claude Code reads seconds, not milliseconds)")
		cond     = fl.String("if", "", "a permission `RULE` narrowing the tool calls, such as \"Bash(git *)\"")
		shell    = fl.String("shell", "", "the shell of a shell-form command: bash or powershell")
		onFail   = fl.String("on-failure", "", "what a failing hook does: continue or block")
		status   = fl.String("status-message", "", "spinner `TEXT` while the hook runs")
		async    = fl.Bool("async", false, "run the hook in the background")
		execForm = fl.Bool("exec", false, "write the exec form (no shell) even without ARGS")
		dryRun   = fl.Bool("dry-run", false, "print the change as a diff and write nothing")
	)
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	rest := fl.Args()
	if len(rest) == 0 {
		return usageErr(stderr, name, "no command: give it after --, as in: hookctl %s -event Stop -- /path/to/hook", name)
	}
	if *event == "" {
		return usageErr(stderr, name, "-event is required")
	}
	if !hook.KnownEvent(*event) {
		return usageErr(stderr, name, "unknown event %q (Claude Code 2.1.332 has PreToolUse, PostToolUse, Stop, ...; names are case-sensitive)", *event)
	}
	sel := 0
	for _, s := range []string{*scope, *file, *plugin} {
		if s != "" {
			sel++
		}
	}
	if sel > 1 {
		return usageErr(stderr, name, "give one of -scope, -settings and -plugin")
	}
	if *timeout < 0 {
		return usageErr(stderr, name, "-timeout must be a positive number of seconds")
	}
	if *timeout >= 1000 {
		fmt.Fprintf(stderr, "hookctl: warning: -timeout %g is %s: Claude Code reads seconds, not milliseconds\n", *timeout, humanSeconds(*timeout))
	}
	if _, err := hook.CompileMatcher(*event, *matcher); err != nil {
		return usageErr(stderr, name, "%v", err)
	}
	if *matcher != "" && !hook.HasMatcher(*event) {
		fmt.Fprintf(stderr, "hookctl: warning: %s has no matcher: Claude Code ignores -matcher %q and runs the hook on every %s\n", *event, *matcher, *event)
	}
	if *cond != "" {
		if _, err := hook.CompileCondition(*event, *cond); err != nil {
			return usageErr(stderr, name, "-if %q: %v", *cond, err)
		}
	}

	locs, err := settings.DefaultLocations(*project)
	if err != nil {
		return err
	}
	var path, root string
	switch {
	case *file != "":
		path = *file
	case *plugin != "":
		if root, err = filepath.Abs(*plugin); err != nil {
			return err
		}
		path = settings.PluginHooksFile(root)
	default:
		if *scope == "" {
			*scope = settings.ScopeProject
		}
		if path, err = locs.SettingsFile(*scope); err != nil {
			return usageErr(stderr, name, "%v", err)
		}
	}

	h := settings.Handler{Command: rest[0], If: *cond, Shell: *shell, Timeout: *timeout,
		OnFailure: *onFail, StatusMessage: *status, Async: *async}
	if len(rest) > 1 || *execForm {
		h.Args = append([]string{}, rest[1:]...)
	}
	if h.Args != nil {
		for _, w := range append([]string{h.Command}, h.Args...) {
			if m := unbraced.FindString(w); m != "" {
				fmt.Fprintf(stderr, "hookctl: warning: %s is not substituted in exec form (no shell runs); write ${%s}\n", m, m[1:])
			}
		}
	}
	if root != "" {
		h.Command = pluginPath(root, h.Command)
		for i, a := range h.Args {
			h.Args[i] = pluginPath(root, a)
		}
	}
	e := settings.Entry{Event: *event, Matcher: *matcher, Handler: h}

	edit := func(data []byte) ([]byte, string, error) {
		if remove {
			out, n, err := settings.Remove(data, e)
			return out, fmt.Sprintf("removed %d handler(s)", n), err
		}
		out, changed, err := settings.Add(data, e)
		if !changed {
			return out, "already installed, unchanged", err
		}
		return out, "installed", err
	}
	shown := displayPath(path, locs.Project)
	if *dryRun {
		data, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		out, what, err := edit(data)
		if err != nil {
			return withFile(err, shown)
		}
		fmt.Fprint(stdout, unifiedDiff(shown, string(data), string(out)))
		fmt.Fprintf(stderr, "hookctl: dry run: %s: would be %s\n", shown, what)
		return nil
	}
	var what string
	_, err = settings.Update(path, func(data []byte) ([]byte, error) {
		out, w, err := edit(data)
		what = w
		return out, err
	})
	if err != nil {
		return withFile(err, shown)
	}
	fmt.Fprintf(stdout, "%s: %s %s %s\n", shown, what, describe(e), h.String())
	if remove && strings.HasPrefix(what, "removed 0") {
		return errors.New("nothing to uninstall: no such handler (give the same -event, -matcher, -if and command as at install)")
	}
	return nil
}

// unbraced finds a placeholder that exec form leaves as it is.
var unbraced = regexp.MustCompile(`\$CLAUDE_[A-Z_]+`)

// withFile puts the shown file name into a settings error.
func withFile(err error, shown string) error {
	var se *settings.SyntaxError
	if errors.As(err, &se) {
		se.Path = shown
	}
	return err
}

// describe names an entry's event and matcher.
func describe(e settings.Entry) string {
	if e.Matcher == "" {
		return e.Event
	}
	return fmt.Sprintf("%s[%s]", e.Event, e.Matcher)
}

// pluginPath writes p as ${CLAUDE_PLUGIN_ROOT}/... when it names a file
// inside the plugin folder root: an absolute path, or one relative to the
// current folder that has a slash or starts with ".", inside root (whether
// it exists yet or not, so that uninstall works after the file is gone);
// or a path relative to root that exists. Anything else (a flag, a word)
// is returned as it is.
func pluginPath(root, p string) string {
	if p == "" || strings.Contains(p, "${") {
		return p
	}
	inside := func(c string) (string, bool) {
		rel, err := filepath.Rel(root, c)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
		return "${CLAUDE_PLUGIN_ROOT}/" + filepath.ToSlash(rel), true
	}
	switch {
	case filepath.IsAbs(p):
		if r, ok := inside(filepath.Clean(p)); ok {
			return r
		}
	case strings.ContainsAny(p, `/\`) || strings.HasPrefix(p, "."):
		if abs, err := filepath.Abs(p); err == nil {
			if r, ok := inside(abs); ok {
				return r
			}
		}
	}
	if !filepath.IsAbs(p) {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			if r, ok := inside(filepath.Join(root, p)); ok {
				return r
			}
		}
	}
	return p
}

// displayPath shows path relative to the project when it is inside it,
// else as ~/... when it is inside the home folder.
func displayPath(path, project string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(project, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	if home, err := os.UserHomeDir(); err == nil {
		if rel, err := filepath.Rel(home, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return abs
}

// humanSeconds writes a number of seconds in the largest sensible unit.
func humanSeconds(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.1f hours", s/3600)
	case s >= 60:
		return fmt.Sprintf("%.0f minutes", s/60)
	}
	return fmt.Sprintf("%g seconds", s)
}
