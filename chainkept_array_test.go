package hook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// mcpOut answers with the output f makes of the tool_response it saw, in
// the current form (updatedToolOutput) or the legacy one
// (updatedMCPToolOutput).
func mcpOut(legacy bool, f func(seen jsontext.Value) jsontext.Value) hook.Handler {
	return postOut(func(e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		v := f(e.ToolResponse)
		if legacy {
			return &hook.PostToolUseOutput{UpdatedMCPToolOutput: v}, nil
		}
		return &hook.PostToolUseOutput{UpdatedToolOutput: v}, nil
	})
}

// redact replaces every s3cr3t in what it saw.
func redact(seen jsontext.Value) jsontext.Value {
	return jsontext.Value(strings.ReplaceAll(string(seen), "s3cr3t", "***"))
}

// arrayCases are the stale copies that restore a redacted array element
// (or a value inside one) and change the array around it, at several
// depths and in every rewrite that can hold an array, and their
// legitimate neighbours.
func arrayCases() []staleCase {
	const content = `{"content":[{"type":"text","text":"token=s3cr3t"},{"type":"text","text":"done"}]}`
	mcp := postToolUse("mcp__s__t", content)
	// stale answers with what f makes of the kept original.
	stale := func(k *keeper, legacy bool, f func(orig string) string) hook.Handler {
		return mcpOut(legacy, func(jsontext.Value) jsontext.Value { return jsontext.Value(f(string(k.kept))) })
	}
	fromSeen := func(legacy bool, f func(seen string) string) hook.Handler {
		return mcpOut(legacy, func(seen jsontext.Value) jsontext.Value { return jsontext.Value(f(string(seen))) })
	}
	appendBlock := func(s string) string {
		return strings.Replace(s, `]}`, `,{"type":"text","text":"note"}]}`, 1)
	}
	prependBlock := func(s string) string {
		return strings.Replace(s, `[`, `[{"type":"text","text":"note"},`, 1)
	}
	reorder := func(s string) string {
		i := strings.Index(s, `,{"type":"text","text":"done"}`)
		first := s[len(`{"content":[`):i]
		return `{"content":[{"type":"text","text":"done"},` + first + `]}`
	}
	annotate := func(s string) string { // a member added to every block
		return strings.ReplaceAll(s, `{"type":"text",`, `{"type":"text","seen":true,`)
	}
	var cases []staleCase
	for _, legacy := range []bool{false, true} {
		form := "updatedToolOutput"
		if legacy {
			form = "updatedMCPToolOutput"
		}
		for _, c := range []struct {
			name string
			f    func(string) string
			at   string
		}{
			{"appends", appendBlock, "/content/0"},
			{"prepends", prependBlock, "/content/1"},
			{"reorders", reorder, "/content/1"},
			{"changes the element", annotate, "/content/0/text"},
			{"prepends and changes the element", func(s string) string { return prependBlock(annotate(s)) }, "/content/1/text"},
		} {
			cases = append(cases, staleCase{
				name: "PostToolUse " + form + ": a stale copy restores a redacted block and " + c.name, in: mcp,
				hs: func(k *keeper) []hook.Handler {
					return []hook.Handler{fromSeen(legacy, func(s string) string { return string(redact(jsontext.Value(s))) }), stale(k, legacy, c.f)}
				},
				wantErr: "puts back what " + c.at + " held",
			})
			cases = append(cases, staleCase{
				name: "PostToolUse " + form + ": after a redaction, a handler that " + c.name + " what it saw", in: mcp,
				hs: func(*keeper) []hook.Handler {
					return []hook.Handler{fromSeen(legacy, func(s string) string { return string(redact(jsontext.Value(s))) }), fromSeen(legacy, c.f)}
				},
				want: `***`,
			})
		}
	}

	// Many blocks of one type: "type":"text" tells none apart.
	var blocks, todos []string
	for i := range 6 {
		text := fmt.Sprintf("line %d", i)
		if i%2 == 1 {
			text = fmt.Sprintf("key%d=s3cr3t", i)
		}
		blocks = append(blocks, `{"type":"text","text":"`+text+`"}`)
		todos = append(todos, fmt.Sprintf(`{"content":"t%d","status":"pending"}`, i))
	}
	many := postToolUse("mcp__s__t", `{"content":[`+strings.Join(blocks, ",")+`]}`)
	cases = append(cases,
		staleCase{name: "PostToolUse: six blocks, a stale copy changes every block and prepends one", in: many,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{fromSeen(false, func(s string) string { return string(redact(jsontext.Value(s))) }),
					stale(k, false, func(s string) string { return prependBlock(annotate(s)) })}
			},
			wantErr: "puts back what /content/2/text, /content/4/text, /content/6/text held"},
		staleCase{name: "PostToolUse: six blocks, a handler changes every block it saw and prepends one", in: many,
			hs: func(*keeper) []hook.Handler {
				return []hook.Handler{fromSeen(false, func(s string) string { return string(redact(jsontext.Value(s))) }),
					fromSeen(false, func(s string) string { return prependBlock(annotate(s)) })}
			},
			want: `{"type":"text","seen":true,"text":"key1=***"}`},
		staleCase{name: "PreToolUse: six todos, one marked done, a new pending one first", in: testutil.PreToolUse("TodoWrite", `{"todos":[`+strings.Join(todos, ",")+`]}`),
			hs: func(*keeper) []hook.Handler {
				done := strings.Replace(strings.Join(todos, ","), `"t2","status":"pending"`, `"t2","status":"completed"`, 1)
				return []hook.Handler{
					preMerge(`{"todos":[` + done + `]}`),
					preMerge(`{"todos":[{"content":"new","status":"pending"},` + done + `]}`),
				}
			},
			want: `"t2","status":"completed"`},
	)

	// An MCP output that is an array itself, and arrays inside arrays.
	top := postToolUse("mcp__s__t", `[{"type":"text","text":"token=s3cr3t"}]`)
	cases = append(cases,
		staleCase{name: "PostToolUse: a top-level array, a stale copy prepends", in: top,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{fromSeen(false, func(s string) string { return string(redact(jsontext.Value(s))) }),
					stale(k, false, func(s string) string { return `[{"type":"text","text":"hi"},` + s[1:] })}
			},
			wantErr: "puts back what /1 held"},
		staleCase{name: "PostToolUse: arrays in arrays, a stale copy appends inside", in: postToolUse("mcp__s__t", `{"rows":[["id","s3cr3t"],["id2","x"]]}`),
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{fromSeen(false, func(s string) string { return string(redact(jsontext.Value(s))) }),
					stale(k, false, func(s string) string { return strings.Replace(s, `"s3cr3t"]`, `"s3cr3t","more"]`, 1) })}
			},
			wantErr: "puts back what /rows/0/1 held"},
	)

	// tool_input arrays (PreToolUse, PermissionRequest).
	multi := testutil.PreToolUse("mcp__s__t", `{"items":[{"k":"a","v":"s3cr3t"},{"k":"b","v":"2"}],"tags":["x","s3cr3t"]}`)
	preRedact := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{UpdatedInput: redact(e.ToolInput)}, nil
	})
	preStaleF := func(k *keeper, f func(string) string) hook.Handler {
		return pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(f(string(k.kept)))}, nil
		})
	}
	cases = append(cases,
		staleCase{name: "PreToolUse: a stale copy restores a tag and reorders", in: multi,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preRedact, preStaleF(k, func(s string) string { return strings.Replace(s, `["x","s3cr3t"]`, `["s3cr3t","x","y"]`, 1) })}
			},
			wantErr: "/tags/0 held"},
		staleCase{name: "PreToolUse: a stale copy restores a value inside an element and appends one", in: multi,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preRedact, preStaleF(k, func(s string) string {
					return strings.Replace(strings.Replace(s, `"v":"s3cr3t"}`, `"v":"s3cr3t","n":1}`, 1), `"v":"2"}]`, `"v":"2"},{"k":"c"}]`, 1)
				})}
			},
			wantErr: "puts back what /items/0/v, /tags/1 held"},
		staleCase{name: "PreToolUse: a stale copy built with Merge restores an array", in: multi,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preRedact, pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
					// Merge into what it saw, but of an array taken from its copy.
					tags := strings.Replace(string(k.kept)[strings.Index(string(k.kept), `"tags":`)+7:len(k.kept)-1], `]`, `,"y"]`, 1)
					upd, err := e.Merge(map[string]jsontext.Value{"tags": jsontext.Value(tags)})
					return &hook.PreToolUseOutput{UpdatedInput: upd}, err
				})}
			},
			wantErr: "puts back what /tags/1 held"},
		staleCase{name: "PreToolUse: an element redacted, a new element with a common value", in: testutil.PreToolUse("TodoWrite", `{"todos":[{"content":"a","status":"pending"}]}`),
			hs: func(*keeper) []hook.Handler {
				return []hook.Handler{
					preMerge(`{"todos":[{"content":"a","status":"completed"}]}`),
					preMerge(`{"todos":[{"content":"a","status":"completed"},{"content":"b","status":"pending"}]}`),
				}
			},
			want: `"updatedInput":{"todos":[{"content":"a","status":"completed"},{"content":"b","status":"pending"}]}`},
		staleCase{name: "PreToolUse: a removed member's array back with one element more", in: multi,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preRemove("tags"), preStaleF(k, func(s string) string { return strings.Replace(s, `"s3cr3t"]`, `"s3cr3t","y"]`, 1) })}
			},
			wantErr: "puts back what /tags/0, /tags/1 held"},
	)
	pr := permReq(`{"command":"ls","env":["A=1","TOKEN=s3cr3t"]}`)
	cases = append(cases, staleCase{name: "PermissionRequest: a stale copy restores an env entry and appends", in: pr,
		hs: func(k *keeper) []hook.Handler {
			return []hook.Handler{
				prMerge(func(e *hook.PermissionRequest) jsontext.Value { return e.ToolInput }, `{"env":["A=1"]}`),
				prMerge(func(*hook.PermissionRequest) jsontext.Value {
					return jsontext.Value(strings.Replace(string(k.kept), `"TOKEN=s3cr3t"]`, `"TOKEN=s3cr3t","B=2"]`, 1))
				}, `{}`),
			}
		},
		wantErr: "puts back what /env/1 held"})
	return cases
}

