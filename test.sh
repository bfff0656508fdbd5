#!/usr/bin/env bash
# Runs every chipdesk test on a Debian machine with Go 1.26.
#
# It installs what the tests need when it is missing (Debian packages, the
# npm ZPL renderer under .tools/), starts a private PostgreSQL on
# 127.0.0.1, then checks formatting, vets and builds both ways (pure Go and
# with libusb) and runs the tests. CI runs exactly this script.
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)

log() { printf '\n== %s\n' "$*"; }

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# --- Debian packages ---------------------------------------------------------
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in libusb-1.0-0-dev pkg-config postgresql chromium dmtx-utils zbar-tools python3-aiosmtpd; do
	have_pkg "$p" || need+=("$p")
done
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# --- npm packages used by tests (ZPL rendered to PNG) -------------------------
if [ ! -d .tools/node/node_modules/zpl-renderer-js ]; then
	log "installing zpl-renderer-js into .tools/node"
	npm install --silent --no-audit --no-fund --prefix .tools/node zpl-renderer-js@3.4.0 >/dev/null
fi
# The OpenAPI linter (2.77.0 runs on Node 20.19 and later).
if [ ! -d .tools/node/node_modules/@redocly/cli ]; then
	log "installing @redocly/cli into .tools/node"
	npm install --silent --no-audit --no-fund --prefix .tools/node @redocly/cli@2.77.0 >/dev/null
fi

# --- PostgreSQL on 127.0.0.1 (a private throwaway cluster) -------------------
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
pgdir=""
stop_pg() {
	if [ -n "$pgdir" ]; then
		su postgres -s /bin/sh -c "$pgbin/pg_ctl -D $pgdir -m immediate stop" >/dev/null 2>&1 || true
		rm -rf "$pgdir"
	fi
}
smtppid=""
smtpdir=""
stop_smtp() {
	if [ -n "$smtppid" ]; then kill "$smtppid" 2>/dev/null || true; fi
	if [ -n "$smtpdir" ]; then rm -rf "$smtpdir"; fi
}
trap 'stop_pg; stop_smtp' EXIT
if [ -z "${CHIPDESK_TEST_POSTGRES:-}" ] && [ -n "$pgbin" ] && [ "$(id -u)" -eq 0 ]; then
	pgdir=$(mktemp -d /tmp/chipdesk-pg.XXXXXX)
	chown postgres "$pgdir"
	# The first free port from 55432 on (a connection that succeeds means taken).
	pgport=${CHIPDESK_PG_PORT:-55432}
	while (exec 3<>"/dev/tcp/127.0.0.1/$pgport") 2>/dev/null; do pgport=$((pgport + 1)); done
	log "starting PostgreSQL on 127.0.0.1:$pgport"
	su postgres -s /bin/sh -c "$pgbin/initdb -D $pgdir -U postgres --auth=trust" >/dev/null
	if ! su postgres -s /bin/sh -c "$pgbin/pg_ctl -D $pgdir -w -l $pgdir/log -o '-p $pgport -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off' start" >/dev/null; then
		cat "$pgdir/log"
		exit 1
	fi
	export CHIPDESK_TEST_POSTGRES="postgres://postgres@127.0.0.1:$pgport/postgres?sslmode=disable"
fi

# --- SMTP on 127.0.0.1 (Debian's aiosmtpd; messages kept in a Maildir) -------
# Plain SMTP, as a relay on the same host answers; the STARTTLS case runs
# against a test server of the tests' own (service/money/smtptest).
if [ -z "${CHIPDESK_TEST_SMTP:-}" ]; then
	smtpdir=$(mktemp -d /tmp/chipdesk-smtp.XXXXXX)
	smtpport=${CHIPDESK_SMTP_PORT:-52525}
	while (exec 3<>"/dev/tcp/127.0.0.1/$smtpport") 2>/dev/null; do smtpport=$((smtpport + 1)); done
	log "starting aiosmtpd on 127.0.0.1:$smtpport"
	/usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$smtpport" -c aiosmtpd.handlers.Mailbox "$smtpdir/mail" >"$smtpdir/log" 2>&1 &
	smtppid=$!
	for _ in $(seq 300); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$smtpport") 2>/dev/null; then break; fi
		sleep 0.1
	done
	export CHIPDESK_TEST_SMTP="127.0.0.1:$smtpport" CHIPDESK_TEST_SMTP_MAILDIR="$smtpdir/mail"
fi

