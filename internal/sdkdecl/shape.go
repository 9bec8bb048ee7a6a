package sdkdecl

import (
	"fmt"
)

// Shape is what an object type holds: its members, each name once, and
// whether it may hold other members too.
type Shape struct {
	Members []Member
	// Open is set when an index signature or a mapped type lets the
	// object hold members of any name.
	Open bool
}

// Member returns the member called name, and whether there is one.
func (s Shape) Member(name string) (Member, bool) {
	for _, m := range s.Members {
		if m.Name == name {
			return m, true
		}
	}
	return Member{}, false
}

// Names returns the members' names in order.
func (s Shape) Names() []string {
	names := make([]string, len(s.Members))
	for i, m := range s.Members {
		names[i] = m.Name
	}
	return names
}

// maxDepth bounds how many references ObjectShape follows, against
// cyclic declarations.
const maxDepth = 64

// ObjectShape returns the members of t when t is an object type: an
// object literal type, an interface (with the members of the interfaces
// it extends), a reference to a type declared in f that is one, an
// intersection of such types, or a union with at least one object
// variant, whose object variants' members are merged (a member missing
// from some variant becomes optional; null, undefined and primitive
// variants are ignored). ok is false when t is no object type: a
// primitive, a literal, an array, a function, unknown, or a reference to
// a type f does not declare, such as Record<string, unknown>.
//
// err is set when t is partly an object and partly a type the reader
// cannot see into (say, an intersection with Omit<…>), so a caller never
// takes a partial list of members for the whole one.
func (f *File) ObjectShape(t Type) (s Shape, ok bool, err error) {
	return f.shape(t, 0)
}

// shapeResult is a remembered result of ObjectShape for a named type, so
// that a name is resolved once however often it is referenced.
type shapeResult struct {
	s   Shape
	ok  bool
	err error
}

func (f *File) shape(t Type, depth int) (Shape, bool, error) {
	if depth > maxDepth {
		return Shape{}, false, fmt.Errorf("types nest deeper than %d", maxDepth)
	}
	switch t := t.(type) {
	case *Object:
		var s Shape
		for _, e := range t.Extends {
			es, ok, err := f.shape(e, depth+1)
			if err != nil {
				return Shape{}, false, err
			}
			if !ok {
				return Shape{}, false, fmt.Errorf("cannot see the members of %s, which an interface extends", describe(e))
			}
			s = merge(s, es)
		}
		return merge(s, Shape{Members: t.Members, Open: t.Open}), true, nil
	case *Ref:
		d := f.decls[t.Name]
		if d == nil {
			return Shape{}, false, nil
		}
		if d.generic || len(t.Args) > 0 {
			return Shape{}, false, fmt.Errorf("generic type %s is not supported", t.Name)
		}
		if d.kind == "const" {
			return Shape{}, false, nil
		}
		if r, done := f.shapes[t.Name]; done {
			return r.s, r.ok, r.err
		}
		if f.resolving[t.Name] {
			return Shape{}, false, fmt.Errorf("%s refers to itself (a cycle)", t.Name)
		}
		decl, err := f.Lookup(t.Name)
		if err != nil {
			return Shape{}, false, err
		}
		f.resolving[t.Name] = true
		var r shapeResult
		r.s, r.ok, r.err = f.shape(decl, depth+1)
		delete(f.resolving, t.Name)
		f.shapes[t.Name] = r
		return r.s, r.ok, r.err
	case *Intersection:
		var s Shape
		for _, part := range t.Types {
			ps, ok, err := f.shape(part, depth+1)
			if err != nil {
				return Shape{}, false, err
			}
			if !ok {
				if isPrimitive(part) {
					// A branded primitive, such as string & { __brand: … }.
					return Shape{}, false, nil
				}
				return Shape{}, false, fmt.Errorf("cannot see the members of %s in an intersection", describe(part))
			}
			s = merge(s, ps)
		}
		return s, true, nil
	case *Union:
		var (
			s     Shape
			found bool
			seen  = map[string]int{} // in how many object variants a name is
			count int
		)
		for _, v := range t.Types {
			vs, ok, err := f.shape(v, depth+1)
			if err != nil {
				return Shape{}, false, err
			}
			if !ok {
				continue
			}
			found = true
			count++
			for _, m := range vs.Members {
				seen[m.Name]++
			}
			s = merge(s, vs)
		}
		if !found {
			return Shape{}, false, nil
		}
		for i, m := range s.Members {
			if seen[m.Name] < count {
				s.Members[i].Optional = true
			}
		}
		return s, true, nil
	}
	return Shape{}, false, nil
}

