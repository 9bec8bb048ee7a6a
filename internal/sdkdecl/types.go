package sdkdecl

import (
	"fmt"
	"strings"
)

// Type is a parsed TypeScript type expression: one of *Object, *Ref,
// *Union, *Intersection, *Literal, *Array, *Tuple, *Func or *Other.
type Type interface{ isType() }

// Object is an object type: an object literal type ({ … }) or the body of
// an interface.
type Object struct {
	// Members are the property and method members, in source order.
	Members []Member
	// Open is set when the object has an index signature ([k: string]: T)
	// or is a mapped type, so it may hold members of any name.
	Open bool
	// Extends names the interfaces an interface extends.
	Extends []Type
}

// Member is a property or method of an object type.
type Member struct {
	Name     string
	Optional bool
	Readonly bool
	// Type is the member's type; a method's type is a *Func.
	Type Type
}

// Ref is a reference to a named type, such as string, BaseHookInput or
// Record<string, unknown>.
type Ref struct {
	// Name is the name as written, qualified names joined with dots.
	Name string
	Args []Type
}

// Union is A | B | ….
type Union struct{ Types []Type }

// Intersection is A & B & ….
type Intersection struct{ Types []Type }

// Literal is a literal type: a string, number, template, true, false,
// null or undefined.
type Literal struct {
	// Kind is "string", "number", "template", "boolean", "null" or
	// "undefined".
	Kind string
	// Value is the string's value, or the literal as written.
	Value string
}

// Array is T[] or Array<T> / ReadonlyArray<T>.
type Array struct{ Elem Type }

// Tuple is [A, B, …], possibly readonly.
type Tuple struct{ Elems []Type }

// Func is a function or constructor type; its parameters are not kept.
type Func struct{ Result Type }

// Other is a type the reader does not model further: typeof, keyof,
// indexed access, conditional types and the like. Text is the expression
// as written, tokens joined by spaces.
type Other struct{ Text string }

func (*Object) isType()       {}
func (*Ref) isType()          {}
func (*Union) isType()        {}
func (*Intersection) isType() {}
func (*Literal) isType()      {}
func (*Array) isType()        {}
func (*Tuple) isType()        {}
func (*Func) isType()         {}
func (*Other) isType()        {}

// parser parses type expressions from a slice of tokens, which ends with
// a tokEOF token.
type parser struct {
	toks []token
	pos  int
	// depth is how deeply the type being parsed nests.
	depth int
}

// maxNesting bounds how deeply a type expression may nest, so a hostile
// file cannot exhaust the stack.
const maxNesting = 200

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) peekAt(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

// is reports whether the next token is the punctuation or keyword s.
func (p *parser) is(s string) bool {
	t := p.peek()
	return (t.kind == tokPunct || t.kind == tokIdent) && t.text == s
}

// accept consumes the next token if it is s.
func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(s string) error {
	if !p.accept(s) {
		t := p.peek()
		return fmt.Errorf("line %d: want %q, found %q", t.line, s, t.text)
	}
	return nil
}

// skipBalanced skips a bracketed group that starts at the next token,
// which must be one of ( [ { <, up to and including its closing bracket.
func (p *parser) skipBalanced() error {
	var stack []string
	closer := map[string]string{"(": ")", "[": "]", "{": "}", "<": ">"}
	for {
		t := p.next()
		if t.kind == tokEOF {
			return fmt.Errorf("line %d: unbalanced brackets", t.line)
		}
		if t.kind != tokPunct {
			continue
		}
		if c, ok := closer[t.text]; ok {
			stack = append(stack, c)
			continue
		}
		if len(stack) > 0 && t.text == stack[len(stack)-1] {
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return nil
			}
		}
	}
}

