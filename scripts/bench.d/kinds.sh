# bench.sh section "kinds" (sourced): the same policy -- drop UDP to port 9,
# the generator's whole traffic -- as each classifier kind, under the guard
# none (the classification cost alone), against no hook at all, rounds
# interleaved; ns/pkt of each and the difference to off.
echo "== classifier kinds, one policy (drop udp dst port 9), --ingress none, 1 worker, median of $ROUNDS rounds"
kinds=("off::--ingress off"
	"rules::--ingress none --rules config/rules/drop-udp-9.rules"
	"pcap-filter jit::--ingress none --ingress-kind pcap-filter --filter udp\ dst\ port\ 9 --filter-action drop"
	"pcap-filter interp::--ingress none --ingress-kind pcap-filter --filter udp\ dst\ port\ 9 --filter-action drop --bpf-jit off"
	"bpf jit::--ingress none --ingress-kind bpf --bpf-obj $BUILD/config/drop_udp_port.o"
	"bpf interp::--ingress none --ingress-kind bpf --bpf-obj $BUILD/config/drop_udp_port.o --bpf-jit off")
declare -A k_ns k_cyc
for r in $(seq "$ROUNDS"); do
	for k in "${kinds[@]}"; do
		label=${k%%::*}; args=${k#*::}
		eval "set -- $args"
		read -r x y z < <(pp "k_${label// /_}_$r" -- --duration "$SECS" --warmup 1 "$@")
		k_ns[$label]+="$y "; k_cyc[$label]+="$z "
	done
done
off=$(median ${k_ns[off]})
printf '  %-20s %9s %10s %12s\n' kind ns/pkt cycles/pkt "dns vs off"
for k in "${kinds[@]}"; do
	label=${k%%::*}
	ns=$(median ${k_ns[$label]})
	printf '  %-20s %9s %10s %12s\n' "$label" "$ns" "$(median ${k_cyc[$label]})" \
		"$(python3 -c "print('%+.2f' % ($ns - $off))")"
done
