// Package sdkdecl reads the type declarations of a TypeScript declaration
// file (.d.ts), enough to list the members of the object types it
// declares. The project uses it to compare its Go types with the Agent
// SDK's sdk.d.ts and sdk-tools.d.ts (see the root package's drift test).
//
// It knows type aliases, interfaces (with extends and declaration
// merging) and const declarations at the top level of a file, and skips
// everything else (functions, classes, namespaces, imports, exports). A
// type expression is parsed when it is first looked up, so a construct
// the reader does not model in one declaration does not keep the others
// from being read. Comments, string-literal unions, optional and readonly
// members, index signatures, intersections, unions, tuples, arrays,
// generics, function types and nested object types are understood;
// conditional, mapped, indexed-access and typeof types are kept as
// [Other] or as an open [Object].
package sdkdecl

import (
	"fmt"
	"sort"
)

// File is the set of top-level declarations of one .d.ts file.
type File struct {
	decls map[string]*decl
	// shapes remembers ObjectShape's result per declared name, and
	// resolving holds the names being resolved, against cycles.
	shapes    map[string]shapeResult
	resolving map[string]bool
	lits      map[string]litResult
}

// decl is one declared name, parsed on first use.
type decl struct {
	kind string // "type", "interface" or "const"
	line int
	// generic is set when the declaration has type parameters.
	generic bool
	// bodies holds the tokens of the type (for an interface, of each
	// body, as declarations merge), each ending with tokEOF.
	bodies [][]token
	// extends holds the tokens of each extends clause of an interface.
	extends [][]token
	dup     bool // a type or const declared more than once

	done bool
	typ  Type
	err  error
}

