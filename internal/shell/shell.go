// Package shell splits a POSIX shell command line into simple commands and
// words the way a shell would, well enough for hooks that judge Bash tool
// calls. It is not a shell: it runs nothing, and it approximates the
// rarer syntax (case patterns, arithmetic). What it does handle: single,
// double and $'…' quotes, backslashes, line continuations, comments, the
// operators ; & && || | |& ( ) and newlines, redirections and
// here-documents, ~, ~user, ~+ and ~-, $NAME and ${NAME…} expansions,
// field splitting of unquoted expansions, command substitution $(…) and
// `…`, process substitution <(…), brace expansion {a,b}, unquoted glob
// characters, and reserved words.
//
// Variables come from the caller's Lookup and from the line itself: an
// assignment (x=/, export x=/, eval x=/, …) is seen by the commands after
// it. A value the parser cannot work out is reported, never guessed: an
// unknown variable the line does not set expands to nothing and is listed
// in Word.Unknown; a value the line makes and the parser cannot work out
// (the output of most command substitutions, a variable set from one, by
// read, in a loop or only on some paths) is listed in Word.Opaque as
// well, because it may be anything.
package shell

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Lookup returns the value of a shell variable the caller knows, and
// whether it knows it.
type Lookup func(name string) (string, bool)

// Word is one shell word after quote removal and expansion.
type Word struct {
	// Text is the word as the shell would pass it to a program: quotes
	// removed, ~ and known variables expanded, unknown expansions removed.
	Text string
	// Raw is the word's source text.
	Raw string
	// Unquoted is Raw after quote removal only: quotes and escaping
	// backslashes removed, every expansion ($NAME, ${…}, $(…), `…`, ~)
	// left as written and braces not expanded. It is the word as a
	// permission rule reads it. The words of one brace expansion share
	// it, as they share Raw and Pos.
	Unquoted string
	// Pos is the byte offset of Raw in the parsed source.
	Pos int
	// Glob says the word holds an unquoted *, ? or [.
	Glob bool
	// Pattern is Text with every quoted *, ?, [ and \ escaped by a
	// backslash, so that path.Match treats only the unquoted ones as
	// wildcards.
	Pattern string
	// Unknown names each expansion whose value is not known ("$DIR",
	// "$(…)"), in order; Text holds nothing in its place.
	Unknown []string
	// Opaque names the unknown expansions whose value the command line
	// itself makes and the parser cannot work out: the output of a
	// command substitution it does not evaluate, a variable set from one
	// (or by read, or in a for loop, or only on some paths), another
	// user's home folder (~alice), input that xargs supplies. Unlike a
	// variable the line never sets, such a value may be anything, not
	// just empty. Every one is in Unknown too.
	Opaque []string
}

// Redirect is one redirection of a command.
type Redirect struct {
	// Op is the operator: <, >, >>, >|, <>, <<, <<-, <<<, >&, <&, &>, &>>.
	Op string
	// Target is the file, descriptor, here-string or here-document
	// delimiter.
	Target Word
	// Body is a here-document's text.
	Body string
}

// Command is one simple command.
type Command struct {
	// Assigns are the NAME=value words before the command name.
	Assigns []Word
	// Args are the command's words: the name and its arguments, without
	// assignments and redirections.
	Args []Word
	// Redirects are the command's redirections.
	Redirects []Redirect
	// Op is the operator that ends the command: ";", "&", "&&", "||",
	// "|", "|&", "\n", "(", ")", or "" at the end of the source.
	Op string
	// Nested says the command runs inside a substitution ($(…), `…`,
	// <(…)) of another command.
	Nested bool
	// Pos and End are the command's byte range in the parsed source.
	Pos, End int
	// From is the index in Script.Commands of the command whose output
	// this one reads through a pipe, or -1.
	From int

	// scope holds the variables the line had set when the command was
	// expanded.
	scope *binding
	// tainted is the scope's taint (see parser.tainted).
	tainted string
}

// Words returns the command's words (Args) as a permission rule reads
// them: each source word once, after quote removal only (see
// Word.Unquoted).
func (c *Command) Words() []string {
	words := make([]string, 0, len(c.Args))
	for i, w := range c.Args {
		if i > 0 && w.Pos == c.Args[i-1].Pos {
			continue // another word of the same brace expansion
		}
		words = append(words, w.Unquoted)
	}
	return words
}

// Script is a parsed command line.
type Script struct {
	// Commands are the simple commands in source order; the commands of a
	// substitution come before the command that uses it.
	Commands []Command
	// Compound says the line uses grouping or control flow at top level:
	// ( ), { }, if, while, until, for, case, select, function, [[ ]] or
	// (( )).
	Compound bool
}

// maxDepth bounds nested substitutions and scripts.
const maxDepth = 16

// ErrTooDeep is returned for a line nested deeper than the parser follows.
var ErrTooDeep = errors.New("shell: nesting too deep")

// Parse splits src into simple commands. lookup may be nil. It fails on
// unterminated quotes, substitutions and here-documents, and on nesting
// deeper than 16 levels.
func Parse(src string, lookup Lookup) (*Script, error) {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	return parse(src, lookup, nil, "")
}

