package rfidrw

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Setting is one reader setting the manual documents a command for.
// The RFIDRW-E has no command that reads a setting back: only VER and
// MOF report anything, so a setting is known only as acknowledged.
type Setting struct {
	Key     string   // "default-type"
	Values  []string // accepted values, in order
	Meaning string   // what it does, after the manual
	// command maps a value (one of Values) to the command line, without
	// the CR.
	command func(v string) string
}

// ErrSetting is returned for an unknown setting key or value.
var ErrSetting = errors.New("rfidrw: bad setting")

// Settings returns the documented settings (manual rev E p. 20), in a
// stable order.
func Settings() []Setting {
	digits := func(n int) []string {
		var v []string
		for i := 0; i <= n; i++ {
			v = append(v, fmt.Sprint(i))
		}
		return v
	}
	return []Setting{
		{
			Key: "default-type", Values: digits(4),
			Meaning: "tag type read after power-on, stored (SDn); 2 = FDX-B/HDX, the default",
			command: func(v string) string { return "SD" + v },
		},
		{
			Key: "type", Values: digits(4),
			Meaning: "tag type until power-off, not stored (STn); output is locked for 5 s after it",
			command: func(v string) string { return "ST" + v },
		},
		{
			Key: "rf", Values: []string{"on", "off"},
			Meaning: "antenna field on (SRA) or off (SRD)",
			command: func(v string) string {
				if v == "on" {
					return "SRA"
				}
				return "SRD"
			},
		},
		{
			Key: "led", Values: digits(6),
			Meaning: "LED state (SLn)",
			command: func(v string) string { return "SL" + v },
		},
		{
			Key: "buzzer", Values: []string{"0", "1"},
			Meaning: "buzzer (SB0, SB1)",
			command: func(v string) string { return "SB" + v },
		},
	}
}

// Keys returns the setting keys, in the order of Settings.
func Keys() []string {
	var k []string
	for _, s := range Settings() {
		k = append(k, s.Key)
	}
	return k
}

// SettingCommand returns the command line (without CR) that sets key to
// value, or an error wrapping ErrSetting naming the accepted keys or
// values.
func SettingCommand(key, value string) (string, error) {
	for _, s := range Settings() {
		if s.Key != key {
			continue
		}
		if !slices.Contains(s.Values, value) {
			return "", fmt.Errorf("%w: %s=%q, want one of %s", ErrSetting, key, value, strings.Join(s.Values, ", "))
		}
		return s.command(value), nil
	}
	return "", fmt.Errorf("%w: unknown key %q, want one of %s", ErrSetting, key, strings.Join(Keys(), ", "))
}

// Set sends the command for key=value and waits for OK. A refusal is a
// *StatusError carrying the ?n code and its meaning.
func (d *Dev) Set(ctx context.Context, key, value string) error {
	cmd, err := SettingCommand(key, value)
	if err != nil {
		return err
	}
	return d.ok(ctx, cmd)
}

// Frequency returns the antenna frequency the reader reports to MOF,
// in kHz as it prints it ("134.2").
func (d *Dev) Frequency(ctx context.Context) (string, error) { return d.Command(ctx, "MOF") }
