package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/settings"
)

// agentCopilot is -agent copilot: the GitHub Copilot CLI's hooks files.
const agentCopilot = "copilot"

// copilotEvents are the events hookctl installs for Copilot: the
// PascalCase names under which Copilot CLI agent.CopilotVersion sends
// Claude-shaped payloads, which a hook built with the library serves.
var copilotEvents = []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "SubagentStop", "PreCompact"}

// copilotCamel maps Copilot's camelCase event names, whose payloads a
// hook built with the library refuses, to the PascalCase name to use
// instead ("" when there is none).
var copilotCamel = map[string]string{
	"preToolUse": "PreToolUse", "postToolUse": "PostToolUse", "userPromptSubmitted": "UserPromptSubmit",
	"sessionStart": "SessionStart", "sessionEnd": "SessionEnd", "agentStop": "Stop", "subagentStop": "SubagentStop",
	"preCompact": "PreCompact", "permissionRequest": "", "PermissionRequest": "",
}

// copilotDirs returns the folders Copilot reads hooks files from: the
// user's ~/.copilot/hooks and the project's .github/hooks.
func copilotDirs(project string) (user, proj string, err error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", "", fmt.Errorf("no home folder (set HOME): %w", err)
	}
	return filepath.Join(home, ".copilot", "hooks"), filepath.Join(project, ".github", "hooks"), nil
}

// copilotKey is the member a command is written under: "powershell" on
// Windows, "bash" elsewhere.
func copilotKey() string {
	if runtime.GOOS == "windows" {
		return "powershell"
	}
	return "bash"
}

// copilotAllowed are the flags install and uninstall take with -agent
// copilot; Copilot's hooks file has no member for the others.
var copilotAllowed = map[string]bool{"agent": true, "event": true, "scope": true, "settings": true, "project": true, "timeout": true, "dry-run": true, "type": true}

// copilotInstall is install and uninstall with -agent copilot.
type copilotInstall struct {
	name, scope, file, project, event string
	remove, dryRun                    bool
}

