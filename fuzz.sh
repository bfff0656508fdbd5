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
			if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel 2 "$second" >/dev/null 2>"$list.err"; then
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
