package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/service"
)

// TestServePrintsQueuedTag_64_30 is the print path of "serve": a licence
// issued over the API (Minneapolis 64.30: a tag with the register
// number), its tag queued at the job endpoint, and the label arriving at
// a simulated ZPL printer given with --printer, with the tag number.
func TestServePrintsQueuedTag_64_30(t *testing.T) {
	db := filepath.Join(t.TempDir(), "chipdesk.db")
	code, tok, errOut := serveCLI(t, "token", "create", "--db", db, "--role", "intake")
	tok = strings.TrimSpace(tok)
	if code != 0 {
		t.Fatalf("token create = %d %s", code, errOut)
	}
	animal := seedVaccinated(t, db)

	sim, err := zplsim.Listen(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	previews := filepath.Join(t.TempDir(), "previews")
	_, stderr, stop := runAsync(t, "serve", "--dev-keys", "--db", db, "--listen", "127.0.0.1:0",
		"--printer", "zpl:"+sim.Addr()+",name=counter-zebra", "--previews", previews)
	base := waitFor(t, stderr, urlRE, 10*time.Second)

	call := func(method, path string, body any, want int, out any) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s = %d %s, want %d; serve said:\n%s", method, path, resp.StatusCode, b, want, stderr)
		}
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v in %s", method, path, err, b)
			}
		}
	}

	var devs struct {
		Items []struct {
			Name  string
			Ready bool
		}
	}
	call("GET", "/api/v1/devices", nil, http.StatusOK, &devs)
	if len(devs.Items) != 1 || devs.Items[0].Name != "counter-zebra" || !devs.Items[0].Ready {
		t.Errorf("devices = %+v, want counter-zebra ready", devs.Items)
	}

	var lic struct {
		ID        int64
		TagNumber int `json:"tag_number"`
	}
	call("POST", "/api/v1/licences", map[string]any{"animal_id": animal, "jurisdiction": "minneapolis"}, http.StatusCreated, &lic)
	if lic.TagNumber <= 0 {
		t.Fatalf("licence %+v has no tag number", lic)
	}
	var job struct {
		ID     int64
		State  service.JobState
		Device string
		Error  string
	}
	call("POST", fmt.Sprintf("/api/v1/licences/%d/tag", lic.ID), map[string]any{"kind": "print"}, http.StatusCreated, &job)

	// The endpoint wakes the worker, which prints the queued tag.
	deadline := time.Now().Add(5 * time.Second)
	for job.State != service.JobDone && job.State != service.JobFailed && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		call("GET", fmt.Sprintf("/api/v1/jobs/%d", job.ID), nil, http.StatusOK, &job)
	}
	if job.State != service.JobDone || job.Device != "counter-zebra" {
		t.Fatalf("job = %+v, want done on counter-zebra; serve said:\n%s", job, stderr)
	}
	labels := sim.Jobs()
	want := fmt.Sprintf("NO. %06d", lic.TagNumber)
	if len(labels) != 1 || !strings.Contains(string(labels[0].Data), want) {
		t.Fatalf("printer got %d labels, want one with %q", len(labels), want)
	}
	waitFor(t, stderr, regexp.MustCompile(`(tag made)`), time.Second)
	if got, _ := filepath.Glob(filepath.Join(previews, fmt.Sprintf("mpls-*-%06d.png", lic.TagNumber))); len(got) != 1 {
		t.Errorf("previews %v, want the tag's PNG", got)
	}
	if code := stop(); code != 0 {
		t.Errorf("serve exit status %d after the signal, want 0; stderr:\n%s", code, stderr)
	}
}

// seedVaccinated stores an owner and an altered dog vaccinated against
// rabies a month ago, ready for a licence, and returns the dog's id.
func seedVaccinated(t *testing.T, db string) int64 {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, db, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := approveDesigns(ctx, st); err != nil {
		t.Fatal(err)
	}
	o := &service.Owner{Name: "Sam Okafor", City: "Minneapolis", Phone: "612-555-0100"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Wren", Species: service.Dog, Altered: true}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	on := time.Now().AddDate(0, -1, 0)
	v := &service.RabiesVaccination{AnimalID: a.ID, Date: service.NewDate(on.Year(), on.Month(), on.Day()),
		Type: service.VaccineKilled, DurationMonths: 36, Certificate: "MN-1", Veterinarian: "Dr. A. Hale"}
	if err := st.CreateVaccination(ctx, v); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// TestServePrinterFlags: the printers come from the file, the
// environment and the flags like the readers, each parsed by
// jobs.ParseSpec; a bad one stops serve before it starts.
func TestServePrinterFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "chipdesk.toml")
	if err := os.WriteFile(file, []byte("printers = [\"zpl:10.0.0.7:9100\", \"grbl:/dev/ttyUSB0,power=0.6\"]\npreviews = \"tags\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		want     []string
		previews string
		wantErr  string
	}{
		{name: "file", args: []string{"--config", file}, want: []string{"zpl:10.0.0.7:9100", "grbl:/dev/ttyUSB0,power=0.6"}, previews: "tags"},
		{name: "environment over file", args: []string{"--config", file}, env: map[string]string{"CHIPDESK_PRINTERS": "brotherql:10.0.0.8,model=QL-820NWB,media=62; zpl:p.local", "CHIPDESK_PREVIEWS": "png"},
			want: []string{"brotherql:10.0.0.8,model=QL-820NWB,media=62", "zpl:p.local"}, previews: "png"},
		{name: "flags over both", args: []string{"--config", file, "--printer", "zpl:127.0.0.1:9101,name=counter", "--previews", "out"}, env: map[string]string{"CHIPDESK_PRINTERS": "zpl:x"},
			want: []string{"zpl:127.0.0.1:9101,name=counter"}, previews: "out"},
		{name: "repeated flag", args: []string{"--printer", "zpl:a", "--printer", "grbl:/dev/ttyACM0"}, want: []string{"zpl:a", "grbl:/dev/ttyACM0"}},
		{name: "unknown kind", args: []string{"--printer", "epson:10.0.0.9"}, wantErr: "unknown kind"},
		{name: "option of another kind", args: []string{"--printer", "zpl:10.0.0.7,power=0.5"}, wantErr: "does not apply"},
		{name: "no address", args: []string{"--printer", "zpl"}, wantErr: "KIND:ADDRESS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			getenv := func(k string) string { return tt.env[k] }
			c, err := loadConfig(newFlagSet("serve"), tt.args, getenv)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("loadConfig(%q) = %v, want an error about %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("loadConfig(%q): %v", tt.args, err)
			}
			if strings.Join(c.Printers, " | ") != strings.Join(tt.want, " | ") || c.Previews != tt.previews {
				t.Errorf("loadConfig(%q) = printers %q previews %q, want %q %q", tt.args, c.Printers, c.Previews, tt.want, tt.previews)
			}
		})
	}
	if code, _, errOut := serveCLI(t, "serve", "--db", filepath.Join(dir, "x.db"), "--printer", "epson:10.0.0.9"); code != 1 || !strings.Contains(errOut, "epson") {
		t.Errorf("serve with a bad printer = %d %s, want 1 naming it", code, errOut)
	}
}
