#!/usr/bin/env bash
# pktpath leaves the host as it found it, and says when the host makes its
# figures meaningless:
#  - --promisc on: the interface is promiscuous while pktpath runs and not
#    after (clean exit and SIGTERM); one that was promiscuous stays so;
#  - --mtu on net_af_packet (whose PMD sets the kernel interface's MTU):
#    the old MTU is back after the run;
#  - hugepages (reserved here on a private hugetlbfs mount when the machine
#    uses none, given back after): no hugepage file is left after a clean
#    exit, SIGTERM or SIGKILL; with --huge-unlink=never they are (the check
#    can fail);
#  - two worker lcores on one CPU: one warning at start;
#  - a rule churn that falls behind: "update rate N/s requested, M/s achieved".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ports_lib.sh"
RUN=(--duration 0 --quiet --http off)

flags() { inA ip -o link show "$IF_A"; }

# --- promiscuous mode ---
veth_pair
AFP="net_af_packet0,iface=$IF_A"
for how in INT TERM; do
	start_bg "$NS_A" "$TMP/pr$how.out" "$PKTPATH" $(pp_eal "pr$how") --vdev "$AFP" -- \
		--source port --promisc on "${RUN[@]}"
	pp=$BGPID
	wait_for "$TMP/pr$how.out" "^memory: "
	flags | grep -q PROMISC || fail "promisc on: $IF_A is not promiscuous during the run"
	stop_pid "$pp" "$how"
	[ "$RC" = 0 ] || { cat "$TMP/pr$how.out"; fail "promisc ($how): exit $RC"; }
	flags | grep -q PROMISC && fail "promisc on: $IF_A still promiscuous after SIG$how"
done
# Promiscuous before (someone else's): so during and after, with or without
# --promisc (rte_eth_dev_start() would clear it: ethdev thinks it off).
inA ip link set "$IF_A" promisc on
for opt in on off; do
	start_bg "$NS_A" "$TMP/pr2$opt.out" "$PKTPATH" $(pp_eal "pr2$opt") --vdev "$AFP" -- \
		--source port --promisc $opt "${RUN[@]}"
	pp=$BGPID
	wait_for "$TMP/pr2$opt.out" "^memory: "
	flags | grep -q PROMISC || fail "promisc $opt: $IF_A was promiscuous and is not during the run"
	stop_pid "$pp" INT
	flags | grep -q PROMISC || fail "promisc $opt: $IF_A was promiscuous before and is not after"
done
grep -q "port 0: $IF_A was promiscuous and stays so" "$TMP/pr2off.out" ||
	{ cat "$TMP/pr2off.out"; fail "promisc off: not said"; }
inA ip link set "$IF_A" promisc off
echo "promisc: ok"

# --- MTU ---
start_bg "$NS_A" "$TMP/mtu.out" "$PKTPATH" $(pp_eal mtu) --vdev "$AFP" -- --source port --mtu 1400 "${RUN[@]}"
pp=$BGPID
wait_for "$TMP/mtu.out" "^memory: "
flags | grep -q "mtu 1400 " || { flags; fail "--mtu 1400 not applied"; }
stop_pid "$pp" TERM
[ "$RC" = 0 ] || { cat "$TMP/mtu.out"; fail "mtu: exit $RC"; }
flags | grep -q "mtu 1500 " || { flags; fail "MTU not restored"; }
echo "mtu: ok"
ip netns del "$NS_A"
ip netns del "$NS_B"

# --- oversubscribed CPUs ---
set +e
"$PKTPATH" --lcores 0@0,1@1,2@1 --no-huge --no-shconf -m 512 --no-pci --file-prefix "ports${TOK}_ov" \
	--log-level=lib.eal:error -- --duration 0.3 --warmup 0 --quiet --http off > "$TMP/ov.out" 2>&1
rc=$?
set -e
[ "$rc" = 0 ] || { cat "$TMP/ov.out"; fail "oversubscribed: exit $rc"; }
want="pktpath: lcores 1 and 2 share CPU 1: busy-polling lcores on one CPU take turns, so busy%, cycles/pkt and Mpps of every lcore are meaningless (give each worker lcore its own CPU, -l or --lcores)"
[ "$(grep -cFx -- "$want" "$TMP/ov.out")" = 1 ] || { cat "$TMP/ov.out"; fail "no (or more than one) shared-CPU warning"; }
"$PKTPATH" $(eal ov2) -- --duration 0.3 --warmup 0 --quiet --http off > "$TMP/ov2.out" 2>&1
grep -q "share CPU" "$TMP/ov2.out" && fail "shared-CPU warning with -l 0-1"
echo "oversubscription: ok"