// parse is Parse with the variables the line has already set.
func parse(src string, lookup Lookup, vars *binding, tainted string) (*Script, error) {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	p := &parser{src: src, lookup: lookup, vars: vars, tainted: tainted}
	if err := p.list(false); err != nil {
		return nil, err
	}
	return &Script{Commands: p.out, Compound: p.compound}, nil
}

// pendingDoc is a here-document whose body follows the next newline.
type pendingDoc struct {
	op, delim string
	pos       int
}

type parser struct {
	src      string
	pos      int
	lookup   Lookup
	depth    int
	out      []Command
	compound bool
	heredocs []pendingDoc // waiting for their body after the next newline
	// vars are the variables the line has set so far.
	vars *binding
	// tainted, when not "", names a command that may have set any
	// variable (source a file): every variable the line did not set
	// since is opaque.
	tainted string
	// cond counts the open compound commands and subshells: an
	// assignment inside one may or may not run.
	cond int
	// condAll says every command parsed may or may not run (an eval
	// after && or ||).
	condAll bool
	// evalBudget is what is left of maxEvalBytes, shared with the
	// parsers of eval arguments.
	evalBudget *int
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek(off int) byte {
	if p.pos+off < len(p.src) {
		return p.src[p.pos+off]
	}
	return 0
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("shell: "+format, args...)
}

// The kinds of reserved word that may start a command.
const (
	notReserved = iota
	opener      // opens or continues a compound command, or is ! or time
	closer      // closes a compound command
	header      // for, case, select: no command runs until the next separator
)

// reserved returns the kind of w. It is a switch, not a map, so that a
// program that links the parser builds nothing when it starts.
func reserved(w string) int {
	switch w {
	case "if", "then", "elif", "else", "do", "while", "until", "{", "!", "time":
		return opener
	case "fi", "done", "esac", "}":
		return closer
	case "for", "case", "select":
		return header
	}
	return notReserved
}

// list parses commands until the end of the source, or, in a
// substitution (sub), until the ")" that closes it.
func (p *parser) list(sub bool) error {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return ErrTooDeep
	}
	var cur Command
	started := false
	skipping := false // inside the header of for/case/select
	skipName := false // the name after "function"
	loopVar := false  // the next word names a for or select loop's variable
	parens := 0
	prevOp := "" // the operator that ended the previous command
	from := -1   // the command piped into the next one
	startCond := p.cond
	finish := func(op string, end int) {
		appended := -1
		if (started || len(cur.Redirects) > 0) && !skipping {
			cur.Op = op
			cur.End = end
			cur.Nested = p.depth > 1
			cur.From = -1
			if prevOp == "|" || prevOp == "|&" {
				cur.From = from
			}
			cur.scope, cur.tainted = p.vars, p.tainted
			p.out = append(p.out, cur)
			appended = len(p.out) - 1
			// An assignment runs for sure only outside compound commands
			// and subshells, not after && or ||, and not in a pipeline
			// or in the background.
			conditional := p.cond > startCond || p.condAll || sub ||
				prevOp == "&&" || prevOp == "||" || prevOp == "|" || prevOp == "|&" ||
				op == "|" || op == "|&" || op == "&"
			p.effects(&p.out[appended], conditional)
		}
		if started || len(cur.Redirects) > 0 || op != "" {
			prevOp = op
		}
		from = appended
		cur = Command{}
		started, skipping = false, false
	}
	// begin notes that the command has started, at byte at if it had
	// not.
	begin := func(at int) {
		if !started {
			cur.Pos = at
		}
		started = true
	}
	for {
		p.blanks()
		if p.eof() {
			if sub {
				return p.errorf("unterminated $( or <(")
			}
			if len(p.heredocs) > 0 {
				return p.errorf("unterminated here-document")
			}
			finish("", p.pos)
			return nil
		}
		start := p.pos
		c := p.src[p.pos]
		switch {
		case c == '#':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '\n':
			finish("\n", start)
			p.pos++
			if err := p.readHeredocs(); err != nil {
				return err
			}
		case c == ';':
			p.pos++
			if p.peek(0) == ';' || p.peek(0) == '&' { // ;; ;& in case
				p.pos++
			}
			finish(";", start)
		case c == '&' && p.peek(1) == '&':
			p.pos += 2
			finish("&&", start)
		case c == '&' && p.peek(1) == '>':
			if err := p.redirect(&cur, start); err != nil {
				return err
			}
			begin(start)
		case c == '&':
			p.pos++
			finish("&", start)
		case c == '|' && p.peek(1) == '|':
			p.pos += 2
			finish("||", start)
		case c == '|' && p.peek(1) == '&':
			p.pos += 2
			finish("|&", start)
		case c == '|':
			p.pos++
			finish("|", start)
		case c == '(' && p.peek(1) == '(':
			// Arithmetic command (( … )): nothing runs.
			p.compound = p.compound || p.depth == 1
			if err := p.skipArith(); err != nil {
				return err
			}
		case c == '(' && started && len(cur.Args) == 1 && len(cur.Assigns) == 0 && p.emptyParens():
			// name () { …; }: a function, whose arguments may be
			// anything.
			p.compound = p.compound || p.depth == 1
			cur, started = Command{}, false
			p.funcArgs()
		case c == '(':
			p.compound = p.compound || p.depth == 1
			p.pos++
			parens++
			p.cond++
			finish("(", start)
		case c == ')':
			if sub && parens == 0 {
				finish(")", start)
				p.pos++
				p.cond = startCond
				return nil
			}
			p.compound = p.compound || p.depth == 1
			p.pos++
			parens--
			p.cond = max(p.cond-1, startCond)
			finish(")", start)
		case (c == '<' || c == '>') && p.peek(1) == '(':
			// Process substitution: a word whose commands run nested, in
			// a subshell.
			p.pos += 2
			vars, tainted := p.vars, p.tainted
			err := p.list(true)
			p.vars, p.tainted = vars, tainted
			if err != nil {
				return err
			}
			begin(start)
			cur.Args = append(cur.Args, Word{Raw: p.src[start:p.pos], Pos: start, Unknown: []string{p.src[start:p.pos]}})
		case c == '<' || c == '>':
			if err := p.redirect(&cur, start); err != nil {
				return err
			}
			begin(start)
		default:
			// A word before the command name that looks like NAME=… is
			// an assignment.
			assign := len(cur.Args) == 0 && !skipping && !skipName && !loopVar && p.assignmentAhead()
			words, err := p.word(assign)
			if err != nil {
				return err
			}
			// A number right before < or > is a descriptor.
			if len(words) == 1 && isDigits(words[0].Raw) && (p.peek(0) == '<' || p.peek(0) == '>') {
				if err := p.redirect(&cur, start); err != nil {
					return err
				}
				begin(start)
				continue
			}
			if skipName {
				skipName = false
				continue
			}
			if w := words[len(words)-1]; assign && strings.HasSuffix(w.Raw, "=") && p.peek(0) == '(' {
				// NAME=( … ): an array, whose elements are words.
				p.pos++
				for {
					p.blanks()
					if p.eof() {
						return p.errorf("unterminated array assignment")
					}
					if p.src[p.pos] == ')' {
						p.pos++
						break
					}
					if p.src[p.pos] == '\n' {
						p.pos++
						continue
					}
					if _, err := p.word(false); err != nil {
						return err
					}
					if p.pos < len(p.src) && strings.IndexByte(";&|(<>", p.src[p.pos]) >= 0 {
						return p.errorf("bad array assignment")
					}
				}
				if n, _, _ := assignment(w); isName(n) {
					p.vars = p.vars.setOpaque(n, "$"+n+" (an array)")
				}
				begin(start)
				continue
			}
			if loopVar {
				loopVar = false
				if n := words[0].Raw; isName(n) {
					p.vars = p.vars.setOpaque(n, "$"+n+" (a loop's variable)")
				}
				continue
			}
			if !started && len(cur.Assigns) == 0 && len(words) == 1 && !skipping {
				w := words[0].Raw
				switch kind := reserved(w); {
				case kind == opener:
					if w != "!" && w != "time" {
						p.compound = p.compound || p.depth == 1
					}
					switch w {
					case "if", "while", "until", "{":
						p.cond++
					}
					continue
				case kind == closer:
					p.compound = p.compound || p.depth == 1
					p.cond = max(p.cond-1, startCond)
					continue
				case kind == header:
					p.compound = p.compound || p.depth == 1
					p.cond++
					skipping = true
					started = true
					loopVar = w == "for" || w == "select"
					continue
				case w == "function":
					p.compound = p.compound || p.depth == 1
					skipName = true
					p.funcArgs()
					continue
				case w == "[[":
					p.compound = p.compound || p.depth == 1
				}
			}
			if skipping {
				// for x in a b; case x in; function f: no command runs
				// until the next separator. "do" and "in" end nothing.
				continue
			}
			begin(start)
			for _, w := range words {
				if assign && len(cur.Args) == 0 && isAssignment(w.Raw) {
					cur.Assigns = append(cur.Assigns, w)
				} else {
					cur.Args = append(cur.Args, w)
				}
			}
		}
	}
}

