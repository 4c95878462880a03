# bench.sh section "stages" (sourced): what --stage-cycles costs. The
# default loop without and with its stage marks (one TSC read between two
# stages, seven at most per burst) side by side on the
# generator, without and with the ingress hook (--ingress lock), rounds
# alternated; the median cycles/pkt of each, the median (min-max) of the
# rounds' paired ratios (a round's two runs are adjacent, so the load they
# share cancels out better than in a ratio of medians), and the share of
# the busy cycles the stage table accounts for (its "staged" row). Then,
# with valgrind, the instructions per packet of both loops (callgrind, the
# loop function inclusive of what it calls, over a 1 s --no-huge run: no
# timing, so a difference there is the instrumentation's own work).
# Environment: STAGES_CALLGRIND=0 skips the callgrind part.
echo "== stages ($HUGE_MEM): --stage-cycles vs the default loop, median of $ROUNDS rounds"
declare -A sg_c sg_m sg_s sg_r
for r in $(seq "$ROUNDS"); do
	for v in plain lock; do
		hook=(); [ "$v" = lock ] && hook=(--ingress lock)
		runs=(off on); [ $((r % 2)) = 0 ] && runs=(on off)
		for x in "${runs[@]}"; do
			sc=(); [ "$x" = on ] && sc=(--stage-cycles)
			name="sg_${v}_${x}_$r"
			read -r m _ c < <(pp "$name" -- --duration "$SECS" --warmup 1 "${hook[@]}" "${sc[@]}")
			sg_m[${v}_$x]+="$m "; sg_c[${v}_$x]+="$c "
			[ "$x" = off ] && sg_off=$c || sg_on=$c
			if [ "$x" = on ]; then
				sg_s[$v]+="$(python3 -c '
import json, sys
try:
    t = json.load(open(sys.argv[1]))["stages"]
    print("%.1f" % (100.0 * t["staged_share"]))
except Exception:
    print(0)' "$TMP/$name.json") "
			fi
		done
		sg_r[$v]+="$(python3 -c "print('%.4f' % ($sg_on / $sg_off if $sg_off else 0))") "
	done
done
printf '  %-34s %9s %10s %10s\n' run Mpps cycles/pkt "staged %"
for v in plain lock; do
	desc="no hook"; [ "$v" = lock ] && desc="--ingress lock"
	printf '  %-34s %9s %10s %10s\n' "$desc, default loop" "$(median ${sg_m[${v}_off]})" \
		"$(median ${sg_c[${v}_off]})" ""
	printf '  %-34s %9s %10s %10s\n' "$desc, --stage-cycles" "$(median ${sg_m[${v}_on]})" \
		"$(median ${sg_c[${v}_on]})" "$(median ${sg_s[$v]})"
	ratio=$(median ${sg_r[$v]})
	echo "  $desc: cycles/pkt --stage-cycles / default, paired per round: median $ratio" \
		"($(tr ' ' '\n' <<< "${sg_r[$v]}" | sort -n | sed '/^$/d' | sed -n '1p;$p' | paste -sd-))"
	# a guard, not a goal: 4-6 TSC reads of ~40 cycles per burst of 32 are
	# 5-8 cycles/pkt, 10-15% of a 60-cycle path (the journal, scripts/bench.d/journal/)
	target "cycles/pkt ratio --stage-cycles / default, $desc" "$ratio" "<=" 1.25
done

if [ "${STAGES_CALLGRIND:-1}" != 0 ] && command -v valgrind > /dev/null &&
	command -v callgrind_annotate > /dev/null; then
	echo "== stages: instructions per packet (callgrind, 1 s --no-huge, the loop function inclusive)"
	sg_ir() { # sg_ir NAME ARGS...: Ir per packet of the loop function
		local name=$1; shift
		valgrind --tool=callgrind --callgrind-out-file="$TMP/$name.cg" $PKTPATH -l 0-1 --no-huge \
			-m 512 --no-shconf --no-pci --log-level=lib.eal:error --file-prefix "${RUN_ID}_$name" \
			-- --duration 1 --quiet --http off --json "$TMP/$name.json" "$@" \
			> "$TMP/$name.out" 2>&1 || { echo 0; return; }
		callgrind_annotate --inclusive=yes "$TMP/$name.cg" 2> /dev/null |
			python3 -c '
import json, re, sys
p = json.load(open(sys.argv[1]))["mib"]["Rx"]["RxPackets"]
for line in sys.stdin:
    m = re.match(r"\s*([0-9,]+) .*:loop_[a-z_]+ ", line)
    if m and p:
        print("%.2f" % (int(m.group(1).replace(",", "")) / p)); break
else:
    print(0)' "$TMP/$name.json"
	}
	for v in plain lock; do
		hook=(); [ "$v" = lock ] && hook=(--ingress lock)
		a=$(sg_ir "sg_cg_${v}_off" "${hook[@]}")
		b=$(sg_ir "sg_cg_${v}_on" "${hook[@]}" --stage-cycles)
		echo "  ${hook[*]:-no hook}: default $a Ir/pkt, --stage-cycles $b Ir/pkt" \
			"($(python3 -c "print('%+.2f' % ($b - $a))") Ir/pkt)"
	done
fi
