package main

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/settings"
)

// installVerb is what install says it did to data with e, which Add
// reports changed or not: "installed", "already installed, unchanged", or
// "updated" when the registration was there and only the options e sets
// changed; then detail lists each with its old and new value, as
// " (timeout 5 -> 30, ...)".
func installVerb(data []byte, e settings.Entry, changed bool) (verb, detail string) {
	if !changed {
		return "already installed, unchanged", ""
	}
	hs, err := settings.Parse(data)
	if err != nil {
		return "installed", ""
	}
	for _, h := range hs {
		if h.Event == e.Event && h.Matcher == e.Matcher && h.Handler.Same(e.Handler) {
			if ch := optionChanges(h.Handler, e.Handler); len(ch) > 0 {
				detail = " (" + strings.Join(ch, ", ") + ")"
			}
			return "updated", detail
		}
	}
	return "installed", ""
}

// optionChanges lists the options want sets that have differs in, by
// their member names, each as "name OLD -> NEW" ("none" when have has
// no value).
func optionChanges(have, want settings.Handler) []string {
	var out []string
	add := func(name string, set, same bool, from, to string) {
		if set && !same {
			if from == "" {
				from = "none"
			}
			out = append(out, name+" "+from+" -> "+to)
		}
	}
	num := func(f float64) string {
		if f == 0 {
			return ""
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	str := func(s string) string {
		if s == "" {
			return ""
		}
		return strconv.Quote(s)
	}
	flag := func(b bool) string {
		if !b {
			return ""
		}
		return "true"
	}
	add("timeout", want.Timeout != 0, have.Timeout == want.Timeout, num(have.Timeout), num(want.Timeout))
	add("onFailure", want.OnFailure != "", have.OnFailure == want.OnFailure, have.OnFailure, want.OnFailure)
	add("statusMessage", want.StatusMessage != "", have.StatusMessage == want.StatusMessage, str(have.StatusMessage), str(want.StatusMessage))
	add("async", want.Async, have.Async, flag(have.Async), "true")
	add("asyncRewake", want.AsyncRewake, have.AsyncRewake, flag(have.AsyncRewake), "true")
	add("headers", want.Headers != nil, slices.Equal(have.Headers, want.Headers), headerNames(have.Headers), headerNames(want.Headers))
	add("allowedEnvVars", want.AllowedEnvVars != nil, slices.Equal(have.AllowedEnvVars, want.AllowedEnvVars),
		listOf(have.AllowedEnvVars), listOf(want.AllowedEnvVars))
	add("input", want.Input != nil, compact(have.Input) == compact(want.Input), compact(have.Input), compact(want.Input))
	add("model", want.Model != "", have.Model == want.Model, str(have.Model), str(want.Model))
	add("continueOnBlock", want.ContinueOnBlock, have.ContinueOnBlock, flag(have.ContinueOnBlock), "true")
	return out
}

// headerNames lists headers by name (their values may hold secrets).
func headerNames(hs []settings.Header) string {
	if hs == nil {
		return ""
	}
	names := make([]string, len(hs))
	for i, h := range hs {
		names[i] = h.Name
	}
	return "[" + strings.Join(names, " ") + "]"
}

// listOf writes a list of words.
func listOf(s []string) string {
	if s == nil {
		return ""
	}
	return "[" + strings.Join(s, " ") + "]"
}

// compact writes a JSON value on one line ("" for none).
func compact(v jsontext.Value) string {
	if v == nil {
		return ""
	}
	c := bytes.Clone(v)
	if err := (*jsontext.Value)(&c).Compact(); err != nil {
		return string(v)
	}
	return string(c)
}
