# bench.sh section "devdump" (sourced): the docker thread's link dump.
#
# With 1000 veth devices on a 160-CPU server, snmp_fold_field was 50.7% of
# `docker run`: every RTM_GETLINK dump (rtnl_fill_ifinfo ->
# inet6_fill_link_af -> inet6_fill_ifla6_attrs -> __snmp6_fill_stats64)
# folded every device's per-CPU IPv6 statistics field by field; folding
# them CPU by CPU took `docker run` from 6.84 s to 3.25 s (2.1x). Here
# pktpath-bench's devdump folds D devices' per-device IPv6 MIBs (lib/mib
# mib_dev.h: sized and laid out as the kernel's inet6_dev statistics) on L
# lcores, device after device, both ways, for D = 1, 10, 100, 1000 and
# L = 2, 16, 64, 160, 256: us per dump, ns per device, and the ratio of the
# folds (field / lcore), with the repetitions that lost their CPU.
# Target: at 1000 devices x 160 lcores, the field-major dump is not faster
# than the lcore-major one (ratio >= 1).
# Environment: DEVDUMP_REPS (default 5).
PB=$BUILD/app/pktpath-bench/pktpath-bench
echo "== devdump: link dump of D devices' IPv6 MIBs x L lcores, field- vs lcore-major (pktpath-bench --run devdump)"
echo "  L1d $(getconf LEVEL1_DCACHE_SIZE 2>/dev/null) B, $(getconf LEVEL1_DCACHE_ASSOC 2>/dev/null)-way;" \
	"L2 $(getconf LEVEL2_CACHE_SIZE 2>/dev/null) B; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
if [ -x "$PB" ] && $PB $EAL --file-prefix "${RUN_ID}_devdump" -- --run devdump \
	--reps "${DEVDUMP_REPS:-5}" --json "$TMP/devdump.json" > "$TMP/devdump.out" 2>&1; then
	grep -v '^Type:' "$TMP/devdump.out" | sed 's/^/  /'
	ratio=$(python3 -c '
import json, sys
ns = {r["name"]: r["ns_per_elem"]["median"] for r in json.load(open(sys.argv[1]))["results"]}
f, l = ns["devdump_field/D1000xL160"], ns["devdump_lcore/D1000xL160"]
print("%.2f" % (f / l if l else 0))' "$TMP/devdump.json")
	target "devdump: field/lcore dump time, 1000 devices x 160 lcores" "$ratio" ">=" 1
else
	[ -f "$TMP/devdump.out" ] && cat "$TMP/devdump.out" >&2
	echo "  pktpath-bench --run devdump failed (or $PB is not built)"
	target "devdump: pktpath-bench --run devdump ran" 0 "==" 1
fi