// TestChainStaleCopyArrays: a redaction inside an array is never undone
// by a stale copy, whatever the copy also does to the array, at any
// depth and in every rewrite that can hold an array; a handler that
// works from what it saw composes.
func TestChainStaleCopyArrays(t *testing.T) {
	for _, c := range arrayCases() {
		t.Run(c.name, func(t *testing.T) { runStale(t, c) })
	}
}

// TestChainDeliberateChangeBack: a handler that sets a member back to its
// original value on purpose (a clamp after a raise) composes when it
// builds its rewrite from what it was given with Merge, Edit or Update;
// a rewrite built otherwise is refused with a message that says how.
func TestChainDeliberateChangeBack(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"make","timeout":10}`)
	raise := preMerge(`{"timeout":600}`)
	clamps := map[string]hook.Handler{
		"Merge": pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]int{"timeout": 10})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}),
		"hook.Merge": pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Merge(e.ToolInput, map[string]int{"timeout": 10})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}),
		"Edit": pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Edit(e.ToolInput, func(in *hook.BashInput) error {
				in.Timeout = min(in.Timeout, 10)
				return nil
			})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}),
		"Update": pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			in.Timeout = min(in.Timeout, 10)
			upd, err := e.Update(in)
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}),
	}
	for name, clamp := range clamps {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := testutil.Serve(t, hook.Chain(raise, clamp), in)
			require.Equal(t, hook.ExitOK, code, stderr)
			// Back to the original input: a rewrite that changes nothing
			// is not written, and the allow stands.
			assert.Contains(t, stdout, `"permissionDecision":"allow"`)
			assert.NotContains(t, stdout, `600`)
		})
	}
	t.Run("inside a sub-chain, next to another change", func(t *testing.T) {
		h := hook.Chain(raise, hook.Chain(preMerge(`{"x":1}`), clamps["Merge"]))
		code, stdout, stderr := testutil.Serve(t, h, in)
		require.Equal(t, hook.ExitOK, code, stderr)
		assert.Contains(t, stdout, `"updatedInput":{"command":"make","timeout":10,"x":1}`)
	})

	// By hand, from what it saw: the library cannot tell it from a stale
	// copy, and says how to make it its own.
	byHand := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(strings.Replace(string(e.ToolInput), `600`, `10`, 1))}, nil
	})
	code, stdout, stderr := testutil.Serve(t, hook.Chain(raise, byHand), in)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "puts back what /timeout held")
	assert.Contains(t, stderr, "build the rewrite with Merge, Edit or Update from the value this handler was given")

	// Merge from what it saw, but the bytes changed first: not its own.
	written := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		copy(e.ToolInput[strings.Index(string(e.ToolInput), "600"):], " 10")
		upd, err := e.Merge(map[string]int{"y": 1})
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	code, _, stderr = testutil.Serve(t, hook.Chain(raise, written), in)
	assert.Equal(t, hook.ExitError, code, stderr)
	assert.Contains(t, stderr, "wrote into the bytes of the tool_input it was given")

	// Merge from a stale copy: refused as before.
	k := &keeper{name: "tool_input"}
	fromCopy := preStale(k, `{"timeout":10}`)
	code, _, stderr = testutil.Serve(t, k.wrap(hook.Chain(preMerge(`{"timeout":600,"x":1}`), fromCopy)), in)
	assert.Equal(t, hook.ExitError, code, stderr)
	assert.Contains(t, stderr, "lacks /x")
}

// TestChainRemovalStillChecked: a chain's last rewrite goes out without
// being checked again against the input Serve read only when no handler
// removed a member; middleware that drops the chain's Removed is still
// caught writing a partial input.
func TestChainRemovalStillChecked(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"ls","timeout":5}`)
	chain := hook.Chain(preRemove("timeout"), preMerge(`{"y":"2"}`))
	code, stdout, stderr := testutil.Serve(t, chain, in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"updatedInput":{"command":"ls","y":"2"}`)

	strip := hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		out, err := chain.ServeHook(ctx, ev)
		if o, ok := out.(*hook.PreToolUseOutput); ok {
			o.Removed = nil
		}
		return out, err
	})
	code, stdout, stderr = testutil.Serve(t, strip, in)
	assert.Equal(t, hook.ExitError, code, stdout)
	assert.Contains(t, stderr, "lacks /timeout")

	// Without a removal, the last rewrite is the chain's to vouch for.
	code, stdout, stderr = testutil.Serve(t, hook.Chain(preMerge(`{"x":"1"}`), preMerge(`{"y":"2"}`)), in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"updatedInput":{"command":"ls","timeout":5,"x":"1","y":"2"}`)
}