func (c copilotInstall) run(fl *flag.FlagSet, hf *handlerFlags, rest []string, stdout, stderr io.Writer) error {
	name := c.name
	var bad []string
	fl.Visit(func(f *flag.Flag) {
		if !copilotAllowed[f.Name] {
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return usageErr(stderr, name, "not for -agent copilot: %s (Copilot's hooks file holds an event's commands and their timeoutSec only: no matcher, so filter on tool_name in the hook)", strings.Join(bad, ", "))
	}
	if hf.typ != settings.TypeCommand {
		return usageErr(stderr, name, "-type %s: hookctl installs command hooks for Copilot", hf.typ)
	}
	if pascal, ok := copilotCamel[c.event]; ok {
		if pascal == "" {
			return usageErr(stderr, name, "-event %s: Copilot sends its permission request in its own camelCase shape under either name, which a hook built with github.com/gohooks/hook refuses; use PreToolUse", c.event)
		}
		return usageErr(stderr, name, "-event %s: under camelCase names Copilot sends payloads of its own shape, which a hook built with github.com/gohooks/hook refuses; use -event %s", c.event, pascal)
	}
	known := false
	for _, ev := range copilotEvents {
		known = known || ev == c.event
	}
	if !known {
		return usageErr(stderr, name, "-event %q: give one of %s (the PascalCase names under which GitHub Copilot CLI %s sends Claude-shaped payloads)", c.event, strings.Join(copilotEvents, ", "), agent.CopilotVersion)
	}
	t := hf.timeout
	if math.IsNaN(t) || math.IsInf(t, 0) || t < 0 || t != math.Trunc(t) || t > math.MaxInt32 {
		return usageErr(stderr, name, "-timeout %g: give a whole number of seconds (Copilot's timeoutSec)", t)
	}
	var cmd string
	switch len(rest) {
	case 0:
		return usageErr(stderr, name, "no command: give it after --, as in: hookctl install -agent copilot -event PreToolUse -- /path/to/hook")
	case 1:
		cmd = rest[0]
	default:
		words := make([]string, len(rest))
		for i, w := range rest {
			words[i] = shellWord(w)
		}
		cmd = strings.Join(words, " ")
	}
	if c.scope != "" && c.file != "" {
		return usageErr(stderr, name, "give one of -scope and -settings")
	}
	locs, err := settings.DefaultLocations(c.project)
	if err != nil {
		return err
	}
	userDir, projDir, err := copilotDirs(locs.Project)
	if err != nil {
		return err
	}
	path := c.file
	if path == "" {
		switch c.scope {
		case "", settings.ScopeUser:
			path = filepath.Join(userDir, "hooks.json")
		case settings.ScopeProject:
			path = filepath.Join(projDir, "hooks.json")
		default:
			return usageErr(stderr, name, "-scope %q: Copilot reads user (~/.copilot/hooks) and project (.github/hooks) hooks", c.scope)
		}
	}
	key := copilotKey()
	edit := func(data []byte) ([]byte, string, error) {
		if c.remove {
			out, n, err := copilotRemove(data, c.event, key, cmd)
			if err != nil {
				return data, "", fmt.Errorf("%w: Copilot does not load this file as it is; fix it first", err)
			}
			return out, fmt.Sprintf("removed %d", n), nil
		}
		out, changed, err := copilotAdd(data, c.event, key, cmd, t)
		if err != nil {
			return data, "", fmt.Errorf("%w: Copilot does not load this file as it is; fix it first", err)
		}
		if !changed {
			return out, "unchanged (already installed)", nil
		}
		return out, "installed", nil
	}
	if !c.dryRun && !c.remove {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
	}
	shown := displayPath(path, locs.Project)
	what, err := applyEdit(path, shown, c.dryRun, edit, stdout, stderr)
	if err != nil {
		if c.remove && errors.Is(err, fs.ErrNotExist) {
			return errors.New("nothing to uninstall: " + shown + " does not exist")
		}
		return err
	}
	if c.dryRun {
		return nil
	}
	fmt.Fprintf(stdout, "%s: %s %s %s\n", shown, what, c.event, cmd)
	if c.remove && what == "removed 0" {
		return errors.New("nothing to uninstall: no such handler (give the same -event and command as at install)")
	}
	if !c.remove && filepath.Dir(path) == projDir && !copilotTrusted(filepath.Dir(userDir), locs.Project) {
		fmt.Fprintf(stderr, "hookctl: note: GitHub Copilot CLI %s loads a project's .github/hooks only once the folder is trusted (trusted_folders in ~/.copilot/config.json, which its trust prompt writes), and %s is not\n", agent.CopilotVersion, locs.Project)
	}
	return nil
}

// loadCopilot reads the Copilot hooks files of the user and the project
// for list and doctor: each handler becomes a hook (its command the bash
// or powershell line, its timeout timeoutSec), and what doctor says of the
// files goes into l.copilot.
func loadCopilot(project string) (*loaded, error) {
	locs, err := settings.DefaultLocations(project)
	if err != nil {
		return nil, err
	}
	l := &loaded{locs: locs}
	userDir, projDir, err := copilotDirs(locs.Project)
	if err != nil {
		return nil, err
	}
	for _, d := range []struct{ scope, dir string }{{settings.ScopeUser, userDir}, {settings.ScopeProject, projDir}} {
		names, _ := filepath.Glob(filepath.Join(d.dir, "*.json"))
		sort.Strings(names)
		for _, path := range names {
			src := settings.Source{Scope: d.scope, Path: path}
			l.sources = append(l.sources, src)
			shown := displayPath(path, locs.Project)
			data, err := settings.ReadRegular(path)
			if err != nil {
				l.errs = append(l.errs, withFile(err, shown))
				l.copilot = append(l.copilot, finding{Severity: sevError, File: shown, Msg: err.Error()})
				continue
			}
			l.copilot = append(l.copilot, copilotFileFindings(l, src, shown, data)...)
			if d.scope == settings.ScopeProject && !copilotTrusted(filepath.Dir(userDir), locs.Project) {
				l.copilot = append(l.copilot, finding{Severity: sevWarning, File: shown,
					Msg: fmt.Sprintf("GitHub Copilot CLI %s loads a project's .github/hooks only once the folder is trusted, and %s is not among trusted_folders of ~/.copilot/config.json", agent.CopilotVersion, locs.Project),
					Fix: "trust the folder when Copilot asks, or install into ~/.copilot/hooks (hookctl install -agent copilot -scope user)"})
			}
		}
	}
	return l, nil
}

// copilotFileFindings reads one hooks file into l.hooks and returns what
// doctor finds in it.
func copilotFileFindings(l *loaded, src settings.Source, shown string, data []byte) []finding {
	var fs []finding
	add := func(sev string, at int, msg, fix string) {
		f := finding{Severity: sev, File: shown, Msg: msg, Fix: fix}
		if at > 0 {
			f.Line, f.Column = lineCol(data, at)
		}
		fs = append(fs, f)
	}
	f, err := readCopilotFile(data)
	if err != nil {
		add(sevError, 0, "Copilot does not load this file: "+err.Error(), "")
		l.errs = append(l.errs, fmt.Errorf("%s: %v", shown, err))
		return fs
	}
	if _, ok := find(f.top, "version"); !ok {
		add(sevWarning, 0, `no "version": Copilot's hooks files are version 1`, `add "version": 1`)
	}
	if f.hooks == nil {
		add(sevWarning, 0, `no "hooks": the file runs nothing`, "")
		return fs
	}
	for _, ev := range f.events {
		if pascal, ok := copilotCamel[ev.name]; ok {
			fix := "a hook built with github.com/gohooks/hook refuses these payloads"
			if pascal != "" {
				fix = "rename the event " + pascal + ": " + fix + " (it serves the PascalCase ones)"
			}
			add(sevWarning, ev.nameStart, fmt.Sprintf("%s: Copilot sends payloads of its own camelCase shape here", ev.name), fix)
		} else if known := func() bool {
			for _, e := range copilotEvents {
				if e == ev.name {
					return true
				}
			}
			return false
		}(); !known {
			add(sevNote, ev.nameStart, fmt.Sprintf("%s: not an event hookctl knows Copilot to send Claude-shaped payloads on", ev.name), "")
		}
		for i, s := range f.handlers[ev.name] {
			h, err := f.handler(s)
			line, col := lineCol(data, s.start)
			if err != nil {
				add(sevError, s.start, fmt.Sprintf("%s handler %d: %v", ev.name, i+1, err), "")
				continue
			}
			cmd := h.Bash
			if runtime.GOOS == "windows" || cmd == "" {
				if h.PowerShell != "" {
					cmd = h.PowerShell
				}
			}
			typ := h.Type
			if typ == "" {
				typ = settings.TypeCommand
			}
			l.hooks = append(l.hooks, found{src: src, file: shown, hook: settings.Hook{Event: ev.name, Line: line, Column: col, Index: i,
				Raw: h.Raw, Fields: h.Fields, Handler: settings.Handler{Type: typ, Command: cmd, Timeout: h.TimeoutSec}}})
			switch {
			case typ == settings.TypeCommand && h.Bash == "" && h.PowerShell == "":
				add(sevError, s.start, fmt.Sprintf("%s handler %d: a command handler without \"bash\" or \"powershell\"", ev.name, i+1), "")
			case h.TimeoutSec < 0:
				add(sevError, s.start, fmt.Sprintf("%s handler %d: timeoutSec %g is negative", ev.name, i+1, h.TimeoutSec), "")
			case h.TimeoutSec >= 1000:
				add(sevWarning, s.start, fmt.Sprintf("%s handler %d: timeoutSec %g is %s: Copilot reads seconds", ev.name, i+1, h.TimeoutSec, humanSeconds(h.TimeoutSec)), "")
			}
		}
	}
	return fs
}

// diagnoseCopilot returns doctor's findings for -agent copilot.
func diagnoseCopilot(l *loaded) []finding {
	if len(l.sources) == 0 {
		return []finding{{Severity: sevNote, File: "~/.copilot/hooks", Msg: "no Copilot hooks files (~/.copilot/hooks/*.json, .github/hooks/*.json)"}}
	}
	return l.copilot
}

// copilotTrusted reports whether the folder project is among the
// trusted_folders of Copilot's config.json in dir (~/.copilot): Copilot
// loads a project's .github/hooks only then.
func copilotTrusted(dir, project string) bool {
	data, err := settings.ReadRegular(filepath.Join(dir, "config.json"))
	if err != nil {
		return false
	}
	var c struct {
		TrustedFolders []string `json:"trusted_folders"`
	}
	if json.Unmarshal(data, &c) != nil {
		return false
	}
	for _, f := range c.TrustedFolders {
		if filepath.Clean(f) == filepath.Clean(project) {
			return true
		}
	}
	return false
}
