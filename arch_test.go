package chipdesk_test

// The import rules of the architecture (docs/architecture.md, "Rooms
// and who may import whom"):
// which top-level folder may import what. The test asks the go command
// for the packages of each folder and their dependencies, without
// tests, and fails on a broken arrow.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/chipdesk/chipdesk"

// listed is the part of `go list -json` output the rules need.
type listed struct {
	ImportPath string
	Standard   bool
	Imports    []string
	CgoFiles   []string
	Error      *struct{ Err string }
}

// importRule says what the packages of one top-level folder may import
// directly, and which module folders must not appear among their
// dependencies at all.
type importRule struct {
	folder string
	// own lists module folders the folder may import (its own always).
	own []string
	// external lists module path prefixes of allowed outside modules;
	// nil means any outside module is allowed.
	external    []string
	anyExternal bool
	// never lists module folders that must not be reached, even
	// through other packages.
	never []string
}

var importRules = []importRule{
	// internal holds what the commands and tests share (flag parsing, test
	// timeouts): the standard library only.
	{folder: "internal", external: []string{}, never: []string{"reader", "tags", "drivers", "service", "firmware-tools", "bench", "reliability"}},
	{folder: "reader", never: []string{"tags", "drivers", "service", "firmware-tools", "bench", "reliability"}},
	{
		folder:   "tags",
		own:      []string{"reader"},
		external: []string{"golang.org/x/image", "github.com/boombuler/barcode"},
		never:    []string{"drivers", "service", "firmware-tools", "bench", "reliability"},
	},
	{
		folder: "drivers",
		own:    []string{"reader", "tags"},
		// The hardware libraries, the pseudo-terminal and system call
		// packages their test doubles (porttest) stand on, and
		// golang.org/x/image, which tags already brings, for scaling a
		// label to a printer's resolution.
		external: []string{"go.bug.st/serial", "github.com/google/gousb", "periph.io/x/conn/v3",
			"periph.io/x/host/v3", "github.com/creack/pty", "golang.org/x/sys", "golang.org/x/image"},
		never: []string{"service", "firmware-tools", "bench", "reliability"},
	},
	{
		folder:      "firmware-tools",
		own:         []string{"reader", "drivers", "tags", "internal"},
		anyExternal: true,
		never:       []string{"service", "bench", "reliability"},
	},
	{
		// The demo runs the simulated readers and printers of
		// firmware-tools/sim; TestServiceFirmwareToolsOnlySim keeps the
		// rest of firmware-tools out. Of bench, only the chipdesk
		// command may import it (TestBenchOnlyFromTheCommand).
		folder:      "service",
		own:         []string{"reader", "drivers", "tags", "internal", "firmware-tools", "bench"},
		anyExternal: true,
		never:       []string{"reliability"},
	},
	{
		// The benchmark harness stands outside the application: it
		// builds data sets, runs "chipdesk serve" as a child and drives
		// it over HTTP and a simulated reader (firmware-tools/sim), and
		// serves the bare-stack floor from the stores' own rows.
		folder:      "bench",
		own:         []string{"reader", "tags", "internal", "firmware-tools", "service"},
		anyExternal: true,
		never:       []string{"reliability"},
	},
	{
		// The reliability suite stands outside the application too: its
		// tests build "chipdesk serve", run it as a child and check the
		// promises from outside (kill -9, load, malformed input, a noisy
		// reader on a pseudo-terminal). It holds no code besides its
		// documentation, and nothing imports it.
		folder:      "reliability",
		own:         []string{"reader", "tags", "internal", "firmware-tools", "service", "bench"},
		anyExternal: true,
	},
}

// benchImporter is the one package outside bench that may import it:
// the command whose "chipdesk bench" runs it. Tests (the reliability
// suite's load) may import it too; go list leaves test imports out.
const benchImporter = module + "/service/cmd/chipdesk"

// checkBenchImports returns the imports of bench by packages other than
// the chipdesk command.
func checkBenchImports(pkgs []listed) []string {
	var bad []string
	for _, p := range pkgs {
		if folderOf(p.ImportPath) == "bench" || p.ImportPath == benchImporter {
			continue
		}
		for _, imp := range p.Imports {
			if folderOf(imp) == "bench" {
				bad = append(bad, fmt.Sprintf("%s imports %s: the bench is no part of the application; only %s runs it", p.ImportPath, imp, benchImporter))
			}
		}
	}
	return bad
}

