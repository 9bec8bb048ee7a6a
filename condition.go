package hook

import (
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/gohooks/hook/internal/shell"
	"github.com/gohooks/hook/internal/wire"
)

// Condition is a compiled "if" field of a hook handler: a permission rule
// such as "Bash(git *)", "Edit(*.ts)" or "Task" that narrows which tool
// calls run the handler, read as Claude Code 2.1.336 reads it. Build one
// with [CompileCondition]. The zero Condition (no "if") matches every
// event.
//
// Claude Code evaluates "if" only on PreToolUse, PostToolUse,
// PostToolUseFailure, PermissionRequest, PermissionDenied and
// PreSkillShellCommand; on any other event a handler with an "if" never
// runs.
//
// The rule's tool name is compared exactly with the call's tool name after
// legacy names are mapped ("Task" matches Agent calls). A rule without
// parentheses, or with "()" or "(*)", matches every call of the tool. A
// rule with content is matched by the tool's own pattern matcher, and only
// these tools have one:
//   - Bash, Monitor and PowerShell: the content is a wildcard pattern
//     ("git *", "npm run test:*" in the legacy prefix form) tested against
//     every simple command of the command line (split on ; && || | & and
//     newlines, quotes removed, comments, leading assignments and
//     redirections dropped); one matching command is enough. A line with
//     command substitution, subshells, groups, control flow (if, for,
//     while, case, [[ ]], (( ))) or here-documents matches, as the client
//     does for what it cannot split. PowerShell compares without case.
//   - Read, Write, Edit and NotebookEdit: the content is a gitignore-style
//     pattern for the file ("*.ts", "src/**", "//etc/passwd" for an
//     absolute path, "~/x" under $HOME), relative to the session's cwd;
//     a pattern that starts with "*" or has no "*" is also tried as a
//     wildcard against the whole path.
//   - Glob and Grep: a wildcard pattern against the "pattern" argument.
//
// Content on any other tool (WebFetch(domain:…), MCP tools) never matches.
// The client's shell parser is more thorough than the splitter here; for
// ordinary command lines they agree.
type Condition struct {
	event   string
	source  string
	never   bool
	tool    string // current name; "" for the zero Condition
	content string // unescaped rule content; "" for none
	prefix  string // the legacy "prefix:*" form's prefix, or ""
	legacy  bool
}

// The kinds of error [CompileCondition] returns; test with errors.Is.
var (
	// ErrConditionIgnored: the event does not evaluate "if", so Claude
	// Code never runs a handler that has one.
	ErrConditionIgnored = errors.New(`"if" never runs on this event`)
	// ErrInvalidCondition: the rule is malformed, or has content for a
	// tool that takes none, so it never matches.
	ErrInvalidCondition = errors.New(`invalid "if" condition`)
)

// conditionEvent reports whether event evaluates "if".
func conditionEvent(event string) bool {
	switch event {
	case EventPreToolUse, EventPostToolUse, EventPostToolUseFailure,
		EventPermissionRequest, EventPermissionDenied, EventPreSkillShellCommand:
		return true
	}
	return false
}

// CompileCondition compiles the "if" field cond of a handler of event. It
// always returns a usable Condition; when the error is non-nil (see
// [ErrConditionIgnored], [ErrInvalidCondition]) the Condition never
// matches, as in the client. An empty cond is no condition.
func CompileCondition(event, cond string) (Condition, error) {
	c := Condition{event: event, source: cond}
	if cond == "" {
		return c, nil
	}
	if !conditionEvent(event) {
		c.never = true
		return c, fmt.Errorf("hook: %s handler with \"if\" %q: %w (only tool events evaluate it)", event, cond, ErrConditionIgnored)
	}
	tool, content, ok := parseRule(cond)
	if !ok {
		c.never = true
		return c, fmt.Errorf("hook: \"if\" %q: %w: parentheses must close at the end", cond, ErrInvalidCondition)
	}
	c.tool = currentToolName(tool)
	if content != "" {
		switch c.tool {
		case ToolBash, ToolMonitor, ToolPowerShell, ToolRead, ToolWrite, ToolEdit, ToolNotebookEdit, ToolGlob, ToolGrep:
		default:
			c.never = true
			return c, fmt.Errorf("hook: \"if\" %q: %w: %s takes no pattern in a rule, so this never matches (write %q)", cond, ErrInvalidCondition, tool, tool)
		}
		c.content = content
		if p, ok := strings.CutSuffix(content, ":*"); ok && p != "" {
			c.prefix, c.legacy = p, true
		}
	}
	return c, nil
}