// Parse reads the top-level declarations of src. It fails only when src
// cannot be split into tokens or a declaration's extent cannot be found;
// errors inside a type expression are reported when it is looked up.
func Parse(src string) (*File, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	f := &File{decls: map[string]*decl{}, shapes: map[string]shapeResult{}, resolving: map[string]bool{}, lits: map[string]litResult{}}
	p := &parser{toks: toks}
	for p.peek().kind != tokEOF {
		if err := f.statement(p); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Names returns the declared names, sorted.
func (f *File) Names() []string {
	names := make([]string, 0, len(f.decls))
	for n := range f.decls {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Has reports whether name is declared in the file.
func (f *File) Has(name string) bool { return f.decls[name] != nil }

// Lookup returns the type declared as name: the aliased type of a type
// alias, the *Object of an interface (its Extends set), or the declared
// type of a const.
func (f *File) Lookup(name string) (Type, error) {
	d := f.decls[name]
	if d == nil {
		return nil, fmt.Errorf("%s is not declared", name)
	}
	if !d.done {
		d.done = true
		d.typ, d.err = d.parse()
		if d.err != nil {
			d.err = fmt.Errorf("%s (line %d): %w", name, d.line, d.err)
		}
	}
	return d.typ, d.err
}

func (d *decl) parse() (Type, error) {
	if d.dup {
		return nil, fmt.Errorf("declared more than once")
	}
	if d.kind != "interface" {
		p := &parser{toks: d.bodies[0]}
		t, err := p.parseType()
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tokEOF {
			return nil, fmt.Errorf("line %d: unexpected %q after the type", p.peek().line, p.peek().text)
		}
		return t, nil
	}
	obj := &Object{}
	for _, toks := range d.extends {
		p := &parser{toks: toks}
		for p.peek().kind != tokEOF {
			t, err := p.parseType()
			if err != nil {
				return nil, err
			}
			obj.Extends = append(obj.Extends, t)
			if !p.accept(",") && p.peek().kind != tokEOF {
				return nil, fmt.Errorf("line %d: unexpected %q in extends", p.peek().line, p.peek().text)
			}
		}
	}
	for _, toks := range d.bodies {
		p := &parser{toks: toks}
		body, err := p.parseObject()
		if err != nil {
			return nil, err
		}
		obj.Members = append(obj.Members, body.Members...)
		obj.Open = obj.Open || body.Open
	}
	return obj, nil
}

// statement reads one top-level statement, recording it if it declares
// a type, an interface or a const.
func (f *File) statement(p *parser) error {
	t := p.peek()
	if t.kind == tokPunct {
		switch t.text {
		case ";":
			p.next()
			return nil
		case "{":
			return p.skipBalanced()
		}
		return p.skipStatement()
	}
	if t.kind != tokIdent {
		return p.skipStatement()
	}
	n := p.peekAt(1)
	switch t.text {
	case "export", "declare", "default":
		p.next()
		return nil
	case "type":
		if n.kind == tokIdent && (p.peekAt(2).text == "=" || p.peekAt(2).text == "<") {
			return f.alias(p)
		}
	case "interface":
		if n.kind == tokIdent {
			return f.iface(p)
		}
	case "const", "let", "var":
		if n.kind == tokIdent && n.text != "enum" {
			return f.constant(p)
		}
	case "class", "abstract", "namespace", "module", "enum", "global":
		return p.skipToBody()
	}
	return p.skipStatement()
}

func (f *File) add(name string, d *decl) {
	old := f.decls[name]
	switch {
	case old == nil:
		f.decls[name] = d
	case old.kind == "interface" && d.kind == "interface":
		old.bodies = append(old.bodies, d.bodies...)
		old.extends = append(old.extends, d.extends...)
	default:
		old.dup = true
	}
}

// alias reads type Name<…> = T;.
func (f *File) alias(p *parser) error {
	p.next()
	name := p.next()
	d := &decl{kind: "type", line: name.line}
	if p.is("<") {
		d.generic = true
		if err := p.skipBalanced(); err != nil {
			return err
		}
	}
	if err := p.expect("="); err != nil {
		return err
	}
	body, err := p.until(";")
	if err != nil {
		return fmt.Errorf("type %s: %w", name.text, err)
	}
	d.bodies = [][]token{body}
	f.add(name.text, d)
	return nil
}

// iface reads interface Name<…> extends A, B { … }.
func (f *File) iface(p *parser) error {
	p.next()
	name := p.next()
	d := &decl{kind: "interface", line: name.line}
	if p.is("<") {
		d.generic = true
		if err := p.skipBalanced(); err != nil {
			return err
		}
	}
	if p.accept("extends") {
		ext, err := p.until("{")
		if err != nil {
			return fmt.Errorf("interface %s: %w", name.text, err)
		}
		d.extends = [][]token{ext}
	}
	if !p.is("{") {
		return fmt.Errorf("line %d: interface %s: want {, found %q", p.peek().line, name.text, p.peek().text)
	}
	start := p.pos
	if err := p.skipBalanced(); err != nil {
		return fmt.Errorf("interface %s: %w", name.text, err)
	}
	d.bodies = [][]token{withEOF(p.toks[start:p.pos])}
	f.add(name.text, d)
	return nil
}

// constant reads const Name: T; or const Name = literal;.
func (f *File) constant(p *parser) error {
	p.next()
	name := p.next()
	if !p.accept(":") && !p.accept("=") {
		return p.skipStatement()
	}
	body, err := p.until(";")
	if err != nil {
		return fmt.Errorf("const %s: %w", name.text, err)
	}
	f.add(name.text, &decl{kind: "const", line: name.line, bodies: [][]token{body}})
	return nil
}

func withEOF(toks []token) []token {
	out := make([]token, len(toks), len(toks)+1)
	copy(out, toks)
	line := 0
	if len(toks) > 0 {
		line = toks[len(toks)-1].line
	}
	return append(out, token{tokEOF, "", line})
}

// until returns the tokens up to the punctuation end at bracket depth 0,
// and consumes end when it is ";" (a "{" is left in place). A statement
// keyword (export, declare) on a new line at depth 0 also ends it, for
// files that leave out semicolons.
func (p *parser) until(end string) ([]token, error) {
	start := p.pos
	depth := 0
	for {
		t := p.peek()
		if t.kind == tokEOF {
			if depth != 0 {
				return nil, fmt.Errorf("line %d: unbalanced brackets", t.line)
			}
			return withEOF(p.toks[start:p.pos]), nil
		}
		if depth == 0 && t.kind == tokPunct && t.text == end {
			body := withEOF(p.toks[start:p.pos])
			if end == ";" {
				p.next()
			}
			return body, nil
		}
		if depth == 0 && t.kind == tokIdent && (t.text == "export" || t.text == "declare") && p.pos > start && p.toks[p.pos-1].line < t.line {
			return withEOF(p.toks[start:p.pos]), nil
		}
		if t.kind == tokPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
				if depth < 0 {
					return nil, fmt.Errorf("line %d: unbalanced %q", t.line, t.text)
				}
			}
		}
		p.next()
	}
}

// skipStatement skips a statement the reader does not record (a function,
// an import, an export list), up to and including its ";" at bracket
// depth 0.
func (p *parser) skipStatement() error {
	_, err := p.until(";")
	return err
}

// skipToBody skips a class, namespace, module or enum declaration: its
// header and its { body } (or its ";" when it has none).
func (p *parser) skipToBody() error {
	for {
		t := p.peek()
		switch {
		case t.kind == tokEOF:
			return nil
		case t.kind == tokPunct && t.text == ";":
			p.next()
			return nil
		case t.kind == tokPunct && t.text == "{":
			return p.skipBalanced()
		case t.kind == tokPunct && (t.text == "<" || t.text == "("):
			if err := p.skipBalanced(); err != nil {
				return err
			}
		default:
			p.next()
		}
	}
}
