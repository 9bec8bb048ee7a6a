package sdkdecl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample holds the shapes of the Agent SDK's sdk.d.ts and sdk-tools.d.ts,
// and the constructs around them the reader must step over.
const sample = `/* eslint-disable */
import type { Foo } from './foo';
import * as coreTypes from './core';
export declare class AbortError extends Error<{ a: string }> {
    constructor(message?: string);
    readonly x: number;
}
declare namespace ns {
    export { HOOK_EVENTS, BaseHookInput };
    type Hidden = { inner: string };
}
export declare function query(_params: { prompt: string; options?: { a: 1 } }): Promise<void>;
export declare function tag(_a: string | null): { b: string } | undefined;

/** The hook events. */
export declare const HOOK_EVENTS: readonly ['PreToolUse', "PostToolUse", 'Odd\'s'];
export declare const BOUNDARY = "__B__";

export declare type BaseHookInput = {
    session_id: string;
    // a line comment
    /**
     * A doc comment with { braces } and 'quotes' and a */
    prompt_id?: string;
    readonly readonly?: boolean;
    effort?: {
        /** nested */
        level: string;
    };
};

export declare type PreToolUseHookInput = BaseHookInput & {
    hook_event_name: 'PreToolUse';
    tool_input: unknown;
    mcp_server?: McpServerProvenance;
};

export declare type PostModelSwitchHookInput = (BaseHookInput & {
    hook_event_name: 'PostModelSwitch';
}) & {
    requested_model: string | null;
    source: 'command' | 'picker';
    tool_calls: PostToolBatchToolCall[];
    list: Array<{ x: number }>;
};

export declare type McpServerProvenance = {
    name: string;
    source: 'sdk' | 'plugin';
};

declare type PostToolBatchToolCall = {
    tool_name: string;
    tool_response?: unknown;
}

export declare type PermissionRequestHookSpecificOutput = {
    hookEventName: 'PermissionRequest';
    decision: {
        behavior: 'allow';
        updatedInput?: Record<string, unknown>;
    } | {
        behavior: 'deny';
        message?: string;
    };
};

export declare type Sync = {
    hookSpecificOutput?: PermissionRequestHookSpecificOutput | McpServerProvenance;
    callback: (input: { a: string }, id: string | undefined) => Promise<Sync>;
    method(a: string): void;
    opt?<T>(x: T): T;
    [Symbol.dispose]?(): void;
    "quoted-name"?: number;
    "-B"?: number;
    42: string;
    tmpl: ` + "`a${string}b`" + `;
    neg: -1;
    cond: T extends string ? { a: 1 } : never;
    idx: Foo['bar'];
    key: keyof Foo;
    of: typeof query;
    tuple: [first: string, second?: number, ...rest: boolean[]];
    generic: Map<string, Array<number>>;
};

export interface ExitPlanModeInput {
  allowedPrompts?: {
    tool: "Bash";
    prompt: string;
  }[];
  [k: string]: unknown;
}
export interface Empty {}
export interface Child extends ExitPlanModeInput, McpServerProvenance {
  name: "child";
  extra: number
  other: string
}
export interface Child {
  merged?: boolean;
}
export declare type Mapped = { [K in 'a' | 'b']?: string };
export declare type Branded = string & { __brand: 'x' };
export declare type WithOmit = Omit<BaseHookInput, 'cwd'> & { z: string };
export type ToolInputSchemas =
  | ExitPlanModeInput
  | Empty;
export declare type Dup = string;
export declare type Dup = number;
export declare type Bad = { a: string b: number };
`

func parseSample(t *testing.T) *File {
	t.Helper()
	f, err := Parse(sample)
	require.NoError(t, err)
	return f
}

func shapeOf(t *testing.T, f *File, name string) Shape {
	t.Helper()
	typ, err := f.Lookup(name)
	require.NoError(t, err)
	s, ok, err := f.ObjectShape(typ)
	require.NoError(t, err, name)
	require.True(t, ok, "%s is an object type", name)
	return s
}