// emptyParens reports whether "(" at p.pos is followed by ")", and
// skips both if so.
func (p *parser) emptyParens() bool {
	i := p.pos + 1
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
		i++
	}
	if i < len(p.src) && p.src[i] == ')' {
		p.pos = i + 1
		return true
	}
	return false
}

// funcArgs makes the positional parameters opaque from here on: the line
// defines a function, and its body reads arguments the parser does not
// follow from its calls.
func (p *parser) funcArgs() { p.positionalOpaque("a function's argument") }

// assignmentAhead reports whether the word at p.pos starts with NAME= or
// NAME+=, unquoted.
func (p *parser) assignmentAhead() bool {
	i := p.pos
	for i < len(p.src) && isNameByte(p.src[i]) {
		i++
	}
	if i == p.pos || !isName(p.src[p.pos:i]) {
		return false
	}
	if i < len(p.src) && p.src[i] == '+' {
		i++
	}
	return i < len(p.src) && p.src[i] == '='
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isAssignment reports whether raw starts with an unquoted NAME=.
func isAssignment(raw string) bool {
	i := strings.IndexByte(raw, '=')
	if i <= 0 {
		return false
	}
	return isName(strings.TrimSuffix(raw[:i], "+"))
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// blanks skips spaces, tabs and line continuations.
func (p *parser) blanks() {
	for !p.eof() {
		switch {
		case p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\r':
			p.pos++
		case p.src[p.pos] == '\\' && p.peek(1) == '\n':
			p.pos += 2
		default:
			return
		}
	}
}

// skipArith skips (( … )) or $(( … )) from the first "(".
func (p *parser) skipArith() error {
	depth := 0
	for !p.eof() {
		switch p.src[p.pos] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				p.pos++
				return nil
			}
		}
		p.pos++
	}
	return p.errorf("unterminated ((")
}

