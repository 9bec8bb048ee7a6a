package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/settings"
)

// listSetting is an allow list that merges across settings sources, as
// allowedHttpHookUrls and httpHookAllowedEnvVars do.
type listSetting struct {
	set     bool     // some source sets it
	managed bool     // the managed settings set it
	values  []string // the union of the sources' lists
	where   []string // file:line of each source that sets it
}

// appliesTo reports whether the list restricts the hooks of src: where
// the managed settings do not set it, a list in another file does not
// apply to the hooks the managed settings define.
func (l *listSetting) appliesTo(src settings.Source) bool {
	if !l.set {
		return false
	}
	return src.Scope != settings.ScopeManaged || l.managed
}

// at names where the list is set.
func (l *listSetting) at() string { return strings.Join(l.where, ", ") }

// policy is what the settings files say about which hooks run and how.
type policy struct {
	httpURLs, httpEnvVars listSetting
	// strictHooks is where the managed settings' strictPluginOnlyCustomization
	// locks the hooks surface, "" when they do not.
	strictHooks string
}

// readPolicy reads the settings that restrict hooks from every settings
// file of l (not from plugins' hooks.json, which hold only hooks).
func readPolicy(l *loaded) policy {
	var p policy
	for _, src := range l.sources {
		if src.Scope == settings.ScopePlugin {
			continue
		}
		data, err := settings.ReadRegular(src.Path)
		if err != nil {
			continue
		}
		keys, err := settings.Keys(data)
		if err != nil {
			continue // reported by load
		}
		var vals struct {
			URLs   jsontext.Value `json:"allowedHttpHookUrls"`
			Env    jsontext.Value `json:"httpHookAllowedEnvVars"`
			Strict jsontext.Value `json:"strictPluginOnlyCustomization"`
		}
		_ = json.Unmarshal(data, &vals) // lenient: a wrong type is not this check's business
		shown := displayPath(src.Path, l.locs.Project)
		for _, k := range keys {
			where := fmt.Sprintf("%s:%d", shown, k.Line)
			switch k.Name {
			case "allowedHttpHookUrls":
				p.httpURLs.add(vals.URLs, where, src.Scope == settings.ScopeManaged)
			case "httpHookAllowedEnvVars":
				p.httpEnvVars.add(vals.Env, where, src.Scope == settings.ScopeManaged)
			case "strictPluginOnlyCustomization":
				if src.Scope == settings.ScopeManaged && locksHooks(vals.Strict) && p.strictHooks == "" {
					p.strictHooks = where
				}
			}
		}
	}
	return p
}

// add merges a source's list into l; a value that is not an array of
// strings is left out.
func (l *listSetting) add(v jsontext.Value, where string, managed bool) {
	var list []string
	if err := json.Unmarshal(v, &list); err != nil || list == nil {
		return
	}
	l.set = true
	l.managed = l.managed || managed
	l.where = append(l.where, where)
	for _, s := range list {
		if !slices.Contains(l.values, s) {
			l.values = append(l.values, s)
		}
	}
}

// locksHooks reports whether a strictPluginOnlyCustomization value locks
// the hooks surface: true, or an array that lists "hooks".
func locksHooks(v jsontext.Value) bool {
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return b
	}
	var list []string
	return json.Unmarshal(v, &list) == nil && slices.Contains(list, "hooks")
}

// urlMatches reports whether url matches an allowedHttpHookUrls pattern
// as Claude Code matches it: the whole URL, each * standing for any run of
// characters (none included), every other character for itself.
func urlMatches(url, pattern string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return url == pattern
	}
	if !strings.HasPrefix(url, parts[0]) {
		return false
	}
	rest := url[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return len(rest) >= len(last) && strings.HasSuffix(rest, last)
}

// checkHTTP checks an http handler against the policy: a URL the allow
// list blocks, and header variables that go out empty.
func checkHTTP(p policy, f found, add func(sev, msg, fix string)) {
	h := f.hook.Handler
	if p.httpURLs.appliesTo(f.src) && !slices.ContainsFunc(p.httpURLs.values, func(pat string) bool { return urlMatches(h.URL, pat) }) {
		msg := fmt.Sprintf("url %q matches no pattern of allowedHttpHookUrls (%s): Claude Code blocks the request, so the hook never runs", h.URL, p.httpURLs.at())
		if len(p.httpURLs.values) == 0 {
			msg = fmt.Sprintf("allowedHttpHookUrls is empty (%s): Claude Code allows no http hook, so this one never runs", p.httpURLs.at())
		}
		add(sevError, msg, fmt.Sprintf(`add a pattern that matches it to allowedHttpHookUrls (* stands for any text: %q)`, urlPattern(h.URL)))
	}
	for _, hd := range h.Headers {
		for _, v := range headerVars(hd.Value) {
			switch {
			case !slices.Contains(h.AllowedEnvVars, v):
				add(sevError, fmt.Sprintf("header %s references $%s, which the handler's allowedEnvVars does not list: Claude Code sends it empty", hd.Name, v),
					fmt.Sprintf(`add "allowedEnvVars": [%q] to the handler`, v))
			case v == "ANTHROPIC_API_KEY":
				add(sevError, fmt.Sprintf("header %s references $%s, which Claude Code never fills in, even when allowed: it goes out empty", hd.Name, v),
					"give the server its own token in another variable")
			case p.httpEnvVars.appliesTo(f.src) && !slices.Contains(p.httpEnvVars.values, v):
				add(sevError, fmt.Sprintf("header %s references $%s, which httpHookAllowedEnvVars (%s) does not list: Claude Code sends it empty", hd.Name, v, p.httpEnvVars.at()),
					fmt.Sprintf("add %q to httpHookAllowedEnvVars (or ask whoever manages it)", v))
			}
		}
	}
}

// urlPattern suggests an allowedHttpHookUrls pattern for url: its scheme,
// host and port, then *.
func urlPattern(url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		if j := strings.IndexByte(url[i+3:], '/'); j >= 0 {
			return url[:i+3+j] + "/*"
		}
		return url + "/*"
	}
	return url
}

// bashReads returns word as bash reads it unquoted: a backslash takes the
// next character for itself.
func bashReads(word string) string {
	var b strings.Builder
	for i := 0; i < len(word); i++ {
		if word[i] == '\\' && i+1 < len(word) {
			i++
		}
		b.WriteByte(word[i])
	}
	return b.String()
}
