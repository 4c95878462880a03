# bench.sh section "pool" (sourced): --pool-layout page against packed,
# rounds alternated, for the rx-only loop on net_null0 and the full path on
# the generator (1 worker). With --no-huge, page gives every mbuf its own
# 4 KiB page at the same offset; packed lays them out as on hugepages.
echo "== mbuf pool layout: --pool-layout page vs packed, median of $ROUNDS rounds"
declare -A pl_m pl_c
for r in $(seq "$ROUNDS"); do
	for layout in page packed; do
		read -r x y z < <(pp "pl_rx_${layout}_$r" --vdev net_null0 -- --source port \
			--path rx-only --burst 32 --duration "$SECS" --warmup 1 --pool-layout "$layout")
		pl_m[rx_$layout]+="$x "; pl_c[rx_$layout]+="$z "
		read -r x y z < <(pp "pl_gen_${layout}_$r" -- --duration "$SECS" --warmup 1 \
			--pool-layout "$layout")
		pl_m[gen_$layout]+="$x "; pl_c[gen_$layout]+="$z "
	done
done
printf '  %-34s %9s %10s\n' run Mpps cycles/pkt
for k in rx_page rx_packed gen_page gen_packed; do
	case $k in
	rx_*) label="rx-only, net_null0, ${k#rx_}" ;;
	*) label="full path, generator, ${k#gen_}" ;;
	esac
	printf '  %-34s %9s %10s\n' "$label" "$(median ${pl_m[$k]})" "$(median ${pl_c[$k]})"
done
