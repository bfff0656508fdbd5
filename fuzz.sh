#!/usr/bin/env bash
# fuzz.sh runs every fuzz target of the module for a short time
# (FUZZTIME, 3s by default), one after the other, and fails when one
# finds a failing input. go test then keeps that input under the
# package's testdata/fuzz/, where a plain `go test` replays it.
#
# The targets are those `go test -list '^Fuzz'` reports, in the packages
# whose tests define a Fuzz function.
set -euo pipefail
cd "$(dirname "$0")"
fuzztime="${FUZZTIME:-3s}"

# Test files of the module only (not the tools and node packages test.sh
# keeps under .tools/).
files=$(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go' -not -path './.tools/*')
# shellcheck disable=SC2086
dirs=$(grep -l '^func Fuzz' $files | xargs -n1 dirname | sed 's|^\./||; s|^|./|' | sort -u)
if [ -z "$dirs" ]; then
	echo "fuzz: no fuzz targets"
	exit 1
fi
# shellcheck disable=SC2086
pkgs=$(go list $dirs)
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# go test -list prints the names, then "ok <package>".
# shellcheck disable=SC2086
go test -list '^Fuzz' $pkgs >"$list"

# fuzz_one runs one target. go test writes a failing input under the
# package's testdata/fuzz/ and says so; a failure without one (the fuzzing
# engine's coordinator losing its worker on a loaded machine: "context
# deadline exceeded" with no input written) is shown and tried again, up
# to three runs in all.
fuzz_one() {
	local pkg=$1 name=$2 try
	for try in 1 2 3; do
		go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel 2 "$pkg" >"$list.err" 2>&1 && return 0
		grep -q 'Failing input written to' "$list.err" && return 1
		echo "fuzz: $pkg $name stopped without a failing input (run $try of 3):"
		sed 's/^/  /' "$list.err"
	done
	return 1
}

passed=0
failed=0
failures=()
names=()
start=$SECONDS
while read -r first second _; do
	case "$first" in
	Fuzz*) names+=("$first") ;;
	ok)
		for name in "${names[@]}"; do
			if fuzz_one "$second" "$name"; then
				passed=$((passed + 1))
			else
				failed=$((failed + 1))
				failures+=("$second $name")
				echo "fuzz: FAIL $second $name"
				cat "$list.err"
			fi
		done
		names=()
		;;
	esac
done <"$list"
rm -f "$list.err"
for f in "${failures[@]}"; do
	echo "fuzz: failed: $f"
done
echo "fuzz: $((passed + failed)) targets for $fuzztime each in $((SECONDS - start))s"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