# --- the rule churn's achieved rate: the line exactly when it fell behind ---
"$PKTPATH" $(eal upd) -- --ingress rcu --update-rate 1000000 --duration 2 --warmup 0 --quiet \
	--http off --json "$TMP/upd.json" > "$TMP/upd.out" 2>&1 || { cat "$TMP/upd.out"; fail "update rate run"; }
python3 - "$TMP/upd.json" "$TMP/upd.out" <<'PY' || fail "update rate line"
import json, re, sys
d = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read()
ig, secs = d["ingress"], d["summary"]["run"]["seconds"]
got, n = ig["achieved_rate"], ig["updates"]
if abs(got - n / secs) > 1e-6 * max(got, 1):
    print("achieved_rate %f != updates %d / %f s" % (got, n, secs)); sys.exit(1)
m = re.search(r"^update rate 1e\+06/s requested, ([0-9.]+)/s achieved \((\d+) replaces in ([0-9.]+) s\)$", out, re.M)
behind = got < 0.95 * 1e6
if behind != (m is not None):
    print("achieved %f/s, line %s" % (got, m and m.group(0))); sys.exit(1)
if m and (int(m.group(2)) != n or abs(float(m.group(1)) - got) > 0.05):
    print("line %r, JSON %d updates at %f/s" % (m.group(0), n, got)); sys.exit(1)
print("update rate: %s" % (m.group(0) if m else "kept up"))
PY

# --- hugepages: no file left behind ---
pg=$(awk '$1 == "Hugepagesize:" { print $2 }' /proc/meminfo)
total=$(awk '$1 == "HugePages_Total:" { print $2 }' /proc/meminfo)
if [ -z "$pg" ] || [ "$pg" != 2048 ] || [ "$total" != 0 ]; then
	echo "SKIP (part): hugepages: the machine's are in use or not 2 MiB ($total x $pg kB)"
	echo "ports-host: ok"
	exit 0
fi
HDIR="$TMP/huge"
mkdir "$HDIR"
echo 64 > /proc/sys/vm/nr_hugepages
huge_off() { umount "$HDIR" 2>/dev/null || true; echo 0 > /proc/sys/vm/nr_hugepages; }
trap 'huge_off; ports_cleanup' EXIT
if [ "$(awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo)" -lt 64 ] ||
	! mount -t hugetlbfs -o pagesize=2M nodev "$HDIR"; then
	echo "SKIP (part): hugepages: 64 x 2 MiB could not be reserved and mounted"
	echo "ports-host: ok"
	exit 0
fi
HEAL=(-l 0-1 --no-shconf --no-pci --huge-dir "$HDIR" --log-level=lib.eal:error --vdev net_null0)
for how in clean TERM KILL; do
	"$PKTPATH" "${HEAL[@]}" --file-prefix "ports${TOK}_hg$how" -- --source port \
		--duration "$([ $how = clean ] && echo 1 || echo 0)" --quiet --http off \
		> "$TMP/hg$how.out" 2>&1 &
	pp=$!
	PIDS+=("$pp")
	wait_for "$TMP/hg$how.out" "memory: hugepages"
	[ $how = clean ] || kill -$how "$pp"
	set +e
	wait "$pp"
	set -e
	left=$(find "$HDIR" -type f | wc -l)
	[ "$left" = 0 ] || { ls -l "$HDIR"; fail "hugepages: $left files left after a $how exit"; }
done
"$PKTPATH" "${HEAL[@]}" --huge-unlink=never --file-prefix "ports${TOK}_hgn" -- --source port \
	--duration 0.5 --quiet --http off > "$TMP/hgn.out" 2>&1 || { cat "$TMP/hgn.out"; fail "--huge-unlink=never run"; }
[ "$(find "$HDIR" -type f | wc -l)" -gt 0 ] || fail "--huge-unlink=never left no file: the check cannot fail"
find "$HDIR" -type f -delete
echo "hugepages: ok"
echo "ports-host: ok"
