//go:build !unix

package hook

// ignoreBrokenPipe does nothing: only Unix kills a process that writes to
// a closed pipe.
func ignoreBrokenPipe() {}