func TestParseNames(t *testing.T) {
	f := parseSample(t)
	assert.Equal(t, []string{
		"BOUNDARY", "Bad", "BaseHookInput", "Branded", "Child", "Dup", "Empty", "ExitPlanModeInput",
		"HOOK_EVENTS", "Mapped", "McpServerProvenance", "PermissionRequestHookSpecificOutput",
		"PostModelSwitchHookInput", "PostToolBatchToolCall", "PreToolUseHookInput", "Sync",
		"ToolInputSchemas", "WithOmit",
	}, f.Names(), "classes, functions, namespaces and imports are skipped")
	assert.False(t, f.Has("Hidden"), "a namespace's declarations are not top-level")
	assert.False(t, f.Has("AbortError"))
}

func TestStringLiterals(t *testing.T) {
	f := parseSample(t)
	typ, err := f.Lookup("HOOK_EVENTS")
	require.NoError(t, err)
	events, err := f.StringLiterals(typ)
	require.NoError(t, err)
	assert.Equal(t, []string{"PreToolUse", "PostToolUse", "Odd's"}, events)

	typ, err = f.Lookup("BOUNDARY")
	require.NoError(t, err)
	b, err := f.StringLiterals(typ)
	require.NoError(t, err)
	assert.Equal(t, []string{"__B__"}, b)

	s := shapeOf(t, f, "PostModelSwitchHookInput")
	src, _ := s.Member("source")
	lits, err := f.StringLiterals(src.Type)
	require.NoError(t, err)
	assert.Equal(t, []string{"command", "picker"}, lits)
	rm, _ := s.Member("requested_model")
	_, err = f.StringLiterals(rm.Type)
	assert.Error(t, err, "string | null is no string-literal type")
}

func TestIntersections(t *testing.T) {
	f := parseSample(t)
	s := shapeOf(t, f, "PreToolUseHookInput")
	assert.Equal(t, []string{"session_id", "prompt_id", "readonly", "effort", "hook_event_name", "tool_input", "mcp_server"}, s.Names())
	m, _ := s.Member("prompt_id")
	assert.True(t, m.Optional)
	m, _ = s.Member("session_id")
	assert.False(t, m.Optional)
	m, _ = s.Member("readonly")
	assert.True(t, m.Readonly && m.Optional, "readonly as a modifier and as a name")
	m, _ = s.Member("hook_event_name")
	assert.Equal(t, &Literal{Kind: "string", Value: "PreToolUse"}, m.Type)

	// Nested object types and references to declared ones.
	m, _ = s.Member("effort")
	nested, ok, err := f.ObjectShape(m.Type)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"level"}, nested.Names())
	m, _ = s.Member("mcp_server")
	nested, ok, err = f.ObjectShape(m.Type)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"name", "source"}, nested.Names())
	m, _ = s.Member("tool_input")
	_, ok, err = f.ObjectShape(m.Type)
	assert.NoError(t, err)
	assert.False(t, ok, "unknown is no object")

	// A parenthesized intersection, intersected again.
	s = shapeOf(t, f, "PostModelSwitchHookInput")
	assert.Equal(t, []string{"session_id", "prompt_id", "readonly", "effort", "hook_event_name", "requested_model", "source", "tool_calls", "list"}, s.Names())
	for name, want := range map[string][]string{"tool_calls": {"tool_name", "tool_response"}, "list": {"x"}} {
		m, _ = s.Member(name)
		elem, ok := f.Elem(m.Type)
		require.True(t, ok, name)
		es, ok, err := f.ObjectShape(elem)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, want, es.Names(), name)
	}
}