// merge adds b's members to a; a member of b replaces a's member of the
// same name in place (as an interface's own member overrides an
// inherited one).
func merge(a, b Shape) Shape {
	out := Shape{Members: append([]Member(nil), a.Members...), Open: a.Open || b.Open}
	for _, m := range b.Members {
		replaced := false
		for i := range out.Members {
			if out.Members[i].Name == m.Name {
				out.Members[i] = m
				replaced = true
				break
			}
		}
		if !replaced {
			out.Members = append(out.Members, m)
		}
	}
	return out
}

func isPrimitive(t Type) bool {
	switch t := t.(type) {
	case *Ref:
		switch t.Name {
		case "string", "number", "boolean", "bigint", "symbol":
			return true
		}
	case *Literal:
		return true
	}
	return false
}

// describe names t in an error message.
func describe(t Type) string {
	switch t := t.(type) {
	case *Ref:
		return t.Name
	case *Other:
		return t.Text
	}
	return fmt.Sprintf("%T", t)
}

// Elem returns the element type of an array or tuple type, following
// references to declared aliases, and whether t is one. The elements of
// a tuple, and of a union of arrays and tuples (as json-schema-to-typescript
// writes an array with minItems), come back as one union; variants that
// are no arrays (T[] | null) are ignored.
func (f *File) Elem(t Type) (Type, bool) {
	elems := f.elems(t, nil, map[string]bool{})
	switch len(elems) {
	case 0:
		return nil, false
	case 1:
		return elems[0], true
	}
	return &Union{Types: elems}, true
}

// elems appends the element types of t to dst; seen holds the names
// being resolved, against cycles.
func (f *File) elems(t Type, dst []Type, seen map[string]bool) []Type {
	if len(dst) > maxLiterals {
		return dst // a hostile union of references; enough is enough
	}
	switch tt := t.(type) {
	case *Array:
		return append(dst, tt.Elem)
	case *Tuple:
		return append(dst, tt.Elems...)
	case *Ref:
		d := f.decls[tt.Name]
		if d == nil || d.kind != "type" || d.generic || seen[tt.Name] {
			return dst
		}
		decl, err := f.Lookup(tt.Name)
		if err != nil {
			return dst
		}
		seen[tt.Name] = true
		defer delete(seen, tt.Name)
		return f.elems(decl, dst, seen)
	case *Union:
		for _, v := range tt.Types {
			dst = f.elems(v, dst, seen)
		}
	}
	return dst
}

// StringLiterals returns the strings of a string-literal type: a string
// literal, a union of them, or a tuple or array of them (such as the type
// of a const declared readonly ['a', 'b']), following references to
// declared aliases. It fails when any part is not a string literal.
func (f *File) StringLiterals(t Type) ([]string, error) {
	return f.literals(t, map[string]bool{})
}

// maxLiterals bounds the strings StringLiterals returns: a union of
// references can double its count per level.
const maxLiterals = 1 << 16

// litResult is a remembered result of StringLiterals for a named type.
type litResult struct {
	strs []string
	err  error
}

// literals collects the strings of t; seen holds the names being
// resolved, against cycles.
func (f *File) literals(t Type, seen map[string]bool) ([]string, error) {
	var parts []Type
	switch t := t.(type) {
	case *Literal:
		if t.Kind != "string" {
			return nil, fmt.Errorf("%s literal %s is not a string literal", t.Kind, t.Value)
		}
		return []string{t.Value}, nil
	case *Ref:
		if d := f.decls[t.Name]; d != nil && !d.generic {
			if r, done := f.lits[t.Name]; done {
				return r.strs, r.err
			}
			if seen[t.Name] {
				return nil, fmt.Errorf("%s refers to itself (a cycle)", t.Name)
			}
			decl, err := f.Lookup(t.Name)
			if err != nil {
				return nil, err
			}
			seen[t.Name] = true
			var r litResult
			r.strs, r.err = f.literals(decl, seen)
			delete(seen, t.Name)
			f.lits[t.Name] = r
			return r.strs, r.err
		}
		return nil, fmt.Errorf("%s is not a string literal", t.Name)
	case *Union:
		parts = t.Types
	case *Tuple:
		parts = t.Elems
	case *Array:
		parts = []Type{t.Elem}
	default:
		return nil, fmt.Errorf("%s is not a string literal", describe(t))
	}
	var out []string
	for _, p := range parts {
		s, err := f.literals(p, seen)
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
		if len(out) > maxLiterals {
			return nil, fmt.Errorf("more than %d string literals", maxLiterals)
		}
	}
	return out, nil
}
