package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/settings"
)

// The agents whose hook files hookctl edits (-agent).
const (
	agentClaude = "claude"
	agentCodex  = "codex"
)

// agentFlag adds -agent to fl.
func agentFlag(fl *flag.FlagSet) *string {
	return fl.String("agent", agentClaude, "the agent whose hook files to use: claude (Claude Code), codex (OpenAI Codex CLI: hooks.json and config.toml under $CODEX_HOME and .codex/) or copilot (GitHub Copilot CLI: ~/.copilot/hooks/*.json and .github/hooks/*.json)")
}

// checkAgent checks the value of -agent.
func checkAgent(stderr io.Writer, name, a string) error {
	if a != agentClaude && a != agentCodex && a != agentCopilot {
		return usageErr(stderr, name, "-agent %q: give claude, codex or copilot", a)
	}
	return nil
}

// codexHome returns the folder of Codex's user configuration:
// $CODEX_HOME, else ~/.codex.
func codexHome() (string, error) {
	if d := os.Getenv("CODEX_HOME"); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home folder (set HOME or CODEX_HOME): %w", err)
	}
	return filepath.Join(home, ".codex"), nil
}

// codexLayer is one configuration folder of Codex: the user's
// ($CODEX_HOME) or the project's .codex/. Codex reads hooks from both its
// hooks.json and the [hooks] tables of its config.toml.
type codexLayer struct {
	Scope string // settings.ScopeUser or settings.ScopeProject
	Dir   string
}

func (c codexLayer) hooksJSON() string  { return filepath.Join(c.Dir, "hooks.json") }
func (c codexLayer) configTOML() string { return filepath.Join(c.Dir, "config.toml") }

// codexLayers returns the user and project layers for the project folder
// project (absolute).
func codexLayers(project string) ([]codexLayer, error) {
	home, err := codexHome()
	if err != nil {
		return nil, err
	}
	return []codexLayer{
		{settings.ScopeUser, home},
		{settings.ScopeProject, filepath.Join(project, ".codex")},
	}, nil
}

// codexFlags are the install flags Codex has no member for, and why.
var codexFlags = map[string]string{
	"if":                "Codex has no \"if\" rule: narrow the hook with -matcher, or in the hook",
	"shell":             "Codex runs every command with the system shell",
	"on-failure":        "Codex has no onFailure: build the hook with hook.FailClosed so that it blocks itself",
	"async-rewake":      "Codex has no asyncRewake",
	"exec":              "Codex has no exec form: give the command as one shell command line",
	"url":               "Codex runs command hooks only",
	"header":            "Codex runs command hooks only",
	"allow-env":         "Codex runs command hooks only",
	"server":            "Codex runs command hooks only",
	"tool":              "Codex runs command hooks only",
	"input":             "Codex runs command hooks only",
	"prompt":            "Codex runs command hooks only",
	"model":             "Codex runs command hooks only",
	"continue-on-block": "Codex runs command hooks only",
}

// codexHandler checks that the handler flags describe what Codex's
// hooks.json can hold — a command handler, written as one shell command
// line, with a whole number of seconds as its timeout — and returns it.
func codexHandler(fl *flag.FlagSet, hf *handlerFlags, rest []string) (settings.Handler, error) {
	var bad []string
	fl.Visit(func(f *flag.Flag) {
		if why, ok := codexFlags[f.Name]; ok {
			bad = append(bad, fmt.Sprintf("-%s (%s)", f.Name, why))
		}
	})
	if hf.typ != settings.TypeCommand {
		return settings.Handler{}, fmt.Errorf("-type %s: Codex runs command hooks only", hf.typ)
	}
	if len(bad) > 0 {
		return settings.Handler{}, fmt.Errorf("not for -agent codex: %s", strings.Join(bad, "; "))
	}
	if err := codexTimeout(hf.timeout); err != nil {
		return settings.Handler{}, err
	}
	switch len(rest) {
	case 0:
		return settings.Handler{}, errors.New("no command: give it after --, as in: hookctl install -agent codex -event PreToolUse -matcher Bash -- /path/to/hook")
	case 1:
	default:
		// Codex runs the command line with the shell: quote each word
		// as the shell reads it.
		words := make([]string, len(rest))
		for i, w := range rest {
			words[i] = shellWord(w)
		}
		rest = []string{strings.Join(words, " ")}
	}
	return settings.Handler{Type: settings.TypeCommand, Command: rest[0], Timeout: hf.timeout, StatusMessage: hf.status, Async: hf.async}, nil
}

