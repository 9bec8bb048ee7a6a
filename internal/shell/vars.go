package shell

import (
	"path"
	"strconv"
	"strings"
)

// maxEvalBytes bounds the text of eval arguments one line is re-read
// for, to find the variables they set.
const maxEvalBytes = 1 << 14

// binding is one variable the command line itself sets, in a chain from
// the newest: a scope is a pointer to its newest binding, so a command
// keeps the scope it was expanded in at no cost.
type binding struct {
	name string
	// val is the value with every expansion it does not know removed, as
	// Word.Text holds it.
	val string
	// unknown and opaque are the expansions the value holds that the
	// parser does not know (see Word.Unknown and Word.Opaque).
	unknown, opaque []string
	next            *binding
}

// get returns name's binding in the scope s, or nil.
func (s *binding) get(name string) *binding {
	for b := s; b != nil; b = b.next {
		if b.name == name {
			return b
		}
	}
	return nil
}

// set returns s with name bound to val.
func (s *binding) set(name, val string, unknown, opaque []string) *binding {
	return &binding{name: name, val: val, unknown: unknown, opaque: opaque, next: s}
}

// setOpaque returns s with name bound to a value the parser cannot work
// out; why names it in Word.Opaque.
func (s *binding) setOpaque(name, why string) *binding {
	return s.set(name, "", nil, []string{why})
}

// value looks a variable up: first what the line itself set, then the
// caller's Lookup. It returns the value, and the expansions inside it
// that are not known; unknownAll says the caller does not know the
// variable at all (an unset or unknown variable).
func (p *parser) value(name string) (val string, unknown, opaque []string, unknownAll bool) {
	if b := p.vars.get(name); b != nil {
		return b.val, b.unknown, b.opaque, false
	}
	if p.tainted != "" {
		return "", nil, []string{"$" + name + " (after " + p.tainted + ")"}, false
	}
	if v, ok := p.lookup(name); ok {
		return v, nil, nil, false
	}
	return "", nil, nil, true
}

// assignment splits an assignment word's Text into its name, whether it
// appends (+=), and its value.
func assignment(w Word) (name string, appends bool, val string) {
	i := strings.IndexByte(w.Text, '=')
	if i <= 0 {
		return "", false, ""
	}
	name = w.Text[:i]
	if strings.HasSuffix(name, "+") {
		name, appends = name[:len(name)-1], true
	}
	return name, appends, w.Text[i+1:]
}

// bind applies an assignment word to the scope; conditional says the
// assignment may or may not run (after && or ||, in a pipeline, a
// subshell, a loop or a branch), so that afterwards the variable may hold
// either value.
func (p *parser) bind(w Word, conditional bool) {
	name, appends, val := assignment(w)
	if !isName(name) {
		return
	}
	unknown, opaque := afterEquals(w)
	if appends {
		old, ou, oo, unk := p.value(name)
		if unk {
			ou = []string{"$" + name}
		}
		val = old + val
		unknown = append(append([]string(nil), ou...), unknown...)
		opaque = append(append([]string(nil), oo...), opaque...)
	}
	if conditional {
		old, ou, oo, unk := p.value(name)
		if unk || old != val || len(ou)+len(oo)+len(unknown)+len(opaque) > 0 {
			p.vars = p.vars.setOpaque(name, "$"+name+" (set only on some paths)")
			return
		}
	}
	p.vars = p.vars.set(name, val, unknown, opaque)
}

// afterEquals returns the unknown and opaque expansions of an assignment
// word; they all lie after the "=".
func afterEquals(w Word) (unknown, opaque []string) { return w.Unknown, w.Opaque }

// declarers are the builtins whose NAME=value arguments assign.
func declarer(name string) bool {
	switch name {
	case "export", "declare", "typeset", "local", "readonly":
		return true
	}
	return false
}

