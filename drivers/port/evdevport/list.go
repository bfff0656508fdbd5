package evdevport

import (
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Info describes one input event device.
type Info struct {
	Path string // "/dev/input/event3"
	// ByID is the stable name udev gives it
	// ("/dev/input/by-id/usb-Vendor_Scanner-event-kbd"), "" when none.
	ByID string
	Name string // as the kernel reports it ("GIGA-TMS PCR330A")
	// Keys tells whether the device has a key for every digit and
	// Enter: a keyboard, or a scanner that types like one.
	Keys bool
}

// Stable returns ByID when there is one, else Path: the name a
// configuration should use.
func (i Info) Stable() string {
	if i.ByID != "" {
		return i.ByID
	}
	return i.Path
}

// Digits and Enter (linux/input-event-codes.h): KEY_1..KEY_0 are 2..11,
// KEY_ENTER 28.
var typingKeys = []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 28}

// List returns the input event devices under root ("" means the
// machine's /dev and /sys), sorted by path.
func List(root string) ([]Info, error) {
	dev := filepath.Join(root, "/dev/input")
	sys := filepath.Join(root, "/sys/class/input")
	paths, err := filepath.Glob(filepath.Join(dev, "event*"))
	if err != nil {
		return nil, err
	}
	byID := map[string]string{}
	links, _ := filepath.Glob(filepath.Join(dev, "by-id", "*"))
	for _, l := range links {
		t, err := os.Readlink(l)
		if err != nil {
			continue
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(l), t)
		}
		byID[filepath.Clean(t)] = l
	}
	out := make([]Info, 0, len(paths))
	for _, p := range paths {
		base := filepath.Base(p)
		name, _ := os.ReadFile(filepath.Join(sys, base, "device", "name"))
		keys, _ := os.ReadFile(filepath.Join(sys, base, "device", "capabilities", "key"))
		out = append(out, Info{Path: p, ByID: byID[filepath.Clean(p)], Name: strings.TrimSpace(string(name)), Keys: hasKeys(string(keys), typingKeys)})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Path < out[b].Path })
	return out, nil
}

// hasKeys reads a sysfs capability bitmap (hex words, most significant
// first) and tells whether every bit of want is set.
func hasKeys(bitmap string, want []int) bool {
	words := strings.Fields(bitmap)
	if len(words) == 0 {
		return false
	}
	// Words are C longs printed without leading zeros: pad each but the
	// first to a long's width so they join into one number.
	width := strconv.IntSize / 4
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(strings.Repeat("0", max(0, width-len(w))))
		}
		b.WriteString(w)
	}
	n, ok := new(big.Int).SetString(b.String(), 16)
	if !ok {
		return false
	}
	for _, k := range want {
		if n.Bit(k) == 0 {
			return false
		}
	}
	return true
}
