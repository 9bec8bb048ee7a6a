package main

import (
	"bytes"
	"fmt"
	"go/types"
)

// typeWriter writes types the way the Go project's api files do: names
// of the listed package unqualified, other packages' names qualified by
// the package name (not its path), type parameters as $0, $1, … in the
// order of their declaration, parameters without their names, and `any`
// as interface{}, so that a line does not change when a parameter is
// renamed or `any` is spelled out.
type typeWriter struct {
	pkg *types.Package // the listed package: its names are unqualified
}

func (w typeWriter) typeString(t types.Type) string {
	var b bytes.Buffer
	w.writeType(&b, t)
	return b.String()
}

func (w typeWriter) writeType(b *bytes.Buffer, t types.Type) {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			b.WriteString("unsafe.Pointer")
			return
		}
		b.WriteString(t.Name())
	case *types.Pointer:
		b.WriteByte('*')
		w.writeType(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		w.writeType(b, t.Elem())
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		w.writeType(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		w.writeType(b, t.Key())
		b.WriteByte(']')
		w.writeType(b, t.Elem())
	case *types.Chan:
		w.writeChan(b, t)
	case *types.Signature:
		b.WriteString("func")
		w.writeSignature(b, t)
	case *types.Named:
		w.writeObjName(b, t.Obj())
		w.writeTypeArgs(b, t.TypeArgs())
	case *types.Alias:
		if t.Obj().Pkg() == nil && t.Obj().Name() == "any" {
			b.WriteString("interface{}")
			return
		}
		w.writeObjName(b, t.Obj())
		w.writeTypeArgs(b, t.TypeArgs())
	case *types.TypeParam:
		fmt.Fprintf(b, "$%d", t.Index())
	case *types.Interface:
		w.writeInterface(b, t)
	case *types.Struct:
		w.writeStruct(b, t)
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				b.WriteString(" | ")
			}
			term := t.Term(i)
			if term.Tilde() {
				b.WriteByte('~')
			}
			w.writeType(b, term.Type())
		}
	case *types.Tuple:
		w.writeTuple(b, t, false)
	default:
		// A kind of type this writer does not know yet: fail loudly
		// rather than list something unstable.
		panic(fmt.Sprintf("apicheck: unknown type %T (%v)", t, t))
	}
}

// writeObjName writes a named type's name, qualified unless it belongs to
// the listed package or to the universe (error, comparable).
func (w typeWriter) writeObjName(b *bytes.Buffer, obj *types.TypeName) {
	if p := obj.Pkg(); p != nil && p != w.pkg {
		b.WriteString(p.Name())
		b.WriteByte('.')
	}
	b.WriteString(obj.Name())
}

func (w typeWriter) writeTypeArgs(b *bytes.Buffer, args *types.TypeList) {
	if args.Len() == 0 {
		return
	}
	b.WriteByte('[')
	for i := 0; i < args.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		w.writeType(b, args.At(i))
	}
	b.WriteByte(']')
}

// writeTypeParams writes a declaration's type parameters with their
// constraints: [$0 interface{}, $1 comparable].
func (w typeWriter) writeTypeParams(b *bytes.Buffer, params *types.TypeParamList) {
	if params.Len() == 0 {
		return
	}
	b.WriteByte('[')
	for i := 0; i < params.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		p := params.At(i)
		fmt.Fprintf(b, "$%d ", p.Index())
		w.writeType(b, p.Constraint())
	}
	b.WriteByte(']')
}

func (w typeWriter) writeChan(b *bytes.Buffer, t *types.Chan) {
	switch t.Dir() {
	case types.SendRecv:
		b.WriteString("chan ")
		// chan (<-chan T) needs its parentheses to keep its meaning.
		if inner, ok := t.Elem().(*types.Chan); ok && inner.Dir() == types.RecvOnly {
			b.WriteByte('(')
			w.writeType(b, inner)
			b.WriteByte(')')
			return
		}
	case types.SendOnly:
		b.WriteString("chan<- ")
	case types.RecvOnly:
		b.WriteString("<-chan ")
	}
	w.writeType(b, t.Elem())
}

// writeSignature writes a function's parameters and results, without
// the func keyword and without names: (string, ...int) (T, error).
func (w typeWriter) writeSignature(b *bytes.Buffer, sig *types.Signature) {
	w.writeTuple(b, sig.Params(), sig.Variadic())
	res := sig.Results()
	switch res.Len() {
	case 0:
	case 1:
		b.WriteByte(' ')
		w.writeType(b, res.At(0).Type())
	default:
		b.WriteByte(' ')
		w.writeTuple(b, res, false)
	}
}

func (w typeWriter) writeTuple(b *bytes.Buffer, t *types.Tuple, variadic bool) {
	b.WriteByte('(')
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		w.writeType(b, typ)
	}
	b.WriteByte(')')
}

// writeInterface writes an interface literal: interface{} when it has
// nothing, otherwise its embedded types and explicit methods in order.
func (w typeWriter) writeInterface(b *bytes.Buffer, t *types.Interface) {
	if t.NumEmbeddeds() == 0 && t.NumExplicitMethods() == 0 {
		b.WriteString("interface{}")
		return
	}
	b.WriteString("interface { ")
	n := 0
	for i := 0; i < t.NumEmbeddeds(); i++ {
		if n > 0 {
			b.WriteString("; ")
		}
		w.writeType(b, t.EmbeddedType(i))
		n++
	}
	for i := 0; i < t.NumExplicitMethods(); i++ {
		if n > 0 {
			b.WriteString("; ")
		}
		m := t.ExplicitMethod(i)
		b.WriteString(m.Name())
		w.writeSignature(b, m.Type().(*types.Signature))
		n++
	}
	b.WriteString(" }")
}

// writeStruct writes a struct literal with every field, exported or not,
// since all of them decide what the type is; tags are left out.
func (w typeWriter) writeStruct(b *bytes.Buffer, t *types.Struct) {
	if t.NumFields() == 0 {
		b.WriteString("struct{}")
		return
	}
	b.WriteString("struct { ")
	for i := 0; i < t.NumFields(); i++ {
		if i > 0 {
			b.WriteString("; ")
		}
		f := t.Field(i)
		if !f.Embedded() {
			b.WriteString(f.Name())
			b.WriteByte(' ')
		}
		w.writeType(b, f.Type())
	}
	b.WriteString(" }")
}

// constValue writes a constant's value exactly, strings quoted.
func constValue(c *types.Const) string {
	return c.Val().ExactString()
}
