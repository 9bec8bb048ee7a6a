// Package jsre compiles JavaScript regular expressions, as Claude Code's
// `new RegExp(source)` reads them (no flags, so not in unicode mode, with
// the web-compatibility grammar of ECMAScript Annex B), into Go regular
// expressions that accept exactly the same strings.
//
// The translation works on UTF-16 code units, as JavaScript does: a
// character outside the Basic Multilingual Plane is two code units, which
// `.` or `[^a]` match one at a time. [Regexp.Test] maps such characters of
// its input to two private runes before matching, so `^.$` does not match
// "😀" here either.
//
// The regexp modifiers of ES2025, which Claude Code's engine accepts, are
// translated: `(?i:…)` with JavaScript's own case folding (not Go's: /k/i
// does not match the Kelvin sign), `(?s:…)` and their `-` forms.
//
// What RE2 cannot express — lookahead, lookbehind, back-references, `^`
// and `$` inside a multiline `(?m:…)` group (RE2 ends lines at \n only),
// repeat counts over 1000 — is an [Error] of kind [Unsupported], never a
// silently different match. Syntax that only Go or
// PCRE read the way its author meant (`\z`, `\A`, `\pL`, `[[:alpha:]]`) is
// compiled with its JavaScript meaning and reported as an [Error] of kind
// [GoSyntax] next to the usable Regexp.
package jsre

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind classifies an [Error].
type Kind int

const (
	// Invalid is a JavaScript SyntaxError: `new RegExp` throws, and
	// Claude Code's matcher matches nothing.
	Invalid Kind = iota + 1
	// Unsupported is valid JavaScript that RE2 cannot express; no Regexp
	// is returned.
	Unsupported
	// GoSyntax is valid JavaScript written with syntax that means
	// something else in Go or PCRE; the Regexp returned with it has the
	// JavaScript meaning.
	GoSyntax
)

// Error describes why a source did not compile as its author may have
// meant it.
type Error struct {
	Kind Kind
	// Offset is the UTF-16 code unit offset in the source where the
	// trouble starts.
	Offset int
	// Msg says what is wrong, without the source.
	Msg string
}

// Error returns the message with its offset.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (at offset %d)", e.Msg, e.Offset)
}

// Regexp is a compiled JavaScript regular expression.
type Regexp struct {
	re     *regexp.Regexp
	source string
}

// String returns the JavaScript source.
func (r *Regexp) String() string { return r.source }

// GoRegexp returns the Go regular expression that Test runs, over the
// mapped code units (see the package doc); for diagnostics.
func (r *Regexp) GoRegexp() string { return r.re.String() }

// Test reports whether s contains a match, as RegExp.prototype.test does
// for a regular expression without flags.
func (r *Regexp) Test(s string) bool {
	return r.re.MatchString(toUnits(s))
}

// surrogateBase is where the 2048 UTF-16 surrogate code units are mapped:
// a block of the Supplementary Private Use Area-A that no converted string
// can hold otherwise, since every astral rune is converted.
const surrogateBase = 0xF0000

// unitRune returns the rune that stands for the UTF-16 code unit c.
func unitRune(c uint16) rune {
	if c >= 0xD800 && c <= 0xDFFF {
		return surrogateBase + rune(c-0xD800)
	}
	return rune(c)
}

