// Package secrets says whether a file path looks like it holds secrets:
// environment files, private keys, credential stores. The example hooks
// use it to keep Claude away from such files.
package secrets

import (
	"path"
	"strings"

	"github.com/gohooks/hook/examples/internal/winpath"
)

// Match reports whether the file at path p looks like it holds secrets,
// and names the rule it matches, such as ".env file" or "SSH private key".
// Samples and public halves (.env.example, id_rsa.pub) do not match.
//
// Paths are read as Windows would open them, on every machine, since the
// path may come from Claude Code on Windows: \ and / both separate names,
// names compare without regard to case, trailing dots and spaces and an
// alternate data stream (.env::$DATA) are dropped, \?\ and UNC prefixes
// and drive letters are understood (see package winpath). A name shaped
// like an 8.3 short name (ENV~1) matches when it may stand for a secret
// (.env); which file it really names is up to the file system, which a
// caller that can should ask (filepath.EvalSymlinks gives long names on
// Windows).
func Match(p string) (rule string, ok bool) {
	if p == "" {
		return "", false
	}
	for _, parts := range expand(strings.Split(winpath.Clean(p), "/")) {
		if rule, ok := match(parts); ok {
			return rule, true
		}
	}
	// The POSIX reading too, where a colon is part of a name
	// (backup:1.env is an environment file there).
	return match(strings.Split(strings.ToLower(path.Clean(p)), "/"))
}

// match applies the rules to a cleaned, lower-case path split into its
// names.
func match(parts []string) (rule string, ok bool) {
	lower := strings.Join(parts, "/")
	name := parts[len(parts)-1]
	inDir := func(dir string) bool {
		for _, d := range parts[:len(parts)-1] {
			if d == dir {
				return true
			}
		}
		return false
	}
	switch {
	case strings.HasSuffix(name, ".pub"):
		return "", false // the public half of a key pair
	case isEnvFile(name):
		return ".env file", true
	case strings.HasPrefix(name, "id_rsa") || strings.HasPrefix(name, "id_dsa") || strings.HasPrefix(name, "id_ecdsa") || strings.HasPrefix(name, "id_ed25519"):
		return "SSH private key", true
	case inDir(".ssh") && name != "known_hosts" && name != "known_hosts.old" && name != "config" && name != "authorized_keys":
		return "file in .ssh", true
	case inDir(".gnupg"):
		return "GnuPG keyring", true
	}
	for ext, rule := range extensions {
		if strings.HasSuffix(name, ext) {
			return rule, true
		}
	}
	if rule, ok := names[name]; ok {
		return rule, true
	}
	for suffix, rule := range pathSuffixes {
		if lower == suffix[1:] || strings.HasSuffix(lower, suffix) {
			return rule, true
		}
	}
	return "", false
}

// maxAliasReadings bounds the readings expand makes of a path with 8.3
// short names in it.
const maxAliasReadings = 64

// expand returns the readings of a path's names: the path itself, and,
// for each name shaped like an 8.3 short name, the names it may stand for
// that the rules know, or a long form the rules can judge (ENV~1.LOC:
// .env.loc).
func expand(parts []string) [][]string {
	out := [][]string{parts}
	for i, c := range parts {
		base, ext, ok := winpath.Short(c)
		if !ok {
			continue
		}
		var alts []string
		for _, long := range knownNames {
			if winpath.MayBeAlias(c, long) {
				alts = append(alts, long)
			}
		}
		long := strings.ToLower(base)
		if ext != "" {
			long += "." + strings.ToLower(ext)
		}
		alts = append(alts, long, "."+long)
		var next [][]string
		for _, r := range out {
			for _, a := range alts {
				if len(next) == maxAliasReadings {
					break
				}
				alt := append([]string(nil), r...)
				alt[i] = a
				next = append(next, alt)
			}
		}
		out = append(out, next...)
		if len(out) > maxAliasReadings {
			out = out[:maxAliasReadings]
		}
	}
	return out
}

// knownNames are the names the rules look for, for matching 8.3 short
// names against.
var knownNames = func() []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range []string{".env", ".ssh", ".gnupg", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"} {
		add(n)
	}
	for n := range names {
		add(n)
	}
	for s := range pathSuffixes {
		for _, n := range strings.Split(s, "/") {
			add(n)
		}
	}
	return out
}()

// sampleWords mark an environment file as a sample without secrets.
var sampleWords = map[string]bool{"example": true, "sample": true, "template": true, "dist": true, "defaults": true}

// isEnvFile matches .env, .env.local, .env.production, prod.env, … but
// not .env.example, .env.local.sample or example.env.
func isEnvFile(name string) bool {
	if name != ".env" && !strings.HasPrefix(name, ".env.") && !strings.HasSuffix(name, ".env") {
		return false
	}
	for _, w := range strings.Split(name, ".") {
		if sampleWords[w] {
			return false
		}
	}
	return true
}

var extensions = map[string]string{
	".pem":      "PEM key or certificate",
	".key":      "private key",
	".p12":      "PKCS#12 key store",
	".pfx":      "PKCS#12 key store",
	".jks":      "Java key store",
	".keystore": "key store",
	".ppk":      "PuTTY private key",
	".kdbx":     "KeePass database",
	".tfstate":  "Terraform state",
}

var names = map[string]string{
	".envrc":           "direnv environment file",
	".netrc":           "netrc credentials",
	"_netrc":           "netrc credentials",
	".pgpass":          "PostgreSQL password file",
	".git-credentials": "git credentials",
	".npmrc":           "npm credentials",
	".pypirc":          "PyPI credentials",
	".htpasswd":        "password file",
	".dockercfg":       "Docker credentials",
	"credentials.json": "credentials file",
	"secrets.yml":      "secrets file",
	"secrets.yaml":     "secrets file",
}

// pathSuffixes match the end of a path, folders included.
var pathSuffixes = map[string]string{
	"/.aws/credentials":              "AWS credentials",
	"/.docker/config.json":           "Docker credentials",
	"/.kube/config":                  "Kubernetes credentials",
	"/.config/gh/hosts.yml":          "GitHub CLI token",
	"/.config/gcloud/credentials.db": "Google Cloud credentials",
}
