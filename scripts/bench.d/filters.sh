# bench.sh section "filters" (sourced): what each engine of the pcap-filter
# kind costs -- rte_bpf's JIT (pktpath's conversion, the JIT's code checked),
# rte_bpf's interpreter, libpcap's own interpreter -- on a few tcpdump
# expressions over the generator's traffic (UDP to port 9), --ingress none,
# 1 worker, rounds interleaved; ns/pkt and cycles/pkt of the whole path, and
# the difference to no hook (off), which is the filter's cost.
echo "== pcap-filter engines, --ingress none --filter-action pass, 1 worker, median of $ROUNDS rounds"
filters=("udp dst port 9"
	"ip and udp and ip[6:2] & 0x1fff = 0 and udp[2:2] = 9 and ip[8] << ip[1] != 0"
	"(src portrange 4000-44000 or greater 100) and tcp port 67"
	"icmp[0] == 8 or udp[8:4] = 0 or vlan 100")
declare -A f_ns f_cyc
for r in $(seq "$ROUNDS"); do
	read -r x y z < <(pp "f_off_$r" -- --duration "$SECS" --warmup 1 --ingress off)
	f_ns[off]+="$y "; f_cyc[off]+="$z "
	for i in "${!filters[@]}"; do
		for g in jit interp libpcap; do
			read -r x y z < <(pp "f_${i}_${g}_$r" -- --duration "$SECS" --warmup 1 \
				--ingress none --ingress-kind pcap-filter --filter "${filters[$i]}" \
				--filter-action pass --bpf-engine $g)
			f_ns[$i.$g]+="$y "; f_cyc[$i.$g]+="$z "
		done
	done
done
off_ns=$(median ${f_ns[off]}); off_cyc=$(median ${f_cyc[off]})
printf '  off (no hook): %s ns/pkt, %s cycles/pkt\n' "$off_ns" "$off_cyc"
printf '  %-78s %-8s %9s %10s %12s\n' filter engine ns/pkt cycles/pkt "dcyc vs off"
for i in "${!filters[@]}"; do
	for g in jit interp libpcap; do
		c=$(median ${f_cyc[$i.$g]})
		printf '  %-78s %-8s %9s %10s %12s\n' "${filters[$i]}" $g "$(median ${f_ns[$i.$g]})" "$c" \
			"$(python3 -c "print('%+.1f' % ($c - $off_cyc))")"
	done
done
