# bench.sh section "stagepmu" (sourced): what reading the --pmu group at
# every stage mark costs (--pmu with --stage-cycles: the loop variant
# generic) against the stage marks alone (--stage-cycles,
# full-prefetch-stages; --pmu's own cost, its group's save and restore and
# the stats thread's reads, and generic's, a few per cent of instructions,
# are in the difference too), rounds alternated: the median cycles/pkt of each and the
# median (min-max) of the rounds' paired ratios. The events: STAGEPMU_EVENTS,
# or "default" where the machine has a PMU (the probe: --pmu cycles starts;
# then the marks read with rdpmc, and the issue's target, <= 1.05, is
# checked), else software events, which rdpmc cannot read: each mark is a
# read(2), and the figure is that system call's cost (no target: it says
# nothing of rdpmc's).
if [ -z "${STAGEPMU_EVENTS:-}" ]; then
	if $PKTPATH $EAL --file-prefix ${RUN_ID}_spprobe -- --pmu cycles --duration 0.1 \
		--http off --quiet > /dev/null 2>&1; then
		STAGEPMU_EVENTS=default
	else
		STAGEPMU_EVENTS=task-clock,context-switches
	fi
fi
sp_hw=$([ "$STAGEPMU_EVENTS" = default ] && echo rdpmc || echo "read(2)")
echo "== stagepmu ($HUGE_MEM): --stage-cycles --pmu $STAGEPMU_EVENTS, the group read at each" \
	"stage mark ($sp_hw) or not, median of $ROUNDS rounds"
sp_r=""; sp_on=""; sp_off=""; sp_son=""; sp_soff=""
for r in $(seq "$ROUNDS"); do
	runs=(off on); [ $((r % 2)) = 0 ] && runs=(on off)
	for x in "${runs[@]}"; do
		name="sp_${x}_$r"
		if [ "$x" = on ]; then
			read -r _ _ c < <(pp "$name" -- --duration "$SECS" --warmup 1 \
				--stage-cycles --pmu "$STAGEPMU_EVENTS")
		else
			read -r _ _ c < <(pp "$name" -- --duration "$SECS" --warmup 1 \
				--stage-cycles)
		fi
		s=$(python3 -c '
import json, sys
try:
    print("%.1f" % (100.0 * json.load(open(sys.argv[1]))["stages"]["staged_share"]))
except Exception:
    print(0)' "$TMP/$name.json")
		if [ "$x" = on ]; then spc=$c; sp_on+="$c "; sp_son+="$s "
		else spo=$c; sp_off+="$c "; sp_soff+="$s "; fi
	done
	sp_r+="$(python3 -c "print('%.4f' % ($spc / $spo if $spo else 0))") "
	echo "  round $r: --stage-cycles $spo, with the per-stage reads $spc cycles/pkt"
done
sp_ratio=$(median $sp_r)
echo "  cycles/pkt: --stage-cycles $(median $sp_off) (staged $(median $sp_soff)% of busy)," \
	"--stage-cycles --pmu $(median $sp_on) (staged $(median $sp_son)%: the reads are left out" \
	"of the stages); paired ratio median $sp_ratio" \
	"($(tr ' ' '\n' <<< "$sp_r" | sed '/^$/d' | sort -n | sed -n '1p;$p' | paste -sd-))"
if [ "$sp_hw" = rdpmc ]; then
	target "cycles/pkt ratio per-stage --pmu (rdpmc) / --stage-cycles" "$sp_ratio" "<=" 1.05
else
	echo "  (software events: every mark is a read(2); the <= 5% target is rdpmc's and" \
		"needs a machine with a PMU)"
fi
