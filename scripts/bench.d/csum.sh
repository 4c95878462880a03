# bench.sh section "csum" (sourced): what verifying checksums in software
# costs, --rx-csum sw against hw, rounds alternated.
#  - the generator with --udp-csum on: hw marks its frames IP and L4
#    checksum GOOD, as a NIC that offloads does, so the path verifies
#    nothing; sw verifies the IPv4 header and the UDP checksum of each;
#  - net_tap (as root, in a namespace made here, a Linux UDP socket
#    flooding it): a port that offloads, but its PMD verifies in software
#    inside rte_eth_rx_burst(), so hw moves the work rather than saving it.
#    NS_PREFIX (default pktpath) names the namespace and interface.
echo "== checksums ($HUGE_MEM): --rx-csum sw vs hw, median of $ROUNDS rounds"
declare -A cs_c cs_m
for r in $(seq "$ROUNDS"); do
	for mode in sw hw; do
		read -r x y z < <(pp "cs_gen_${mode}_$r" -- --duration "$SECS" --warmup 1 \
			--udp-csum on --rx-csum "$mode")
		cs_m[gen_$mode]+="$x "; cs_c[gen_$mode]+="$z "
	done
done
printf '  %-48s %9s %10s\n' run Mpps cycles/pkt
for mode in sw hw; do
	printf '  %-48s %9s %10s\n' "generator, --udp-csum on, --rx-csum $mode" \
		"$(median ${cs_m[gen_$mode]})" "$(median ${cs_c[gen_$mode]})"
done
echo "  software verification, per packet: $(python3 -c "print('%+.2f' % ($(median ${cs_c[gen_sw]}) - $(median ${cs_c[gen_hw]})))") cycles (sw - hw)"

if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null 2>&1; then
	csns="${NS_PREFIX:-pktpath}cs$$"
	csif="${NS_PREFIX:-pktpath}c$$"
	csif=${csif:0:15}
	for r in $(seq "$ROUNDS"); do
		for mode in sw hw; do
			ip netns add "$csns"
			ip netns exec "$csns" ip link set lo up
			ip netns exec "$csns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
			ip netns exec "$csns" $PKTPATH $EAL --file-prefix "${RUN_ID}_cs_tap$r$mode" \
				--vdev "net_tap0,iface=$csif" -- --source port --local 198.51.100.1/24 \
				--udp-ports 9 --duration $((SECS + 2)) --warmup 1.5 --rx-csum "$mode" \
				--http off --quiet --json "$TMP/cs_tap_$mode$r.json" \
				> "$TMP/cs_tap_$mode$r.out" 2>&1 &
			cpid=$!
			for i in $(seq 100); do
				grep -q "^memory: " "$TMP/cs_tap_$mode$r.out" 2>/dev/null && break
				sleep 0.1
			done
			mac=$(sed -n 's/.*, MAC \([0-9A-Fa-f:]\{17\}\).*/\1/p' "$TMP/cs_tap_$mode$r.out" | head -1)
			ip netns exec "$csns" ip addr add 198.51.100.2/24 dev "$csif"
			ip netns exec "$csns" ip neigh replace 198.51.100.1 lladdr "$mac" dev "$csif" nud permanent
			ip netns exec "$csns" python3 -c '
import socket, time
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
end = time.time() + '"$((SECS + 1))"'
while time.time() < end:
    for i in range(64):
        try:
            u.sendto(b"x" * 18, ("198.51.100.1", 9))
        except OSError:
            pass' || true
			wait "$cpid" || cat "$TMP/cs_tap_$mode$r.out" >&2
			ip netns del "$csns"
			read -r x z < <(python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    s = d["summary"]["steady"] or d["summary"]["run"]
    print("%.4f %.2f" % (s["mpps"], s["cycles_per_pkt"]))
except Exception:
    print("0 0")' "$TMP/cs_tap_$mode$r.json")
			cs_m[tap_$mode]+="$x "; cs_c[tap_$mode]+="$z "
		done
	done
	for mode in sw hw; do
		printf '  %-48s %9s %10s\n' "net_tap, a UDP socket flooding, --rx-csum $mode" \
			"$(median ${cs_m[tap_$mode]})" "$(median ${cs_c[tap_$mode]})"
	done
else
	echo "  net_tap: skipped (needs root for a network namespace)"
fi