// parseType parses a whole type expression, conditional types included.
func (p *parser) parseType() (Type, error) {
	start := p.pos
	t, err := p.parseUnion()
	if err != nil {
		return nil, err
	}
	if p.is("extends") && p.peek().kind == tokIdent {
		// A conditional type: T extends U ? X : Y.
		p.next()
		if _, err := p.parseUnion(); err != nil {
			return nil, err
		}
		if err := p.expect("?"); err != nil {
			return nil, err
		}
		if _, err := p.parseType(); err != nil {
			return nil, err
		}
		if err := p.expect(":"); err != nil {
			return nil, err
		}
		if _, err := p.parseType(); err != nil {
			return nil, err
		}
		return &Other{Text: p.text(start)}, nil
	}
	return t, nil
}

// text returns the tokens from start to the current position, joined.
func (p *parser) text(start int) string {
	var parts []string
	for _, t := range p.toks[start:p.pos] {
		parts = append(parts, t.text)
	}
	return strings.Join(parts, " ")
}

func (p *parser) parseUnion() (Type, error) {
	return p.parseJoined("|", p.parseIntersection, func(ts []Type) Type { return &Union{Types: ts} })
}

func (p *parser) parseIntersection() (Type, error) {
	return p.parseJoined("&", p.parsePostfix, func(ts []Type) Type { return &Intersection{Types: ts} })
}

// parseJoined parses types read by next and separated by op (with an
// optional leading op, as TypeScript allows), and returns the one type, or
// join of all of them.
func (p *parser) parseJoined(op string, next func() (Type, error), join func([]Type) Type) (Type, error) {
	p.accept(op)
	var types []Type
	for {
		t, err := next()
		if err != nil {
			return nil, err
		}
		types = append(types, t)
		if !p.accept(op) {
			break
		}
	}
	if len(types) == 1 {
		return types[0], nil
	}
	return join(types), nil
}

// parsePostfix parses a primary type followed by [] and [K] suffixes.
func (p *parser) parsePostfix() (Type, error) {
	start := p.pos
	t, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	for p.is("[") {
		if p.peekAt(1).text == "]" {
			p.pos += 2
			t = &Array{Elem: t}
			continue
		}
		p.next()
		if _, err := p.parseType(); err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		t = &Other{Text: p.text(start)}
	}
	return t, nil
}

func (p *parser) parsePrimary() (Type, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, fmt.Errorf("line %d: types nest deeper than %d", p.peek().line, maxNesting)
	}
	start := p.pos
	t := p.peek()
	switch t.kind {
	case tokEOF:
		return nil, fmt.Errorf("line %d: type expected, found end of declaration", t.line)
	case tokString:
		p.next()
		return &Literal{Kind: "string", Value: t.text}, nil
	case tokNumber:
		p.next()
		return &Literal{Kind: "number", Value: t.text}, nil
	case tokTemplate:
		p.next()
		return &Literal{Kind: "template", Value: t.text}, nil
	case tokPunct:
		switch t.text {
		case "-":
			p.next()
			n := p.next()
			if n.kind != tokNumber {
				return nil, fmt.Errorf("line %d: number expected after -", n.line)
			}
			return &Literal{Kind: "number", Value: "-" + n.text}, nil
		case "{":
			return p.parseObject()
		case "[":
			return p.parseTuple()
		case "(":
			if p.isFunc() {
				return p.parseFunc()
			}
			p.next()
			inner, err := p.parseType()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			return inner, nil
		case "<":
			return p.parseFunc()
		}
		return nil, fmt.Errorf("line %d: unexpected %q in a type", t.line, t.text)
	}
	// An identifier.
	switch t.text {
	case "true", "false":
		p.next()
		return &Literal{Kind: "boolean", Value: t.text}, nil
	case "null", "undefined":
		p.next()
		return &Literal{Kind: t.text, Value: t.text}, nil
	case "readonly":
		if k := p.peekAt(1); k.kind == tokPunct && (k.text == "[" || k.text == "{") || k.kind == tokIdent {
			p.next()
			return p.parsePostfix()
		}
	case "keyof", "unique", "infer", "asserts":
		p.next()
		if _, err := p.parsePostfix(); err != nil {
			return nil, err
		}
		return &Other{Text: p.text(start)}, nil
	case "typeof":
		p.next()
		p.parseQualified()
		if p.is("<") {
			if err := p.skipBalanced(); err != nil {
				return nil, err
			}
		}
		return &Other{Text: p.text(start)}, nil
	case "new", "abstract":
		p.next()
		p.accept("new")
		return p.parseFunc()
	}
	if p.peekAt(1).text == "is" && p.peekAt(1).kind == tokIdent {
		// A type predicate: x is T.
		p.pos += 2
		if _, err := p.parseType(); err != nil {
			return nil, err
		}
		return &Other{Text: p.text(start)}, nil
	}
	name := p.parseQualified()
	ref := &Ref{Name: name}
	if p.accept("<") {
		for !p.accept(">") {
			arg, err := p.parseType()
			if err != nil {
				return nil, err
			}
			ref.Args = append(ref.Args, arg)
			if !p.accept(",") && !p.is(">") {
				return nil, fmt.Errorf("line %d: want , or > in the arguments of %s", p.peek().line, name)
			}
		}
	}
	if (name == "Array" || name == "ReadonlyArray") && len(ref.Args) == 1 {
		return &Array{Elem: ref.Args[0]}, nil
	}
	return ref, nil
}

