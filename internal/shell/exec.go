package shell

import (
	"path"
	"strings"
	"sync"
)

// Exec is one program a command line runs, found by looking through
// wrappers (sudo, env, nice, timeout, xargs, …) and into the scripts it
// hands to a shell (sh -c, bash -c, eval, env -S, a here-document fed to
// a shell).
type Exec struct {
	// Args are the program's words; Args[0] names the program as written.
	Args []Word
	// Name is the base name of Args[0], e.g. "rm" for /bin/rm or \rm.
	Name string
	// Dir is a working directory a wrapper sets (env -C, sudo -D), or "".
	Dir string
	// Xargs says the program gets more arguments from its input (it runs
	// under xargs).
	Xargs bool
	// Placeholder is the word that stands for each name the program's
	// input supplies: xargs -I's replace string, or find -exec's {}; ""
	// when xargs appends the names.
	Placeholder string
	// Feed is the program whose output supplies those names: the
	// command piped into xargs, or the find whose -exec runs the
	// program. It is nil when the names come from elsewhere (a file,
	// the terminal).
	Feed *Exec
	// Unread, when not "", says the program runs a script the parser
	// cannot read, and which: a shell fed the output of another
	// program (curl … | sh, bash <(…)), eval "$(…)", sh -c "$x".
	Unread string
	// assigns are the NAME=value words a wrapper (env, sudo) passes to
	// the program's environment.
	assigns []Word
	// argFile says xargs reads its names from a file (-a).
	argFile bool
	// Command is the simple command it comes from, in Source.
	Command Command
	// Source is the text the command was parsed from: the line itself, or
	// a script the line hands to a shell.
	Source string
	// Depth is 0 for the line itself, 1 for a script it hands to a shell,
	// and so on.
	Depth int
}

// Text returns the source text of the command the program comes from.
func (e Exec) Text() string {
	if e.Command.Pos < 0 || e.Command.End > len(e.Source) || e.Command.Pos > e.Command.End {
		return ""
	}
	return strings.TrimSpace(e.Source[e.Command.Pos:e.Command.End])
}

// Execs parses src and returns the programs it runs, in source order,
// with nested scripts expanded in place. See [Parse] for what it fails
// on.
func Execs(src string, lookup Lookup) ([]Exec, error) {
	var out []Exec
	err := execs(src, lookup, 0, &out, context{})
	return out, err
}

// context is what a nested script inherits from the program that runs
// it.
type context struct {
	vars    *binding
	tainted string
	feed    *Exec
	holder  string
}

