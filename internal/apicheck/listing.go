package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// goPackage is the part of `go list -json` the listing reads.
type goPackage struct {
	ImportPath string
	Name       string
	Export     string
	GoFiles    []string
	DepOnly    bool
}

// publicPackages lists the module's packages a user can import: every
// package under dir that is not a command, not internal and not made of
// test files only (e2e, bench). A new public package (hookhttp) is
// listed from the day its directory has a Go file.
func publicPackages(dir string) ([]string, error) {
	pkgs, err := goList(dir, "./...")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range pkgs {
		if p.Name == "main" || len(p.GoFiles) == 0 || isInternal(p.ImportPath) {
			continue
		}
		out = append(out, p.ImportPath)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no public package under %s", dir)
	}
	return out, nil
}

func isInternal(path string) bool {
	return strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") ||
		strings.HasSuffix(path, "/internal") || path == "internal"
}

// goList runs `go list -json` in dir; with export set it also builds the
// packages and their dependencies and reports their export data files.
func goList(dir string, patterns ...string) ([]goPackage, error) {
	return runGoList(dir, false, patterns)
}

func runGoList(dir string, export bool, patterns []string) ([]goPackage, error) {
	args := []string{"list", "-json=ImportPath,Name,Export,GoFiles,DepOnly"}
	if export {
		args = append(args, "-export", "-deps")
	}
	args = append(args, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// listAPI returns the API lines of the given packages of the module in
// dir, sorted. The packages are read from the export data the compiler
// writes (`go list -export`), so nothing but the go command and the
// module cache is needed: the check runs offline.
func listAPI(dir string, paths []string) ([]string, error) {
	pkgs, err := runGoList(dir, true, paths)
	if err != nil {
		return nil, err
	}
	exports := make(map[string]string, len(pkgs))
	for _, p := range pkgs {
		exports[p.ImportPath] = p.Export
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	var lines []string
	for _, path := range paths {
		pkg, err := imp.Import(path)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %v", path, err)
		}
		lines = append(lines, packageLines(pkg)...)
	}
	sort.Strings(lines)
	return dedupe(lines), nil
}

// packageLines lists one package's exported names, one line each, in the
// form of the Go project's api/go1.*.txt files:
//
//	pkg P, const Name Type            pkg P, const Name = value
//	pkg P, var Name Type              pkg P, func Name(params) results
//	pkg P, type Name underlying       pkg P, type Name = aliased
//	pkg P, type Name struct           pkg P, type Name struct, Field Type
//	pkg P, type Name struct, embedded Type
//	pkg P, type Name interface { M, N }
//	pkg P, type Name interface, M(params) results
//	pkg P, method (*Name) M(params) results
func packageLines(pkg *types.Package) []string {
	w := typeWriter{pkg: pkg}
	prefix := "pkg " + pkg.Path() + ", "
	var lines []string
	emit := func(format string, args ...any) {
		lines = append(lines, prefix+fmt.Sprintf(format, args...))
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			emit("const %s %s", name, w.typeString(obj.Type()))
			emit("const %s = %s", name, constValue(obj))
		case *types.Var:
			emit("var %s %s", name, w.typeString(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			var b bytes.Buffer
			w.writeTypeParams(&b, sig.TypeParams())
			w.writeSignature(&b, sig)
			emit("func %s%s", name, b.String())
		case *types.TypeName:
			lines = append(lines, typeLines(w, prefix, obj)...)
		}
	}
	return lines
}

// typeLines lists a type declaration, its exported fields or interface
// methods, and its exported methods.
func typeLines(w typeWriter, prefix string, obj *types.TypeName) []string {
	var lines []string
	emit := func(format string, args ...any) {
		lines = append(lines, prefix+fmt.Sprintf(format, args...))
	}
	name := obj.Name()
	if alias, ok := obj.Type().(*types.Alias); ok {
		var b bytes.Buffer
		w.writeTypeParams(&b, alias.TypeParams())
		emit("type %s%s = %s", name, b.String(), w.typeString(alias.Rhs()))
		return lines
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		emit("type %s %s", name, w.typeString(obj.Type()))
		return lines
	}
	var tp bytes.Buffer
	w.writeTypeParams(&tp, named.TypeParams())
	decl := name + tp.String()

	switch u := named.Underlying().(type) {
	case *types.Struct:
		emit("type %s struct", decl)
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if !f.Exported() {
				continue
			}
			if f.Embedded() {
				emit("type %s struct, embedded %s", decl, w.typeString(f.Type()))
			} else {
				emit("type %s struct, %s %s", decl, f.Name(), w.typeString(f.Type()))
			}
		}
	case *types.Interface:
		var names []string
		unexported := false
		for i := 0; i < u.NumMethods(); i++ {
			m := u.Method(i)
			if !m.Exported() {
				unexported = true
				continue
			}
			names = append(names, m.Name())
			var b bytes.Buffer
			w.writeSignature(&b, m.Type().(*types.Signature))
			emit("type %s interface, %s%s", decl, m.Name(), b.String())
		}
		if unexported {
			names = append(names, "unexported methods")
		}
		switch {
		case !u.IsMethodSet():
			// A constraint: its type set is the API.
			emit("type %s %s", decl, w.typeString(u))
		case len(names) == 0:
			emit("type %s interface {}", decl)
		default:
			emit("type %s interface { %s }", decl, strings.Join(names, ", "))
		}
	default:
		emit("type %s %s", decl, w.typeString(u))
	}

	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := sig.Recv().Type()
		ptr := ""
		if p, ok := recv.(*types.Pointer); ok {
			ptr = "*"
			recv = p.Elem()
		}
		var args bytes.Buffer
		if rn, ok := recv.(*types.Named); ok && rn.TypeArgs().Len() > 0 {
			w.writeTypeArgs(&args, rn.TypeArgs())
		}
		var b bytes.Buffer
		w.writeSignature(&b, sig)
		emit("method (%s%s%s) %s%s", ptr, name, args.String(), m.Name(), b.String())
	}
	return lines
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
