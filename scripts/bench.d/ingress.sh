# bench.sh section "ingress" (sourced): the lock-vs-lockless table of
# --compare, and the targets of the ingress hook:
#   rcu costs at most 0.5 ns/pkt more than none (with and without 1,000
#   rule updates a second); lock --lock-scope burst within 1 ns/pkt of none;
#   lock --lock-scope packet beside the tight-loop spin_lock+unlock cost;
# then the hook in isolation (pktpath-bench's ingress group: the journal's
# classification, lookup-switch and hook tables).
cmp_run() { # cmp_run NAME ARGS...: a --compare run; prints its table
	local name=$1; shift
	$PKTPATH $EAL --file-prefix "${RUN_ID}_$name" -- $HTTP_ANY --quiet \
		--duration "$SECS" --rounds "$ROUNDS" --phase-warmup 0.5 \
		--json "$TMP/$name.json" "$@" > "$TMP/$name.out" 2>&1 ||
		{ cat "$TMP/$name.out" >&2; return 1; }
	sed -n '/^total/,/^$/p' "$TMP/$name.out" | sed 's/^/  /'
}
cmp_ns() { # cmp_ns NAME MODE: median ns/pkt of MODE in run NAME
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%.3f" % [m for m in d["compare"]["modes"] if m["mode"] == sys.argv[2]][0]["ns_per_pkt"])' \
		"$TMP/$1.json" "$2"
}
delta() { python3 -c "print('%.3f' % ($1 - $2))"; }

echo "== ingress: --compare off,none,lock,rwlock,rcu, match-all rules, 1 worker, scope packet"
cmp_run ig_packet --compare off,none,lock,rwlock,rcu --rules config/rules/match-all.rules
target "rcu - none, ns/pkt (1 worker, no churn)" \
	"$(delta "$(cmp_ns ig_packet rcu)" "$(cmp_ns ig_packet none)")" "<=" 0.5

echo "== ingress: none vs rcu with 1,000 rule updates a second (paused in none)"
# Both rulesets match-all: the same path cost, so only the churn differs.
cmp_run ig_churn --compare none,rcu --rules config/rules/match-all.rules \
	--rules-alt config/rules/match-all.rules --update-rate 1000
target "rcu - none, ns/pkt (1 worker, 1000 updates/s)" \
	"$(delta "$(cmp_ns ig_churn rcu)" "$(cmp_ns ig_churn none)")" "<=" 0.5

echo "== ingress: --lock-scope burst, 1 worker"
cmp_run ig_burst --compare none,lock,rwlock,rcu --lock-scope burst --rules config/rules/match-all.rules
target "lock(burst) - none(burst), ns/pkt (1 worker)" \
	"$(delta "$(cmp_ns ig_burst lock)" "$(cmp_ns ig_burst none)")" "<=" 1.0

echo "== ingress: 2 workers (the main lcore polls too), scope packet: contention"
cmp_run ig_two --main-worker --compare off,none,lock,rwlock,rcu --rules config/rules/match-all.rules

lock_pkt=$(delta "$(cmp_ns ig_packet lock)" "$(cmp_ns ig_packet none)")
if [ -x $BUILD/app/pktpath-bench/pktpath-bench ]; then
	tight=$($BUILD/app/pktpath-bench/pktpath-bench $EAL --file-prefix ${RUN_ID}_tl -- \
		--run spinlock --json "$TMP/tl.json" 2>/dev/null |
		awk '/Type:/ {for (i = 1; i <= NF; i++) if ($i == "ns") print $(i - 1)}' | head -1)
	echo "  lock --lock-scope packet: +$lock_pkt ns/pkt in the path (vs none); rte_spinlock lock+unlock in a tight loop: ${tight:-?} ns"
else
	echo "  lock --lock-scope packet: +$lock_pkt ns/pkt in the path (vs none); pktpath-bench not built"
fi

PB=$BUILD/app/pktpath-bench/pktpath-bench
if [ -x $PB ]; then
	echo "== ingress in isolation: pktpath-bench --run ingress --reps 7 (classification, hook on 1 and 2 workers)"
	$PB $EAL --file-prefix ${RUN_ID}_ig -- --run ingress --reps 7 --json "$TMP/ig.json" \
		> "$TMP/ig.out" 2>&1 || { cat "$TMP/ig.out" >&2; echo "  pktpath-bench --run ingress failed"; }
	grep -v '^Type:' "$TMP/ig.out" | sed 's/^/  /'

	echo "== ingress: where the default lookup switches (gen-rules.py --count 4..64, traffic matching 3 rules from the end)"
	sw=()
	for n in 4 8 16 24 32 48 64; do
		scripts/gen-rules.py --count $n -o "$TMP/sw-$n.rules"
		sw+=("$TMP/sw-$n.rules")
	done
	list=$(IFS=,; echo "${sw[*]}")
	if $PB $EAL --file-prefix ${RUN_ID}_igsw -- --run ingress_classify --reps 7 --rules "$list" \
		--json "$TMP/igsw.json" > "$TMP/igsw.out" 2>&1; then
		python3 - "$TMP/igsw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ns = {r["name"]: r["ns_per_elem"]["median"] for r in d["results"]}
counts = (4, 8, 16, 24, 32, 48, 64)
print("  | rules | " + " | ".join(str(n) for n in counts) + " |")
print("  | --- |" + " ---: |" * len(counts))
for col, label in (("acl", "rte_acl burst, ns/pkt"), ("linear", "linear burst, ns/pkt"),
                   ("acl_1", "rte_acl 1 pkt/call"), ("linear_1", "linear 1 pkt/call")):
    print("  | %s | " % label + " | ".join("%.1f" % ns["ingress_classify/sw-%d/%s" % (n, col)]
                                        for n in counts) + " |")
PY
	else
		cat "$TMP/igsw.out" >&2
		echo "  pktpath-bench --run ingress_classify (lookup switch) failed"
	fi
fi
