package clientrun

import (
	"fmt"
	"path/filepath"
	"runtime"
)

// nativePackage returns the npm package that holds Claude Code's native
// binary for goos and goarch; on Linux, musl says the C library is musl
// (Alpine), which has packages of its own.
func nativePackage(goos, goarch string, musl bool) (string, error) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch]
	platform := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[goos]
	if arch == "" || platform == "" {
		return "", fmt.Errorf("no Claude Code package is made for %s/%s", goos, goarch)
	}
	pkg := "@anthropic-ai/claude-code-" + platform + "-" + arch
	if goos == "linux" && musl {
		pkg += "-musl"
	}
	return pkg, nil
}

// isMusl reports whether this is a Linux system whose C library is musl:
// it has musl's dynamic loader and not glibc's, as npm tells the two
// apart to pick a package's libc variant.
func isMusl() bool {
	return runtime.GOOS == "linux" && muslIn("/")
}

// muslIn is isMusl for the system whose root folder is root.
func muslIn(root string) bool {
	has := func(patterns ...string) bool {
		for _, p := range patterns {
			if m, _ := filepath.Glob(filepath.Join(root, p)); len(m) > 0 {
				return true
			}
		}
		return false
	}
	if has("lib*/ld-linux*.so.*", "lib/*-linux-gnu*/libc.so.6", "usr/lib*/ld-linux*.so.*") {
		return false
	}
	return has("lib/ld-musl-*.so.1", "usr/lib/ld-musl-*.so.1")
}