// redirect reads a redirection operator (with its descriptor, if any,
// already consumed up to p.pos) and its target word.
func (p *parser) redirect(cur *Command, start int) error {
	for !p.eof() && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	var op string
	for _, cand := range []string{"<<<", "<<-", "&>>", "<<", ">>", ">|", "<>", ">&", "<&", "&>", "<", ">"} {
		if strings.HasPrefix(p.src[p.pos:], cand) {
			op = cand
			break
		}
	}
	if op == "" {
		return p.errorf("bad redirection at byte %d", start)
	}
	p.pos += len(op)
	p.blanks()
	if (p.peek(0) == '<' || p.peek(0) == '>') && p.peek(1) == '(' {
		// A process substitution: < <(cmd).
		at := p.pos
		p.pos += 2
		vars, tainted := p.vars, p.tainted
		err := p.list(true)
		p.vars, p.tainted = vars, tainted
		if err != nil {
			return err
		}
		raw := p.src[at:p.pos]
		cur.Redirects = append(cur.Redirects, Redirect{Op: op, Target: Word{Raw: raw, Unquoted: raw, Pos: at, Unknown: []string{raw}, Opaque: []string{raw}}})
		return nil
	}
	if p.eof() || strings.IndexByte(";&|()<>\n", p.src[p.pos]) >= 0 {
		return p.errorf("redirection %s without a target", op)
	}
	words, err := p.word(false)
	if err != nil {
		return err
	}
	cur.Redirects = append(cur.Redirects, Redirect{Op: op, Target: words[0]})
	if op == "<<" || op == "<<-" {
		p.heredocs = append(p.heredocs, pendingDoc{op: op, delim: words[0].Text, pos: words[0].Pos})
	}
	return nil
}

