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
