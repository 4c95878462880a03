# bench.sh section "cachesim" (sourced): simulated caches, deterministic,
# on any machine (scripts/counts.py cachesim: valgrind's cache simulator, the
# geometry of this CPU from sysfs unless CACHESIM_GEOMETRY names a server's).
# The fold of the snmp_fold_field thread field- against lcore-major at 2 to
# 256 lcores x every MIB field (loads, D1 misses and their rate, per fold),
# the docker thread's link dump of 1000 devices' IPv6 MIBs x 160 lcores,
# the peer stage's layouts in one thread, and pktpath's worker per packet
# with and without prefetch and bulk allocation. Counts, not time: the
# targets are directions the model must give (8 counters share a 64-byte
# line, so a field-major walk over more blocks than the L1 has ways misses
# once per counter where the lcore-major one misses once per line).
# Environment: CACHESIM_GEOMETRY (sysfs, skylake-sp, milan), CACHESIM_SECS
# (pktpath's simulated runs, default 1 s).
if BUILD_DIR=$BUILD scripts/counts.py cachesim --geometry "${CACHESIM_GEOMETRY:-sysfs}" \
	--secs "${CACHESIM_SECS:-1}" --json "$TMP/cachesim.json"; then
	read -r cs256 cs2 < <(python3 -c '
import json, sys
f = {(r["lcores"], r["fold"]): r for r in json.load(open(sys.argv[1]))["fold"]}
def ratio(n):
    a, b = f[(n, "field")]["d1_misses"], f[(n, "lcore")]["d1_misses"]
    return a / b if b else (0 if a == 0 else float("inf"))
print("%.2f %.0f" % (ratio(256), f[(2, "field")]["d1_misses"] + f[(2, "lcore")]["d1_misses"]))' \
		"$TMP/cachesim.json")
	target "cachesim: D1 misses per fold, field/lcore, 256 lcores" "$cs256" ">=" 4
	target "cachesim: D1 misses per later fold, 2 lcores (blocks fit)" "$cs2" "==" 0
	csd=$(python3 -c '
import json, sys
f = {r["fold"]: r for r in json.load(open(sys.argv[1]))["devdump"]}
print("%.2f" % (f["field"]["d1_misses"] / f["lcore"]["d1_misses"] if f["lcore"]["d1_misses"] else 0))' \
		"$TMP/cachesim.json")
	target "cachesim: D1 misses per dump, field/lcore, 1000 devices x 160" "$csd" ">=" 4
else
	echo "cachesim: scripts/counts.py failed" >&2
	target "cachesim: scripts/counts.py ran" 0 "==" 1
fi
