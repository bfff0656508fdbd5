package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chipdesk/chipdesk/service/ratelimit"
)

// TestConfigLimits: the rate limits come from the config file's
// [limits] table, with the defaults for what it leaves out.
func TestConfigLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chipdesk.toml")
	if err := os.WriteFile(path, []byte("[limits.sign_in]\nper_minute = 3\nburst = 5\n\n[limits.public_lookup]\nper_minute = 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := defaultConfig()
	if err := loadConfigFile(&c, path, true); err != nil {
		t.Fatal(err)
	}
	d := ratelimit.DefaultConfig()
	if c.Limits.SignIn != (ratelimit.Limit{PerMinute: 3, Burst: 5}) || !c.Limits.PublicLookup.Off() || c.Limits.BadToken != d.BadToken {
		t.Errorf("limits = %+v", c.Limits)
	}
	if err := os.WriteFile(path, []byte("[limits.sign_up]\nper_minute = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := loadConfigFile(&c, path, true); err == nil {
		t.Error("an unknown limit was accepted")
	}
}