func TestUnionsOfObjects(t *testing.T) {
	f := parseSample(t)
	s := shapeOf(t, f, "PermissionRequestHookSpecificOutput")
	m, _ := s.Member("decision")
	d, ok, err := f.ObjectShape(m.Type)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"behavior", "updatedInput", "message"}, d.Names())
	b, _ := d.Member("behavior")
	assert.False(t, b.Optional, "in every variant")
	msg, _ := d.Member("message")
	assert.True(t, msg.Optional)
	u, _ := d.Member("updatedInput")
	_, ok, err = f.ObjectShape(u.Type)
	assert.NoError(t, err)
	assert.False(t, ok, "Record<…> is not declared here: opaque")

	s = shapeOf(t, f, "Sync")
	hso, _ := s.Member("hookSpecificOutput")
	u2, ok := hso.Type.(*Union)
	require.True(t, ok)
	assert.Equal(t, []Type{&Ref{Name: "PermissionRequestHookSpecificOutput"}, &Ref{Name: "McpServerProvenance"}}, u2.Types)
	hs, ok, err := f.ObjectShape(hso.Type)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"hookEventName", "decision", "name", "source"}, hs.Names())

	typ, err := f.Lookup("ToolInputSchemas")
	require.NoError(t, err)
	tu, ok := typ.(*Union)
	require.True(t, ok, "a union with a leading |")
	assert.Equal(t, []Type{&Ref{Name: "ExitPlanModeInput"}, &Ref{Name: "Empty"}}, tu.Types)
}

func TestMemberForms(t *testing.T) {
	f := parseSample(t)
	s := shapeOf(t, f, "Sync")
	assert.Equal(t, []string{"hookSpecificOutput", "callback", "method", "opt", "quoted-name", "-B", "42", "tmpl", "neg", "cond", "idx", "key", "of", "tuple", "generic"}, s.Names(),
		"a computed [Symbol.dispose] method is no member")
	assert.False(t, s.Open)
	cb, _ := s.Member("callback")
	fn, ok := cb.Type.(*Func)
	require.True(t, ok)
	assert.Equal(t, &Ref{Name: "Promise", Args: []Type{&Ref{Name: "Sync"}}}, fn.Result)
	for name, want := range map[string]Type{
		"neg":     &Literal{Kind: "number", Value: "-1"},
		"tmpl":    &Literal{Kind: "template", Value: "`a${string}b`"},
		"generic": &Ref{Name: "Map", Args: []Type{&Ref{Name: "string"}, &Array{Elem: &Ref{Name: "number"}}}},
		"tuple":   &Tuple{Elems: []Type{&Ref{Name: "string"}, &Ref{Name: "number"}, &Array{Elem: &Ref{Name: "boolean"}}}},
	} {
		m, _ := s.Member(name)
		assert.Equal(t, want, m.Type, name)
	}
	for _, name := range []string{"cond", "idx", "key", "of"} {
		m, _ := s.Member(name)
		assert.IsType(t, &Other{}, m.Type, name)
	}
}

func TestInterfaces(t *testing.T) {
	f := parseSample(t)
	s := shapeOf(t, f, "ExitPlanModeInput")
	assert.Equal(t, []string{"allowedPrompts"}, s.Names())
	assert.True(t, s.Open, "an index signature opens the object")
	m, _ := s.Member("allowedPrompts")
	elem, ok := f.Elem(m.Type)
	require.True(t, ok)
	es, ok, err := f.ObjectShape(elem)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"tool", "prompt"}, es.Names())

	s = shapeOf(t, f, "Empty")
	assert.Empty(t, s.Members)

	s = shapeOf(t, f, "Child")
	assert.Equal(t, []string{"allowedPrompts", "name", "source", "extra", "other", "merged"}, s.Names(),
		"extends, an override in place, members without ; and declaration merging")
	name, _ := s.Member("name")
	assert.Equal(t, &Literal{Kind: "string", Value: "child"}, name.Type)
	assert.True(t, s.Open)

	s = shapeOf(t, f, "Mapped")
	assert.True(t, s.Open, "a mapped type may hold any name")
}