// TestBenchOnlyFromTheCommand: no package of the application imports
// the benchmark harness, only the chipdesk command that runs it.
func TestBenchOnlyFromTheCommand(t *testing.T) {
	t.Parallel()
	for _, v := range checkBenchImports(goList(t, nil, "./...")) {
		t.Error(v)
	}
	broken := []listed{
		{ImportPath: module + "/service/httpapi", Imports: []string{module + "/bench"}},
		{ImportPath: benchImporter, Imports: []string{module + "/bench"}},
		{ImportPath: module + "/bench/sub", Imports: []string{module + "/bench"}},
	}
	if got := checkBenchImports(broken); len(got) != 1 {
		t.Errorf("checkBenchImports(broken) = %q, want httpapi's import only", got)
	}
}

// doors are the packages a person or a device reaches the application
// through (docs/architecture.md, "one application layer, many doors"):
// they parse, call and render, and decide no rule, so they import
// neither service/rules nor one another. cmd/chipdesk, which assembles
// them, is no door.
var doors = []string{"service/httpapi", "service/web", "service/hardware", "service/offline"}

// doorOf returns the door a package belongs to, "" when none.
func doorOf(path string) string {
	for _, d := range doors {
		if hasPrefixPath(path, module+"/"+d) {
			return d
		}
	}
	return ""
}

// checkDoors returns the imports of pkgs that break the doors' rule.
func checkDoors(pkgs []listed) []string {
	var bad []string
	for _, p := range pkgs {
		door := doorOf(p.ImportPath)
		if door == "" {
			continue
		}
		for _, imp := range p.Imports {
			switch other := doorOf(imp); {
			case hasPrefixPath(imp, module+"/service/rules"):
				bad = append(bad, fmt.Sprintf("%s imports %s: a door asks the application layer (licensing, custody, incidents, lookup), which computes from service/rules", p.ImportPath, imp))
			case other != "" && other != door:
				bad = append(bad, fmt.Sprintf("%s imports %s: doors do not import each other; cmd/chipdesk joins them", p.ImportPath, imp))
			}
		}
	}
	return bad
}

// TestDoorsDecideNothing: no door imports service/rules or another door.
func TestDoorsDecideNothing(t *testing.T) {
	t.Parallel()
	for _, v := range checkDoors(goList(t, nil, "./service/...")) {
		t.Error(v)
	}
	// The checker finds what it must.
	broken := []listed{
		{ImportPath: module + "/service/web", Imports: []string{module + "/service/rules", module + "/service/hardware", module + "/service/licensing"}},
		{ImportPath: module + "/service/httpapi/sub", Imports: []string{module + "/service/httpapi"}},
		{ImportPath: module + "/service/cmd/chipdesk", Imports: []string{module + "/service/rules", module + "/service/web"}},
	}
	if got := checkDoors(broken); len(got) != 2 {
		t.Errorf("checkDoors(broken) = %q, want the web's rules and hardware imports only", got)
	}
}

// TestServiceFirmwareToolsOnlySim: of firmware-tools, the service and the
// bench may reach only the simulators (firmware-tools/sim), never the
// toolbox's commands or anything else.
func TestServiceFirmwareToolsOnlySim(t *testing.T) {
	t.Parallel()
	for _, p := range goList(t, nil, "-deps", "./service/...", "./bench/...") {
		if folderOf(p.ImportPath) == "firmware-tools" && !hasPrefixPath(p.ImportPath, module+"/firmware-tools/sim") {
			t.Errorf("service or bench reaches %s: of firmware-tools only firmware-tools/sim may serve them", p.ImportPath)
		}
	}
}

func goCmd(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the go command is needed for the import rules: %v", err)
		}
		t.Skipf("the go command is not on PATH: %v", err)
	}
	return p
}