# --- smtp-sink for the reminder figure of the bench ---------------------------
# Postfix's SMTP test server, unpacked from Debian's package (nothing is
# installed or started but this one program): the bench's reminder run
# measures chipdesk against it, since aiosmtpd's own work per message is
# more than the whole target. Without it the bench uses aiosmtpd.
sinkpid=""
stop_sink() { if [ -n "$sinkpid" ]; then kill "$sinkpid" 2>/dev/null || true; fi; }
trap 'stop_pg; stop_smtp; stop_sink' EXIT
sink=.tools/postfix/usr/sbin/smtp-sink
if [ ! -x "$sink" ]; then
	log "unpacking smtp-sink from Debian's postfix package into .tools/postfix"
	rm -rf .tools/postfix.deb && mkdir -p .tools/postfix.deb
	if (cd .tools/postfix.deb && { apt-get download postfix >/dev/null 2>&1 || { $sudo apt-get update -qq && apt-get download postfix >/dev/null; }; }); then
		dpkg -x .tools/postfix.deb/postfix_*.deb .tools/postfix
	fi
	rm -rf .tools/postfix.deb
fi
benchsmtp=()
if [ -x "$sink" ]; then
	sinkport=${CHIPDESK_SINK_PORT:-52625}
	while (exec 3<>"/dev/tcp/127.0.0.1/$sinkport") 2>/dev/null; do sinkport=$((sinkport + 1)); done
	sinkuser=()
	if [ "$(id -u)" -eq 0 ]; then sinkuser=(-u nobody); fi
	LD_LIBRARY_PATH="$root/.tools/postfix/usr/lib/postfix" "$sink" "${sinkuser[@]}" -c "127.0.0.1:$sinkport" 1000 >/dev/null 2>&1 &
	sinkpid=$!
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$sinkport") 2>/dev/null; then break; fi
		sleep 0.1
	done
	benchsmtp=(--smtp "127.0.0.1:$sinkport" --smtp-maildir "")
fi

# --- checks, builds, tests ---------------------------------------------------
log "gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.tools/*'))
if [ -n "$bad" ]; then echo "gofmt would change:"; echo "$bad"; exit 1; fi

log "go mod tidy changes nothing"
if ! go mod tidy -diff; then echo "go mod tidy would change go.mod/go.sum: run it and commit the result"; exit 1; fi

log "go vet (pure Go, and with libusb)"
go vet ./...
go vet -tags libusb ./...

log "build (CGO_ENABLED=0, and -tags libusb)"
CGO_ENABLED=0 go build ./...
go build -tags libusb ./...

log "OpenAPI: redocly lint of the document the server serves (no error allowed)"
CHIPDESK_OPENAPI_OUT="$root/.tools/openapi.json" go test -count=1 -run '^TestOpenAPIServed$' ./service/httpapi
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true .tools/node/node_modules/.bin/redocly lint --format=stylish .tools/openapi.json

log "go test"
# Browser screenshots and other test artifacts land here.
export CHIPDESK_ARTIFACTS="$root/.tools/artifacts"
# Every test timeout comes from internal/testtime, scaled by this factor:
# CI shares its two cores with other work, so waits are three times longer.
export CHIPDESK_TEST_TIMEOUT_FACTOR="${CHIPDESK_TEST_TIMEOUT_FACTOR:-3}"
mkdir -p "$CHIPDESK_ARTIFACTS"
go test -count=1 ./...

log "reliability: 100 clients for 60 s on loopback"
CHIPDESK_LOAD_SECONDS=60 go test -count=1 -v -run '^TestLoad100Clients$' ./reliability | grep -v '^=== RUN'

log "chipdesk bench --quick (figures beside their targets)"
go build -o .tools/chipdesk ./service/cmd/chipdesk
.tools/chipdesk bench --quick --postgres "${CHIPDESK_TEST_POSTGRES:-}" "${benchsmtp[@]}"

log "go test -tags libusb (USB transport through libusb)"
go test -count=1 -tags libusb ./drivers/port/usbport/... ./drivers/readers/hidwedge/...

log "QEMU guest: gousb against an emulated FTDI serial adapter and USB keyboard"
bash drivers/port/usbport/qemutest/prepare.sh .tools/qemu-kernel >/dev/null
CHIPDESK_QEMU_KERNEL="$root/.tools/qemu-kernel" go test -count=1 -tags 'qemu libusb' ./drivers/port/usbport/qemutest/

log "fuzz: every fuzz target for a short time"
./fuzz.sh
