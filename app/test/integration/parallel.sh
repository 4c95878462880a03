#!/usr/bin/env bash
# Two processes at once with distinct --file-prefix values.
. "$(dirname "$0")/lib.sh"
"$PKTPATH" $(eal a) -- --http 127.0.0.1:0 --duration 1.5 --quiet --json "$TMP/a.json" > "$TMP/a.txt" 2>&1 &
pa=$!
"$PKTPATH" $(eal b) -- --http 127.0.0.1:0 --duration 1.5 --quiet --json "$TMP/b.json" > "$TMP/b.txt" 2>&1 &
pb=$!
wait $pa || { cat "$TMP/a.txt"; fail "first process"; }
wait $pb || { cat "$TMP/b.txt"; fail "second process"; }
for x in a b; do
	jcheck "$TMP/$x.json" 'd["conservation"]["ok"]' 'f("Rx.RxPackets") > 0'
done
echo "parallel: ok"