// parseRule splits "Tool(content)" as the client does: a bare name has no
// content; "()" and "(*)" are no content; \( \) and \\ are unescaped.
func parseRule(rule string) (tool, content string, ok bool) {
	if !strings.ContainsAny(rule, "()") {
		return rule, "", true
	}
	open, closing := unescapedIndex(rule, '(', false), unescapedIndex(rule, ')', true)
	if open < 0 && closing < 0 {
		return rule, "", true
	}
	if open < 0 || closing <= open || closing != len(rule)-1 || strings.ContainsAny(rule[:open], "()") || open == 0 {
		return "", "", false
	}
	raw := rule[open+1 : closing]
	if raw == "" || raw == "*" {
		return rule[:open], "", true
	}
	raw = strings.ReplaceAll(strings.ReplaceAll(raw, `\(`, "("), `\)`, ")")
	return rule[:open], strings.ReplaceAll(raw, `\\`, `\`), true
}

// unescapedIndex finds the first (or last) c not preceded by an odd
// number of backslashes.
func unescapedIndex(s string, c byte, last bool) int {
	found := -1
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			continue
		}
		n := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			if !last {
				return i
			}
			found = i
		}
	}
	return found
}

// String returns the condition as given.
func (c Condition) String() string { return c.source }

// MatchEvent reports whether a handler with this condition runs for ev.
func (c Condition) MatchEvent(ev *Event) bool {
	if c.tool == "" && !c.never {
		return true
	}
	if c.never || ev.HookEventName != c.event && c.event != "" {
		return false
	}
	name, _ := matcherValue(ev)
	if name == "" {
		return false
	}
	if !strings.HasPrefix(name, "mcp__") {
		name = currentToolName(name)
	}
	names := append([]string{name}, toolFamilies(name, ev)...)
	hit := false
	for _, n := range names {
		if n == c.tool {
			hit = true
		}
	}
	if !hit {
		return false
	}
	if c.content == "" {
		return true
	}
	in, _ := ev.Field("tool_input")
	field := func(name string) (string, bool) {
		var v map[string]any
		if wire.Unmarshal(in, &v) != nil {
			return "", false
		}
		s, ok := v[name].(string)
		return s, ok
	}
	switch c.tool {
	case ToolBash, ToolMonitor, ToolPowerShell:
		cmd, ok := field("command")
		if !ok || cmd == "" {
			return c.tool != ToolMonitor && ok
		}
		return c.matchCommand(cmd, c.tool == ToolPowerShell)
	case ToolRead, ToolWrite, ToolEdit:
		p, ok := field("file_path")
		return ok && c.matchPath(p, ev.Cwd)
	case ToolNotebookEdit:
		p, ok := field("notebook_path")
		return ok && c.matchPath(p, ev.Cwd)
	case ToolGlob, ToolGrep:
		p, ok := field("pattern")
		return ok && wildcardMatch(c.content, p, false, false)
	}
	return false
}

// matchCommand tests the rule against every simple command of cmd.
func (c Condition) matchCommand(cmd string, fold bool) bool {
	cmds, ok := simpleCommands(cmd)
	if !ok {
		return true
	}
	for _, q := range cmds {
		if c.legacy {
			y, q := c.prefix, q
			if fold {
				y, q = strings.ToLower(y), strings.ToLower(q)
			}
			if q == y || strings.HasPrefix(q, y+" ") || q == "xargs "+y || strings.HasPrefix(q, "xargs "+y+" ") {
				return true
			}
			continue
		}
		if wildcardMatch(c.content, q, fold, true) || wildcardMatch("xargs "+c.content, q, fold, true) {
			return true
		}
	}
	return false
}

// matchPath tests a file rule against file path p.
func (c Condition) matchPath(p, cwd string) bool {
	pat := c.content
	root := cwd
	switch {
	case strings.HasPrefix(pat, "//"):
		root, pat = "/", pat[1:]
	case strings.HasPrefix(pat, "~/"):
		root, pat = os.Getenv("HOME"), pat[1:]
	}
	if root != "" && path.IsAbs(p) {
		rel := relPath(root, p)
		if rel != "" && gitignoreMatch(pat, rel) {
			return true
		}
	}
	t := strings.TrimSpace(c.content)
	if strings.HasPrefix(t, "*") || !hasUnescapedStar(t) && !strings.HasSuffix(t, ":*") {
		return wildcardMatch(c.content, p, false, false)
	}
	return false
}

// relPath returns p relative to root when it lies inside it, else "".
func relPath(root, p string) string {
	root, p = path.Clean(root), path.Clean(p)
	if root == "/" {
		return strings.TrimPrefix(p, "/")
	}
	if rest, ok := strings.CutPrefix(p, root+"/"); ok {
		return rest
	}
	return ""
}

func hasUnescapedStar(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			n := 0
			for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				return true
			}
		}
	}
	return false
}

// normalizeBlanks replaces each tab and each run of two or more blanks
// (spaces and tabs) with one space, as the client's /[ \t]{2,}|\t/g does:
// every run of blanks becomes one space.
func normalizeBlanks(s string) string {
	if !strings.Contains(s, "\t") && !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != ' ' && s[i] != '\t' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		b.WriteByte(' ') // every run of blanks, and a lone tab, is one space
		i = j
	}
	return b.String()
}

// wildcardMatch is the client's permission wildcard: the whole value must
// match; '*' matches any run of characters; `\*` is a literal star and
// `\\` a backslash; "/**/" also matches a single "/"; a pattern ending in
// " *" with no other star also matches the bare prefix ("git *" matches
// "git"). normWS turns tabs and runs of blanks into one space first.
func wildcardMatch(pattern, value string, fold, normWS bool) bool {
	if strings.IndexByte(value, 0) >= 0 {
		return false
	}
	pat := strings.TrimSpace(pattern)
	if normWS {
		pat = normalizeBlanks(pat)
		value = normalizeBlanks(value)
	}
	if fold {
		pat, value = strings.ToLower(pat), strings.ToLower(value)
	}
	// Split into literal chunks at unescaped stars, and the pieces around
	// "/**/".
	type chunk struct {
		text    string
		overlap int
	}
	var chunks []chunk
	pieces := splitGlobstar(pat)
	for l, piece := range pieces {
		if l > 0 {
			piece = "/" + piece
		}
		if l < len(pieces)-1 {
			piece += "/"
		}
		for j, part := range splitStars(piece) {
			ov := 0
			if l > 0 && j == 0 {
				ov = 1
			}
			chunks = append(chunks, chunk{part, ov})
		}
	}
	spaceOrEnd := len(chunks) == 2 && chunks[1].text == "" && strings.HasSuffix(chunks[0].text, " ")
	k := 0
	for i, ch := range chunks {
		last := i == len(chunks)-1
		from := k - ch.overlap
		if i == 0 {
			t := ch.text
			if spaceOrEnd {
				t = strings.TrimSuffix(t, " ")
				if !strings.HasPrefix(value, t) {
					return false
				}
				rest := value[len(t):]
				if rest == "" {
					return true
				}
				if rest[0] != ' ' {
					return false
				}
				k = len(t) + 1
				continue
			}
			if !strings.HasPrefix(value, t) || last && len(value) != len(t) {
				return false
			}
			k = len(t)
			continue
		}
		if last {
			return strings.HasSuffix(value[from:], ch.text)
		}
		j := strings.Index(value[from:], ch.text)
		if j < 0 {
			return false
		}
		k = from + j + len(ch.text)
	}
	return true
}

// splitGlobstar splits on "/**/" runs (the client's /\/(?:\*\*\/)+/).
func splitGlobstar(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "/**/")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+3:]
		for strings.HasPrefix(s, "/**/") {
			s = s[3:]
		}
		s = s[1:]
	}
}

// splitStars splits at unescaped '*' and unescapes \* and \\.
func splitStars(s string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '*' || s[i+1] == '\\'):
			b.WriteByte(s[i+1])
			i++
		case s[i] == '*':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(out, b.String())
}

// gitignoreMatch reports whether rel (a slash path relative to the
// pattern's root) or one of its parent folders matches the gitignore
// pattern pat.
func gitignoreMatch(pat, rel string) bool {
	dirOnly := strings.HasSuffix(pat, "/")
	pat = strings.TrimSuffix(pat, "/")
	anchored := strings.Contains(pat, "/")
	pat = strings.TrimPrefix(pat, "/")
	if pat == "" {
		return false
	}
	re, err := regexp.Compile("^" + globRegexp(pat) + "$")
	if err != nil {
		return false
	}
	parts := strings.Split(rel, "/")
	for end := 1; end <= len(parts); end++ {
		if dirOnly && end == len(parts) {
			break
		}
		for start := 0; start < end; start++ {
			if anchored && start > 0 {
				break
			}
			if re.MatchString(strings.Join(parts[start:end], "/")) {
				return true
			}
		}
	}
	return false
}

// globRegexp translates a gitignore glob to a regexp body.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString(`(?:.*/)?`)
			i += 2
		case strings.HasPrefix(g[i:], "/**") && i+3 == len(g):
			b.WriteString(`/.*`)
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(`.*`)
			i++
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '\\' && i+1 < len(g):
			b.WriteString(regexp.QuoteMeta(g[i+1 : i+2]))
			i++
		case c == '[':
			j := strings.IndexByte(g[i+1:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			cls := g[i+1 : i+1+j]
			if strings.HasPrefix(cls, "!") {
				cls = "^" + cls[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(cls, `\`, `\\`) + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// simpleCommands splits a shell command line into its simple commands,
// each its words after quote removal joined by one space, without leading
// assignments and redirections; expansions such as $HOME stay as written.
// It reports false for a line it does not split: substitutions,
// subshells, groups, control flow, here-documents and here-strings,
// unclosed quotes.
func simpleCommands(line string) ([]string, bool) {
	script, err := shell.Parse(line, nil)
	if err != nil || script.Compound {
		return nil, false
	}
	var cmds []string
	for _, c := range script.Commands {
		if c.Nested {
			return nil, false
		}
		for _, r := range c.Redirects {
			if strings.HasPrefix(r.Op, "<<") || substitutes(r.Target) {
				return nil, false
			}
		}
		for _, w := range c.Args {
			if substitutes(w) {
				return nil, false
			}
		}
		if len(c.Args) > 0 {
			cmds = append(cmds, strings.Join(c.Words(), " "))
		}
	}
	return cmds, true
}

// substitutes reports whether w holds a command, process or arithmetic
// substitution.
func substitutes(w shell.Word) bool {
	for _, u := range w.Unknown {
		if strings.HasPrefix(u, "$(") || strings.HasPrefix(u, "`") || strings.HasPrefix(u, "<(") || strings.HasPrefix(u, ">(") {
			return true
		}
	}
	return false
}
