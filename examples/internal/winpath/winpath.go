// Package winpath reads file paths the way Windows opens them, on any
// machine and without the file system, so that an example hook judging a
// path Claude Code sends from Windows reaches the same verdict wherever it
// runs and is tested.
//
// Windows opens C:\proj\.env, c:/PROJ/.ENV, C:\proj\.env. (a trailing
// dot), C:\proj\.env␠ (a trailing space), C:\proj\.env::$DATA (the file's
// default data stream), \\?\C:\proj\.env and, usually, C:\proj\ENV~1 (an
// 8.3 short name) as the same file. Clean gives all but the last the same
// form; MayBeAlias tells which long names a short name can stand for.
package winpath

import (
	"path"
	"strings"
)

// IsWindows reports whether p is written the Windows way: it starts with
// a drive letter and a colon (C:\x, C:/x, C:x) or with two backslashes (a
// UNC path \\server\share, a device path \\?\C:\x or \\.\C:\x).
func IsWindows(p string) bool {
	return hasDrive(p) || strings.HasPrefix(p, `\\`)
}

func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// Slash returns p with its Windows spelling made plain: the device
// prefixes \\?\ and \\.\ dropped (\\?\UNC\server\share becomes
// //server/share), backslashes turned into slashes, and a drive letter
// lower-cased. Other paths come back with backslashes turned into
// slashes too, since Windows takes either as a separator.
func Slash(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for _, dev := range []string{"//?/", "//./"} {
		if rest, ok := strings.CutPrefix(p, dev); ok {
			if len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/") {
				p = "//" + rest[4:]
			} else {
				p = rest
			}
			break
		}
	}
	if hasDrive(p) {
		p = strings.ToLower(p[:1]) + p[1:]
	}
	return p
}

// Name returns one path component as Windows stores it: an alternate data
// stream suffix (":stream", ":stream:$DATA", "::$DATA") dropped, then
// trailing dots and spaces, which Windows strips from a name. "." and
// ".." are left as they are.
func Name(c string) string {
	if c == "." || c == ".." {
		return c
	}
	if i := strings.IndexByte(c, ':'); i >= 0 {
		c = c[:i]
	}
	trimmed := strings.TrimRight(c, ". ")
	if trimmed == "" && c != "" {
		return c // a name of dots and spaces only is refused by Windows; keep it visible
	}
	return trimmed
}

// Clean returns the form under which Windows opens p, for comparing
// paths: Slash, then each name as Name gives it, "." and ".." resolved,
// everything lower-cased (Windows compares names without case). A drive
// path comes out as c:/x (c: alone for the drive's root folder, c:x for a
// drive-relative path), a UNC path as //server/share/x, and a rooted or
// relative path in the POSIX way.
func Clean(p string) string {
	p = Slash(p)
	prefix := ""
	switch {
	case hasDrive(p):
		prefix, p = p[:2], p[2:]
	case strings.HasPrefix(p, "//"):
		prefix, p = "/", p[1:]
	}
	rooted := strings.HasPrefix(p, "/")
	parts := strings.Split(p, "/")
	for i, c := range parts {
		parts[i] = Name(c)
	}
	p = path.Clean(strings.Join(parts, "/"))
	if prefix != "" && !rooted && p == "." {
		p = ""
	}
	if prefix == "/" && p == "/" {
		p = ""
	}
	return strings.ToLower(prefix + p)
}

// Short splits an 8.3 short name such as ENV~1 or CREDEN~1.JSO into its
// base before the tilde (ENV, CREDEN) and its extension ("", JSO),
// upper-cased; ok is false for a name that is not shaped like one.
func Short(c string) (base, ext string, ok bool) {
	c = strings.ToUpper(c)
	name, ext, _ := strings.Cut(c, ".")
	tilde := strings.LastIndexByte(name, '~')
	if tilde < 1 || tilde == len(name)-1 || len(name) > 8 || len(ext) > 3 || strings.Contains(ext, ".") {
		return "", "", false
	}
	for _, r := range name[tilde+1:] {
		if r < '0' || r > '9' {
			return "", "", false
		}
	}
	return name[:tilde], ext, true
}

// MayBeAlias reports whether the 8.3 short name short may be the one
// Windows made for the long name long. Windows keeps up to six characters
// of the name before its last dot, leading dots, other dots and spaces
// left out, and the first three characters after that dot, upper-cased:
// .env is ENV~1, .env.local ENV~1.LOC, credentials.json CREDEN~1.JSO.
// After the fourth collision Windows puts a hash in the name, which no
// reading without the file system can undo, and the file system can
// switch short names off: where the file exists, resolve it (for example
// with filepath.EvalSymlinks on Windows) to be sure.
func MayBeAlias(short, long string) bool {
	sb, se, ok := Short(short)
	if !ok {
		return false
	}
	lb, le := shortParts(long)
	if len(sb) < 6 && sb != lb || len(sb) >= 6 && !strings.HasPrefix(lb, sb) {
		return false
	}
	return se == le
}

// shortParts returns the base and extension Windows derives a long name's
// short name from: without leading dots, split at the last dot, dots and
// spaces removed from the base, upper-cased, the extension cut to three.
func shortParts(long string) (base, ext string) {
	long = strings.ToUpper(strings.TrimLeft(long, "."))
	if i := strings.LastIndexByte(long, '.'); i >= 0 {
		base, ext = long[:i], long[i+1:]
	} else {
		base = long
	}
	base = strings.NewReplacer(".", "", " ", "").Replace(base)
	ext = strings.ReplaceAll(ext, " ", "")
	if len(ext) > 3 {
		ext = ext[:3]
	}
	return base, ext
}

// IsAbs reports whether p is absolute on POSIX (/x) or on Windows (C:\x,
// C:/x, \\server\share, \\?\C:\x): a hook joins only other paths to the
// session's working folder, whichever machine it runs on.
func IsAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) || hasDrive(p) && len(p) > 2 && (p[2] == '\\' || p[2] == '/')
}

// Join returns the relative path p joined to the folder dir as the
// machine that wrote dir would join it, whichever machine the hook runs
// on: after a Windows folder with a backslash (C:\proj and .env give
// C:\proj\.env), after any other with a slash, cleaned (/proj and ./.env
// give /proj/.env).
func Join(dir, p string) string {
	if IsWindows(dir) {
		return strings.TrimRight(dir, `\/`) + `\` + strings.ReplaceAll(p, "/", `\`)
	}
	return path.Join(dir, p)
}
