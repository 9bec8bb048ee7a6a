// Package fake holds one of each kind of declaration the API listing
// writes; internal/apicheck's tests list it and edit it.
package fake

import (
	"context"
	"io"

	"example.com/fake/internal/hidden"
)

// Kind is a defined string type with typed and untyped constants.
type Kind string

// The kinds.
const (
	KindA Kind = "a"
	KindB Kind = "b"
	Limit      = 1 << 20
)

// ErrGone is a variable.
var ErrGone error

// Open is a plain function.
func Open(ctx context.Context, name string, opts ...Option) (*Conn, error) { return nil, nil }

// Close has no results.
func Close(c *Conn) {}

// Map is generic.
func Map[T any, U comparable](in []T, f func(T) U) map[U]T { return nil }

// Option is a function type.
type Option func(*Conn)

// Conn is a struct with exported, embedded and unexported fields.
type Conn struct {
	io.Reader
	Name    string
	Streams map[string]<-chan []byte
	Done    chan<- struct{}
	Hidden  hidden.T
	private int
}

// Len is a method on the value.
func (c Conn) Len() int { return 0 }

// Write is a method on the pointer.
func (c *Conn) Write(p []byte) (n int, err error) { return 0, nil }

func (c *Conn) unexported() {}

// Handler is an interface with an embedded one.
type Handler interface {
	io.Closer
	Serve(context.Context, *Conn) error
}

// Sealed has only unexported methods.
type Sealed interface{ seal() }

// Number is a constraint.
type Number interface{ ~int | ~float64 }

// Pair is a generic type.
type Pair[K comparable, V any] struct {
	Key K
	Val V
}

// Swap is a method of a generic type.
func (p *Pair[K, V]) Swap(v V) V { return v }

// Alias names another type.
type Alias = Conn

// Callback is an alias of a function type.
type Callback = func(string) bool

type unexportedType struct{ Field int }