func TestNotObjects(t *testing.T) {
	f := parseSample(t)
	typ, err := f.Lookup("Branded")
	require.NoError(t, err)
	_, ok, err := f.ObjectShape(typ)
	assert.NoError(t, err)
	assert.False(t, ok, "a branded string is a string")

	typ, err = f.Lookup("WithOmit")
	require.NoError(t, err)
	_, _, err = f.ObjectShape(typ)
	assert.ErrorContains(t, err, "Omit", "a partial list of members is never taken for the whole")

	_, err = f.Lookup("Dup")
	assert.ErrorContains(t, err, "more than once")
	_, err = f.Lookup("Bad")
	assert.ErrorContains(t, err, "want ; or }")
	_, err = f.Lookup("Nope")
	assert.ErrorContains(t, err, "not declared")
}

func TestCycles(t *testing.T) {
	f, err := Parse("type A = B & { a: 1 };\ntype B = A & { b: 1 };\ntype L = L[];")
	require.NoError(t, err)
	typ, err := f.Lookup("A")
	require.NoError(t, err)
	_, _, err = f.ObjectShape(typ)
	assert.ErrorContains(t, err, "cycle")
	typ, err = f.Lookup("L")
	require.NoError(t, err)
	elem, ok := f.Elem(typ)
	assert.True(t, ok)
	assert.Equal(t, &Ref{Name: "L"}, elem)
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"type A = { a: string;",      // unbalanced
		"/* never closed",            // comment
		"type A = 'unterminated;",    // string
		"type A = `x${",              // template
		"type A = { a: string ]; };", // wrong closer
		"interface A extends B",      // no body
		"type A = \"line\nbreak\";",  // newline in a string
	} {
		_, err := Parse(src)
		assert.Error(t, err, "%q", src)
	}
	// Garbage in one declaration leaves the others readable.
	f, err := Parse("type A = { a: string };\ntype B = { b: ?? };\ntype C = { c: 1 };")
	require.NoError(t, err)
	_, err = f.Lookup("B")
	assert.Error(t, err)
	typ, err := f.Lookup("C")
	require.NoError(t, err)
	s, ok, err := f.ObjectShape(typ)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []string{"c"}, s.Names())
}

func TestStringEscapes(t *testing.T) {
	f, err := Parse(`declare const A: readonly ['a\'b', "c\"d", 'e\u0041', '\u{1F600}', 'tab\t', 'oct\01', 'bad\u{zz}', 'x\
y'];`)
	require.NoError(t, err)
	typ, err := f.Lookup("A")
	require.NoError(t, err)
	got, err := f.StringLiterals(typ)
	require.NoError(t, err)
	assert.Equal(t, []string{"a'b", `c"d`, "eA", "😀", "tab\t", `oct\01`, `bad\u{zz}`, "xy"}, got,
		"an escape the reader does not know is kept as written")
}

func TestNestingLimit(t *testing.T) {
	deep := "type A = " + strings.Repeat("(", 10000) + "string" + strings.Repeat(")", 10000) + ";"
	f, err := Parse(deep)
	require.NoError(t, err)
	_, err = f.Lookup("A")
	assert.ErrorContains(t, err, "nest deeper")

	objects := "type B = " + strings.Repeat("{ a: ", 10000) + "string" + strings.Repeat(" }", 10000) + ";"
	f, err = Parse(objects)
	require.NoError(t, err)
	_, err = f.Lookup("B")
	assert.ErrorContains(t, err, "nest deeper")

	ok := "type C = " + strings.Repeat("{ a: ", 50) + "string" + strings.Repeat(" }", 50) + ";"
	f, err = Parse(ok)
	require.NoError(t, err)
	_, err = f.Lookup("C")
	assert.NoError(t, err)
}

