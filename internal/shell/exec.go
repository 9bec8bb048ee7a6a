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
	err := execs(src, lookup, 0, &out)
	return out, err
}

func execs(src string, lookup Lookup, depth int, out *[]Exec) error {
	if depth > maxDepth {
		return ErrTooDeep
	}
	s, err := Parse(src, lookup)
	if err != nil {
		return err
	}
	for _, c := range s.Commands {
		if len(c.Args) == 0 {
			continue
		}
		e, ok := unwrap(c.Args)
		if !ok {
			continue
		}
		e.Command, e.Source, e.Depth = c, src, depth
		*out = append(*out, e)
		for _, script := range scripts(e, c) {
			if err := execs(script, lookup, depth+1, out); err != nil {
				return err
			}
		}
	}
	return nil
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

// scripts returns the scripts a program runs: a shell's -c text or the
// here-documents fed to it, or the arguments of eval.
func scripts(e Exec, c Command) []string {
	args := e.Args
	switch {
	case e.Name == "eval":
		texts := make([]string, 0, len(args)-1)
		for _, a := range args[1:] {
			texts = append(texts, a.Text)
		}
		return []string{strings.Join(texts, " ")}
	case isShell(e.Name):
		for i := 1; i < len(args); i++ {
			a := args[i].Text
			if a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
				// A script file: its text is not known here.
				return nil
			}
			if a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file" {
				i++
				continue
			}
			if !strings.HasPrefix(a, "--") && strings.ContainsRune(a[1:], 'c') {
				if i+1 < len(args) {
					return []string{args[i+1].Text}
				}
				return nil
			}
		}
		// No script argument: the shell reads its standard input.
		var out []string
		for _, r := range c.Redirects {
			switch r.Op {
			case "<<", "<<-":
				out = append(out, r.Body)
			case "<<<":
				out = append(out, r.Target.Text)
			}
		}
		return out
	}
	return nil
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
		"xargs":    {short: "IiLlnPsdEaeR", long: set("replace", "max-lines", "max-args", "max-procs", "max-chars", "delimiter", "eof", "arg-file", "process-slot-var")},
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
				if spec.long[n] && !hasV && i+1 < len(args) {
					i++
					v = args[i].Text
				}
				if spec.dirOpts[n] {
					e.Dir = v
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
				break
			}
		}
		args = args[i:]
		if name == "timeout" && len(args) > 0 {
			args = args[1:] // the duration
		}
		if name == "sudo" || name == "env" || name == "doas" {
			for len(args) > 0 && isAssignment(args[0].Raw) {
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
