# bench.sh section "hotpath" (sourced): the receive loop against an older
# commit's, variant by variant, in the same run (issue 14's targets: the
# full path on the generator at <= 30 cycles/pkt on hugepages, and every
# variant at least as fast as before).
#
# HOTPATH_BASE (default fda52c6, the commit before the hot-path work) is
# exported with `git archive` into the run's temporary folder and built
# there (pktpath only, -Dtests=false: a minute or two). Each round runs
# both binaries on each variant back to back, the order alternating from
# round to round; the figure per variant is the median over the rounds of
# each round's paired ratio of cycles/pkt (new / base): the two runs of a
# pair share the machine's state of the moment, which a ratio of medians
# would not cancel.
HOTPATH_BASE=${HOTPATH_BASE:-fda52c6}
echo "== hotpath ($HUGE_MEM): this build against $HOTPATH_BASE, cycles/pkt, $ROUNDS rounds of $SECS s, paired"
hp_src="$TMP/hotpath-src"
hp_build="$TMP/hotpath-build"
mkdir -p "$hp_src"
if ! git archive "$HOTPATH_BASE" | tar -x -C "$hp_src" 2> "$TMP/hotpath-src.log"; then
	echo "  cannot export $HOTPATH_BASE: $(head -1 "$TMP/hotpath-src.log")" >&2
	target "hotpath: base $HOTPATH_BASE built" 0 ">" 0
elif ! { meson setup "$hp_build" "$hp_src" -Dtests=false > "$TMP/hotpath-build.log" 2>&1 &&
	 ninja -C "$hp_build" app/pktpath/pktpath >> "$TMP/hotpath-build.log" 2>&1; }; then
	tail -5 "$TMP/hotpath-build.log" >&2
	target "hotpath: base $HOTPATH_BASE built" 0 ">" 0
else
	hp_base=$hp_build/app/pktpath/pktpath
	hp_variants=("default::" "alloc bulk::--alloc bulk" "prefetch off::--prefetch off"
		"mib-layout shared::--mib-layout shared" "fold field::--fold field"
		"peer shared::--peer on --peer-layout shared"
		"peer split::--peer on --peer-layout split"
		"ingress rcu::--ingress rcu --rules config/rules/match-all.rules"
		"ingress lock::--ingress lock --rules config/rules/match-all.rules"
		"capture drops::--capture $TMP/hotpath.pcap --capture-what drops"
		"rx-only::--path rx-only" "2 workers::--main-worker")
	declare -A hp_new hp_old hp_ratio
	for r in $(seq "$ROUNDS"); do
		for v in "${hp_variants[@]}"; do
			label=${v%%::*}; args=${v#*::}
			order=(new base); [ $((r % 2)) = 0 ] && order=(base new)
			for which in "${order[@]}"; do
				bin=$PKTPATH; [ "$which" = base ] && bin=$hp_base
				read -r _ _ c < <(PKTPATH=$bin pp "hp_${which}_${label// /_}_$r" -- \
					--duration "$SECS" --warmup 1 $args)
				[ "$which" = new ] && hp_c_new=$c || hp_c_old=$c
			done
			hp_new[$label]+="$hp_c_new "; hp_old[$label]+="$hp_c_old "
			hp_ratio[$label]+="$(python3 -c "print('%.4f' % ($hp_c_new / $hp_c_old if $hp_c_old else 0))") "
		done
	done
	# The peer variants compare like with like only when the base has the
	# peer stage of this build: the search tree of 5a5fc3b (issue 23).
	# A clone without 5a5fc3b (shallow) cannot tell: said, not guessed.
	hp_peer_same= hp_peer_why=
	if ! git cat-file -e '5a5fc3b^{commit}' 2> /dev/null; then
		hp_peer_why="this clone lacks 5a5fc3b (shallow?): whether $HOTPATH_BASE has the inetpeer tree is unknown"
	elif git merge-base --is-ancestor 5a5fc3b "$HOTPATH_BASE" 2> /dev/null; then
		hp_peer_same=1
	else
		hp_peer_why="$HOTPATH_BASE's peer stage is the hash lookup that 5a5fc3b replaced by the inetpeer tree, not the same work"
	fi
	printf '  %-20s %14s %14s %12s   %s\n' variant "base cyc/pkt" "new cyc/pkt" "new/base" "each round's new/base"
	for v in "${hp_variants[@]}"; do
		label=${v%%::*}
		# shellcheck disable=SC2086
		ratio=$(median ${hp_ratio[$label]})
		# shellcheck disable=SC2086
		printf '  %-20s %14s %14s %12s   %s\n' "$label" "$(median ${hp_old[$label]})" \
			"$(median ${hp_new[$label]})" "$ratio" "${hp_ratio[$label]}"
		if [ "${label%% *}" = peer ] && [ -z "$hp_peer_same" ]; then
			echo "  ($label: not a target: $hp_peer_why)"
		else
			target "hotpath $label: cyc/pkt new/$HOTPATH_BASE" "$ratio" "<=" 1.00
		fi
	done
	# shellcheck disable=SC2086
	hp_default=$(median ${hp_new[default]})
	if [ "$HUGE_MEM" = hugepages ]; then
		target "hotpath: full path, gen, 1 worker: cyc/pkt" "$hp_default" "<=" 30
	else
		echo "  (the 30 cycles/pkt target is for hugepages; this run is --no-huge: $hp_default)"
	fi
fi