// parseQualified reads a name such as a or a.b.c.
func (p *parser) parseQualified() string {
	name := p.next().text
	for p.is(".") && p.peekAt(1).kind == tokIdent {
		p.next()
		name += "." + p.next().text
	}
	return name
}

// isFunc reports whether the ( at the current position starts a function
// type's parameter list: its closing ) is followed by =>.
func (p *parser) isFunc() bool {
	save := p.pos
	defer func() { p.pos = save }()
	if err := p.skipBalanced(); err != nil {
		return false
	}
	return p.is("=>")
}

// parseFunc parses [<T>](params) => R.
func (p *parser) parseFunc() (Type, error) {
	if p.is("<") {
		if err := p.skipBalanced(); err != nil {
			return nil, err
		}
	}
	if !p.is("(") {
		return nil, fmt.Errorf("line %d: want ( of a function type, found %q", p.peek().line, p.peek().text)
	}
	if err := p.skipBalanced(); err != nil {
		return nil, err
	}
	if err := p.expect("=>"); err != nil {
		return nil, err
	}
	r, err := p.parseType()
	if err != nil {
		return nil, err
	}
	return &Func{Result: r}, nil
}

// parseTuple parses [A, B?, name: C, ...D[]].
func (p *parser) parseTuple() (Type, error) {
	if err := p.expect("["); err != nil {
		return nil, err
	}
	tup := &Tuple{}
	for !p.accept("]") {
		p.accept("...")
		if p.peek().kind == tokIdent && (p.peekAt(1).text == ":" || p.peekAt(1).text == "?" && p.peekAt(2).text == ":") {
			p.next()
			p.accept("?")
			p.next()
		}
		t, err := p.parseType()
		if err != nil {
			return nil, err
		}
		p.accept("?")
		tup.Elems = append(tup.Elems, t)
		if !p.accept(",") && !p.is("]") {
			return nil, fmt.Errorf("line %d: want , or ] in a tuple, found %q", p.peek().line, p.peek().text)
		}
	}
	return tup, nil
}

// parseObject parses { members } (an object literal type, an interface
// body or a mapped type).
func (p *parser) parseObject() (*Object, error) {
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	obj := &Object{}
	for !p.accept("}") {
		if p.accept(";") || p.accept(",") {
			continue
		}
		if err := p.parseMember(obj); err != nil {
			return nil, err
		}
		if !p.accept(";") && !p.accept(",") && !p.is("}") {
			// Members may also be separated by line breaks alone.
			if p.peek().line == p.toks[p.pos-1].line {
				return nil, fmt.Errorf("line %d: want ; or } after a member, found %q", p.peek().line, p.peek().text)
			}
		}
	}
	return obj, nil
}