// readHeredocs reads the bodies of the here-documents opened on the line
// just ended.
func (p *parser) readHeredocs() error {
	pending := p.heredocs
	p.heredocs = nil
	for _, d := range pending {
		strip := d.op == "<<-"
		var body strings.Builder
		for {
			if p.eof() {
				return p.errorf("here-document ends before %q", d.delim)
			}
			end := strings.IndexByte(p.src[p.pos:], '\n')
			var line string
			if end < 0 {
				line = p.src[p.pos:]
				p.pos = len(p.src)
			} else {
				line = p.src[p.pos : p.pos+end]
				p.pos += end + 1
			}
			check := line
			if strip {
				check = strings.TrimLeft(line, "\t")
			}
			if check == d.delim {
				break
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		// The newline finished the command holding the redirection.
		for i := len(p.out) - 1; i >= 0; i-- {
			for j := range p.out[i].Redirects {
				if r := &p.out[i].Redirects[j]; r.Op == d.op && r.Target.Pos == d.pos {
					r.Body = body.String()
				}
			}
		}
	}
	return nil
}

// field is one field of a word: an unquoted expansion whose value holds
// blanks splits the word into several.
type field struct {
	text, pattern strings.Builder
	glob          bool
	quoted        bool // some part was quoted: the field stays even if empty
}

// wordBuilder accumulates one word.
type wordBuilder struct {
	fields   []*field
	unquoted strings.Builder // see Word.Unquoted
	unknown  []string
	opaque   []string
	quoted   bool // some part was quoted
	assign   bool // an assignment: no field splitting, no pathname expansion
	brk      bool // the next character starts a new field
}

// cur returns the field being written.
func (b *wordBuilder) cur() *field {
	if len(b.fields) == 0 {
		b.fields = append(b.fields, &field{})
	} else if b.brk {
		if f := b.fields[len(b.fields)-1]; f.text.Len() > 0 || f.quoted {
			b.fields = append(b.fields, &field{})
		}
	}
	b.brk = false
	return b.fields[len(b.fields)-1]
}

func (b *wordBuilder) lit(s string, quoted bool) {
	f := b.cur()
	f.text.WriteString(s)
	if quoted {
		f.quoted = true
		for i := 0; i < len(s); i++ {
			if strings.IndexByte(`*?[\`, s[i]) >= 0 {
				f.pattern.WriteByte('\\')
			}
			f.pattern.WriteByte(s[i])
		}
		return
	}
	f.pattern.WriteString(s)
}

// expand writes the value of an expansion: inside quotes (or an
// assignment) as it is; unquoted, split into fields at blanks, and with
// its *, ? and [ wildcards, as the shell does.
func (b *wordBuilder) expand(v string, quoted bool, unknown, opaque []string) {
	b.unknown = append(b.unknown, unknown...)
	b.opaque = append(b.opaque, opaque...)
	if quoted || b.assign {
		b.lit(v, true)
		return
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case ' ', '\t', '\n':
			b.cur() // a field that holds nothing yet stays
			b.brk = true
			continue
		}
		f := b.cur()
		f.text.WriteByte(c)
		switch c {
		case '*', '?', '[':
			f.glob = true
		case '\\':
			f.pattern.WriteByte('\\')
		}
		f.pattern.WriteByte(c)
	}
}

// unknownExp records an expansion whose value is not known; opaque says
// it may be anything, not just empty.
func (b *wordBuilder) unknownExp(raw string, opaque bool) {
	b.cur()
	b.unknown = append(b.unknown, raw)
	if opaque {
		b.opaque = append(b.opaque, raw)
	}
}

// words returns the word's fields as words.
func (b *wordBuilder) words(raw string, pos int) []Word {
	fields := b.fields
	if len(fields) == 0 {
		fields = []*field{{}}
	}
	out := make([]Word, 0, len(fields))
	for _, f := range fields {
		if len(fields) > 1 && f.text.Len() == 0 && !f.quoted {
			continue // an empty field from splitting is removed
		}
		out = append(out, Word{Text: f.text.String(), Raw: raw, Unquoted: b.unquoted.String(), Pos: pos, Glob: f.glob, Pattern: f.pattern.String(), Unknown: b.unknown, Opaque: b.opaque})
	}
	if len(out) == 0 {
		out = append(out, Word{Raw: raw, Unquoted: b.unquoted.String(), Pos: pos, Unknown: b.unknown, Opaque: b.opaque})
	}
	return out
}

// isUserByte reports the bytes of a user name in ~user.
func isUserByte(c byte) bool { return isNameByte(c) || c == '.' || c == '-' }

// tilde expands the ~ at p.pos, if it starts a tilde prefix (~, ~/x,
// ~user, ~+, ~-), and reports whether it did. stop is the byte that may
// end the prefix besides / and the end of the word (':' in an
// assignment).
func (p *parser) tilde(b *wordBuilder, stop byte) bool {
	j := p.pos + 1
	switch {
	case j < len(p.src) && (p.src[j] == '+' || p.src[j] == '-'):
		j++
	default:
		for j < len(p.src) && isUserByte(p.src[j]) {
			j++
		}
	}
	if j < len(p.src) && p.src[j] != '/' && !isWordEnd(p.src[j]) && (stop == 0 || p.src[j] != stop) {
		return false
	}
	user := p.src[p.pos+1 : j]
	raw := p.src[p.pos:j]
	b.unquoted.WriteString(raw)
	p.pos = j
	name := ""
	switch user {
	case "":
		name = "HOME"
	case "+":
		name = "PWD"
	case "-":
		name = "OLDPWD"
	}
	if name != "" {
		v, u, o, unknown := p.value(name)
		if unknown {
			b.unknownExp(raw, name != "HOME")
			return true
		}
		b.expand(v, true, u, o)
		return true
	}
	if v, ok := p.lookup(raw); ok {
		b.expand(v, true, nil, nil)
		return true
	}
	b.unknownExp(raw+" (another user's home folder)", true)
	return true
}

// word reads one word at p.pos; brace expansion and field splitting can
// make it several. assign says the word is an assignment (NAME=value):
// a ~ after = or : expands, and the value is neither split nor expanded
// as braces.
func (p *parser) word(assign bool) ([]Word, error) {
	start := p.pos
	b := wordBuilder{assign: assign}
	braces := false
	tildeAt := start
	eq := false
	var stop byte
	for !p.eof() {
		c := p.src[p.pos]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || strings.IndexByte(";&|()<>", c) >= 0 {
			break
		}
		switch c {
		case '\\':
			if p.peek(1) == '\n' {
				p.pos += 2
				continue
			}
			if p.pos+1 >= len(p.src) {
				p.pos++
				continue
			}
			_, n := utf8.DecodeRuneInString(p.src[p.pos+1:])
			b.lit(p.src[p.pos+1:p.pos+1+n], true)
			b.unquoted.WriteString(p.src[p.pos+1 : p.pos+1+n])
			b.quoted = true
			p.pos += 1 + n
		case '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				return nil, p.errorf("unterminated ' quote")
			}
			b.lit(p.src[p.pos+1:p.pos+1+end], true)
			b.unquoted.WriteString(p.src[p.pos+1 : p.pos+1+end])
			b.quoted = true
			p.pos += end + 2
		case '"':
			p.pos++
			b.lit("", true)
			if err := p.doubleQuoted(&b); err != nil {
				return nil, err
			}
			b.quoted = true
		case '$':
			if p.peek(1) == '\'' {
				s, err := p.ansiC()
				if err != nil {
					return nil, err
				}
				b.lit(s, true)
				b.unquoted.WriteString(s)
				b.quoted = true
				continue
			}
			if p.peek(1) == '"' { // $"…": locale translation, same as "…"
				p.pos++
				continue
			}
			at := p.pos
			if err := p.dollar(&b, false); err != nil {
				return nil, err
			}
			b.unquoted.WriteString(p.src[at:p.pos])
		case '`':
			at := p.pos
			if err := p.backtick(&b, false); err != nil {
				return nil, err
			}
			b.unquoted.WriteString(p.src[at:p.pos])
		case '~':
			if p.pos == tildeAt && p.tilde(&b, stop) {
				continue
			}
			b.unquoted.WriteByte('~')
			b.lit("~", false)
			p.pos++
		case '*', '?', '[':
			f := b.cur()
			f.glob = f.glob || !assign
			b.lit(string(c), false)
			b.unquoted.WriteByte(c)
			p.pos++
		case '{':
			braces = true
			b.lit("{", false)
			b.unquoted.WriteByte('{')
			p.pos++
		default:
			_, n := utf8.DecodeRuneInString(p.src[p.pos:])
			b.lit(p.src[p.pos:p.pos+n], false)
			b.unquoted.WriteString(p.src[p.pos : p.pos+n])
			p.pos += n
			if assign && (c == '=' && !eq || c == ':' && eq) {
				// In an assignment, ~ expands after the = and after
				// each :.
				eq, tildeAt, stop = true, p.pos, ':'
			}
		}
	}
	raw := p.src[start:p.pos]
	if braces && !assign {
		if alts := expandBraces(raw); len(alts) > 1 {
			return p.braceWords(raw, b.unquoted.String(), start, alts)
		}
	}
	return b.words(raw, start), nil
}

func isWordEnd(c byte) bool {
	return c == 0 || c == ' ' || c == '\t' || c == '\r' || c == '\n' || strings.IndexByte(";&|()<>", c) >= 0
}

// braceWords lexes each alternative of a brace expansion as a word of its
// own; they all keep the position, source and unquoted text of the
// original word.
func (p *parser) braceWords(raw, unquoted string, pos int, alts []string) ([]Word, error) {
	var out []Word
	for _, a := range alts {
		sub := &parser{src: a, lookup: p.lookup, depth: p.depth, vars: p.vars, tainted: p.tainted}
		ws, err := sub.word(false)
		if err != nil {
			return nil, err
		}
		// The commands of substitutions inside the word were collected
		// when the whole word was read; sub.out repeats them.
		for _, w := range ws {
			w.Pos = pos
			w.Raw = raw
			w.Unquoted = unquoted
			out = append(out, w)
		}
	}
	return out, nil
}

// doubleQuoted reads the inside of "…" after the opening quote.
func (p *parser) doubleQuoted(b *wordBuilder) error {
	for !p.eof() {
		c := p.src[p.pos]
		switch c {
		case '"':
			p.pos++
			return nil
		case '\\':
			switch p.peek(1) {
			case '\n':
				p.pos += 2
			case '$', '`', '"', '\\':
				b.lit(string(p.src[p.pos+1]), true)
				b.unquoted.WriteByte(p.src[p.pos+1])
				p.pos += 2
			default:
				b.lit(`\`, true)
				b.unquoted.WriteByte('\\')
				p.pos++
			}
		case '$':
			at := p.pos
			if err := p.dollar(b, true); err != nil {
				return err
			}
			b.unquoted.WriteString(p.src[at:p.pos])
		case '`':
			at := p.pos
			if err := p.backtick(b, true); err != nil {
				return err
			}
			b.unquoted.WriteString(p.src[at:p.pos])
		default:
			_, n := utf8.DecodeRuneInString(p.src[p.pos:])
			b.lit(p.src[p.pos:p.pos+n], true)
			b.unquoted.WriteString(p.src[p.pos : p.pos+n])
			p.pos += n
		}
	}
	return p.errorf(`unterminated " quote`)
}

// ansiC reads $'…'.
func (p *parser) ansiC() (string, error) {
	p.pos += 2
	var sb strings.Builder
	for !p.eof() {
		c := p.src[p.pos]
		if c == '\'' {
			p.pos++
			return sb.String(), nil
		}
		if c != '\\' || p.pos+1 >= len(p.src) {
			sb.WriteByte(c)
			p.pos++
			continue
		}
		e := p.src[p.pos+1]
		p.pos += 2
		switch e {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'v':
			sb.WriteByte('\v')
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			n := 0
			for n < max && p.pos+n < len(p.src) && isHex(p.src[p.pos+n]) {
				n++
			}
			if n == 0 {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			v, _ := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
			p.pos += n
			if e == 'x' {
				sb.WriteByte(byte(v))
			} else {
				sb.WriteRune(rune(v))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := 1
			for n < 3 && p.pos-1+n < len(p.src) && p.src[p.pos-1+n] >= '0' && p.src[p.pos-1+n] <= '7' {
				n++
			}
			v, _ := strconv.ParseUint(p.src[p.pos-1:p.pos-1+n], 8, 16)
			p.pos += n - 1
			sb.WriteByte(byte(v))
		default:
			sb.WriteByte(e) // \\ \' \" \? and unknown escapes
		}
	}
	return "", p.errorf("unterminated $' quote")
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// dollar reads an expansion starting at "$".
func (p *parser) dollar(b *wordBuilder, quoted bool) error {
	start := p.pos
	switch n := p.peek(1); {
	case n == '(' && p.peek(2) == '(':
		p.pos++
		if err := p.skipArith(); err != nil {
			return err
		}
		b.unknownExp(p.src[start:p.pos], false) // a number
	case n == '(':
		p.pos += 2
		before := len(p.out)
		vars, tainted := p.vars, p.tainted
		err := p.list(true)
		p.vars, p.tainted = vars, tainted
		if err != nil {
			return err
		}
		p.substitution(b, quoted, p.out[before:], p.src[start:p.pos])
	case n == '{':
		end := matchBrace(p.src, p.pos+1)
		if end < 0 {
			return p.errorf("unterminated ${")
		}
		p.pos = end + 1
		p.param(b, quoted, p.src[start+2:end], p.src[start:p.pos])
	case isName(string(n)) || n >= '0' && n <= '9' || n == '@' || n == '*' || n == '#':
		i := p.pos + 2
		if isName(string(n)) {
			for i < len(p.src) && isNameByte(p.src[i]) {
				i++
			}
		}
		name := p.src[p.pos+1 : i]
		p.pos = i
		if !isName(name) && p.vars.get(name) == nil {
			b.unknownExp("$"+name, false) // a positional parameter the line does not set: empty here
			return nil
		}
		v, u, o, unknown := p.value(name)
		if unknown {
			b.unknownExp("$"+name, false)
			return nil
		}
		b.expand(v, quoted, u, o)
	case strings.IndexByte("?$!-", n) >= 0 && n != 0:
		p.pos += 2
		b.unknownExp(p.src[start:p.pos], false)
	default:
		b.lit("$", quoted)
		p.pos++
	}
	return nil
}

// substitution writes the output of a command substitution whose
// commands are inner, when the parser can work it out (pwd, echo, printf
// with a plain format, mktemp, dirname, basename), and records it as
// opaque otherwise.
func (p *parser) substitution(b *wordBuilder, quoted bool, inner []Command, raw string) {
	if v, u, ok := p.output(inner); ok {
		b.expand(v, quoted, u, nil)
		return
	}
	b.unknownExp(raw, true)
}

// output works out what the commands of a substitution print.
func (p *parser) output(inner []Command) (string, []string, bool) {
	if len(inner) != 1 || len(inner[0].Redirects) > 0 || len(inner[0].Args) == 0 || len(inner[0].Assigns) > 0 {
		return "", nil, false
	}
	args := inner[0].Args
	var unknown []string
	for _, a := range args {
		unknown = append(unknown, a.Unknown...)
	}
	texts := make([]string, len(args))
	for i, a := range args {
		texts[i] = a.Text
	}
	switch ProgramName(args[0]) {
	case "pwd":
		v, u, o, unk := p.value("PWD")
		if unk || len(o) > 0 {
			return "", nil, false
		}
		return v, u, true
	case "echo", "printf":
		return printed(args)
	case "mktemp":
		// A name that did not exist: never a folder the caller already
		// has. The parent it is made in is not worked out.
		return "/tmp/tmp.XXXXXXXXXX", nil, true
	case "dirname", "basename":
		if len(texts) != 2 || len(unknown) > 0 || strings.HasPrefix(texts[1], "-") {
			return "", nil, false
		}
		if ProgramName(args[0]) == "dirname" {
			return path.Dir(texts[1]), nil, true
		}
		return path.Base(texts[1]), nil, true
	}
	return "", nil, false
}

// matchBrace returns the index of the "}" that closes the "{" at open.
func matchBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// param expands ${inner}.
func (p *parser) param(b *wordBuilder, quoted bool, inner, raw string) {
	if strings.HasPrefix(inner, "#") && (isName(inner[1:]) || inner == "#") {
		b.lit("0", true) // a length: some number
		return
	}
	i := 0
	for i < len(inner) && isNameByte(inner[i]) && !(i == 0 && inner[i] >= '0' && inner[i] <= '9') {
		i++
	}
	if i == 0 && len(inner) > 0 && (inner[0] >= '0' && inner[0] <= '9' || inner[0] == '@' || inner[0] == '*') {
		i = 1
		for inner[0] >= '0' && inner[0] <= '9' && i < len(inner) && inner[i] >= '0' && inner[i] <= '9' {
			i++
		}
	}
	name, rest := inner[:i], inner[i:]
	if name == "" {
		b.unknownExp(raw, false)
		return
	}
	v, u, o, unknownVar := p.value(name)
	if !isName(name) && p.vars.get(name) == nil {
		unknownVar = true // a positional parameter the line does not set
	}
	if len(o) > 0 {
		// A value the parser cannot work out: so is every form of it.
		b.unknown = append(b.unknown, u...)
		b.unknown = append(b.unknown, o...)
		b.opaque = append(b.opaque, o...)
		b.unknownExp(raw, true)
		return
	}
	known := !unknownVar
	set := known && v != ""
	op := ""
	for _, cand := range []string{":-", ":=", ":?", ":+", "-", "=", "?", "+"} {
		if strings.HasPrefix(rest, cand) {
			op = cand
			break
		}
	}
	arg := strings.Trim(strings.TrimPrefix(rest, op), `"'`)
	switch {
	case rest == "":
		if known {
			b.expand(v, quoted, u, nil)
		} else {
			b.unknownExp(raw, false)
		}
	case op == ":-" || op == ":=" || op == "-" || op == "=":
		if set {
			b.expand(v, quoted, u, nil)
		} else if known && v == "" && (op == "-" || op == "=") {
			// set but empty: stays empty
		} else {
			b.expand(arg, quoted, nil, nil)
		}
	case op == ":?" || op == "?":
		if known {
			b.expand(v, quoted, u, nil)
		} else {
			// The shell stops the command when it is unset or empty:
			// whatever runs has a non-empty value here.
			b.lit("\x00"+name, true)
		}
	case op == ":+" || op == "+":
		if set {
			b.expand(arg, quoted, nil, nil)
		} else if !known {
			b.unknownExp(raw, false)
		}
	default: // ${x%…} ${x#…} ${x/…} ${x:1:2}: some value we do not work out
		b.unknownExp(raw, known)
	}
}

// backtick reads `…` and parses its inside as nested commands.
func (p *parser) backtick(b *wordBuilder, quoted bool) error {
	start := p.pos
	var inner strings.Builder
	p.pos++
	for {
		if p.eof() {
			return p.errorf("unterminated ` quote")
		}
		c := p.src[p.pos]
		if c == '`' {
			p.pos++
			break
		}
		if c == '\\' && p.pos+1 < len(p.src) && strings.IndexByte("$`\\", p.src[p.pos+1]) >= 0 {
			inner.WriteByte(p.src[p.pos+1])
			p.pos += 2
			continue
		}
		inner.WriteByte(c)
		p.pos++
	}
	sub := &parser{src: inner.String(), lookup: p.lookup, depth: p.depth + 1, vars: p.vars, tainted: p.tainted}
	if sub.depth > maxDepth {
		return ErrTooDeep
	}
	if err := sub.list(false); err != nil {
		return err
	}
	offset := len(p.out)
	for _, c := range sub.out {
		c.Nested = true
		c.Pos, c.End = start, p.pos
		if c.From >= 0 {
			c.From += offset
		}
		p.out = append(p.out, c)
	}
	p.substitution(b, quoted, sub.out, p.src[start:p.pos])
	return nil
}

// maxBraceWords caps brace expansion; a word that would expand to more
// words, or nest braces deeper than maxBraceDepth, is kept as it is.
const (
	maxBraceWords = 256
	maxBraceDepth = 16
)

// expandBraces performs brace expansion on a raw word, honouring quotes;
// it returns the word itself when there is nothing to expand, or too
// much.
func expandBraces(raw string) []string {
	budget := 4 * maxBraceWords
	out, ok := expandWithin(raw, &budget, 0)
	if !ok || len(out) > maxBraceWords {
		return []string{raw}
	}
	return out
}

// expandWithin expands the first brace group of raw and, recursively,
// the rest; every word it makes costs one unit of budget.
func expandWithin(raw string, budget *int, depth int) ([]string, bool) {
	if depth > maxBraceDepth {
		return nil, false
	}
	open, commas, close := -1, []int(nil), -1
	level := 0
	var quote byte
	for i := 0; i < len(raw) && close < 0; i++ {
		c := raw[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && i+1 < len(raw) && raw[i+1] == '{':
			if end := matchBrace(raw, i+1); end > 0 {
				i = end
			}
		case c == '{':
			if level == 0 {
				open, commas = i, nil
			}
			level++
		case c == ',' && level == 1:
			commas = append(commas, i)
		case c == '}' && level > 0:
			level--
			if level == 0 {
				if len(commas) > 0 {
					close = i
				} else {
					open = -1
				}
			}
		}
	}
	if close < 0 {
		return []string{raw}, true
	}
	pre, post := raw[:open], raw[close+1:]
	tails, ok := expandWithin(post, budget, depth+1)
	if !ok {
		return nil, false
	}
	var out []string
	last := open + 1
	for _, c := range append(commas, close) {
		mids, ok := expandWithin(raw[last:c], budget, depth+1)
		if !ok {
			return nil, false
		}
		for _, mid := range mids {
			for _, tail := range tails {
				if *budget--; *budget < 0 {
					return nil, false
				}
				out = append(out, pre+mid+tail)
			}
		}
		last = c + 1
	}
	return out, true
}
