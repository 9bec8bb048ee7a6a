// Package sub is a second public package.
package sub

// Version is a string constant with quotes in it.
const Version = "v1 \"quoted\""
