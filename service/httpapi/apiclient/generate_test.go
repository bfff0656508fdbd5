package apiclient_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service/httpapi/apiclient"
)

// TestGeneratedClientCurrent regenerates the client from the served
// document with the pinned oapi-codegen and checks it is the committed
// file: a document change without go generate fails here.
func TestGeneratedClientCurrent(t *testing.T) {
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The configuration names its output relative to the working
	// directory: run in the temporary one.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(10*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(runtime.GOROOT(), "bin", "go"), "run", apiclient.OapiCodegen,
		"-config", filepath.Join(here, "oapi-codegen.yaml"), filepath.Join(here, "..", "openapi.json"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		// Without the module proxy the generator cannot be fetched.
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		t.Skipf("oapi-codegen did not run (no module proxy?): %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "client.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("client.gen.go is not what %s makes from openapi.json now: run go generate ./service/httpapi/apiclient", apiclient.OapiCodegen)
	}
}