// toUnits returns s with every rune outside the BMP replaced by the runes
// of its two surrogate code units.
func toUnits(s string) string {
	i := 0
	for i < len(s) && s[i] < 0xF0 {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r > 0xFFFF {
			hi, lo := utf16.EncodeRune(r)
			b.WriteRune(unitRune(uint16(hi)))
			b.WriteRune(unitRune(uint16(lo)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Compile parses src as a JavaScript regular expression without flags and
// returns the equivalent Go program. The error is an *[Error]. With kind
// GoSyntax, the Regexp is returned too; with the other kinds it is nil.
func Compile(src string) (*Regexp, error) {
	p := &parser{src: utf16.Encode([]rune(src))}
	if !utf8.ValidString(src) {
		return nil, &Error{Kind: Invalid, Msg: "the source is not valid UTF-8"}
	}
	p.prescan()
	p.disjunction()
	if p.err == nil && p.pos < len(p.src) {
		// disjunction stops only at ')' outside a group.
		p.fail(p.pos, "unmatched ')'")
	}
	if p.abort {
		return nil, p.unsupported
	}
	if p.err != nil {
		return nil, p.err
	}
	if p.unsupported != nil {
		return nil, p.unsupported
	}
	re, err := regexp.Compile(p.out.String())
	if err != nil {
		return nil, &Error{Kind: Unsupported, Msg: "RE2 cannot express this regular expression: " + err.Error()}
	}
	r := &Regexp{re: re, source: src}
	if p.goSyntax != nil {
		return r, p.goSyntax
	}
	return r, nil
}

// flags are the regexp modifiers in force.
type flags struct{ ignoreCase, multiline, dotAll bool }

// maxDepth bounds the nesting of groups; RE2 refuses deeper nesting
// anyway.
const maxDepth = 1000

type parser struct {
	src []uint16
	pos int
	out strings.Builder

	groups      int             // capturing groups in the whole source
	names       map[string]bool // group names in the whole source
	namedGroups bool
	seenNames   map[string]bool

	flags flags // the modifiers in force
	depth int   // groups open
	abort bool  // parsing stopped on a construct too deep to follow

	err         *Error // the first syntax error
	unsupported *Error // the first construct RE2 cannot express
	goSyntax    *Error // the first Go-only spelling
}

func (p *parser) fail(at int, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Kind: Invalid, Offset: at, Msg: "invalid JavaScript regular expression: " + fmt.Sprintf(format, args...)}
	}
}

func (p *parser) cannot(at int, what string) {
	if p.unsupported == nil {
		p.unsupported = &Error{Kind: Unsupported, Offset: at, Msg: what + " cannot be expressed in RE2 (Go's regexp); rewrite the matcher without it"}
	}
}

func (p *parser) goOnly(at int, format string, args ...any) {
	if p.goSyntax == nil {
		p.goSyntax = &Error{Kind: GoSyntax, Offset: at, Msg: fmt.Sprintf(format, args...) + " (Claude Code reads matchers as JavaScript regular expressions)"}
	}
}

func (p *parser) more() bool { return p.pos < len(p.src) && p.err == nil && !p.abort }

func (p *parser) peek() rune {
	if p.pos < len(p.src) {
		return rune(p.src[p.pos])
	}
	return -1
}

func (p *parser) at(off int) rune {
	if i := p.pos + off; i < len(p.src) {
		return rune(p.src[i])
	}
	return -1
}

func (p *parser) hasPrefix(s string) bool {
	for i := 0; i < len(s); i++ {
		if p.at(i) != rune(s[i]) {
			return false
		}
	}
	return true
}

// prescan counts the capturing groups and collects the group names of the
// whole source: whether `\2` is a back-reference and whether `\k` is one
// depend on them.
func (p *parser) prescan() {
	inClass := false
	for i := 0; i < len(p.src); i++ {
		switch c := p.src[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			if i+1 < len(p.src) && p.src[i+1] == '?' {
				if i+2 < len(p.src) && p.src[i+2] == '<' && i+3 < len(p.src) && p.src[i+3] != '=' && p.src[i+3] != '!' {
					p.groups++
					p.namedGroups = true
					if name, _, ok := groupName(p.src, i+3); ok {
						if p.names == nil {
							p.names = map[string]bool{}
						}
						p.names[name] = true
					}
				}
				continue
			}
			p.groups++
		}
	}
}

// groupName reads an identifier ending with '>' at src[i:], returning it
// and the index just past '>'.
func groupName(src []uint16, i int) (string, int, bool) {
	start := i
	for i < len(src) && src[i] != '>' {
		c := rune(src[i])
		ok := c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7F ||
			i > start && c >= '0' && c <= '9'
		if !ok {
			return "", i, false
		}
		i++
	}
	if i == start || i == len(src) {
		return "", i, false
	}
	return string(utf16.Decode(src[start:i])), i + 1, true
}

// disjunction parses alternatives up to an unmatched ')' or the end.
func (p *parser) disjunction() {
	p.alternative()
	for p.more() && p.peek() == '|' {
		p.pos++
		p.out.WriteByte('|')
		p.alternative()
	}
}

// alternative parses terms up to '|', ')' or the end.
func (p *parser) alternative() {
	for p.more() {
		c := p.peek()
		if c == '|' || c == ')' {
			return
		}
		p.term()
	}
}

// term parses one assertion or atom and its quantifier.
func (p *parser) term() {
	quantifiable := true
	c := p.peek()
	switch c {
	case '^', '$':
		if p.flags.multiline {
			p.cannot(p.pos, "a "+string(c)+" inside a multiline (?m:…) group")
		}
		p.pos++
		p.out.WriteRune(c)
		quantifiable = false
	case '\\':
		if r := p.at(1); r == 'b' || r == 'B' {
			p.pos += 2
			p.out.WriteString(`\` + string(r))
			quantifiable = false
		} else {
			p.atomEscape()
		}
	case '(':
		quantifiable = p.group()
	case '.':
		p.pos++
		if p.flags.dotAll {
			p.out.WriteString(`[\x00-\x{10FFFF}]`)
		} else {
			p.out.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		}
	case '[':
		p.class()
	case '*', '+', '?':
		p.fail(p.pos, "nothing to repeat")
		return
	case '{':
		if _, _, n, ok := p.braced(p.pos); ok {
			p.fail(p.pos, "nothing to repeat")
			p.pos += n
			return
		}
		p.pos++
		p.literal('{')
	default: // ']' and '}' are literals in Annex B
		p.pos++
		p.literal(uint16(c))
	}
	if p.err != nil || !p.more() {
		return
	}
	p.quantifier(quantifiable)
}

// quantifier parses an optional quantifier after the atom just written.
func (p *parser) quantifier(quantifiable bool) {
	var q string
	qat := p.pos
	switch p.peek() {
	case '*', '+', '?':
		q = string(p.peek())
		p.pos++
	case '{':
		lo, hi, n, ok := p.braced(p.pos)
		if !ok {
			return // a literal '{', read by the next term
		}
		p.pos += n
		if hi >= 0 && hi < lo {
			p.fail(qat, "numbers out of order in {} quantifier")
			return
		}
		if lo > 1000 || hi > 1000 {
			p.cannot(qat, "a repeat count over 1000")
		}
		switch {
		case hi == lo:
			q = fmt.Sprintf("{%d}", clampCount(lo))
		case hi < 0:
			q = fmt.Sprintf("{%d,}", clampCount(lo))
		default:
			q = fmt.Sprintf("{%d,%d}", clampCount(lo), clampCount(hi))
		}
	default:
		return
	}
	if !quantifiable {
		p.fail(qat, "nothing to repeat")
		return
	}
	lazy := false
	if p.peek() == '?' {
		p.pos++
		lazy = true
	}
	// Every atom is written as one RE2 atom (a literal, a class or a
	// group), so the quantifier applies to all of it.
	p.out.WriteString(q)
	if lazy {
		p.out.WriteByte('?')
	}
	switch p.peek() {
	case '*', '+', '?':
		p.fail(p.pos, "nothing to repeat")
	case '{':
		if _, _, _, ok := p.braced(p.pos); ok {
			p.fail(p.pos, "nothing to repeat")
		}
	}
}

func clampCount(n int64) int64 {
	if n > 1000 {
		return 1000
	}
	return n
}

// braced reads a {n}, {n,} or {n,m} quantifier at src[i:]; hi is -1 for
// {n,}. Counts are int64 on every target and saturate rather than
// overflow, so their order is kept up to 2^40.
func (p *parser) braced(i int) (lo, hi int64, n int, ok bool) {
	j := i + 1
	num := func() (int64, bool) {
		s := j
		var v int64
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			if v < 1<<40 {
				v = v*10 + int64(p.src[j]-'0')
			}
			j++
		}
		return v, j > s
	}
	lo, ok = num()
	if !ok {
		return 0, 0, 0, false
	}
	hi = lo
	if j < len(p.src) && p.src[j] == ',' {
		j++
		if j < len(p.src) && p.src[j] == '}' {
			hi = -1
		} else if hi, ok = num(); !ok {
			return 0, 0, 0, false
		}
	}
	if j >= len(p.src) || p.src[j] != '}' {
		return 0, 0, 0, false
	}
	return lo, hi, j + 1 - i, true
}

// group parses a parenthesised group and reports whether it may take a
// quantifier.
func (p *parser) group() bool {
	open := p.pos
	quantifiable := true
	if p.depth >= maxDepth {
		p.cannot(open, fmt.Sprintf("nesting groups deeper than %d", maxDepth))
		p.abort = true
		return false
	}
	p.depth++
	defer func() { p.depth-- }()
	p.pos++
	if p.peek() == '?' {
		switch {
		case p.hasPrefix("?:"):
			p.pos += 2
		case p.hasPrefix("?="), p.hasPrefix("?!"):
			p.cannot(open, "a lookahead "+string(utf16.Decode(p.src[open:p.pos+2]))+"…)")
			p.pos += 2
		case p.hasPrefix("?<="), p.hasPrefix("?<!"):
			p.cannot(open, "a lookbehind "+string(utf16.Decode(p.src[open:p.pos+3]))+"…)")
			p.pos += 3
			quantifiable = false
		case p.hasPrefix("?<"):
			name, end, ok := groupName(p.src, p.pos+2)
			if !ok {
				p.fail(open, "invalid capture group name")
				return false
			}
			if p.seenNames[name] {
				p.fail(open, "duplicate capture group name %q", name)
				return false
			}
			if p.seenNames == nil {
				p.seenNames = map[string]bool{}
			}
			p.seenNames[name] = true
			p.pos = end
		case p.hasPrefix("?P<"), p.hasPrefix("?P="), p.hasPrefix("?P>"):
			p.fail(open, "invalid group: (?P<name>…) is Go and Python syntax; JavaScript names a group (?<name>…)")
			return false
		default:
			if n := p.modifiers(p.pos + 1); n > 0 {
				f, ok := p.applyModifiers(p.src[p.pos+1 : p.pos+n])
				if !ok {
					p.fail(open, "invalid regular expression modifiers")
					return false
				}
				p.pos += 1 + n
				saved := p.flags
				p.flags = f
				defer func() { p.flags = saved }()
				break
			}
			if p.modifierOnly(p.pos + 1) {
				p.fail(open, "invalid group: a flag group such as (?i) is Go and PCRE syntax; JavaScript takes no inline flags")
			} else {
				p.fail(open, "invalid group")
			}
			return false
		}
	}
	p.out.WriteString("(?:")
	p.disjunction()
	if p.err != nil {
		return false
	}
	if p.peek() != ')' {
		p.fail(open, "missing )")
		return false
	}
	p.pos++
	p.out.WriteByte(')')
	return quantifiable
}

// applyModifiers returns the flags in force inside a group with the
// modifiers mods ("ims-ims"): each flag at most once, at least one flag,
// none both added and removed.
func (p *parser) applyModifiers(mods []uint16) (flags, bool) {
	f := p.flags
	seen := map[uint16]bool{}
	on, any := true, false
	for _, c := range mods {
		if c == '-' {
			if !on {
				return f, false
			}
			on = false
			continue
		}
		if seen[c] {
			return f, false
		}
		seen[c], any = true, true
		switch c {
		case 'i':
			f.ignoreCase = on
		case 'm':
			f.multiline = on
		case 's':
			f.dotAll = on
		}
	}
	return f, any
}

// modifiers returns the length of "ims-ims:" at src[i:], or 0.
func (p *parser) modifiers(i int) int {
	j := i
	for j < len(p.src) && strings.ContainsRune("ims-", rune(p.src[j])) {
		j++
	}
	if j > i && j < len(p.src) && p.src[j] == ':' {
		return j + 1 - i
	}
	return 0
}

// modifierOnly reports whether src[i:] starts with letters and a ')', as
// in the Go flag group (?i).
func (p *parser) modifierOnly(i int) bool {
	j := i
	for j < len(p.src) && (p.src[j] >= 'a' && p.src[j] <= 'z' || p.src[j] >= 'A' && p.src[j] <= 'Z' || p.src[j] == '-') {
		j++
	}
	return j > i && j < len(p.src) && p.src[j] == ')'
}

// literal writes the code unit c as a Go literal, or the class of its
// case variants inside (?i:…).
func (p *parser) literal(c uint16) {
	if p.flags.ignoreCase {
		p.out.WriteString(ranges{{rune(c), rune(c)}}.foldCase().goClass())
		return
	}
	fmt.Fprintf(&p.out, `\x{%X}`, unitRune(c))
}

// atomEscape parses a backslash escape outside a class.
func (p *parser) atomEscape() {
	start := p.pos
	p.pos++ // the backslash
	c := p.peek()
	if c < 0 {
		p.fail(start, `\ at end of pattern`)
		return
	}
	switch {
	case c >= '1' && c <= '9':
		j := p.pos
		v := 0
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			if v < 1<<27 {
				v = v*10 + int(p.src[j]-'0')
			}
			j++
		}
		if v <= p.groups {
			p.cannot(start, "a back-reference \\"+strconv.Itoa(v))
			p.pos = j
			p.out.WriteString(`(?:)`)
			return
		}
		if c >= '8' {
			p.pos++
			p.literal(uint16(c))
			return
		}
		p.literal(p.octal())
		return
	case c == 'k':
		if !p.namedGroups {
			p.pos++
			p.literal('k')
			return
		}
		if p.at(1) != '<' {
			p.fail(start, "invalid named reference")
			return
		}
		name, end, ok := groupName(p.src, p.pos+2)
		if !ok || !p.names[name] {
			p.fail(start, "invalid named reference")
			return
		}
		p.cannot(start, "a back-reference \\k<"+name+">")
		p.pos = end
		p.out.WriteString(`(?:)`)
		return
	}
	if set, ok := p.classEscape(); ok {
		if p.flags.ignoreCase {
			set = set.foldCase()
		}
		p.out.WriteString(set.goClass())
		return
	}
	p.pos = start
	if cu, ok := p.characterEscape(false); ok {
		p.literal(cu)
	}
}

// octal reads a legacy octal escape (after the backslash).
func (p *parser) octal() uint16 {
	first := p.peek() - '0'
	v := first
	p.pos++
	max := 1
	if first <= 3 {
		max = 2
	}
	for i := 0; i < max; i++ {
		d := p.peek()
		if d < '0' || d > '7' {
			break
		}
		v = v*8 + d - '0'
		p.pos++
	}
	return uint16(v)
}

// classEscape parses \d \D \s \S \w \W at the escaped character and
// returns its set.
func (p *parser) classEscape() (set ranges, ok bool) {
	switch p.peek() {
	case 'd':
		set = digitSet()
	case 'D':
		set = digitSet().negate()
	case 's':
		set = spaceSet()
	case 'S':
		set = spaceSet().negate()
	case 'w':
		set = wordSet()
	case 'W':
		set = wordSet().negate()
	default:
		return nil, false
	}
	p.pos++
	return set, true
}

// characterEscape parses a character escape at the backslash and returns
// its code unit; inClass selects the class rules (\b is a backspace, \c
// takes digits and _). A "\c" not followed by a control letter is a
// literal backslash (the 'c' is read next).
func (p *parser) characterEscape(inClass bool) (uint16, bool) {
	start := p.pos
	p.pos++
	c := p.peek()
	p.pos++
	switch c {
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'b':
		if inClass {
			return '\b', true
		}
	case '0':
		if d := p.peek(); d >= '0' && d <= '9' {
			if d >= '8' {
				return 0, true // \0 then a literal 8 or 9
			}
			p.pos--
			return p.octal(), true
		}
		return 0, true
	case 'c':
		l := p.peek()
		if l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' || inClass && (l >= '0' && l <= '9' || l == '_') {
			p.pos++
			return uint16(l % 32), true
		}
		p.pos = start + 1 // the backslash alone, then "c"
		return '\\', true
	case 'x':
		if v, ok := p.hex(2); ok {
			return uint16(v), true
		}
		return 'x', true
	case 'u':
		if v, ok := p.hex(4); ok {
			return uint16(v), true
		}
		return 'u', true
	}
	if c >= '1' && c <= '7' && inClass {
		p.pos--
		return p.octal(), true
	}
	// An identity escape: the character itself.
	switch c {
	case 'A', 'z', 'Z':
		p.goOnly(start, `\%c is a literal %q in JavaScript, not an anchor; use ^ and $`, c, string(c))
	case 'p', 'P':
		p.goOnly(start, `\%c is a literal %q in JavaScript without the u flag, not a Unicode class`, c, string(c))
	case 'Q', 'E':
		p.goOnly(start, `\%c is a literal %q in JavaScript; there is no \Q…\E quoting`, c, string(c))
	case 'a', 'C', 'h', 'H', 'G', 'K', 'R', 'X', 'e':
		p.goOnly(start, `\%c is a literal %q in JavaScript`, c, string(c))
	}
	return uint16(c), true
}

// hex reads n hex digits, or none.
func (p *parser) hex(n int) (int, bool) {
	v := 0
	for i := 0; i < n; i++ {
		d := p.at(i)
		switch {
		case d >= '0' && d <= '9':
			v = v*16 + int(d-'0')
		case d >= 'a' && d <= 'f':
			v = v*16 + int(d-'a'+10)
		case d >= 'A' && d <= 'F':
			v = v*16 + int(d-'A'+10)
		default:
			return 0, false
		}
	}
	p.pos += n
	return v, true
}

// class parses a character class.
func (p *parser) class() {
	open := p.pos
	p.pos++
	negate := false
	if p.peek() == '^' {
		negate = true
		p.pos++
	}
	if p.hasPrefix("[:") || p.hasPrefix("[=") || p.hasPrefix("[.") {
		p.goOnly(p.pos, "%s is not a POSIX class in JavaScript: '[' is a member of the class, which ends at the first ']'", posixName(p.src[p.pos:]))
	}
	var set ranges
	for {
		if p.pos >= len(p.src) {
			p.fail(open, "missing terminating ] for character class")
			return
		}
		if p.peek() == ']' {
			p.pos++
			break
		}
		a, aSet := p.classAtom()
		if p.err != nil {
			return
		}
		if p.peek() == '-' && p.at(1) != ']' && p.at(1) >= 0 {
			p.pos++
			b, bSet := p.classAtom()
			if p.err != nil {
				return
			}
			if aSet != nil || bSet != nil {
				// Annex B: a class escape at either end makes the '-' a
				// member.
				set = set.union(aSet).union(bSet).add('-', '-')
				if aSet == nil {
					set = set.add(a, a)
				}
				if bSet == nil {
					set = set.add(b, b)
				}
				continue
			}
			if b < a {
				p.fail(open, "range out of order in character class")
				return
			}
			set = set.add(a, b)
			continue
		}
		if aSet != nil {
			set = set.union(aSet)
		} else {
			set = set.add(a, a)
		}
	}
	set = set.normalize()
	if p.flags.ignoreCase {
		set = set.foldCase()
	}
	if negate {
		set = set.negate()
	}
	p.out.WriteString(set.goClass())
}

func posixName(src []uint16) string {
	for i := 1; i < len(src) && i < 20; i++ {
		if src[i] == ']' {
			return string(utf16.Decode(src[:i+1]))
		}
	}
	return "[:…:]"
}

// classAtom parses one class member: a code unit, or a class escape's set.
func (p *parser) classAtom() (rune, ranges) {
	if p.peek() != '\\' {
		c := p.peek()
		p.pos++
		return c, nil
	}
	if p.at(1) < 0 {
		p.fail(p.pos, `\ at end of pattern`)
		return 0, nil
	}
	save := p.pos
	p.pos++
	if set, ok := p.classEscape(); ok {
		return 0, set
	}
	p.pos = save
	if p.at(1) == '-' {
		p.pos += 2
		return '-', nil
	}
	cu, _ := p.characterEscape(true)
	return rune(cu), nil
}
