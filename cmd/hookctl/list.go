package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/settings"
)

// found is one hook and the file it comes from.
type found struct {
	src  settings.Source
	file string // the file as shown: relative to the project when inside it
	hook settings.Hook
	// trust is a Codex hook's trust state (trustTrusted, …), "" where
	// Codex does not check one (-agent claude or copilot, a hook Codex
	// does not run).
	trust string
}

// loaded is what the sources hold: the hooks, and the files that could not
// be read (each error names its file, line and column).
type loaded struct {
	locs    settings.Locations
	sources []settings.Source
	hooks   []found
	errs    []error
	// codex holds the findings about Codex's files as a whole (set by
	// loadCodex).
	codex []finding
	// copilot holds doctor's findings about Copilot's hooks files (set
	// by loadCopilot).
	copilot []finding
}

// sources are the flags of list and doctor that say whose hooks to read:
// -project, -plugin and -agent.
type sources struct {
	project *string
	plugins multiFlag
	agent   *string
}

// sourceFlags adds -project, -plugin and -agent to fl.
func sourceFlags(fl *flag.FlagSet) *sources {
	s := &sources{project: fl.String("project", "", "the project `DIR` (default: the current folder)")}
	fl.Var(&s.plugins, "plugin", "a plugin `DIR` loaded as claude --plugin-dir loads it (repeatable)")
	s.agent = agentFlag(fl)
	return s
}

// parseAndLoad parses args for the command name, which takes flags only,
// and loads the hooks its sources name.
func (s *sources) parseAndLoad(fl *flag.FlagSet, name string, args []string, stderr io.Writer) (*loaded, error) {
	if err := parseFlags(fl, args); err != nil {
		return nil, err
	}
	if fl.NArg() > 0 {
		return nil, usageErr(stderr, name, "unexpected argument %q", fl.Arg(0))
	}
	return loadFor(stderr, name, *s.agent, *s.project, s.plugins)
}

// load reads the hooks of every source of the project.
func load(project string, pluginDirs []string) (*loaded, error) {
	locs, err := settings.DefaultLocations(project)
	if err != nil {
		return nil, err
	}
	locs.PluginDirs = pluginDirs
	if d, ok := os.LookupEnv("HOOKCTL_MANAGED_DIR"); ok {
		locs.ManagedDir = d
	}
	l := &loaded{locs: locs}
	var serr error
	l.sources, serr = locs.Sources()
	if serr != nil {
		l.errs = append(l.errs, serr)
	}
	for _, src := range l.sources {
		hs, err := settings.ReadFile(src.Path)
		shown := displayPath(src.Path, locs.Project)
		if err != nil {
			l.errs = append(l.errs, withFile(err, shown))
			continue
		}
		for _, h := range hs {
			l.hooks = append(l.hooks, found{src: src, file: shown, hook: h})
		}
	}
	return l, nil
}

// loadFor loads the hooks of the agent a (-agent) for list and doctor.
func loadFor(stderr io.Writer, name, a, project string, plugins []string) (*loaded, error) {
	if err := checkAgent(stderr, name, a); err != nil {
		return nil, err
	}
	if a == agentCodex {
		if len(plugins) > 0 {
			return nil, usageErr(stderr, name, "-plugin is for Claude Code plugins, not -agent codex")
		}
		return loadCodex(project)
	}
	if a == agentCopilot {
		if len(plugins) > 0 {
			return nil, usageErr(stderr, name, "-plugin is for Claude Code plugins, not -agent copilot")
		}
		return loadCopilot(project)
	}
	return load(project, plugins)
}

// scopeName names where a hook comes from: the scope, or "plugin NAME".
func scopeName(s settings.Source) string {
	if s.Scope == settings.ScopePlugin {
		return "plugin " + s.Plugin
	}
	return s.Scope
}

// listed is one hook in the output of list -json.
type listed struct {
	Scope         string   `json:"scope"`
	Plugin        string   `json:"plugin,omitempty"`
	File          string   `json:"file"`
	Line          int      `json:"line"`
	Column        int      `json:"column"`
	Event         string   `json:"event"`
	Matcher       string   `json:"matcher"`
	Type          string   `json:"type"`
	Command       string   `json:"command,omitempty"`
	Args          []string `json:"args,omitempty"`
	If            string   `json:"if,omitempty"`
	Shell         string   `json:"shell,omitempty"`
	Timeout       float64  `json:"timeout,omitzero"`
	OnFailure     string   `json:"onFailure,omitempty"`
	StatusMessage string   `json:"statusMessage,omitempty"`
	Async         bool     `json:"async,omitzero"`
	AsyncRewake   bool     `json:"asyncRewake,omitzero"`
	URL           string   `json:"url,omitempty"`
	// Headers keeps the file's order of the http handler's headers.
	Headers         jsontext.Value `json:"headers,omitempty"`
	AllowedEnvVars  []string       `json:"allowedEnvVars,omitempty"`
	Server          string         `json:"server,omitempty"`
	Tool            string         `json:"tool,omitempty"`
	Input           jsontext.Value `json:"input,omitempty"`
	Prompt          string         `json:"prompt,omitempty"`
	Model           string         `json:"model,omitempty"`
	ContinueOnBlock bool           `json:"continueOnBlock,omitzero"`
	// Trust is a Codex hook's trust state: "trusted", "untrusted",
	// "changed", "disabled", "project-untrusted" or "unchecked".
	Trust string `json:"trust,omitempty"`
}

