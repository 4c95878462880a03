# bench.sh section "instructions" (sourced): instructions per packet of the
# worker's thread, noise-free (scripts/counts.py instructions: callgrind,
# pktpath --no-huge, 1 worker, the generator, INSTR_SECS s each), for the
# loop variants the performance notes measured by hand: default,
# --stage-cycles, --perf-detail, --pmu, prefetch, bulk allocation, peer, the
# lock and rcu guards, rx-only, the IPv6 and mixed families (the IPv6 path
# beside the IPv4 one). --pmu reads its counters from the stats
# thread and opens them before the loop: the worker's loop is the default
# one, instruction for instruction (the target).
# Environment: INSTR_SECS (default 1).
if BUILD_DIR=$BUILD scripts/counts.py instructions --secs "${INSTR_SECS:-1}" \
	--json "$TMP/instructions.json"; then
	ir_pmu=$(python3 -c '
import json, sys
r = {x["variant"]: x["ir_per_pkt"] for x in json.load(open(sys.argv[1]))["instructions"]}
print("%.5f" % (r["--pmu task-clock,context-switches"] / r["default"]))' "$TMP/instructions.json")
	target "instructions/pkt, --pmu task-clock,context-switches / default" "$ir_pmu" "<=" 1.001
else
	echo "instructions: scripts/counts.py failed" >&2
	target "instructions: scripts/counts.py ran" 0 "==" 1
fi
