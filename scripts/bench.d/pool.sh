# bench.sh section "pool" (sourced): --pool-layout page against packed and
# --pool-order shuffle against address, rounds alternated, for the rx-only
# loop on net_null0 and the full path on the generator (1 worker). With
# --no-huge, page gives every mbuf its own 4 KiB page at the same offset;
# packed lays them out as on hugepages. address leaves a new pool's order,
# so a loop recycles mbufs on consecutive pages; shuffle scatters them.
# On hugepages rte_pktmbuf_pool_create() already packs the mbufs back to
# back: page and packed are one layout there, the order is the question.
pl_layouts=(page packed)
[ "$HUGE_MEM" = hugepages ] && pl_layouts=(page)
echo "== mbuf pools ($HUGE_MEM): --pool-layout ${pl_layouts[*]} x --pool-order shuffle|address, median of $ROUNDS rounds"
declare -A pl_m pl_c
for r in $(seq "$ROUNDS"); do
	for layout in "${pl_layouts[@]}"; do
		for order in shuffle address; do
			k="${layout}_$order"
			read -r x y z < <(pp "pl_rx_${k}_$r" --vdev net_null0 -- --source port \
				--path rx-only --burst 32 --duration "$SECS" --warmup 1 \
				--pool-layout "$layout" --pool-order "$order")
			pl_m[rx_$k]+="$x "; pl_c[rx_$k]+="$z "
			read -r x y z < <(pp "pl_gen_${k}_$r" -- --duration "$SECS" --warmup 1 \
				--pool-layout "$layout" --pool-order "$order")
			pl_m[gen_$k]+="$x "; pl_c[gen_$k]+="$z "
		done
	done
done
printf '  %-44s %9s %10s\n' run Mpps cycles/pkt
for src in rx gen; do
	for k in page_shuffle page_address packed_shuffle packed_address; do
		[ -n "${pl_m[${src}_$k]:-}" ] || continue
		case $src in
		rx) label="rx-only, net_null0, ${k%_*}, ${k#*_}" ;;
		*) label="full path, generator, ${k%_*}, ${k#*_}" ;;
		esac
		printf '  %-44s %9s %10s\n' "$label" "$(median ${pl_m[${src}_$k]})" "$(median ${pl_c[${src}_$k]})"
	done
done
