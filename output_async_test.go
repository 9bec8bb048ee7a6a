package hook_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestAsyncFromTypedAdapter: a typed adapter's function answers async by
// returning an Async as its error, plain, as a pointer or wrapped; the
// answer returned with it is dropped.
func TestAsyncFromTypedAdapter(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"make test"}`)
	for name, err := range map[string]error{
		"value":   hook.Async{Timeout: time.Minute},
		"pointer": &hook.Async{Timeout: time.Minute},
		"wrapped": fmt.Errorf("long job: %w", hook.Async{Timeout: time.Minute}),
	} {
		t.Run(name, func(t *testing.T) {
			h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "dropped"}, err
			})
			code, stdout, stderr := testutil.Serve(t, h, in)
			assert.Equal(t, hook.ExitOK, code)
			assert.Equal(t, `{"async":true,"asyncTimeout":60000}`+"\n", stdout)
			assert.Empty(t, stderr)
		})
	}
}

// TestAsyncFromHandlerFunc: a HandlerFunc may return an Async as its
// answer or as its error; without a timeout the announcement has none.
func TestAsyncFromHandlerFunc(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"make test"}`)
	for name, h := range map[string]hook.HandlerFunc{
		"answer": func(context.Context, *hook.Event) (hook.Output, error) { return hook.Async{}, nil },
		"error":  func(context.Context, *hook.Event) (hook.Output, error) { return nil, hook.Async{} },
	} {
		code, stdout, stderr := testutil.Serve(t, h, in)
		assert.Equal(t, hook.ExitOK, code, name)
		assert.Equal(t, `{"async":true}`+"\n", stdout, name)
		assert.Empty(t, stderr, name)
	}
}

// TestAsyncFromTypedAdapterIsValidated: an Async returned as an error is
// checked as any answer: a negative timeout is a failure, which a
// fail-closed server turns into a block.
func TestAsyncFromTypedAdapterIsValidated(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"make test"}`)
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, hook.Async{Timeout: -time.Second}
	})
	code, stdout, stderr := testutil.Serve(t, h, in)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "negative")

	var out, errOut bytes.Buffer
	srv := hook.Server{Handler: h, FailClosed: true}
	assert.Equal(t, hook.ExitBlock, srv.Serve(context.Background(), bytes.NewReader(in), &out, &errOut))
	assert.Empty(t, out.String())
}

// TestAsyncFromTypedAdapterInChain: an Async cannot be combined, from a
// typed adapter as from any handler: the chain fails.
func TestAsyncFromTypedAdapterInChain(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"make test"}`)
	detach := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, hook.Async{}
	})
	allow := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow}, nil
	})
	code, stdout, stderr := testutil.Serve(t, hook.Chain(allow, detach), in)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "an Async answer cannot be combined")
}

// TestAsyncFromTypedAdapterOverHTTP: an http hook has no process to
// detach, so an Async from a typed adapter is an invalid answer there.
func TestAsyncFromTypedAdapterOverHTTP(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"make test"}`)
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, hook.Async{}
	})
	var s hook.Server
	rep := s.ServeHTTPBody(context.Background(), bytes.NewReader(in), int64(len(in)), h)
	assert.Equal(t, 500, rep.Status)
	assert.Contains(t, string(rep.Body), "Async detaches a command hook's process")
}