// goList runs `go list -e -json` with args and decodes the packages.
func goList(t *testing.T, env []string, args ...string) []listed {
	t.Helper()
	cmd := exec.Command(goCmd(t), append([]string{"list", "-e", "-json"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// folderOf returns the top-level folder of a module package, or "" for
// a package outside the module.
func folderOf(path string) string {
	if path == module {
		return "."
	}
	rest, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return ""
	}
	top, _, _ := strings.Cut(rest, "/")
	return top
}

func hasPrefixPath(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

func TestImportRules(t *testing.T) {
	t.Parallel()
	for _, r := range importRules {
		t.Run(r.folder, func(t *testing.T) {
			for _, v := range checkRule(r, goList(t, nil, "-deps", "./"+r.folder+"/...")) {
				t.Error(v)
			}
		})
	}
}

// checkRule returns the violations of r among pkgs, the output of
// go list -deps for the folder.
func checkRule(r importRule, pkgs []listed) []string {
	var bad []string
	std := map[string]bool{}
	for _, p := range pkgs {
		if p.Standard {
			std[p.ImportPath] = true
		}
	}
	for _, p := range pkgs {
		f := folderOf(p.ImportPath)
		if p.Error != nil && f != "" {
			bad = append(bad, fmt.Sprintf("go list %s: %s", p.ImportPath, p.Error.Err))
		}
		if contains(r.never, f) {
			bad = append(bad, fmt.Sprintf("%s reaches %s: %s must never depend on %s", r.folder, p.ImportPath, r.folder, f))
		}
		if f != r.folder {
			continue // other folders are held to their own rules
		}
		for _, imp := range p.Imports {
			if std[imp] || strings.HasPrefix(imp, "vendor/") || imp == "C" {
				continue
			}
			if g := folderOf(imp); g != "" {
				if g != r.folder && !contains(r.own, g) {
					bad = append(bad, fmt.Sprintf("%s imports %s: %s may import only %v from the module",
						p.ImportPath, imp, r.folder, append([]string{r.folder}, r.own...)))
				}
				continue
			}
			ok := r.anyExternal
			for _, e := range r.external {
				ok = ok || hasPrefixPath(imp, e)
			}
			if !ok {
				bad = append(bad, fmt.Sprintf("%s imports %s: %s may import only the standard library and %v",
					p.ImportPath, imp, r.folder, r.external))
			}
		}
	}
	return bad
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestCgoOnlyInUSBPort: import "C" only in drivers/port/usbport, with and
// without the libusb build tag, so everything else builds with
// CGO_ENABLED=0.
func TestCgoOnlyInUSBPort(t *testing.T) {
	t.Parallel()
	for _, tags := range []string{"", "libusb"} {
		args := []string{"./..."}
		if tags != "" {
			args = []string{"-tags", tags, "./..."}
		}
		for _, p := range goList(t, []string{"CGO_ENABLED=1"}, args...) {
			if len(p.CgoFiles) > 0 && p.ImportPath != module+"/drivers/port/usbport" {
				t.Errorf("tags %q: %s uses cgo (%v); cgo belongs only in drivers/port/usbport", tags, p.ImportPath, p.CgoFiles)
			}
		}
	}
}

// TestRuleChecker feeds the checker broken arrows, so the rules above
// cannot pass by looking at nothing.
func TestRuleChecker(t *testing.T) {
	t.Parallel()
	pkgs := goList(t, nil, "-deps", "./reader/...")
	found := false
	for _, p := range pkgs {
		found = found || p.ImportPath == module+"/reader/chipid"
	}
	if !found {
		t.Fatalf("go list -deps ./reader/... did not list reader/chipid")
	}
	rule := func(folder string) importRule {
		for _, r := range importRules {
			if r.folder == folder {
				return r
			}
		}
		t.Fatalf("no rule for %s", folder)
		return importRule{}
	}
	tests := []struct {
		name   string
		folder string
		pkgs   []listed
		want   int
	}{
		{"reader imports tags", "reader", []listed{
			{ImportPath: module + "/reader/x", Imports: []string{"fmt", module + "/tags"}},
			{ImportPath: "fmt", Standard: true},
			{ImportPath: module + "/tags"},
		}, 2}, // the import, and tags among the dependencies
		{"reader imports an outside module", "reader", []listed{
			{ImportPath: module + "/reader", Imports: []string{"golang.org/x/text/encoding"}},
		}, 1},
		{"tags imports x/image and reader", "tags", []listed{
			{ImportPath: module + "/tags", Imports: []string{"golang.org/x/image/font", module + "/reader/chipid"}},
		}, 0},
		{"tags imports x/imagery", "tags", []listed{
			{ImportPath: module + "/tags", Imports: []string{"golang.org/x/imagery"}},
		}, 1},
		{"drivers reach service through a dependency", "drivers", []listed{
			{ImportPath: module + "/drivers/x", Imports: []string{"go.bug.st/serial"}},
			{ImportPath: module + "/service/store"},
		}, 1},
		{"firmware-tools import anything but service", "firmware-tools", []listed{
			{ImportPath: module + "/firmware-tools/cmd/chiptool", Imports: []string{"github.com/any/thing", module + "/drivers/port"}},
		}, 0},
		{"firmware-tools import service", "firmware-tools", []listed{
			{ImportPath: module + "/firmware-tools/cmd/chiptool", Imports: []string{module + "/service"}},
			{ImportPath: module + "/service"},
		}, 2},
	}
	for _, tt := range tests {
		if got := checkRule(rule(tt.folder), tt.pkgs); len(got) != tt.want {
			t.Errorf("%s: checkRule = %q, want %d violations", tt.name, got, tt.want)
		}
	}
}