// maxCodexTimeout is the largest -timeout hookctl writes for Codex: 68
// years, far beyond any hook, and small enough to be written as a plain
// integer that Codex's unsigned field reads.
const maxCodexTimeout = math.MaxInt32

// codexTimeout says why a -timeout cannot be written for Codex, which
// reads an unsigned whole number of seconds (0: its default) and refuses
// the whole file over anything else.
func codexTimeout(t float64) error {
	switch {
	case math.IsNaN(t) || math.IsInf(t, 0):
		return fmt.Errorf("-timeout %g: give a whole number of seconds", t)
	case t < 0:
		return fmt.Errorf("-timeout %g: give 0 or more seconds (0 is Codex's default)", t)
	case t > maxCodexTimeout:
		return fmt.Errorf("-timeout %g is too large: give at most %d seconds (about 68 years)", t, maxCodexTimeout)
	case t != math.Trunc(t):
		return fmt.Errorf("-timeout %g: Codex reads a whole number of seconds (a fraction makes it refuse the whole file)", t)
	}
	return nil
}

// shellWord quotes w for a POSIX shell when it needs it.
func shellWord(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// codexInstall is install and uninstall with -agent codex: the entry goes
// into (or out of) the hooks.json of the user's or the project's Codex
// layer, or the file -settings names, through the same lossless edit as
// Claude Code's settings. With trust, install also writes the hook's
// trusted_hash into the user's config.toml, marked as hookctl's;
// uninstall removes such a mark of the hooks it removes, and nothing else
// of config.toml is ever edited.
type codexInstall struct {
	name, scope, file, plugin, project, event, matcher string
	remove, dryRun, trust                              bool
}

func (c codexInstall) run(fl *flag.FlagSet, hf *handlerFlags, rest []string, stdout, stderr io.Writer) error {
	name := c.name
	if !agent.CodexConfigEvent(c.event) {
		return usageErr(stderr, name, "Codex %s has no event %q (it has %s; names are case-sensitive)", agent.CodexVersion, c.event, strings.Join(codexEventNames(), ", "))
	}
	if c.plugin != "" {
		return usageErr(stderr, name, "-plugin is for Claude Code plugins; with -agent codex give -scope user|project or -settings FILE")
	}
	if c.scope != "" && c.file != "" {
		return usageErr(stderr, name, "give one of -scope and -settings")
	}
	if c.remove && c.trust {
		return usageErr(stderr, name, "-trust is for install: uninstall removes the trust install -trust wrote without it")
	}
	h, err := codexHandler(fl, hf, rest)
	if err != nil {
		return usageErr(stderr, name, "%v", err)
	}
	if h.Timeout >= 1000 && !c.remove {
		fmt.Fprintf(stderr, "hookctl: warning: -timeout %g is %s: Codex reads seconds, not milliseconds\n", h.Timeout, humanSeconds(h.Timeout))
	}
	if c.matcher != "" && c.matcher != "*" {
		if _, err := regexp.Compile(c.matcher); err != nil {
			return usageErr(stderr, name, "-matcher %q is not a regular expression, and Codex skips a group whose matcher is not: %v", c.matcher, err)
		}
	}
	locs, err := settings.DefaultLocations(c.project)
	if err != nil {
		return err
	}
	layers, err := codexLayers(locs.Project)
	if err != nil {
		return err
	}
	if c.trust {
		// Refuse before any file is touched what setTrust would refuse.
		if _, unread, err := readUserStates(layers[0].Dir); err != nil {
			return err
		} else if unread > 0 {
			return fmt.Errorf("%s:%d: hook state is written here as an inline table or a dotted key, which hookctl does not edit: trust the hook with /hooks in codex, or write the state as [hooks.state.\"KEY\"] tables", displayPath(layers[0].configTOML(), locs.Project), unread)
		}
	}
	var path string
	var layer *codexLayer
	switch {
	case c.file != "":
		path = c.file
		if strings.EqualFold(filepath.Ext(path), ".toml") {
			return fmt.Errorf("%s: hookctl does not write hooks into Codex's config.toml (it edits there only the trust of a hook, with -trust): it has no TOML library, and rewriting TOML tables by hand could lose comments, layout or values; install into the hooks.json beside it (Codex reads both), or edit the [[hooks.%s]] tables yourself", path, c.event)
		}
	default:
		scope := c.scope
		if scope == "" {
			scope = settings.ScopeProject
		}
		i := slices.IndexFunc(layers, func(l codexLayer) bool { return l.Scope == scope })
		if i < 0 {
			return usageErr(stderr, name, "-scope %q: Codex has a user and a project layer (give user or project)", scope)
		}
		layer = &layers[i]
		path = layer.hooksJSON()
	}
	e := settings.Entry{Event: c.event, Matcher: c.matcher, Handler: h}
	var hints []string
	var found []settings.Container
	var detail string        // the options an install changed
	var before, after []byte // the file's bytes around the last edit
	edit := func(data []byte) ([]byte, string, error) {
		if len(data) > 0 {
			if err := agent.CheckCodexHooksFile(data); err != nil {
				return data, "", fmt.Errorf("%w: Codex does not load this file as it is; fix it first", err)
			}
		}
		var out []byte
		var what string
		if c.remove {
			var n int
			out, n, err = settings.RemoveKeeping(data, e, kept(path))
			if n == 0 && err == nil {
				hints = nearMisses(data, e)
			}
			if out, what, err = removed(data, out, n, "", err); err != nil {
				before, after = data, nil // the file goes: its trust goes too
				return out, what, err     // settings.DeleteFile, or trouble
			}
		} else {
			var cs []settings.Container
			if cs, err = settings.Containers(data, e); err != nil {
				return data, "", err
			}
			var changed bool
			out, changed, err = settings.Add(data, e)
			what, detail = installVerb(data, e, changed)
			if changed {
				found = cs
			}
		}
		if err != nil {
			return data, "", err
		}
		if err := agent.CheckCodexHooksFile(out); len(out) > 0 && err != nil {
			return data, "", fmt.Errorf("internal error: the edited file would not load in Codex: %w", err)
		}
		before, after = data, out
		return out, what, nil
	}
	shown := displayPath(path, locs.Project)
	what, err := applyEdit(path, shown, c.dryRun, edit, stdout, stderr)
	if err != nil {
		return err
	}
	t := codexTrust{config: layers[0].configTOML(), shown: displayPath(layers[0].configTOML(), locs.Project),
		source: codexSource(filepath.Dir(path), filepath.Base(path)), dryRun: c.dryRun, stdout: stdout, stderr: stderr}
	if c.dryRun {
		if c.trust {
			return t.trust(after, e)
		}
		return nil
	}
	afterEdit(path, what, found)
	fmt.Fprintf(stdout, "%s: %s %s %s%s\n", shown, what, describe(e), h.String(), detail)
	if c.remove {
		if strings.HasPrefix(what, "removed 0") {
			if len(hints) > 0 {
				return fmt.Errorf("nothing to uninstall: no such handler; %s has it %s", shown, strings.Join(hints, "; "))
			}
			return errors.New("nothing to uninstall: no such handler (give the same -event, -matcher and command as at install)")
		}
		return t.untrust(before, after, e)
	}
	if layer != nil {
		if data, err := settings.ReadRegular(layer.configTOML()); err == nil {
			if len(readCodexTOML(data).Hooks) > 0 {
				fmt.Fprintf(stderr, "hookctl: warning: %s has hooks too: Codex runs both and warns that the layer has two representations\n", displayPath(layer.configTOML(), locs.Project))
			}
		}
	}
	if c.trust {
		if err := t.trust(after, e); err != nil {
			return err
		}
	} else {
		t.tell(after, e)
	}
	if layer != nil && layer.Scope == settings.ScopeProject {
		fmt.Fprintf(stderr, "hookctl: note: Codex loads a project's .codex/ hooks only when the project is trusted\n")
	}
	return nil
}

// codexEventNames lists the events Codex runs hooks on.
func codexEventNames() []string {
	var names []string
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
		"PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "Interrupt", "SessionEnd",
		"PreModelRequest", "PostModelRequest"} {
		if agent.CodexConfigEvent(ev) {
			names = append(names, ev)
		}
	}
	return names
}
