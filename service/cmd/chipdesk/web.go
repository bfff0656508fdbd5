package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/web"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// newOrders makes the tag orders shared by the pages, the API and the
// job worker. Tag designs are the built-in ones; the check-code keys
// come from $CHIPDESK_TAG_KEYS, which must be private to their owner
// (mode 0600 or stricter) and hold at least one key. Without it the
// public development keys are used only when devKeys is set (--dev-keys;
// the demo sets it); every page and preview then says so.
func newOrders(store service.Store, rs *rules.Set, log *slog.Logger, devKeys bool) (*jobs.Orders, error) {
	designs, err := tags.LoadDesigns("")
	if err != nil {
		return nil, err
	}
	keys := check.DevelopmentKeys()
	if p := os.Getenv("CHIPDESK_TAG_KEYS"); p != "" {
		if err := checkKeyFiles(p); err != nil {
			return nil, err
		}
		if keys, err = check.LoadKeys(p); err != nil {
			return nil, err
		}
	} else if !devKeys {
		return nil, errors.New("no CHIPDESK_TAG_KEYS: name the check-code key file, or pass --dev-keys to use the public development keys (demos and tests only)")
	} else {
		log.Warn("tags use the public DEVELOPMENT keys (--dev-keys): not valid as licence tags")
	}
	return &jobs.Orders{Store: store, Rules: rs, Designs: designs, Keys: keys}, nil
}

// checkKeyFiles refuses key files that others may read or write (the
// keys sign every tag: OWASP ASVS 6.4.1) and key files without a key (a
// file of comments only would leave every tag unsigned or refused).
func checkKeyFiles(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("tag keys: %w", err)
	}
	files := []string{path}
	if st.IsDir() {
		if files, err = filepath.Glob(filepath.Join(path, "*.keys")); err != nil {
			return fmt.Errorf("tag keys: %w", err)
		}
	}
	keys := 0
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return fmt.Errorf("tag keys: %w", err)
		}
		if m := fi.Mode().Perm(); m&0o077 != 0 {
			return fmt.Errorf("tag keys: %s has mode %04o: others may read it; chmod 600 %s", f, m, f)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("tag keys: %w", err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				keys++
			}
		}
	}
	if keys == 0 {
		return fmt.Errorf("tag keys: %s holds no key", path)
	}
	return nil
}

// openPhotos opens the photos folder, $CHIPDESK_PHOTOS (nil when unset),
// as an os.Root: no name, link or ".." reaches out of it (os.DirFS
// follows links anywhere).
func openPhotos() (*os.Root, error) {
	dir := os.Getenv("CHIPDESK_PHOTOS")
	if dir == "" {
		return nil, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("photos: %w", err)
	}
	return root, nil
}

// newWeb builds the pages (package web) served at / by serve and demo.
// Print and engrave jobs queued on the pages wake the app's job worker
// (--printer); without one they wait for "chipdesk print run". The
// admin page lists the readers and the printers.
// $CHIPDESK_SECURE_COOKIES=1 marks the session cookie Secure behind a
// TLS proxy; $CHIPDESK_PHOTOS names the folder of the animals'
// photographs.
func newWeb(a *app, rs *rules.Set, log *slog.Logger, now func() time.Time) (http.Handler, error) {
	var photos fs.FS
	if a.photos != nil {
		photos = a.photos.FS()
	}
	devices := web.DeviceList{readerDevices(a.hw, now)}
	var wake func()
	if a.worker != nil {
		devices = append(devices, web.JobDevices(a.worker))
		wake = a.worker.Wake
	}
	users, _ := a.store.(service.UserService)
	sl := a.cfg.Limits.SignIn
	return web.New(&web.Opts{
		Photos: photos, PhotoRoot: a.photos,
		Users: users, Access: a.access, SignInLimit: &sl, SiteScoped: a.cfg.SiteScoped,
		Store: a.store, Lookup: a.lookup, Hub: a.hub,
		Licensing: a.lic, Custody: a.custody, Incidents: a.inc,
		Jobs:          a.issuer,
		Permits:       a.permits,
		Money:         a.money,
		Devices:       devices,
		Wake:          wake,
		Jurisdiction:  a.cfg.Jurisdiction,
		SecureCookies: os.Getenv("CHIPDESK_SECURE_COOKIES") == "1",
		Logger:        log, Now: now,
	})
}

// readerDevices lists the readers of a hardware.Manager for the admin
// page; now stamps the answer. The doors do not import each other: the
// command joins them.
func readerDevices(m *hardware.Manager, now func() time.Time) web.Devices {
	return web.DevicesFunc(func(ctx context.Context) []web.Device {
		var out []web.Device
		for _, st := range m.Status() {
			d := web.Device{Kind: "reader", Name: st.Name, Ready: st.Connected, At: now()}
			switch {
			case st.Connected:
				d.State = fmt.Sprintf("connected, %d reads", st.Reads)
			case st.LastError != "":
				d.State = "not connected: " + st.LastError
			default:
				d.State = "not connected"
			}
			out = append(out, d)
		}
		return out
	})
}
