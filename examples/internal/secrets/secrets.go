// Package secrets says whether a file path looks like it holds secrets:
// environment files, private keys, credential stores. The example hooks
// use it to keep Claude away from such files.
package secrets

import (
	"path/filepath"
	"strings"
)

// Match reports whether the file at path p looks like it holds secrets,
// and names the rule it matches, such as ".env file" or "SSH private key".
// Names are compared without regard to case. Samples and public halves
// (.env.example, id_rsa.pub) do not match.
func Match(p string) (rule string, ok bool) {
	clean := filepath.ToSlash(filepath.Clean(p))
	lower := strings.ToLower(clean)
	name := lower[strings.LastIndexByte(lower, '/')+1:]
	parts := strings.Split(lower, "/")
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