// headersJSON writes headers as a JSON object in their order, nil when
// there are none.
func headersJSON(hs []settings.Header) jsontext.Value {
	if hs == nil {
		return nil
	}
	var b []byte
	b = append(b, '{')
	for i, h := range hs {
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, h.Name)
		b = append(b, ':')
		b, _ = jsontext.AppendQuote(b, h.Value)
	}
	return append(b, '}')
}

func cmdList(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("list", stderr)
	asJSON := fl.Bool("json", false, "print a JSON array")
	src := sourceFlags(fl)
	l, err := src.parseAndLoad(fl, "list", args, stderr)
	if err != nil {
		return err
	}
	for _, e := range l.errs {
		fmt.Fprintf(stderr, "hookctl: %v\n", e)
	}
	if *asJSON {
		out := make([]listed, 0, len(l.hooks))
		for _, f := range l.hooks {
			h := f.hook.Handler
			typ := h.Type
			if typ == "" {
				typ = "command"
			}
			out = append(out, listed{Scope: f.src.Scope, Plugin: f.src.Plugin, File: f.file, Line: f.hook.Line,
				Column: f.hook.Column, Event: f.hook.Event, Matcher: f.hook.Matcher, Type: typ,
				Command: h.Command, Args: h.Args, If: h.If, Shell: h.Shell, Timeout: h.Timeout,
				OnFailure: h.OnFailure, StatusMessage: h.StatusMessage, Async: h.Async, AsyncRewake: h.AsyncRewake,
				URL: h.URL, Headers: headersJSON(h.Headers), AllowedEnvVars: h.AllowedEnvVars, Server: h.Server,
				Tool: h.Tool, Input: h.Input, Prompt: h.Prompt, Model: h.Model, ContinueOnBlock: h.ContinueOnBlock,
				Trust: f.trust})
		}
		b, err := json.Marshal(out)
		if err == nil {
			v := jsontext.Value(b)
			if err = v.Indent(); err == nil {
				_, err = fmt.Fprintf(stdout, "%s\n", v)
			}
		}
		if err != nil {
			return err
		}
	} else {
		// Codex hooks have a trust state, shown before the handler.
		codex := *src.agent == agentCodex
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		if codex {
			fmt.Fprintln(tw, "SCOPE\tFILE:LINE\tEVENT\tMATCHER\tTRUST\tHANDLER")
		} else {
			fmt.Fprintln(tw, "SCOPE\tFILE:LINE\tEVENT\tMATCHER\tHANDLER")
		}
		for _, f := range l.hooks {
			m := f.hook.Matcher
			if m == "" {
				m = "*"
			}
			trust := ""
			if codex {
				trust = f.trust
				if trust == "" {
					trust = "-"
				}
				trust += "\t"
			}
			fmt.Fprintf(tw, "%s\t%s:%d\t%s\t%s\t%s%s%s\n", scopeName(f.src), f.file, f.hook.Line,
				f.hook.Event, m, trust, f.hook.Handler.String(), options(f.hook.Handler))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(l.hooks) == 0 {
			fmt.Fprintf(stderr, "hookctl: no hooks in %s\n", strings.Join(shownSources(l), ", "))
		}
	}
	if len(l.errs) > 0 {
		return errFindings
	}
	return nil
}

// options describes the options of a handler that list shows.
func options(h settings.Handler) string {
	var o []string
	if h.If != "" {
		o = append(o, "if "+h.If)
	}
	if h.Timeout != 0 {
		o = append(o, fmt.Sprintf("timeout %gs", h.Timeout))
	}
	if h.Async {
		o = append(o, "async")
	}
	if h.AsyncRewake {
		o = append(o, "asyncRewake")
	}
	if h.OnFailure != "" {
		o = append(o, "onFailure "+h.OnFailure)
	}
	if h.Model != "" {
		o = append(o, "model "+h.Model)
	}
	if len(h.Headers) > 0 {
		var names []string
		for _, hd := range h.Headers {
			names = append(names, hd.Name)
		}
		o = append(o, "headers "+strings.Join(names, " "))
	}
	if len(o) == 0 {
		return ""
	}
	return "  (" + strings.Join(o, ", ") + ")"
}

// shownSources lists the files read, as shown.
func shownSources(l *loaded) []string {
	var s []string
	for _, src := range l.sources {
		s = append(s, displayPath(src.Path, l.locs.Project))
	}
	return s
}

// errFindings makes hookctl exit 1 after it printed why.
var errFindings = errors.New("findings")