// parseMember parses one member of an object type into obj.
func (p *parser) parseMember(obj *Object) error {
	m := Member{}
	// Modifiers, each only when it is not itself the member's name.
	for {
		t, n := p.peek(), p.peekAt(1)
		mod := t.kind == tokIdent && (t.text == "readonly" || t.text == "get" || t.text == "set" || t.text == "static" || t.text == "public" || t.text == "private" || t.text == "protected" || t.text == "declare" || t.text == "abstract")
		if t.kind == tokPunct && (t.text == "-" || t.text == "+") && n.text == "readonly" {
			p.next()
			continue
		}
		if !mod || n.kind == tokPunct && (n.text == ":" || n.text == "?" || n.text == "(" || n.text == ";" || n.text == "}" || n.text == "<" || n.text == ",") {
			break
		}
		if t.text == "readonly" {
			m.Readonly = true
		}
		p.next()
	}
	t := p.peek()
	switch {
	case t.kind == tokPunct && (t.text == "(" || t.text == "<"):
		// A call signature: not a member.
		return p.skipSignature()
	case t.kind == tokIdent && t.text == "new" && (p.peekAt(1).text == "(" || p.peekAt(1).text == "<"):
		p.next()
		return p.skipSignature()
	case t.kind == tokPunct && t.text == "[":
		return p.parseIndex(obj)
	case t.kind == tokIdent || t.kind == tokString || t.kind == tokNumber:
		m.Name = p.next().text
	default:
		return fmt.Errorf("line %d: unexpected %q in an object type", t.line, t.text)
	}
	if p.accept("?") {
		m.Optional = true
	}
	switch {
	case p.is("(") || p.is("<"):
		// A method: name(params): R.
		if p.is("<") {
			if err := p.skipBalanced(); err != nil {
				return err
			}
		}
		if err := p.skipBalanced(); err != nil {
			return err
		}
		m.Type = &Func{}
		if p.accept(":") {
			r, err := p.parseType()
			if err != nil {
				return err
			}
			m.Type = &Func{Result: r}
		}
	case p.accept(":"):
		typ, err := p.parseType()
		if err != nil {
			return fmt.Errorf("member %s: %w", m.Name, err)
		}
		m.Type = typ
	default:
		m.Type = &Ref{Name: "any"}
	}
	obj.Members = append(obj.Members, m)
	return nil
}

// parseIndex parses an index signature [k: string]: T, a mapped type's
// [K in X]: T, or a computed member name [Symbol.x]: T.
func (p *parser) parseIndex(obj *Object) error {
	if p.peekAt(1).kind == tokIdent && (p.peekAt(2).text == ":" || p.peekAt(2).text == "in") {
		obj.Open = true
	}
	if err := p.skipBalanced(); err != nil {
		return err
	}
	p.accept("+")
	p.accept("-")
	p.accept("?")
	if p.is("(") {
		// A method with a computed name: [Symbol.dispose](): void.
		if err := p.skipBalanced(); err != nil {
			return err
		}
		if !p.accept(":") {
			return nil
		}
		_, err := p.parseType()
		return err
	}
	if err := p.expect(":"); err != nil {
		return err
	}
	_, err := p.parseType()
	return err
}

// skipSignature skips to the end of a call or construct signature.
func (p *parser) skipSignature() error {
	for !p.is(";") && !p.is(",") && !p.is("}") {
		if p.peek().kind == tokEOF {
			return fmt.Errorf("line %d: unterminated signature", p.peek().line)
		}
		if p.is("(") || p.is("{") || p.is("[") || p.is("<") {
			if err := p.skipBalanced(); err != nil {
				return err
			}
			continue
		}
		p.next()
	}
	return nil
}
