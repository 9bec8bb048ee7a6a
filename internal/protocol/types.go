package protocol

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Type is one struct type as a Go package declares it: for the root
// package, an event's input (Foo, embedding Event), its answer
// (FooOutput, embedding Common), a hookSpecificOutput, a typed view of a
// tool's input or result and the items they nest, or any other struct of
// the package.
type Type struct {
	// Name is the type's Go name.
	Name string
	// File is the name of the file that declares the type, in the
	// package's directory.
	File string
	// Doc is the type's doc comment, one line of text a line.
	Doc []string
	// Fields are the struct's fields, in order, one a name.
	Fields []Field
}

// Field is one field of a [Type].
type Field struct {
	// Name is the field's Go name; empty for an embedded type.
	Name string
	// Type is the field's Go type, as written in Go.
	Type string
	// JSON is the value of the field's json tag: the JSON member's name
	// and its options ("file_path,omitempty"); empty when the field has
	// no tag.
	JSON string
	// Doc is the field's doc comment, one line of text a line.
	Doc []string
}

// Member returns the name of the JSON member the field reads, or "" for
// an embedded type or a field without a json tag.
func (f Field) Member() string {
	name, _, _ := strings.Cut(f.JSON, ",")
	return name
}

// ReadTypes returns the struct types declared at the top level of the Go
// package in dir, in the order of their files' names and, within a file,
// of their declarations. It reads the declarations with go/parser, as
// the Go compiler's generators read theirs: the Go source is the schema.
// Tests, generated files (marked "Code generated … DO NOT EDIT.") and
// files the build constraints leave out on this platform are not read.
func ReadTypes(dir string) ([]Type, error) {
	var types []Type
	err := eachFile(dir, func(fset *token.FileSet, name string, f *ast.File) error {
		ts, err := structTypes(fset, name, f)
		types = append(types, ts...)
		return err
	})
	return types, err
}

// eachFile calls fn with each Go file of the package in dir that
// [ReadTypes] reads, parsed with its comments, in the order of the files'
// names: tests, generated files and files the build constraints leave out
// on this platform are skipped.
func eachFile(dir string, fn func(fset *token.FileSet, name string, f *ast.File) error) error {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	for _, path := range names {
		name := filepath.Base(path)
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("protocol: %w", err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		if err := fn(fset, name, f); err != nil {
			return err
		}
	}
	return nil
}

// structTypes returns the struct types declared at the top level of f,
// the file name.
func structTypes(fset *token.FileSet, name string, f *ast.File) ([]Type, error) {
	var types []Type
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || ts.TypeParams != nil {
				continue
			}
			doc := ts.Doc
			if doc == nil && len(g.Specs) == 1 {
				doc = g.Doc
			}
			t := Type{Name: ts.Name.Name, File: name, Doc: lines(doc)}
			for _, fd := range st.Fields.List {
				var typ bytes.Buffer
				if err := format.Node(&typ, fset, fd.Type); err != nil {
					return nil, fmt.Errorf("protocol: %s: %s: %w", name, ts.Name.Name, err)
				}
				tag := ""
				if fd.Tag != nil {
					s, err := strconv.Unquote(fd.Tag.Value)
					if err != nil {
						return nil, fmt.Errorf("protocol: %s: %s: tag %s: %w", name, ts.Name.Name, fd.Tag.Value, err)
					}
					tag = reflect.StructTag(s).Get("json")
				}
				field := Field{Type: typ.String(), JSON: tag, Doc: lines(fd.Doc)}
				if len(fd.Names) == 0 {
					t.Fields = append(t.Fields, field)
				}
				for _, n := range fd.Names {
					field.Name = n.Name
					t.Fields = append(t.Fields, field)
				}
			}
			types = append(types, t)
		}
	}
	return types, nil
}

// lines returns the text of a comment, one line a line; nil for none.
func lines(c *ast.CommentGroup) []string {
	text := strings.TrimSuffix(c.Text(), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}
