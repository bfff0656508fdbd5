// Package jobs makes licence tags on printers and engravers: Orders
// decide which tag a job makes and queue jobs (one per licence, a
// duplicate's tag for a licence replacing a lost or stolen one, batches
// of pre-numbered tags for a year), and the Worker takes queued jobs and
// batches to the configured devices, rendering each tag through package
// tags and sending it through the drivers (drivers/printers/zpl,
// drivers/printers/brotherql, drivers/engravers/grbl).
//
// Every state change is stored before and after the device works, so a
// job's state is always one of queued, sent, done or failed (with the
// device's error: ~HS faults, Brother status errors, GRBL alarms), or
// one of the two that need a person to look at the tag: unconfirmed
// (sent over a link that gives no status back, a Brother QL on the
// network) and check (an engraving whose end could not be confirmed).
// A printer gets the tag as a tags.Artwork and draws it in its own
// language and resolution; an engraver gets paths corrected for its
// beam width (options beam=, interval=). Tag
// numbers come only from the store, when a licence is issued or a batch
// is reserved; a reprint, a resumed batch or a job recovered after a
// crash makes the same number again. See Worker for the recovery rule.
//
// Devices are configured as KIND:ADDRESS[,option=value...], like the
// readers of service/hardware: "zpl:10.0.0.7:9100",
// "brotherql:10.0.0.8,model=QL-820NWB,media=62",
// "grbl:/dev/ttyUSB0,power=0.6,speed=900,beam=0.2,laser_mode=set",
// "zpl:10.0.0.7,darkness=20,speed=4,calibrate=true".
//
// # References
//
//   - Minneapolis Code of Ordinances 64.30 (a tag with the register
//     number and the year for each licence), 64.40 (a duplicate tag only
//     for a lost or stolen tag, for the fee; the fee comes from
//     service/rules).
//   - Chanhassen City Code 5-55(c) (duplicate tags).
//   - Zebra, "ZPL II Programming Guide" (45541L-002), ~HS host status.
//   - GRBL v1.1 interface.md (ALARM:N, error:N, soft reset).
package jobs
