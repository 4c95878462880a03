# bench.sh section "detail" (sourced): what --perf-detail costs the worker.
# The default loop without and with --perf-detail (three
# histogram updates, the history and the suspicious check per poll, the
# control activity word and two TSC reads around the ingress stage per
# burst with the hook), in rounds that alternate which runs first, on the
# generator's full path
# and with --ingress rcu: cycles/pkt of both (steady, median of ROUNDS), their
# ratio, and each round's paired ratio (on this shared machine the rounds
# spread more than the cost: callgrind's instruction counts are the stable
# figure, the journal, scripts/bench.d/journal/).
echo "== perf-detail ($HUGE_MEM): default loop vs --perf-detail, cycles/pkt, median of $ROUNDS alternated rounds, $SECS s each"
declare -A pd_c pd_m
pd_cases=("gen" "rcu")
pd_args_gen=()
pd_args_rcu=(--ingress rcu --rules config/rules/match-all.rules)
for r in $(seq "$ROUNDS"); do
	for c in "${pd_cases[@]}"; do
		declare -n pd_a="pd_args_$c"
		# the order alternates too, so a drift over the round does
		# not always favour the same one
		pd_order="off on"
		[ $((r % 2)) = 0 ] && pd_order="on off"
		for v in $pd_order; do
			extra=()
			[ "$v" = on ] && extra=(--perf-detail)
			read -r x y z < <(pp "perfdetail_${c}_${v}_$r" -- --duration "$SECS" \
				--warmup 1 "${pd_a[@]}" "${extra[@]}")
			pd_m[${c}_$v]+="$x "; pd_c[${c}_$v]+="$z "
		done
		unset -n pd_a
	done
done
printf '  %-46s %9s %9s %12s %12s %7s\n' run "Mpps" "Mpps pd" cycles/pkt "cyc/pkt pd" ratio
for c in "${pd_cases[@]}"; do
	off=$(median ${pd_c[${c}_off]}); on=$(median ${pd_c[${c}_on]})
	label=$([ "$c" = gen ] && echo "--source gen (full path)" || echo "--source gen --ingress rcu (match-all)")
	printf '  %-46s %9s %9s %12s %12s %7s\n' "$label" \
		"$(median ${pd_m[${c}_off]})" "$(median ${pd_m[${c}_on]})" "$off" "$on" \
		"$(python3 -c "print('%.3f' % ($on / $off if $off > 0 else 0))")"
	# the paired ratio of each round (on / off of the same round): the noise
	echo "    each round's ratio: $(python3 -c '
import sys
a, b = sys.argv[1].split(), sys.argv[2].split()
print(" ".join("%.3f" % (float(y) / float(x)) if float(x) > 0 else "-" for x, y in zip(a, b)))' \
		"${pd_c[${c}_off]}" "${pd_c[${c}_on]}")"
done
unset pd_c pd_m pd_cases pd_args_gen pd_args_rcu
