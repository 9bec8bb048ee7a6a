package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/settings"
)

// loadCodex reads the hooks Codex would load for the project: the
// hooks.json and config.toml of the user's layer ($CODEX_HOME, else
// ~/.codex) and of the project's .codex/. What is wrong with a file as a
// whole goes into l.errs (list prints it) and l.codex (doctor's
// findings).
func loadCodex(project string) (*loaded, error) {
	locs, err := settings.DefaultLocations(project)
	if err != nil {
		return nil, err
	}
	layers, err := codexLayers(locs.Project)
	if err != nil {
		return nil, err
	}
	l := &loaded{locs: locs}
	var trusted []string
	// Codex reads the trust of every hook from the user's config.toml.
	states, unread, err := readUserStates(layers[0].Dir)
	if err != nil {
		l.errs = append(l.errs, err)
	}
	if unread > 0 {
		l.codex = append(l.codex, finding{Severity: sevWarning, File: displayPath(layers[0].configTOML(), locs.Project), Line: unread, Column: 1,
			Msg: "hook state is written here as an inline table or a dotted key, which hookctl does not read: the trust of the hooks is not checked",
			Fix: "write each hook's state as a [hooks.state.\"KEY\"] table (as codex does when you trust a hook with /hooks)"})
		states = nil
	}
	for _, ly := range layers {
		projectUntrusted := ly.Scope == settings.ScopeProject &&
			!slices.ContainsFunc(trusted, func(d string) bool { return samePlace(d, locs.Project) })
		// checkTrust reports each of hooks that Codex will not run for
		// its trust, and gives its entry in l.hooks (at returns its index,
		// -1 for none) the trust state list shows.
		checkTrust := func(file, source string, hooks []agent.CodexHook, at func(agent.CodexHook) int) {
			for _, h := range hooks {
				i := at(h)
				f := finding{File: file}
				if i >= 0 {
					f.Line, f.Column = l.hooks[i].hook.Line, l.hooks[i].hook.Column
				}
				state := trustUnchecked
				switch hash, err := h.Hash(); {
				case projectUntrusted:
					state = trustProjectUntrusted
				case states == nil:
				case err != nil:
					f.Severity, f.Msg, f.Fix = sevError, fmt.Sprintf("Codex cannot hash this hook to check its trust: %v", err), "use smaller numbers"
					l.codex = append(l.codex, f)
				default:
					state, _ = trustState(states, h.Key(source), hash)
					if msg, fix := trustOf(states, h.Key(source), hash); msg != "" {
						f.Severity, f.Msg, f.Fix = sevError, msg, fix
						l.codex = append(l.codex, f)
					}
				}
				if i >= 0 {
					l.hooks[i].trust = state
				}
			}
		}
		jsonSrc := settings.Source{Scope: ly.Scope, Path: ly.hooksJSON()}
		tomlSrc := settings.Source{Scope: ly.Scope, Path: ly.configTOML()}
		l.sources = append(l.sources, jsonSrc, tomlSrc)
		nJSON, nTOML := 0, 0

		shown := displayPath(jsonSrc.Path, locs.Project)
		if data, err := settings.ReadRegular(jsonSrc.Path); err == nil {
			hs, perr := settings.Parse(data)
			switch {
			case perr != nil:
				l.errs = append(l.errs, withFile(perr, shown))
			case agent.CheckCodexHooksFile(data) != nil:
				err := agent.CheckCodexHooksFile(data)
				l.errs = append(l.errs, fmt.Errorf("%s: %w", shown, err))
				l.codex = append(l.codex, finding{Severity: sevError, File: shown,
					Msg: fmt.Sprintf("Codex refuses the whole file, so none of its hooks runs: %v", err),
					Fix: "fix the member named; hookctl install -agent codex writes only what Codex reads"})
			}
			base := len(l.hooks)
			for _, h := range hs {
				l.hooks = append(l.hooks, found{src: jsonSrc, file: shown, hook: h})
			}
			nJSON = len(hs)
			if perr == nil {
				if ch, err := agent.CodexHooksOf(data); err == nil {
					checkTrust(shown, codexSource(ly.Dir, "hooks.json"), ch, func(c agent.CodexHook) int {
						if i := slices.IndexFunc(hs, func(h settings.Hook) bool {
							return h.Event == c.Event && h.Group == c.Group && h.Index == c.Index
						}); i >= 0 {
							return base + i
						}
						return -1
					})
				}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			l.errs = append(l.errs, err)
		}

		shown = displayPath(tomlSrc.Path, locs.Project)
		if data, err := settings.ReadRegular(tomlSrc.Path); err == nil {
			t := readCodexTOML(data)
			base := len(l.hooks)
			for _, h := range t.Hooks {
				l.hooks = append(l.hooks, found{src: tomlSrc, file: shown, hook: h})
			}
			nTOML = len(t.Hooks)
			var ch []agent.CodexHook
			for i, c := range t.Codex {
				h := t.Hooks[i]
				m := ""
				if c.Matcher != nil {
					m = *c.Matcher
				}
				if (h.Handler.Type == settings.TypeCommand || h.Handler.Type == "") && strings.TrimSpace(c.Handler.Command) != "" &&
					(!agent.CodexMatcherUsed(h.Event) || agent.CodexMatcherValid(m)) {
					ch = append(ch, c)
				}
			}
			checkTrust(shown, codexSource(ly.Dir, "config.toml"), ch, func(c agent.CodexHook) int {
				for i, o := range t.Codex {
					if o.Event == c.Event && o.Group == c.Group && o.Index == c.Index {
						return base + i
					}
				}
				return -1
			})
			for _, p := range t.Problems {
				l.errs = append(l.errs, fmt.Errorf("%s:%d: %s", shown, p.Line, p.Msg))
				l.codex = append(l.codex, finding{Severity: sevWarning, File: shown, Line: p.Line, Column: 1, Msg: p.Msg,
					Fix: "write the hook as [[hooks.EVENT]] and [[hooks.EVENT.hooks]] tables, or move it to hooks.json (hookctl install -agent codex), so that hookctl can check it"})
			}
			if t.HooksOff > 0 {
				l.codex = append(l.codex, finding{Severity: sevWarning, File: shown, Line: t.HooksOff, Column: 1,
					Msg: "[features] turns hooks off: Codex runs none of the hooks of any layer",
					Fix: "remove the line, or set it to true"})
			}
			if ly.Scope == settings.ScopeUser {
				trusted = t.Trusted
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			l.errs = append(l.errs, err)
		}

		if nJSON > 0 && nTOML > 0 {
			l.codex = append(l.codex, finding{Severity: sevWarning, File: displayPath(ly.Dir, locs.Project),
				Msg: "this layer has hooks in both hooks.json and config.toml: Codex runs both and warns at every start",
				Fix: "keep the hooks of one layer in one file"})
		}
		if projectUntrusted && nJSON+nTOML > 0 {
			l.codex = append(l.codex, finding{Severity: sevNote, File: displayPath(ly.Dir, locs.Project),
				Msg: fmt.Sprintf("Codex loads a project's .codex/ hooks only when the project is trusted, and the user config.toml has no [projects.%q] with trust_level = \"trusted\"", locs.Project),
				Fix: "trust the project when codex asks, or add that table to the user config.toml"})
		}
	}
	return l, nil
}

// samePlace reports whether two paths name the same folder.
func samePlace(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// diagnoseCodex checks the files and hooks l (from loadCodex) holds
// against what Codex loads and runs.
func diagnoseCodex(l *loaded) []finding {
	fs := slices.Clone(l.codex)
	for _, err := range l.errs {
		var se *settings.SyntaxError
		if errors.As(err, &se) {
			fs = append(fs, finding{Severity: sevError, File: se.Path, Line: se.Line, Column: se.Column, Msg: se.Msg,
				Fix: "Codex reads this file with a JSON parser and loads none of it when it cannot: make it valid JSON"})
		}
	}
	for _, f := range l.hooks {
		h := f.hook.Handler
		add := func(sev, msg, fix string) {
			fs = append(fs, finding{Severity: sev, File: f.file, Line: f.hook.Line, Column: f.hook.Column, Msg: msg, Fix: fix})
		}
		ev := f.hook.Event
		switch sent, _ := agent.CodexEvents(ev); {
		case !agent.CodexConfigEvent(ev):
			add(sevError, fmt.Sprintf("Codex %s has no event %q: the hook never runs", agent.CodexVersion, ev),
				"use one of "+fmt.Sprint(codexEventNames()))
		case !sent:
			add(sevNote, fmt.Sprintf("Codex %s runs %s hooks (before and after each request to the model), an event of its own: the library serves no such event, and hookctl checks nothing of what Codex reads back", agent.CodexVersion, ev), "")
		}
		if m := f.hook.Matcher; m != "" && m != "*" {
			if _, err := regexp.Compile(m); err != nil {
				add(sevError, fmt.Sprintf("matcher %q is not a regular expression: Codex skips its whole group", m), "fix the matcher")
			}
		}
		switch h.Type {
		case settings.TypeCommand, "":
		case settings.TypePrompt, settings.TypeAgent:
			add(sevWarning, fmt.Sprintf("Codex reads %s handlers but does not run them", h.Type), "use a command handler")
			continue
		default:
			add(sevError, fmt.Sprintf("Codex has no %q handler type", h.Type), "use a command handler")
			continue
		}
		if h.Async {
			if agent.CodexBlocksOnExit2(ev) {
				add(sevWarning, "async: Codex runs it without waiting for it, so it cannot block or decide anything: Codex ignores its decisions and keeps only its additionalContext (for the next request to the model) and systemMessage",
					"remove async if the hook is to guard "+ev)
			} else {
				add(sevNote, "async: Codex runs it without waiting for it and keeps only its additionalContext (for the next request to the model) and systemMessage", "")
			}
		}
		for _, field := range f.hook.Fields {
			switch field {
			case "args", "if", "shell", "onFailure", "asyncRewake":
				add(sevWarning, fmt.Sprintf("Codex ignores %q (it is Claude Code's)", field), "remove it; see hookctl install -agent codex")
			case "timeoutSec", "timeout_sec":
				add(sevWarning, fmt.Sprintf("Codex ignores %q: it reads the timeout from \"timeout\" only", field), "rename it timeout")
			case "status_message":
				add(sevWarning, "Codex ignores \"status_message\": it reads \"statusMessage\" only", "rename it statusMessage")
			}
		}
		if words, ok := firstCommandWords(h.Command); ok && filepath.IsAbs(words[0]) {
			if _, err := os.Stat(words[0]); err != nil {
				add(sevError, fmt.Sprintf("%s does not exist: the hook fails every time", words[0]), "build or install it there, or fix the path")
			}
		}
	}
	return fs
}
