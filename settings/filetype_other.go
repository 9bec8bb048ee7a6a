//go:build !unix

package settings

// openNonblock is 0 where opening a file cannot wait for a writer the
// way a Unix named pipe does; resolve refuses such files before.
const openNonblock = 0
