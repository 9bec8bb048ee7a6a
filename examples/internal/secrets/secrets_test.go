package secrets

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMatch(t *testing.T) {
	secret := map[string]string{
		"/home/dev/acme-api/.env":                    ".env file",
		".env":                                       ".env file",
		"/home/dev/acme-api/.env.local":              ".env file",
		"/home/dev/acme-api/.env.production":         ".env file",
		"/home/dev/acme-api/config/prod.env":         ".env file",
		"/home/dev/acme-api/.ENV":                    ".env file",
		"/home/dev/.ssh/id_rsa":                      "SSH private key",
		"/home/dev/.ssh/id_ed25519":                  "SSH private key",
		"/tmp/id_ecdsa_sk":                           "SSH private key",
		"/home/dev/keys/id_rsa_work":                 "SSH private key",
		"/home/dev/.ssh/deploy_key":                  "file in .ssh",
		"/home/dev/.gnupg/private-keys-v1.d/x.key":   "GnuPG keyring",
		"/etc/ssl/private/server.pem":                "PEM key or certificate",
		"/home/dev/acme-api/certs/tls.key":           "private key",
		"/home/dev/acme-api/TLS.KEY":                 "private key",
		"/home/dev/acme-api/store.p12":               "PKCS#12 key store",
		"/home/dev/acme-api/android.jks":             "Java key store",
		"/home/dev/.aws/credentials":                 "AWS credentials",
		".aws/credentials":                           "AWS credentials",
		"/home/dev/.netrc":                           "netrc credentials",
		"/home/dev/.git-credentials":                 "git credentials",
		"/home/dev/.npmrc":                           "npm credentials",
		"/home/dev/.docker/config.json":              "Docker credentials",
		"/home/dev/.kube/config":                     "Kubernetes credentials",
		"/home/dev/.config/gh/hosts.yml":             "GitHub CLI token",
		"/home/dev/acme-api/infra/terraform.tfstate": "Terraform state",
		"/home/dev/acme-api/config/secrets.yml":      "secrets file",
		"/home/dev/acme-api/a/../.env":               ".env file",
		"/home/dev/acme-api/backup:1.env":            ".env file", // a colon is part of a POSIX name
	}
	for p, rule := range secret {
		got, ok := Match(p)
		assert.True(t, ok, p)
		assert.Equal(t, rule, got, p)
	}
	for _, p := range []string{
		"/home/dev/acme-api/.env.example",
		"/home/dev/acme-api/.env.sample",
		"/home/dev/acme-api/.env.local.template",
		"/home/dev/acme-api/example.env",
		"/home/dev/acme-api/.envrc.md",
		"/home/dev/acme-api/environment.go",
		"/home/dev/.ssh/id_rsa.pub",
		"/home/dev/.ssh/known_hosts",
		"/home/dev/.ssh/config",
		"/home/dev/.aws/config",
		"/home/dev/acme-api/main.go",
		"/home/dev/acme-api/keyboard.go",
		"/home/dev/acme-api/docs/keys.md",
		"/home/dev/acme-api/credentials.go",
		"/home/dev/acme-api/monkey.key.go",
		"",
	} {
		rule, ok := Match(p)
		assert.False(t, ok, "%s matched %s", p, rule)
	}
}

// TestMatchWindowsPaths checks paths as Claude Code sends them from
// Windows, and the spellings under which Windows opens the same file, on
// every machine: the rules read paths as Windows does.
func TestMatchWindowsPaths(t *testing.T) {
	secret := map[string]string{
		`C:\Users\dev\acme-api\.env`:                ".env file",
		`c:/Users/dev/acme-api/.ENV`:                ".env file",
		`C:\Users\dev\acme-api\.env `:               ".env file", // Windows drops the trailing space
		`C:\Users\dev\acme-api\.env.`:               ".env file", // and trailing dots
		`C:\Users\dev\acme-api\.env. . `:            ".env file",
		`/home/dev/acme-api/.env `:                  ".env file", // the same name, as a POSIX path
		`C:\Users\dev\acme-api\.env::$DATA`:         ".env file", // the default data stream
		`C:\Users\dev\acme-api\.env:hidden:$DATA`:   ".env file", // a named stream of .env
		`C:\Users\dev\acme-api\.env.local:x`:        ".env file",
		`\\?\C:\Users\dev\acme-api\.env`:            ".env file",
		`\\.\C:\Users\dev\acme-api\.env.production`: ".env file",
		`\\fileserver\share\acme-api\.env`:          ".env file",
		`\\?\UNC\fileserver\share\.env`:             ".env file",
		`C:\Users\dev\acme-api\ENV~1`:               ".env file", // the 8.3 name of .env
		`C:\Users\dev\acme-api\ENV~2.LOC`:           ".env file", // of .env.local
		`C:\Users\dev\.ssh\id_rsa`:                  "SSH private key",
		`C:\keys\ID_ED2~1`:                          "SSH private key", // id_ed25519
		`C:\Users\dev\.SSH\deploy_key`:              "file in .ssh",
		`C:\Users\dev\SSH~1\deploy_key`:             "file in .ssh", // the 8.3 name of .ssh
		`C:\Users\dev\.aws\credentials`:             "AWS credentials",
		`C:\Users\dev\.aws\credentials.`:            "AWS credentials",
		`C:\Users\dev\AWS~1\CREDEN~1`:               "AWS credentials",
		`C:\Users\dev\.docker\CONFIG~1.JSO`:         "Docker credentials",
		`C:\Users\dev\_netrc`:                       "netrc credentials",
		`%USERPROFILE%\.aws\credentials`:            "AWS credentials",
		`C:\certs\server.PEM `:                      "PEM key or certificate",
		`C:\certs\PRIVAT~1.PEM`:                     "PEM key or certificate",
		`C:\Users\dev\acme-api\sub\..\.env`:         ".env file",
	}
	for p, rule := range secret {
		got, ok := Match(p)
		assert.True(t, ok, p)
		assert.Equal(t, rule, got, p)
	}
	for _, p := range []string{
		`C:\Users\dev\acme-api\.env.example`,
		`C:\Users\dev\acme-api\.env.example. `,
		`C:\Users\dev\.ssh\id_rsa.pub`,
		`C:\Users\dev\.ssh\known_hosts`,
		`C:\Users\dev\acme-api\main.go`,
		`C:\Users\dev\acme-api\PROGRA~1`,
		`C:\Users\dev\acme-api\README~1.MD`,
		`\\?\C:\Users\dev\acme-api\environment.go`,
		`C:`,
		`\\server\share`,
	} {
		rule, ok := Match(p)
		assert.False(t, ok, "%s matched %s", p, rule)
	}
}