// effects applies what a finished simple command does to the variables
// later commands see: assignments on their own, export/declare/local
// arguments, read and mapfile, unset, cd, eval and source.
func (p *parser) effects(c *Command, conditional bool) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			p.bind(a, conditional)
		}
		return
	}
	if len(c.Assigns) > 0 {
		return // NAME=value cmd: the value is only cmd's
	}
	name := ProgramName(c.Args[0])
	args := c.Args[1:]
	switch {
	case declarer(name):
		nameref := false
		for _, a := range args {
			switch {
			case strings.HasPrefix(a.Text, "-") && strings.ContainsAny(a.Text, "nA") || strings.HasPrefix(a.Text, "-") && strings.Contains(a.Text, "a"):
				// -n: a reference to another variable; -a, -A: arrays.
				nameref = true
			case isAssignment(a.Raw) && nameref:
				if n, _, _ := assignment(a); isName(n) {
					p.vars = p.vars.setOpaque(n, "$"+n+" (a reference or an array)")
				}
			case isAssignment(a.Raw):
				p.bind(a, conditional)
			}
		}
	case name == "set":
		for i, a := range args {
			if a.Text == "--" || !strings.HasPrefix(a.Text, "-") && !strings.HasPrefix(a.Text, "+") {
				if a.Text == "--" {
					i++
				}
				if conditional {
					p.positionalOpaque("set on some paths")
				} else {
					p.vars = positional(p.vars, append([]Word{{}}, args[i:]...), "")
				}
				break
			}
			if a.Text == "-o" || a.Text == "+o" {
				break // set -o NAME: the name is not a parameter
			}
		}
	case name == "shift":
		p.positionalOpaque("after shift")
	case name == "unset":
		for _, a := range args {
			if isName(a.Text) {
				p.vars = p.vars.set(a.Text, "", nil, nil)
			}
		}
	case name == "read" || name == "mapfile" || name == "readarray" || name == "getopts" || name == "printf":
		for i, a := range args {
			t := a.Text
			switch {
			case name == "printf" && t == "-v" && i+1 < len(args):
				n := args[i+1].Text
				p.vars = p.vars.setOpaque(n, "$"+n+" (set by printf -v)")
			case name != "printf" && isName(t):
				p.vars = p.vars.setOpaque(t, "$"+t+" (set by "+name+")")
			case name == "read" && t == "-a" && i+1 < len(args):
				n := args[i+1].Text
				p.vars = p.vars.setOpaque(n, "$"+n+" (set by read)")
			}
		}
	case name == "cd" || name == "pushd" || name == "popd":
		old, ou, oo, unk := p.value("PWD")
		if unk {
			ou = []string{"$PWD"}
		}
		dir, ok := p.cdTarget(name, args)
		p.vars = p.vars.set("OLDPWD", old, ou, oo)
		if ok && !conditional {
			p.vars = p.vars.set("PWD", dir, nil, nil)
		} else {
			p.vars = p.vars.setOpaque("PWD", "$PWD (after "+name+")")
		}
	case name == "eval":
		texts := make([]string, 0, len(args))
		for _, a := range args {
			texts = append(texts, a.Text)
		}
		text := strings.Join(texts, " ")
		if p.evalBudget == nil {
			p.evalBudget = new(int)
			*p.evalBudget = maxEvalBytes
		}
		if *p.evalBudget -= len(text); *p.evalBudget < 0 {
			// Too much eval to follow: any variable may have changed.
			p.tainted = "eval"
			return
		}
		sub := &parser{src: text, lookup: p.lookup, depth: p.depth, vars: p.vars, tainted: p.tainted, condAll: conditional, evalBudget: p.evalBudget}
		if sub.list(false) == nil {
			p.vars, p.tainted = sub.vars, sub.tainted
		}
	case name == "source" || name == ".":
		// A file the parser does not read may set any variable.
		p.tainted = name + " " + strings.Join(c.Words()[1:], " ")
	}
}

// positionalOpaque makes $1 … $9, $@ and $* opaque from here on.
func (p *parser) positionalOpaque(why string) {
	for _, n := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"} {
		p.vars = p.vars.setOpaque(n, "$"+n+" ("+why+")")
	}
}

// cdTarget works out the folder cd changes to when it is known and
// absolute in the POSIX way.
func (p *parser) cdTarget(name string, args []Word) (string, bool) {
	if name != "cd" {
		return "", false
	}
	for _, a := range args {
		if a.Text == "--" || strings.HasPrefix(a.Text, "-") && a.Text != "-" {
			continue
		}
		if a.Text == "-" || len(a.Unknown) > 0 || len(a.Opaque) > 0 || a.Glob {
			return "", false
		}
		if path.IsAbs(a.Text) {
			return path.Clean(a.Text), true
		}
		pwd, u, o, unk := p.value("PWD")
		if unk || len(u)+len(o) > 0 || !path.IsAbs(pwd) {
			return "", false
		}
		return path.Join(pwd, a.Text), true
	}
	home, u, o, unk := p.value("HOME")
	if unk || len(u)+len(o) > 0 || !path.IsAbs(home) {
		return "", false
	}
	return path.Clean(home), true
}

// positional returns a scope with the positional parameters $0, $1, …
// (and $@, $*, $#) bound to args; rest, when not "", names input that
// supplies further parameters the parser cannot see (xargs).
func positional(s *binding, args []Word, rest string) *binding {
	var all []string
	var unknown, opaque []string
	for i, a := range args {
		s = s.set(strconv.Itoa(i), a.Text, a.Unknown, a.Opaque)
		if i > 0 {
			all = append(all, a.Text)
			unknown = append(unknown, a.Unknown...)
			opaque = append(opaque, a.Opaque...)
		}
	}
	for i := max(len(args), 1); i <= 9; i++ {
		if rest != "" {
			s = s.setOpaque(strconv.Itoa(i), "$"+strconv.Itoa(i)+" ("+rest+")")
		} else {
			s = s.set(strconv.Itoa(i), "", nil, nil)
		}
	}
	if rest != "" {
		opaque = append(opaque, "$@ ("+rest+")")
	}
	joined := strings.Join(all, " ")
	s = s.set("@", joined, unknown, opaque)
	s = s.set("*", joined, unknown, opaque)
	if rest != "" {
		return s.setOpaque("#", "$# ("+rest+")")
	}
	return s.set("#", strconv.Itoa(max(len(args)-1, 0)), nil, nil)
}
