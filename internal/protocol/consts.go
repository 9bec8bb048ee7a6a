package protocol

import (
	"go/ast"
	"go/token"
	"strconv"
)

// Const is one constant with a string literal for its value, as a Go
// package declares it: for the root package, an event's name
// (EventPreToolUse = "PreToolUse", in the event's file), a tool's name,
// or any other such constant of the package.
type Const struct {
	// Name is the constant's Go name.
	Name string
	// File is the name of the file that declares the constant, in the
	// package's directory.
	File string
	// Doc is the constant's doc comment, one line of text a line.
	Doc []string
	// Value is the string the literal spells.
	Value string
}

// ReadConsts returns the constants declared at the top level of the Go
// package in dir whose value is a string literal (typed or not), in the
// order of their files' names and, within a file, of their declarations.
// It reads the files [ReadTypes] reads, with go/parser: an event's name
// is declared once, in Go, in the event's own file.
func ReadConsts(dir string) ([]Const, error) {
	var consts []Const
	err := eachFile(dir, func(_ *token.FileSet, name string, f *ast.File) error {
		consts = append(consts, stringConsts(name, f)...)
		return nil
	})
	return consts, err
}

// stringConsts returns the constants with a string literal value declared
// at the top level of f, the file name.
func stringConsts(name string, f *ast.File) []Const {
	var consts []Const
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			doc := vs.Doc
			if doc == nil && len(g.Specs) == 1 {
				doc = g.Doc
			}
			for i, n := range vs.Names {
				if i >= len(vs.Values) {
					break
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					continue
				}
				consts = append(consts, Const{Name: n.Name, File: name, Doc: lines(doc), Value: v})
			}
		}
	}
	return consts
}
