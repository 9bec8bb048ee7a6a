package testutil

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

type key struct{}

// TestDeadlineContext: the deadline passes when PassDeadline is called
// from a context derived from it, not before; a parent that ends first
// ends it with the parent's error; values come from the parent.
func TestDeadlineContext(t *testing.T) {
	ctx := DeadlineContext()
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	assert.NoError(t, child.Err())
	select {
	case <-child.Done():
		t.Fatal("done before the deadline passed")
	default:
	}
	assert.True(t, PassDeadline(child))
	<-child.Done()
	assert.Equal(t, context.DeadlineExceeded, ctx.Err())
	assert.Equal(t, context.DeadlineExceeded, child.Err())
	assert.True(t, PassDeadline(child), "a second call is harmless")
	assert.False(t, PassDeadline(context.Background()))

	parent, stop := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	ctx = DeadlineContextOf(parent)
	assert.Equal(t, "v", ctx.Value(key{}))
	stop()
	<-ctx.Done()
	assert.Equal(t, context.Canceled, ctx.Err())
	PassDeadline(ctx)
	assert.Equal(t, context.Canceled, ctx.Err(), "the first end stands")
}
