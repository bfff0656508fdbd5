// Package offline keeps an officer's handheld working where there is no
// network: a local SQLite replica of what the officer needs (chip and
// tag to licence, rabies and dangerous status, the owner's name and
// phone and nothing more of the owner), and a durable queue of the scans
// and bite reports recorded meanwhile. Sync reconciles with the central
// service when the device is back online: it pushes the queue, each
// event with the random id the device gave it, so that a retried push
// never applies an event twice (service.DeviceEventService), then
// replaces the replica with a fresh pull. The conflict rules are in
// README.md beside this file.
//
// Central is the transport seam: StoreCentral works on a store directly,
// HTTPClient talks to Handler over HTTP.
//
// # References
//
//   - RFC 9562, "Universally Unique IDentifiers (UUIDs)", version 4
//     (event ids).
//   - Minneapolis Code of Ordinances 64.30 (tags), 64.110 (dangerous
//     animals), 66.40 (bites and quarantine): what an officer is shown.
package offline