func execs(src string, lookup Lookup, depth int, out *[]Exec, ctx context) error {
	if depth > maxDepth {
		return ErrTooDeep
	}
	s, err := parse(src, lookup, ctx.vars, ctx.tainted)
	if err != nil {
		return err
	}
	byIndex := make(map[int]*Exec, len(s.Commands))
	for i, c := range s.Commands {
		if len(c.Args) == 0 {
			continue
		}
		e, ok := unwrap(c.Args)
		if !ok {
			continue
		}
		e.Command, e.Source, e.Depth = c, src, depth
		switch {
		case e.Xargs:
			if !e.argFile && !readsRedirect(c) && c.From >= 0 {
				e.Feed = byIndex[c.From]
			}
		case ctx.feed != nil:
			e.Feed, e.Placeholder = ctx.feed, ctx.holder
		}
		var found []script
		found, e.Unread = scripts(e, c, byIndex)
		*out = append(*out, e)
		kept := e
		byIndex[i] = &kept
		for _, sc := range found {
			if err := execs(sc.text, lookup, depth+1, out, sc.ctx); err != nil {
				return err
			}
		}
		if e.Name == "find" {
			if err := findExecs(kept, lookup, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// findExecs adds the programs a find runs with -exec, -execdir, -ok and
// -okdir, each fed by the find.
func findExecs(find Exec, lookup Lookup, out *[]Exec) error {
	args := find.Args
	for i := 1; i < len(args); i++ {
		switch args[i].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && args[j].Text != ";" && !(args[j].Text == "+" && args[j-1].Text == "{}") {
			j++
		}
		inner := args[i+1 : j]
		i = j
		e, ok := unwrap(inner)
		if !ok {
			continue
		}
		e.Command, e.Source, e.Depth = find.Command, find.Source, find.Depth
		feed := find
		e.Feed, e.Placeholder = &feed, "{}"
		var found []script
		found, e.Unread = scripts(e, find.Command, nil)
		*out = append(*out, e)
		for _, sc := range found {
			sc.ctx.feed, sc.ctx.holder = &feed, "{}"
			if err := execs(sc.text, lookup, find.Depth+1, out, sc.ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// readsRedirect reports whether c takes its standard input from a
// redirection.
func readsRedirect(c Command) bool {
	for _, r := range c.Redirects {
		switch r.Op {
		case "<", "<<", "<<-", "<<<", "<>":
			return true
		}
	}
	return false
}

// ProgramName returns the base name of a program word: /bin/rm and rm are
// both "rm".
func ProgramName(w Word) string { return path.Base(w.Text) }

// isShell reports the programs whose -c argument, or standard input, is a
// script.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash":
		return true
	}
	return false
}

// script is a script a program runs, with what it sees.
type script struct {
	text string
	ctx  context
}

// substituted reports whether w is a process substitution <(…) or >(…).
func substituted(w Word) bool {
	return strings.HasPrefix(w.Raw, "<(") || strings.HasPrefix(w.Raw, ">(")
}

// scripts returns the scripts a program runs: a shell's -c text, the
// here-document or the output of the program piped into it, or the
// arguments of eval. unread, when not "", names a script the program
// runs that cannot be read.
func scripts(e Exec, c Command, byIndex map[int]*Exec) (found []script, unread string) {
	args := e.Args
	// A script runs in the scope of the command, with the variables the
	// command and its wrappers set.
	scope := c.scope
	for _, a := range append(append([]Word(nil), c.Assigns...), e.assigns...) {
		if name, _, val := assignment(a); isName(name) {
			scope = scope.set(name, val, a.Unknown, a.Opaque)
		}
	}
	sc := func(text string, vars *binding) script {
		return script{text: text, ctx: context{vars: vars, tainted: c.tainted, feed: e.Feed, holder: e.Placeholder}}
	}
	switch {
	case e.Name == "eval":
		texts := make([]string, 0, len(args)-1)
		for _, a := range args[1:] {
			if len(a.Opaque) > 0 {
				return nil, strings.Join(a.Opaque, ", ")
			}
			texts = append(texts, a.Text)
		}
		if e.Xargs && e.Placeholder == "" {
			return nil, "input that xargs appends"
		}
		return []script{sc(strings.Join(texts, " "), scope)}, ""
	case e.Name == "source" || e.Name == ".":
		if len(args) > 1 && substituted(args[1]) {
			return nil, "the output of " + args[1].Raw
		}
		return nil, ""
	case isShell(e.Name):
		rest := ""
		if e.Xargs && e.Placeholder == "" {
			rest = "input that xargs appends"
		}
		for i := 1; i < len(args); i++ {
			a := args[i].Text
			if a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
				if a == "--" {
					i++
				}
				if i < len(args) && substituted(args[i]) {
					return nil, "the output of " + args[i].Raw
				}
				if i < len(args) && (args[i].Text == "/dev/stdin" || args[i].Text == "-") {
					break // the script is the standard input
				}
				// A script file: its text is not read.
				return nil, ""
			}
			if a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file" {
				i++
				continue
			}
			if !strings.HasPrefix(a, "--") && strings.ContainsRune(a[1:], 'c') {
				if i+1 >= len(args) {
					return nil, rest // xargs appends the script, or there is none
				}
				if len(args[i+1].Opaque) > 0 {
					return nil, strings.Join(args[i+1].Opaque, ", ")
				}
				if rest != "" && i+2 >= len(args) {
					return nil, rest // the script itself comes from xargs
				}
				vars := positional(scope, args[min(i+2, len(args)):], rest)
				if i+2 >= len(args) {
					vars = positional(scope, []Word{args[0]}, rest)
				}
				return []script{sc(args[i+1].Text, vars)}, ""
			}
		}
		// No script argument: the shell reads its standard input.
		vars := positional(scope, []Word{args[0]}, "")
		for _, r := range c.Redirects {
			switch r.Op {
			case "<<", "<<-":
				found = append(found, sc(r.Body, vars))
			case "<<<":
				if len(r.Target.Opaque) > 0 {
					return nil, strings.Join(r.Target.Opaque, ", ")
				}
				found = append(found, sc(r.Target.Text, vars))
			case "<":
				if substituted(r.Target) {
					return nil, "the output of " + r.Target.Raw
				}
			}
		}
		if len(found) == 0 && c.From >= 0 && byIndex != nil {
			feed := byIndex[c.From]
			if feed == nil {
				return nil, "the output of the command before the |"
			}
			if text, _, ok := printed(feed.Args); ok {
				return []script{sc(text, vars)}, ""
			}
			return nil, "the output of `" + feed.Text() + "`"
		}
		return found, ""
	}
	return nil, ""
}

// printed returns what echo or printf prints with args, when the words
// hold no opaque expansion and the format is plain, and the unknown
// expansions the output leaves out.
func printed(args []Word) (string, []string, bool) {
	texts := make([]string, len(args))
	var unknown []string
	for i, a := range args {
		if len(a.Opaque) > 0 || a.Glob {
			return "", nil, false
		}
		texts[i] = a.Text
		unknown = append(unknown, a.Unknown...)
	}
	switch ProgramName(args[0]) {
	case "echo":
		i := 1
		for i < len(texts) && len(texts[i]) > 1 && texts[i][0] == '-' && strings.Trim(texts[i][1:], "neE") == "" {
			if strings.Contains(texts[i], "e") {
				return "", nil, false // escapes: not worked out
			}
			i++
		}
		return strings.Join(texts[i:], " "), unknown, true
	case "printf":
		switch {
		case len(texts) == 2 && !strings.ContainsAny(texts[1], `%\`):
			return texts[1], unknown, true
		case len(texts) == 3 && (texts[1] == "%s" || texts[1] == `%s\n`):
			return texts[2], unknown, true
		}
	}
	return "", nil, false
}

// optSpec describes a wrapper's options: which short letters and long
// names take a value, and which one sets the working directory.
type optSpec struct {
	short   string          // short options that take a value
	long    map[string]bool // long options that take a value
	dirOpts map[string]bool // options whose value is a working directory
	noCmd   map[string]bool // options after which no command runs (command -v)
}

// wrappers are the wrappers' options, built on first use: a program that
// links the parser builds nothing when it starts.
var wrappers = sync.OnceValue(func() map[string]optSpec {
	return map[string]optSpec{
		"sudo":     {short: "ughpCDRTUrt", long: set("user", "group", "host", "prompt", "close-from", "chdir", "chroot", "command-timeout", "other-user", "role", "type"), dirOpts: set("D", "chdir")},
		"doas":     {short: "uC"},
		"env":      {short: "uCS", long: set("unset", "chdir", "split-string"), dirOpts: set("C", "chdir")},
		"nice":     {short: "n", long: set("adjustment")},
		"nohup":    {},
		"builtin":  {},
		"command":  {noCmd: set("v", "V")},
		"exec":     {short: "a"},
		"time":     {short: "of", long: set("output", "format")},
		"timeout":  {short: "sk", long: set("signal", "kill-after")},
		"stdbuf":   {short: "ioe", long: set("input", "output", "error")},
		"ionice":   {short: "cnt", long: set("class", "classdata"), noCmd: set("p", "P", "u", "pid", "pgid", "uid")},
		"chrt":     {},
		"setsid":   {},
		"unbuffer": {},
		"xargs":    {short: "ILnPsdEaR", long: set("max-lines", "max-args", "max-procs", "max-chars", "delimiter", "arg-file", "process-slot-var")},
	}
})

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// unwrap strips wrappers from a command's words and returns the program
// that finally runs. ok is false when no program runs (command -v).
func unwrap(args []Word) (e Exec, ok bool) {
	for len(args) > 0 {
		name := ProgramName(args[0])
		if name == "busybox" && len(args) > 1 {
			args = args[1:]
			continue
		}
		spec, wrapped := wrappers()[name]
		if !wrapped {
			break
		}
		if name == "env" {
			if split, rest, found := envSplit(args); found {
				// env -S "rm -rf x": the string is split into words.
				return unwrapSplit(split, rest, e)
			}
		}
		i := 1
		for ; i < len(args); i++ {
			a := args[i].Text
			if a == "--" {
				i++
				break
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				break
			}
			if strings.HasPrefix(a, "--") {
				n, v, hasV := strings.Cut(a[2:], "=")
				if spec.noCmd[n] {
					return Exec{}, false
				}
				if name == "xargs" && n == "replace" {
					e.Placeholder = "{}"
					if hasV {
						e.Placeholder = v
					}
				}
				if spec.long[n] && !hasV && i+1 < len(args) {
					i++
					v = args[i].Text
				}
				if spec.dirOpts[n] {
					e.Dir = v
				}
				if name == "xargs" && n == "arg-file" {
					e.argFile = true
				}
				continue
			}
			// A cluster of short options: -Eu root, -uroot, -n10.
			for j := 1; j < len(a); j++ {
				o := string(a[j])
				if spec.noCmd[o] {
					return Exec{}, false
				}
				if name == "nice" && a[j] >= '0' && a[j] <= '9' {
					break // nice -10
				}
				if name == "xargs" && strings.Contains("iel", o) {
					// -i[R], -e[EOF], -l[N]: a value only when attached.
					if o == "i" {
						e.Placeholder = "{}"
						if v := a[j+1:]; v != "" {
							e.Placeholder = v
						}
					}
					break
				}
				if !strings.Contains(spec.short, o) {
					continue
				}
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i].Text
				}
				if spec.dirOpts[o] {
					e.Dir = v
				}
				if name == "xargs" && o == "I" {
					e.Placeholder = v
				}
				if name == "xargs" && o == "a" {
					e.argFile = true
				}
				break
			}
		}
		args = args[i:]
		if name == "timeout" && len(args) > 0 {
			args = args[1:] // the duration
		}
		if name == "sudo" || name == "env" || name == "doas" {
			for len(args) > 0 && isAssignment(args[0].Raw) {
				e.assigns = append(e.assigns, args[0])
				args = args[1:]
			}
		}
		if name == "xargs" {
			e.Xargs = true
		}
	}
	if len(args) == 0 {
		return Exec{}, false
	}
	e.Args = args
	e.Name = ProgramName(args[0])
	return e, true
}

// envSplit finds env's -S/--split-string value.
func envSplit(args []Word) (split string, rest []Word, found bool) {
	for i := 1; i < len(args); i++ {
		a := args[i].Text
		switch {
		case a == "-S" || a == "--split-string":
			if i+1 < len(args) {
				return args[i+1].Text, args[i+2:], true
			}
			return "", nil, false
		case strings.HasPrefix(a, "--split-string="):
			return strings.TrimPrefix(a, "--split-string="), args[i+1:], true
		case strings.HasPrefix(a, "-S"):
			return a[2:], args[i+1:], true
		case !strings.HasPrefix(a, "-"):
			return "", nil, false
		}
	}
	return "", nil, false
}

// unwrapSplit parses env -S's string as words, appends the remaining
// words, and unwraps the result.
func unwrapSplit(split string, rest []Word, e Exec) (Exec, bool) {
	s, err := Parse(split, nil)
	if err != nil || len(s.Commands) == 0 {
		// Unparsable: keep the words as one program name so that a
		// judge still sees them.
		return Exec{Args: append([]Word{{Text: split, Raw: split}}, rest...), Name: split}, true
	}
	c := s.Commands[0]
	words := append(append(append([]Word(nil), c.Assigns...), c.Args...), rest...)
	for len(words) > 0 && isAssignment(words[0].Raw) {
		words = words[1:]
	}
	inner, ok := unwrap(words)
	if !ok {
		return Exec{}, false
	}
	if inner.Dir == "" {
		inner.Dir = e.Dir
	}
	inner.Xargs = inner.Xargs || e.Xargs
	return inner, true
}
