package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/shell"
	"github.com/gohooks/hook/settings"
)

// goos is the system doctor checks for; a variable for tests.
var goos = runtime.GOOS

// Severities of a finding.
const (
	sevError   = "error"   // the hook does not run as written, or the file is not read
	sevWarning = "warning" // it runs, probably not as meant
	sevNote    = "note"    // what doctor read, for the record
)

// finding is one result of doctor.
type finding struct {
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Msg      string `json:"message"`
	Fix      string `json:"fix,omitempty"`
}

func (f finding) where() string {
	if f.Line == 0 {
		return f.File
	}
	return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
}

func cmdDoctor(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("doctor", stderr)
	asJSON := fl.Bool("json", false, "print the findings as a JSON array")
	quiet := fl.Bool("q", false, "leave out notes (what each matcher matches)")
	src := sourceFlags(fl)
	l, err := src.parseAndLoad(fl, "doctor", args, stderr)
	if err != nil {
		return err
	}
	var fs []finding
	if *src.agent == agentCodex {
		fs = diagnoseCodex(l)
	} else if *src.agent == agentCopilot {
		fs = diagnoseCopilot(l)
	} else {
		fs = diagnose(l)
	}
	if *quiet {
		fs = slices.DeleteFunc(fs, func(f finding) bool { return f.Severity == sevNote })
	}
	nerr, nwarn := 0, 0
	for _, f := range fs {
		switch f.Severity {
		case sevError:
			nerr++
		case sevWarning:
			nwarn++
		}
	}
	if *asJSON {
		if fs == nil {
			fs = []finding{}
		}
		b, err := json.Marshal(fs)
		if err != nil {
			return err
		}
		v := jsontext.Value(b)
		if err := v.Indent(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", v)
	} else {
		for _, f := range fs {
			fmt.Fprintf(stdout, "%s: %s: %s\n", f.where(), f.Severity, f.Msg)
			if f.Fix != "" {
				fmt.Fprintf(stdout, "    fix: %s\n", f.Fix)
			}
		}
		fmt.Fprintf(stdout, "%d hooks in %d files: %d errors, %d warnings\n", len(l.hooks), countFiles(l), nerr, nwarn)
	}
	if nerr > 0 {
		return errFindings
	}
	return nil
}

// countFiles counts the sources that exist.
func countFiles(l *loaded) int {
	n := 0
	for _, s := range l.sources {
		if _, err := os.Stat(s.Path); err == nil {
			n++
		}
	}
	return n
}

// diagnose checks every hook and file of l.
func diagnose(l *loaded) []finding {
	var fs []finding
	for _, err := range l.errs {
		f := finding{Severity: sevError, Msg: err.Error(),
			Fix: "Claude Code reads this file with JSON.parse and skips what it cannot read: make it valid JSON (no comments, no trailing commas)"}
		var se *settings.SyntaxError
		if errors.As(err, &se) {
			f.File, f.Line, f.Column, f.Msg = se.Path, se.Line, se.Column, se.Msg
		}
		fs = append(fs, f)
	}
	ps, _ := l.locs.Plugins() // its errors are in l.errs
	for _, p := range ps {
		if p.Enabled && !p.MarketplaceKnown {
			market := p.ID[strings.LastIndexByte(p.ID, '@')+1:]
			fs = append(fs, finding{Severity: sevWarning, File: displayPath(filepath.Join(l.locs.PluginsDir, "installed_plugins.json"), l.locs.Project),
				Msg: fmt.Sprintf("plugin %s is enabled, but Claude Code does not know its marketplace %q: it loads nothing of the plugin, hooks included", p.ID, market),
				Fix: fmt.Sprintf("claude plugin marketplace add <path-or-repo> (recorded in known_marketplaces.json), or declare %q with a directory source under extraKnownMarketplaces", market)})
		}
	}
	p := readPolicy(l)
	for _, src := range l.sources {
		fs = append(fs, checkFile(l, src)...)
	}
	for i, f := range l.hooks {
		fs = append(fs, checkHook(l, p, f)...)
		fs = append(fs, checkDuplicate(l, i)...)
	}
	return fs
}

// checkFile checks where a plugin keeps its hooks and that a file's events
// are inside "hooks".
func checkFile(l *loaded, src settings.Source) []finding {
	var fs []finding
	shown := displayPath(src.Path, l.locs.Project)
	if src.Scope == settings.ScopePlugin {
		if _, err := os.Stat(src.Path); err != nil {
			for _, wrong := range []string{
				filepath.Join(src.PluginRoot, ".claude-plugin", "hooks.json"),
				filepath.Join(src.PluginRoot, ".claude-plugin", "hooks", "hooks.json"),
				filepath.Join(src.PluginRoot, "hooks.json"),
				filepath.Join(src.PluginRoot, "hooks", "hooks.jsonc"),
			} {
				if _, err := os.Stat(wrong); err == nil {
					fs = append(fs, finding{Severity: sevError, File: displayPath(wrong, l.locs.Project),
						Msg: fmt.Sprintf("plugin %s keeps its hooks here, where Claude Code never looks: none of them runs", src.Plugin),
						Fix: "move it to " + shown + " (the plugin's hooks/hooks.json, beside .claude-plugin/, not inside it)"})
				}
			}
		}
	}
	data, err := settings.ReadRegular(src.Path)
	if err != nil {
		return fs
	}
	keys, err := settings.Keys(data)
	if err != nil {
		return fs // reported by load
	}
	hasHooks := slices.ContainsFunc(keys, func(k settings.Key) bool { return k.Name == "hooks" })
	if src.Scope != settings.ScopePlugin {
		var flags struct {
			DisableAllHooks       bool           `json:"disableAllHooks"`
			AllowManagedHooksOnly bool           `json:"allowManagedHooksOnly"`
			Strict                jsontext.Value `json:"strictPluginOnlyCustomization"`
		}
		_ = json.Unmarshal(data, &flags) // lenient: a wrong type is not this check's business
		for _, k := range keys {
			at := finding{File: shown, Line: k.Line, Column: k.Column}
			switch {
			case k.Name == "disableAllHooks" && flags.DisableAllHooks:
				at.Severity, at.Msg = sevWarning, "disableAllHooks is true: Claude Code runs no hooks at all"
				at.Fix = `remove "disableAllHooks" if the hooks listed are meant to run`
			case k.Name == "allowManagedHooksOnly" && flags.AllowManagedHooksOnly && src.Scope == settings.ScopeManaged:
				at.Severity, at.Msg = sevWarning, "allowManagedHooksOnly is true: only managed hooks (and those of plugins managed settings enable) run; user, project and local hooks are ignored"
				at.Fix = "ask whoever manages this machine, or register the hook in the managed settings"
			case k.Name == "allowManagedHooksOnly" && flags.AllowManagedHooksOnly:
				at.Severity, at.Msg = sevNote, "allowManagedHooksOnly has effect only in managed settings; here it is ignored"
			case k.Name == "strictPluginOnlyCustomization" && locksHooks(flags.Strict) && src.Scope == settings.ScopeManaged:
				at.Severity, at.Msg = sevWarning, "strictPluginOnlyCustomization locks hooks: Claude Code ignores the hooks of user, project and local settings; only managed hooks and plugins' hooks run"
				at.Fix = "ask whoever manages this machine, or ship the hook in a plugin"
			case k.Name == "strictPluginOnlyCustomization" && locksHooks(flags.Strict):
				at.Severity, at.Msg = sevNote, "strictPluginOnlyCustomization has effect only in managed settings; here it is ignored"
			default:
				continue
			}
			fs = append(fs, at)
		}
	}
	for _, k := range keys {
		if !protocol.Known(k.Name) {
			continue
		}
		f := finding{Severity: sevError, File: shown, Line: k.Line, Column: k.Column,
			Msg: fmt.Sprintf("event %q is at the top level of the file, outside \"hooks\": Claude Code never runs it", k.Name),
			Fix: `wrap the events in {"hooks": {...}}`}
		if src.Scope == settings.ScopePlugin && !hasHooks {
			f.Msg = fmt.Sprintf("this hooks.json has no top-level \"hooks\" wrapper (event %q is at the top level): Claude Code loads none of its hooks", k.Name)
			f.Fix = `write the file as {"hooks": {"` + k.Name + `": [...]}}`
		}
		fs = append(fs, f)
	}
	return fs
}

// checkHook checks one handler against what Claude Code reads and what the
// policy p of the settings files lets it do.
func checkHook(l *loaded, p policy, f found) []finding {
	var fs []finding
	h := f.hook.Handler
	add := func(sev, msg, fix string) {
		fs = append(fs, finding{Severity: sev, File: f.file, Line: f.hook.Line, Column: f.hook.Column, Msg: msg, Fix: fix})
	}
	for _, p := range f.hook.Problems {
		line, col, msg := splitPos(p)
		fs = append(fs, finding{Severity: sevError, File: f.file, Line: line, Column: col, Msg: msg,
			Fix: "Claude Code refuses a handler with a field of the wrong type; see the field's type in the hooks reference"})
	}
	ev := f.hook.Event
	if !protocol.Known(ev) {
		fix := fmt.Sprintf("use one of the %d events of Claude Code %s (PreToolUse, PostToolUse, Stop, ...)", len(protocol.Events), protocol.ClaudeCode)
		for _, e := range protocol.Names() {
			if strings.EqualFold(e, ev) {
				fix = fmt.Sprintf("write %q (event names are case-sensitive)", e)
			}
		}
		add(sevError, fmt.Sprintf("unknown event %q: Claude Code never fires it", ev), fix)
		return fs
	}
	typ := h.Type
	switch typ {
	case "command", "http", "mcp_tool", "prompt", "agent":
	case "":
		add(sevError, `the handler has no "type"`, `add "type": "command"`)
	default:
		add(sevError, fmt.Sprintf("unknown handler type %q", typ), `use "command", "http", "mcp_tool", "prompt" or "agent"`)
	}
	if (ev == "SessionStart" || ev == "Setup") && typ != "command" && typ != "mcp_tool" && typ != "" {
		add(sevError, fmt.Sprintf("%s does not take %s handlers (only command and mcp_tool): this one never runs", ev, typ),
			"use a command handler")
	}

	if known := handlerFields[typ]; known != nil {
		for _, k := range f.hook.Fields {
			if !slices.Contains(known, k) {
				fix := "remove it"
				for _, w := range known {
					if strings.EqualFold(w, k) {
						fix = fmt.Sprintf("write %q", w)
					}
				}
				add(sevWarning, fmt.Sprintf("field %q is not one Claude Code reads for a %s handler: it has no effect", k, typ), fix)
			}
		}
	}

	// The matcher.
	mr := checkMatcher(ev, f.hook.Matcher)
	switch {
	case mr.ignored:
		add(sevWarning, fmt.Sprintf("%s has no matcher: Claude Code ignores %q and runs the hook on every %s", ev, f.hook.Matcher, ev),
			`remove "matcher", or move the hook to an event that has one`)
	case errors.Is(mr.err, hook.ErrInvalidMatcher):
		add(sevError, fmt.Sprintf("%v: Claude Code matches nothing with it, not even the names it lists", mr.err),
			`fix the regular expression, or write a plain list such as "Edit|Write"`)
	case errors.Is(mr.err, hook.ErrUnsupportedMatcher):
		add(sevWarning, fmt.Sprintf("%v: doctor cannot tell what it matches", mr.err), "")
	case errors.Is(mr.err, hook.ErrGoRegexpSyntax):
		add(sevWarning, fmt.Sprintf("%v: Claude Code reads it as JavaScript", mr.err), "write the JavaScript form")
	case mr.err != nil:
		add(sevError, mr.err.Error(), "")
	case valuesOf(ev) != nil && !mr.all && mr.err == nil:
		field := protocol.MatcherOf(ev)
		if len(mr.values) > 0 {
			add(sevNote, fmt.Sprintf("matcher %q matches %s %s", f.hook.Matcher, field, strings.Join(mr.values, ", ")), "")
		} else {
			add(sevWarning, fmt.Sprintf("matcher %q matches none of the values of %s that Claude Code sends on %s (%s): the hook never runs",
				f.hook.Matcher, field, ev, strings.Join(valuesOf(ev), ", ")),
				fmt.Sprintf("write one of them, such as %q (values are case-sensitive)", valuesOf(ev)[0]))
		}
	case protocol.MatcherOf(ev) == "tool_name" && !mr.all:
		switch {
		case len(mr.tools) > 0:
			add(sevNote, fmt.Sprintf("matcher %q matches %s", f.hook.Matcher, strings.Join(mr.tools, ", ")), "")
		case mr.mcp:
			add(sevNote, fmt.Sprintf("matcher %q matches MCP tools only", f.hook.Matcher), "")
		default:
			add(sevWarning, fmt.Sprintf("matcher %q matches no built-in tool", f.hook.Matcher),
				`check the spelling (tool names are case-sensitive: "Bash", "Edit|Write"); an MCP tool is "mcp__server__tool", a whole server "mcp__server__.*"`)
		}
	}

	// if
	if h.If != "" {
		if _, err := hook.CompileCondition(ev, h.If); err != nil {
			fix := `write a permission rule such as "Bash(git *)" or "Edit(*.ts)"`
			if errors.Is(err, hook.ErrConditionIgnored) {
				fix = `remove "if": on this event the handler never runs with it`
			}
			add(sevError, fmt.Sprintf("if %q: %v", h.If, err), fix)
		}
	}

	// timeout
	if t := h.Timeout; slices.Contains(f.hook.Fields, "timeout") {
		switch {
		case t <= 0 && len(f.hook.Problems) == 0:
			add(sevError, fmt.Sprintf("timeout %g is not positive: Claude Code refuses the handler", t), "give a positive number of seconds, or leave timeout out (600 s)")
		case t >= 1000:
			add(sevWarning, fmt.Sprintf("timeout %g looks like milliseconds: Claude Code reads seconds, so this is %s", t, humanSeconds(t)),
				fmt.Sprintf(`write "timeout": %g for %g seconds`, t/1000, t/1000))
		}
	}

	if p.strictHooks != "" && (f.src.Scope == settings.ScopeUser || f.src.Scope == settings.ScopeProject || f.src.Scope == settings.ScopeLocal) {
		add(sevWarning, fmt.Sprintf("the managed strictPluginOnlyCustomization (%s) locks hooks: Claude Code ignores this %s hook, it never runs", p.strictHooks, f.src.Scope),
			"ship the hook in a plugin (hookctl install -plugin DIR), or ask whoever manages this machine")
	}
	if typ == settings.TypeHTTP {
		checkHTTP(p, f, add)
	}
	if h.OnFailure != "" && typ != settings.TypePrompt && typ != settings.TypeAgent {
		switch {
		case h.OnFailure != "continue" && h.OnFailure != "block" && typ == settings.TypeMCPTool:
			add(sevWarning, fmt.Sprintf("onFailure %q is neither \"continue\" nor \"block\": Claude Code reads it as \"block\"", h.OnFailure), `write "block" or "continue"`)
		case h.OnFailure != "continue" && h.OnFailure != "block":
			add(sevError, fmt.Sprintf("onFailure %q is neither \"continue\" nor \"block\"", h.OnFailure), `write "block" or "continue"`)
		default:
			h.Type = typ
			if why := onFailureIgnored(ev, h); why != "" {
				fix := `remove "onFailure"`
				if h.Async || h.AsyncRewake {
					fix = `remove "async"/"asyncRewake" if the hook must block, else remove "onFailure"`
				}
				add(sevWarning, fmt.Sprintf("onFailure %q has no effect: %s", h.OnFailure, why), fix)
			}
		}
	}
	if (typ == "command" || typ == "") && h.Args == nil && h.Shell != "powershell" {
		if w := backslashPath(h.Command); w != "" {
			add(sevWarning, fmt.Sprintf("%s in a shell command line: bash (Git Bash runs shell-form hooks on Windows) reads the backslashes as escapes and runs %s", w, bashReads(w)),
				fmt.Sprintf("write %s, quote the path, or use the exec form (\"command\" plus \"args\"), which runs no shell", strings.ReplaceAll(w, `\`, "/")))
		}
	}
	if (typ == "command" || typ == "") && h.Args == nil && h.Shell == "" && goos == "windows" {
		add(sevWarning, "a shell command line on Windows runs through Git Bash, or PowerShell when there is none: a POSIX command line may never start there",
			"write it in exec form (hookctl install ... -- PROGRAM ARGS...), which starts the program with no shell")
	}
	if typ == "command" || typ == "" {
		checkVariables(f, add)
		checkCommand(l, f, add)
	}
	return fs
}

// handlerFields are the fields Claude Code 2.1.336 reads per handler type
// (its settings schema; wire-format spec §10).
var handlerFields = map[string][]string{
	"command": {"type", "command", "args", "if", "shell", "timeout", "onFailure", "statusMessage", "once", "async",
		"asyncRewake", "holdsTools", "rewakeMessage", "rewakeSummary", "cloud"},
	"http":     {"type", "url", "if", "timeout", "onFailure", "headers", "allowedEnvVars", "statusMessage", "once", "cloud"},
	"mcp_tool": {"type", "server", "tool", "input", "if", "timeout", "onFailure", "statusMessage", "once"},
	"prompt":   {"type", "prompt", "if", "timeout", "model", "continueOnBlock", "statusMessage", "once"},
	"agent":    {"type", "prompt", "if", "timeout", "model", "statusMessage", "once"},
}

// splitPos splits a settings problem "line:col: msg".
func splitPos(p string) (line, col int, msg string) {
	if _, err := fmt.Sscanf(p, "%d:%d:", &line, &col); err != nil {
		return 0, 0, p
	}
	_, msg, _ = strings.Cut(p, ": ")
	return line, col, msg
}

var varRef = regexp.MustCompile(`\$\{([^}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// checkVariables checks the ${...} references of a command handler.
func checkVariables(f found, add func(sev, msg, fix string)) {
	h := f.hook.Handler
	plugin := f.src.Scope == settings.ScopePlugin
	for _, s := range append([]string{h.Command}, h.Args...) {
		for _, m := range varRef.FindAllStringSubmatch(s, -1) {
			name, braced := m[1], m[1] != ""
			if !braced {
				name = m[2]
			}
			switch name {
			case "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA":
				if h.Args != nil && !braced {
					add(sevError, fmt.Sprintf("%s is not substituted in exec form: the program %s is looked for literally and never starts", m[0], map[bool]string{true: "path", false: "argument"}[s == h.Command]),
						fmt.Sprintf("write ${%s}: in exec form Claude Code substitutes only the braced placeholders", name))
					continue
				}
			}
			switch name {
			case "CLAUDE_PROJECT_DIR":
				continue
			case "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA":
				if !plugin {
					add(sevError, fmt.Sprintf("%s is only set for hooks in a plugin's hooks/hooks.json, not in settings files: here it is empty", m[0]),
						"use an absolute path, or \"$CLAUDE_PROJECT_DIR\"/... for a file in the project")
				}
				continue
			}
			if looksClaude(name) {
				add(sevError, fmt.Sprintf("unknown variable %s: Claude Code sets no such variable, so it is empty", m[0]),
					fmt.Sprintf("write ${%s}", suggestVar(name, plugin)))
				continue
			}
			if h.Args != nil {
				add(sevWarning, fmt.Sprintf("%s is not expanded in exec form (no shell runs): the program gets it literally", m[0]),
					"only ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA} and ${CLAUDE_PROJECT_DIR} are substituted in args; use the shell form to expand other variables")
			}
		}
	}
}

// looksClaude reports a variable name meant as one of Claude Code's.
func looksClaude(name string) bool {
	u := strings.ToUpper(name)
	return strings.HasPrefix(u, "CLAUDE") || strings.Contains(u, "PLUGIN") || u == "PROJECT_DIR" || u == "PROJECT_ROOT"
}

func suggestVar(name string, plugin bool) string {
	u := strings.ToUpper(name)
	switch {
	case strings.Contains(u, "DATA") && plugin:
		return "CLAUDE_PLUGIN_DATA"
	case strings.Contains(u, "PLUGIN") && plugin:
		return "CLAUDE_PLUGIN_ROOT"
	}
	return "CLAUDE_PROJECT_DIR"
}

// shellWords are commands of the shell itself: nothing to look for.
var shellWords = map[string]bool{"echo": true, "printf": true, "cd": true, "exit": true, "true": true, "false": true,
	"test": true, "[": true, "if": true, "for": true, "while": true, "exec": true, "export": true, "set": true,
	"source": true, ".": true, ":": true, "case": true, "{": true, "(": true, "!": true, "read": true}

// interpreters run a script given as their first argument.
var interpreters = map[string]bool{"node": true, "python": true, "python3": true, "bash": true, "sh": true,
	"zsh": true, "ruby": true, "perl": true, "deno": true, "bun": true, "pwsh": true}

// firstCommandWords returns the words of the one simple command a shell
// command line runs, quotes removed, and false when the line is more
// shell than that (a list, a pipeline, a nested command) or has no words.
func firstCommandWords(line string) ([]string, bool) {
	script, err := shell.Parse(line, nil)
	if err != nil || script.Compound || len(script.Commands) == 0 || script.Commands[0].Nested {
		return nil, false
	}
	words := script.Commands[0].Words()
	return words, len(words) > 0
}

// checkCommand checks that the program a command handler starts exists and
// is executable (and, for an interpreter, that its script exists).
func checkCommand(l *loaded, f found, add func(sev, msg, fix string)) {
	h := f.hook.Handler
	if strings.TrimSpace(h.Command) == "" {
		add(sevError, "the command is empty", "give the program to run")
		return
	}
	var words []string
	if h.Args != nil {
		words = append([]string{h.Command}, h.Args...)
	} else {
		var ok bool
		if words, ok = firstCommandWords(h.Command); !ok || shellWords[words[0]] {
			return // too much shell to follow
		}
	}
	expand := func(s string) (string, bool) {
		s = strings.NewReplacer("${CLAUDE_PROJECT_DIR}", l.locs.Project, "${CLAUDE_PLUGIN_ROOT}", f.src.PluginRoot).Replace(s)
		if h.Args == nil { // a shell expands these too
			s = strings.NewReplacer("$CLAUDE_PROJECT_DIR", l.locs.Project, "$CLAUDE_PLUGIN_ROOT", f.src.PluginRoot).Replace(s)
			if home, err := os.UserHomeDir(); err == nil {
				if s == "~" || strings.HasPrefix(s, "~/") {
					s = home + s[1:]
				}
				s = strings.NewReplacer("${HOME}", home, "$HOME", home).Replace(s)
			}
		}
		return s, !strings.ContainsAny(s, "$`*?")
	}
	prog, ok := expand(words[0])
	if !ok {
		return
	}
	shown := func(p string) string { return displayPath(p, l.locs.Project) }
	fixPath := "use an absolute path, or \"$CLAUDE_PROJECT_DIR\"/path for a file in the project (hooks run in the project folder, but the session's folder can change)"
	if f.src.Scope == settings.ScopePlugin {
		fixPath = "write ${CLAUDE_PLUGIN_ROOT}/path for a file in the plugin"
	}
	resolved := prog
	if !strings.ContainsAny(prog, `/\`) {
		p, err := exec.LookPath(prog)
		if err != nil {
			add(sevError, fmt.Sprintf("command %q is not found in PATH", prog), "install it, or give its full path")
			return
		}
		resolved = p
	} else {
		if !filepath.IsAbs(resolved) {
			resolved = filepath.Join(l.locs.Project, resolved)
		}
		fi, err := os.Stat(resolved)
		switch {
		case err != nil:
			add(sevError, fmt.Sprintf("command %s does not exist", shown(resolved)), fixPath)
			return
		case fi.IsDir():
			add(sevError, fmt.Sprintf("command %s is a folder", shown(resolved)), "name the program inside it")
			return
		case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0: // this machine's files: Windows has no executable bit
			add(sevError, fmt.Sprintf("command %s is not executable", shown(resolved)), "chmod +x "+resolved)
			return
		}
		if !filepath.IsAbs(prog) {
			add(sevWarning, fmt.Sprintf("command %s is a relative path: it is found only while the session's folder is the project", prog), fixPath)
		}
	}
	base := strings.TrimSuffix(filepath.Base(resolved), ".exe")
	if interpreters[base] && len(words) > 1 && !strings.HasPrefix(words[1], "-") {
		script, ok := expand(words[1])
		if ok && strings.ContainsAny(script, `/\.`) {
			if !filepath.IsAbs(script) {
				script = filepath.Join(l.locs.Project, script)
			}
			if _, err := os.Stat(script); err != nil {
				add(sevError, fmt.Sprintf("%s script %s does not exist", base, shown(script)), fixPath)
			}
		}
	}
}

// checkDuplicate reports the i'th hook when the same command (same
// arguments and "if") is registered for the same event elsewhere with an
// overlapping matcher. Claude Code 2.1.332 runs such a command once for
// all the settings files together (seen live: the project and local
// settings, other matcher groups and other timeouts), but once more for
// each plugin that registers it, concurrently.
func checkDuplicate(l *loaded, i int) []finding {
	f := l.hooks[i]
	h := f.hook.Handler
	if h.Type != "command" && h.Type != "" {
		return nil
	}
	var others []string
	runners := map[string]bool{runner(f.src): true}
	for j, g := range l.hooks {
		gh := g.hook.Handler
		if j == i || g.hook.Event != f.hook.Event || gh.Command != h.Command || gh.If != h.If ||
			!slices.Equal(gh.Args, h.Args) || (gh.Args == nil) != (h.Args == nil) ||
			!overlap(f.hook.Event, f.hook.Matcher, g.hook.Matcher) {
			continue
		}
		others = append(others, fmt.Sprintf("%s:%d (%s)", g.file, g.hook.Line, scopeName(g.src)))
		runners[runner(g.src)] = true
	}
	if len(others) == 0 {
		return nil
	}
	fd := finding{Severity: sevNote, File: f.file, Line: f.hook.Line, Column: f.hook.Column,
		Msg: fmt.Sprintf("%s %q is also registered at %s: Claude Code runs it once for all settings files",
			f.hook.Event, h.String(), strings.Join(others, ", "))}
	if len(runners) > 1 {
		fd.Severity = sevWarning
		fd.Msg = fmt.Sprintf("%s %q is also registered at %s: it runs %d times, concurrently (Claude Code merges identical commands of settings files, not those of plugins)",
			f.hook.Event, h.String(), strings.Join(others, ", "), len(runners))
		fd.Fix = "keep one registration (hookctl uninstall removes the others)"
	}
	return []finding{fd}
}

// runner names what runs a hook once: all settings files together, or
// each plugin.
func runner(s settings.Source) string {
	if s.Scope == settings.ScopePlugin {
		return "plugin " + s.PluginRoot
	}
	return "settings"
}

// overlap reports whether matchers a and b of event can both fire for one
// occurrence: one of them matches everything, or a built-in tool (an MCP
// tool, a name either lists) matches both.
func overlap(event, a, b string) bool {
	ra, rb := checkMatcher(event, a), checkMatcher(event, b)
	if a == b || protocol.MatcherOf(event) == "" || ra.all || rb.all {
		return true
	}
	if ra.err != nil || rb.err != nil {
		return false
	}
	ma, _ := hook.CompileMatcher(event, a)
	mb, _ := hook.CompileMatcher(event, b)
	names := append([]string{"mcp__server__tool"}, builtinTools...)
	names = append(names, strings.FieldsFunc(a+"|"+b, func(r rune) bool { return r == '|' || r == ',' || r == ' ' })...)
	for _, n := range names {
		if ma.Match(n) && mb.Match(n) {
			return true
		}
	}
	return false
}
