// Package guest is the half of qemutest that runs inside the QEMU guest.
// Its test skips anywhere else (CHIPDESK_IN_GUEST unset).
package guest