// FuzzParse checks that no input makes the reader panic or loop: every
// declaration is looked up and resolved.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("type A = B & { a?: C[] };\ninterface B extends A { [k: string]: unknown }\ntype C = A | B | null;")
	f.Add("export declare const X: readonly ['a', 'b'];\ndeclare class Y { m(): void }")
	f.Add("type T = `a${`b${1}`}`;")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse(src)
		if err != nil {
			return
		}
		for _, name := range file.Names() {
			typ, err := file.Lookup(name)
			if err != nil {
				continue
			}
			if s, ok, err := file.ObjectShape(typ); ok && err == nil {
				for _, m := range s.Members {
					_, _, _ = file.ObjectShape(m.Type)
					file.Elem(m.Type)
				}
			}
			_, _ = file.StringLiterals(typ)
		}
	})
}

// TestDiamonds resolves names referenced many times over once each.
func TestDiamonds(t *testing.T) {
	var src strings.Builder
	for i := range 200 {
		fmt.Fprintf(&src, "type L%d = L%d | L%d;\ntype O%d = O%d & O%d & { m%d: string };\n", i+200, i+201, i+201, i, i+1, i+1, i)
	}
	src.WriteString("type L400 = 'x';\ntype O200 = { end: 1 };\ntype Self = Self | Self;\n")
	f, err := Parse(src.String())
	require.NoError(t, err)
	typ, err := f.Lookup("L390")
	require.NoError(t, err)
	lits, err := f.StringLiterals(typ)
	require.NoError(t, err)
	assert.Len(t, lits, 1<<10, "the count doubles per level; each name is resolved once")
	typ, err = f.Lookup("O150")
	require.NoError(t, err)
	_, _, err = f.ObjectShape(typ)
	assert.ErrorContains(t, err, "deeper", "a chain of 50 intersections nests too deep")
	typ, err = f.Lookup("O190")
	require.NoError(t, err)
	s, ok, err := f.ObjectShape(typ)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Len(t, s.Members, 11)
	typ, err = f.Lookup("Self")
	require.NoError(t, err)
	_, err = f.StringLiterals(typ)
	assert.ErrorContains(t, err, "cycle")
	_, _, err = f.ObjectShape(typ)
	assert.ErrorContains(t, err, "cycle")
}

// TestTupleElems reads arrays with minItems and maxItems, which
// json-schema-to-typescript writes as unions of tuples.
func TestTupleElems(t *testing.T) {
	f, err := Parse(`export interface AskUserQuestionInput {
  questions:
    | [{ question: string; options: | [{ label: string }, { label: string; preview?: string }] | [{ label: string }, { label: string }, { label: string }] }]
    | [{ question: string; header: string }, { question: string; header: string }];
  maybe?: string[] | null;
  pair: [string, number];
}`)
	require.NoError(t, err)
	s := shapeOf(t, f, "AskUserQuestionInput")
	q, _ := s.Member("questions")
	elem, ok := f.Elem(q.Type)
	require.True(t, ok)
	qs, ok, err := f.ObjectShape(elem)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"question", "options", "header"}, qs.Names())
	h, _ := qs.Member("header")
	assert.True(t, h.Optional, "missing from one variant")
	o, _ := qs.Member("options")
	oe, ok := f.Elem(o.Type)
	require.True(t, ok)
	os, ok, err := f.ObjectShape(oe)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"label", "preview"}, os.Names())

	m, _ := s.Member("maybe")
	e, ok := f.Elem(m.Type)
	assert.True(t, ok)
	assert.Equal(t, &Ref{Name: "string"}, e)
	p, _ := s.Member("pair")
	e, ok = f.Elem(p.Type)
	assert.True(t, ok)
	assert.Equal(t, &Union{Types: []Type{&Ref{Name: "string"}, &Ref{Name: "number"}}}, e)
	_, ok = f.Elem(&Ref{Name: "string"})
	assert.False(t, ok)
}
