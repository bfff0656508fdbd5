// Package bench measures chipdesk as a user meets it: it builds a data
// set of generated animals (package csvio's generator, with licences,
// chips and a share of dangerous and quarantined animals), runs
// "chipdesk serve" as a child process on loopback, drives it from
// outside with HTTP clients and a simulated reader on a pseudo-terminal,
// and prints one table with each figure beside its target.
//
// The figures and targets:
//
//   - lookup by chip over loopback HTTP at 1,000,000 animals, with p50
//     and p99 (SQLite; PostgreSQL when a server is reachable): at least
//     0.6 of the bare-stack floor measured in the same run (20,000/s
//     when no floor could be measured);
//   - the bare-stack floor, per store: a minimal server of the same
//     stack (net/http, encoding/json, and modernc SQLite or pgx) on the
//     same data, one denormalised row per chip and nothing else (bare.go,
//     run as "chipdesk bench --bare-serve DB"), driven by the same load;
//     its rate is what the stack allows on the machine at hand, since
//     the load generator shares the cores;
//   - scan-to-event latency, from the last byte of a WL-134 frame written
//     on the reader's pseudo-terminal to the event read from the SSE
//     stream: p99 at most 5 ms;
//   - scan-to-pixels latency, from the same last byte to the record
//     painted on the intake page in headless Chromium (pixels.go; skipped
//     and said so without Chromium): p99 at most 50 ms;
//   - peak resident memory of the service: at most 100 MB;
//   - CSV import of 1,000,000 licences, the licences file alone into a
//     store already holding their owners, animals, chips and
//     vaccinations (imported and timed before): at most 20 s; all five
//     files into an empty store: at most 60 s (both in proportion for
//     other sizes);
//   - the SQLite file after the import, against the CSV files it was
//     imported from: at most 1.6 times their size (the audit log's size
//     beside it);
//   - rules evaluation of one record: at most 20 µs;
//   - raw FDX-B demodulation: at least 50 M samples/s;
//   - one tag to ZPL: at most 1 ms; to engraving paths: at most 20 ms;
//     a batch of 1,000 tags laid out and turned into paths: at most 10 s;
//   - a reminder run (remind.go: money's Remind as "chipdesk reminders"
//     runs it, 4 connections, batch 1) for 100,000 licences at the full
//     size, a tenth of the animals at other sizes (at least 500; 500 with
//     --quick, --reminders to choose), each
//     owner with an e-mail address: at most 60 s, in proportion. It sends
//     to the SMTP server --smtp or CHIPDESK_TEST_SMTP names (the local
//     aiosmtpd of the test command), else to the in-process
//     smtptest server, and says which; the messages of the run leave the
//     server's Maildir (--smtp-maildir, CHIPDESK_TEST_SMTP_MAILDIR)
//     afterwards. When the server is a local process whose /proc this
//     user may read (found from /proc/net/tcp and the processes'
//     socket descriptors), its CPU time per message is printed beside:
//     what the server alone costs, the run's floor on this machine.
//
// Beside the lookup rate, figures without a target say where a lookup's
// time goes on the machine at hand, since the load generator shares its
// cores: the CPU time the service and the load's clients each spend on
// one lookup (utime and stime of /proc/PID/stat), one store lookup in
// process, and the HTTP floor: the rate and CPU of the same requests
// with a chip text that does not parse, which the service answers 400
// before its store, rules and audit log. The floor is the most any
// lookup could reach there.
//
// Load (package function Load) is also the load generator of the
// reliability suite. Its clients speak HTTP/1.1 themselves, one
// keep-alive connection each and no pipelining, so that the load costs
// the shared cores as little as a tool like wrk would.
//
// # References
//
//   - ISO 11784:1996 and ISO 11785:1996, the FDX-B telegram the
//     demodulation figure decodes.
//   - Minneapolis Code of Ordinances 64.110 (dangerous animals) and 66.40
//     (bite quarantine), the records the data set carries.
//   - The HTML Living Standard, "Server-sent events" (the scan stream).
//   - RFC 9112, HTTP/1.1 (message syntax, body framing, chunked transfer
//     coding, persistent connections) and RFC 9110, HTTP Semantics
//     (status codes, interim answers), which the load's clients follow.
//   - proc(5), /proc/PID/status VmHWM (peak resident set size),
//     /proc/PID/stat utime and stime (CPU time), /proc/net/tcp and
//     /proc/PID/fd (the process listening on a port).
//   - RFC 5321, SMTP (the reminder run's server).
package bench
