// Package hidden is internal: not listed.
package hidden

// T is exported but internal.
type T struct{ X int }
