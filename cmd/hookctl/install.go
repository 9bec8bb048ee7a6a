package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/protocol"
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
		scope   = fl.String("scope", "", "settings scope: user, project or local (default project)")
		file    = fl.String("settings", "", "a settings `FILE` to edit instead of a scope")
		plugin  = fl.String("plugin", "", "a plugin `DIR`: edit DIR/hooks/hooks.json")
		project = fl.String("project", "", "the project `DIR` (default: the current folder)")
		event   = fl.String("event", "", "the hook `EVENT`, as in hook_event_name (PreToolUse, Stop, ...)")
		matcher = fl.String("matcher", "", "the matcher group (tool names such as \"Edit|Write\", or a regex)")
		dryRun  = fl.Bool("dry-run", false, "print the change as a diff and write nothing")
		trust   = fl.Bool("trust", false, "with -agent codex: trust the hook too, writing its trusted_hash into Codex's user config.toml (uninstall removes it)")
		agentF  = agentFlag(fl)
		hf      handlerFlags
	)
	hf.add(fl)
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	rest := fl.Args()
	if *event == "" {
		return usageErr(stderr, name, "-event is required")
	}
	if err := checkAgent(stderr, name, *agentF); err != nil {
		return err
	}
	if *agentF == agentCodex {
		c := codexInstall{name: name, scope: *scope, file: *file, plugin: *plugin, project: *project,
			event: *event, matcher: *matcher, remove: remove, dryRun: *dryRun, trust: *trust}
		return c.run(fl, &hf, rest, stdout, stderr)
	}
	if *agentF == agentCopilot {
		c := copilotInstall{name: name, scope: *scope, file: *file, project: *project, event: *event, remove: remove, dryRun: *dryRun}
		return c.run(fl, &hf, rest, stdout, stderr)
	}
	if *trust {
		return usageErr(stderr, name, "-trust is for -agent codex: Claude Code runs the hooks of its settings without a trust step")
	}
	if !protocol.Known(*event) {
		return usageErr(stderr, name, "unknown event %q (Claude Code %s has PreToolUse, PostToolUse, Stop, ...; names are case-sensitive)", *event, protocol.ClaudeCode)
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
	h, err := hf.handler(fl, rest, name)
	if err != nil {
		return usageErr(stderr, name, "%v", err)
	}
	if (*event == "SessionStart" || *event == "Setup") && h.Type != settings.TypeCommand && h.Type != settings.TypeMCPTool {
		return usageErr(stderr, name, "%s takes only command and mcp_tool handlers: Claude Code would never run this %s hook", *event, h.Type)
	}
	if h.Timeout >= 1000 && !remove {
		fmt.Fprintf(stderr, "hookctl: warning: -timeout %g is %s: Claude Code reads seconds, not milliseconds\n", h.Timeout, humanSeconds(h.Timeout))
	}
	if _, err := hook.CompileMatcher(*event, *matcher); err != nil {
		return usageErr(stderr, name, "%v", err)
	}
	if *matcher != "" && protocol.MatcherOf(*event) == "" {
		fmt.Fprintf(stderr, "hookctl: warning: %s has no matcher: Claude Code ignores -matcher %q and runs the hook on every %s\n", *event, *matcher, *event)
	}
	if h.If != "" {
		if _, err := hook.CompileCondition(*event, h.If); err != nil {
			return usageErr(stderr, name, "-if %q: %v", h.If, err)
		}
	}
	if !remove {
		installWarnings(stderr, *event, h)
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

	if root != "" && h.Type == settings.TypeCommand {
		h.Command = pluginPath(root, h.Command)
		for i, a := range h.Args {
			h.Args[i] = pluginPath(root, a)
		}
	}
	e := settings.Entry{Event: *event, Matcher: *matcher, Handler: h}

	var hints []string
	var found []settings.Container
	var detail string // the options an install changed
	edit := func(data []byte) ([]byte, string, error) {
		if remove {
			out, n, form, err := removeEntry(data, e, kept(path))
			if n == 0 && err == nil {
				hints = nearMisses(data, e)
			}
			return removed(data, out, n, form, err)
		}
		cs, err := settings.Containers(data, e)
		if err != nil {
			return data, "", err
		}
		out, changed, err := settings.Add(data, e)
		if err != nil || !changed {
			return out, "already installed, unchanged", err
		}
		found = cs
		var verb string
		verb, detail = installVerb(data, e, true)
		return out, verb, nil
	}
	shown := displayPath(path, locs.Project)
	what, err := applyEdit(path, shown, *dryRun, edit, stdout, stderr)
	if err != nil || *dryRun {
		return err
	}
	afterEdit(path, what, found)
	fmt.Fprintf(stdout, "%s: %s %s %s%s\n", shown, what, describe(e), h.String(), detail)
	if remove && strings.HasPrefix(what, "removed 0") {
		if len(hints) > 0 {
			return fmt.Errorf("nothing to uninstall: no such handler; %s has it %s", shown, strings.Join(hints, "; "))
		}
		return errors.New("nothing to uninstall: no such handler (give the same -event, -matcher, -if, -type and -shell, and the same command, url, server and tool, or prompt as at install)")
	}
	return nil
}

// deletedNote ends what uninstall says it did when it deleted the file.
const deletedNote = ", and deleted the file install had made"

// removed is the result of an uninstall edit that removed n handlers from
// data: out, or settings.DeleteFile when out is nil (the file did not
// exist before install), with what it did.
func removed(data, out []byte, n int, form string, err error) ([]byte, string, error) {
	what := fmt.Sprintf("removed %d handler(s)%s", n, form)
	if err != nil {
		return data, what, err
	}
	if out == nil && data != nil {
		return nil, what + deletedNote, settings.DeleteFile
	}
	return out, what, nil
}

// afterEdit keeps the ledger up to date after an edit that did what: an
// install records the containers found (nil when nothing was written),
// an uninstall that deleted the file forgets it.
func afterEdit(path, what string, found []settings.Container) {
	switch {
	case strings.HasSuffix(what, deletedNote):
		forget(path)
	case found != nil:
		recordInstall(path, found)
	}
}

// applyEdit runs edit on the file at path (shown as shown) and returns
// what it says it did. With dryRun it prints the change as a diff and
// writes nothing; otherwise it writes through settings.Update, which
// writes nothing unless the file changed. An edit that returns
// settings.DeleteFile deletes the file (a dry run shows all its lines
// removed).
func applyEdit(path, shown string, dryRun bool, edit func([]byte) ([]byte, string, error), stdout, stderr io.Writer) (string, error) {
	if dryRun {
		data, err := settings.ReadRegular(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		out, what, err := edit(data)
		if err != nil && !errors.Is(err, settings.DeleteFile) {
			return "", withFile(err, shown)
		}
		fmt.Fprint(stdout, unifiedDiff(shown, string(data), string(out)))
		fmt.Fprintf(stderr, "hookctl: dry run: %s: would be %s\n", shown, what)
		return what, nil
	}
	var what string
	_, err := settings.Update(path, func(data []byte) ([]byte, error) {
		out, w, err := edit(data)
		what = w
		return out, err
	})
	if err != nil {
		return "", withFile(err, shown)
	}
	return what, nil
}

// removeEntry removes e from data, keeping the containers of keep that
// install found empty (see settings.RemoveKeeping): out is nil when the
// file did not exist before install and nothing else is in it. A command
// given as one word matches the exec form without arguments too (and the
// other way round), so that a hook installed with -exec is uninstalled
// without it; form then says which form was removed.
func removeEntry(data []byte, e settings.Entry, keep []settings.Container) (out []byte, n int, form string, err error) {
	out, n, err = settings.RemoveKeeping(data, e, keep)
	if n > 0 || err != nil || e.Handler.Type != settings.TypeCommand || len(e.Handler.Args) > 0 {
		return out, n, "", err
	}
	alt := e
	if e.Handler.Args == nil {
		alt.Handler.Args, form = []string{}, " (the exec form, installed with -exec)"
	} else {
		alt.Handler.Args, form = nil, " (the shell form)"
	}
	out, n, err = settings.RemoveKeeping(data, alt, keep)
	if n == 0 {
		form = ""
	}
	return out, n, form, err
}

// nearMisses describes the handlers of data that run what e runs, under
// another event, matcher, "if" rule, shell or form (shell or exec): what
// uninstall needs to be told to remove them, each differing flag with
// the value to give.
func nearMisses(data []byte, e settings.Entry) []string {
	hs, err := settings.Parse(data)
	if err != nil {
		return nil
	}
	var out []string
	for _, h := range hs {
		if give := nearMiss(h, e); len(give) > 0 {
			out = append(out, fmt.Sprintf("at line %d (give %s)", h.Line, strings.Join(give, " ")))
		}
	}
	return out
}

// nearMiss returns the flags, with their values, that uninstall needs to
// match h when h runs what e runs but is not e's registration; nil when h
// runs something else, or is e's registration.
func nearMiss(h settings.Hook, e settings.Entry) []string {
	c, w := h.Handler, e.Handler
	kind := func(t string) string {
		if t == "" {
			return settings.TypeCommand
		}
		return t
	}
	if kind(c.Type) != kind(w.Type) {
		return nil
	}
	// What the handler runs, leaving aside the "if" rule, the shell and
	// the form, which are named below.
	c.If, c.Shell, c.Args = w.If, w.Shell, w.Args
	if !c.Same(w) || !slices.Equal(h.Handler.Args, w.Args) && len(h.Handler.Args)+len(w.Args) > 0 {
		return nil
	}
	var give []string
	if h.Event != e.Event {
		give = append(give, "-event "+h.Event)
	}
	if h.Matcher != e.Matcher {
		give = append(give, fmt.Sprintf("-matcher %q", h.Matcher))
	}
	if h.Handler.If != w.If {
		if h.Handler.If == "" {
			give = append(give, "no -if")
		} else {
			give = append(give, fmt.Sprintf("-if %q", h.Handler.If))
		}
	}
	if h.Handler.Shell != w.Shell {
		if h.Handler.Shell == "" {
			give = append(give, "no -shell")
		} else {
			give = append(give, "-shell "+h.Handler.Shell)
		}
	}
	if len(give) == 0 {
		return nil // only the form differs, which removeEntry tries
	}
	if (h.Handler.Args == nil) != (w.Args == nil) {
		if h.Handler.Args == nil {
			give = append(give, "no -exec")
		} else {
			give = append(give, "-exec")
		}
	}
	return give
}

// installWarnings prints what install writes but Claude Code will not do
// as the user may think.
func installWarnings(stderr io.Writer, event string, h settings.Handler) {
	if h.Args != nil {
		for _, w := range append([]string{h.Command}, h.Args...) {
			if m := unbraced.FindString(w); m != "" {
				fmt.Fprintf(stderr, "hookctl: warning: %s is not substituted in exec form (no shell runs); write ${%s}\n", m, m[1:])
			}
		}
	}
	if h.Type == settings.TypeCommand && h.Args == nil && h.Shell != "powershell" {
		if w := backslashPath(h.Command); w != "" {
			fmt.Fprintf(stderr, "hookctl: warning: %s has backslashes that bash reads as escapes (Git Bash runs shell-form hooks on Windows), so the path is mangled; write it with forward slashes, quote it, or use the exec form (-exec)\n", w)
		}
	}
	if why := onFailureIgnored(event, h); why != "" {
		fmt.Fprintf(stderr, "hookctl: warning: -on-failure %s has no effect: %s\n", h.OnFailure, why)
	}
	for _, v := range h.AllowedEnvVars {
		if v == "ANTHROPIC_API_KEY" {
			fmt.Fprintf(stderr, "hookctl: warning: Claude Code never fills in %s, even when allowed: the header goes out empty\n", v)
		}
	}
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
	case s >= 2*86400:
		return fmt.Sprintf("%.1f days", s/86400)
	case s >= 3600:
		return fmt.Sprintf("%.1f hours", s/3600)
	case s >= 60:
		return fmt.Sprintf("%.0f minutes", s/60)
	}
	return fmt.Sprintf("%g seconds", s)
}
