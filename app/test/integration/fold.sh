#!/usr/bin/env bash
# --mib-lcores and --fold-on-read in the application: the refusals' exact
# lines; phantom blocks that change no total and break no law, in both fold
# strategies; readers that fold (timed, counted, X-Pktpath-Fold-Ns) and
# readers that do not.
. "$(dirname "$0")/lib.sh"

n=0
refuse() { # refuse "EAL OPTIONS" "EXACT LINE (an ERE)" APP-ARGS...
	local ealopt=$1 want=$2; shift 2
	n=$((n + 1))
	set +e
	# shellcheck disable=SC2086
	"$PKTPATH" $ealopt --file-prefix "${PREFIX}_r$n" --log-level=lib.eal:error -- \
		--http off --duration 1 "$@" > "$TMP/o.txt" 2> "$TMP/e.txt"
	local rc=$?
	set -e
	grep -v '^EAL:\|^TELEMETRY:' "$TMP/e.txt" > "$TMP/e1.txt" || true
	[ "$rc" = 2 ] || { cat "$TMP/e.txt"; fail "'$*': exit $rc, want 2"; }
	[ "$(grep -c . "$TMP/e1.txt")" = 1 ] || { cat "$TMP/e.txt"; fail "'$*': not one line"; }
	grep -qxE -- "$want" "$TMP/e1.txt" || { cat "$TMP/e1.txt"; fail "'$*': want '$want'"; }
}
EAL2="-l 0-1 --no-huge --no-shconf -m 512 --no-pci"
# below the workers (--main-worker: two of them on -l 0-1)
refuse "$EAL2" "pktpath: --mib-lcores 1: fewer than the 2 workers' lcores \(give at least 2, or 0 for the workers' only\)" \
	--main-worker --mib-lcores 1
# above the maximum
refuse "$EAL2" "pktpath: --mib-lcores: '8193' is out of range 0\.\.8192" --mib-lcores 8193
# more than -m holds
refuse "-l 0-1 --no-huge --no-shconf -m 40 --no-pci" \
	"pktpath: out of memory for the MIB blocks of 8192 lcores \(8193 blocks of 8192 bytes, page-aligned: 65544 KiB\): needs 64 MiB, EAL's heap has [0-9]+ MiB, [0-9]+ MiB free; give EAL more memory \(-m MB, or hugepages\) or fewer lcores \(--mib-lcores\)" \
	--mib-lcores 8192
echo "refusals: ok"

# Phantom blocks, both strategies: laws exact, phantoms counted nothing,
# memory reported.
for fold in field lcore; do
	"$PKTPATH" $(eal "ph$fold") -- --http off --duration 1.5 --warmup 0.5 --interval 0.01 \
		--quiet --fold $fold --mib-lcores 256 --json "$TMP/$fold.json" > "$TMP/$fold.txt"
	grep -q "^mib: 256 lcores' blocks (1 worker, 255 phantom), 8192 bytes each, page-aligned: 2056 KiB" \
		"$TMP/$fold.txt" || { cat "$TMP/$fold.txt"; fail "$fold: no mib line"; }
	grep -q "^conservation: ok" "$TMP/$fold.txt" || { cat "$TMP/$fold.txt"; fail "$fold: conservation"; }
	jcheck "$TMP/$fold.json" \
		'd["mib_lcores"] == {"lcores": 256, "workers": 1, "phantom": 255, "block_bytes": 8192, "bytes": 257 * 8192, "phantom_bytes": 255 * 8192, "phantom_counted": 0}' \
		'd["conservation"]["exact"] and d["conservation"]["line"].startswith("ok")' \
		'd["info"]["config"]["mib_lcores"] == 256' \
		'd["info"]["config"]["fold"] == "'$fold'"' \
		'd["summary"]["fold"]["scheduled"] >= 1' \
		'd["summary"]["fold"]["p99_ns"] >= d["summary"]["fold"]["p50_ns"] > 0' \
		'd["summary"]["fold"]["read_folds"] == 0 and not d["fold"]["on_read"]' \
		'f("Rx.RxPackets") > 0 and f("Rx.RxPackets") == d["lcores"][0]["run"]["packets"]' \
		|| fail "$fold: JSON"
done
echo "phantoms: ok"

# --fold-on-read over HTTP: every MIB read folds, the snapshot routes do not.
"$PKTPATH" $(eal rd) -- --http 127.0.0.1:0 --duration 0 --quiet --fold-on-read \
	--mib-lcores 64 --json "$TMP/rd.json" > "$TMP/rd.txt" 2>&1 &
pid=$!
PIDS+=("$pid")
# (http_url: the file may not exist yet when the loop first looks)
http_url rd "$TMP/rd.txt" "$pid"
url=$URL
for p in snmp netstat metrics stats.json; do
	curl -sf -D "$TMP/h.txt" -o /dev/null "${url}$p"
	grep -qiE '^X-Pktpath-Fold-Ns: [0-9]+' "$TMP/h.txt" || { cat "$TMP/h.txt"; kill "$pid"; fail "/$p: no fold header"; }
done
curl -sf -D "$TMP/h.txt" -o /dev/null "${url}healthz"
if grep -qi '^X-Pktpath-Fold-Ns' "$TMP/h.txt"; then kill "$pid"; fail "/healthz folded"; fi
curl -sf "${url}metrics" > "$TMP/m.txt"
grep -qx 'pktpath_read_folds_total 5' "$TMP/m.txt" || { grep read_fold "$TMP/m.txt"; kill "$pid"; fail "read folds"; }
grep -qx 'pktpath_read_fold_seconds_count 5' "$TMP/m.txt" || { kill "$pid"; fail "histogram count"; }
grep -qx 'pktpath_read_fold_seconds_bucket{le="+Inf"} 5' "$TMP/m.txt" || { kill "$pid"; fail "histogram +Inf"; }
grep -qx 'pktpath_mib_lcores{kind="phantom"} 63' "$TMP/m.txt" || { kill "$pid"; fail "mib_lcores"; }
curl -sf "${url}stats.json" > "$TMP/live.json"
kill -INT "$pid"
wait "$pid" || fail "exit $?"
jcheck "$TMP/live.json" 'd["fold"]["on_read"] and d["fold"]["read_ns"] > 0' \
	'd["fold"]["read_folds"] == 6' 'd["mib_lcores"]["phantom_counted"] == 0' || fail "live JSON"
jcheck "$TMP/rd.json" 'd["summary"]["fold"]["read_folds"] == 6' \
	'd["summary"]["fold"]["read_p99_ns"] >= d["summary"]["fold"]["read_p50_ns"] > 0' \
	'd["conservation"]["exact"] and d["conservation"]["line"].startswith("ok")' || fail "final JSON"
grep -q '^fold on read: 6 folds, median [0-9]* ns, p99 [0-9]* ns$' "$TMP/rd.txt" || { cat "$TMP/rd.txt"; fail "summary line"; }
echo "fold on read: ok"
