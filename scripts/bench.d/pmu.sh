# bench.sh section "pmu" (sourced): what --pmu costs the workers. The stats
# thread reads each worker's group (read(2), which for a running thread is
# an interrupt on its CPU) every interval; the group is saved and restored
# at each of the worker's context switches. Runs without and with --pmu,
# both at --interval 0.1 (ten reads a second, ten times the default), rounds
# alternated; the median (min-max) of the rounds' paired cycles/pkt ratios.
# The events: PMU_EVENTS, or "default" where the machine has a PMU (the
# probe: --pmu cycles starts), else the software events it can count.
if [ -z "${PMU_EVENTS:-}" ]; then
	if $PKTPATH $EAL --file-prefix ${RUN_ID}_pmuprobe -- --pmu cycles --duration 0.1 \
		--http off --quiet > /dev/null 2>&1; then
		PMU_EVENTS=default
	else
		PMU_EVENTS=task-clock,context-switches,cpu-migrations,page-faults
	fi
fi
echo "== pmu ($HUGE_MEM): --pmu $PMU_EVENTS against none, --interval 0.1, median of $ROUNDS rounds"
pm_r=""; pm_on=""; pm_off=""
for r in $(seq "$ROUNDS"); do
	runs=(off on); [ $((r % 2)) = 0 ] && runs=(on off)
	for x in "${runs[@]}"; do
		ev=(); [ "$x" = on ] && ev=(--pmu "$PMU_EVENTS")
		read -r m _ c < <(pp "pmu_${x}_$r" -- --duration "$SECS" --warmup 1 --interval 0.1 "${ev[@]}")
		[ "$x" = on ] && { pmc=$c; pm_on+="$c "; } || { pmo=$c; pm_off+="$c "; }
	done
	pm_r+="$(python3 -c "print('%.4f' % ($pmc / $pmo if $pmo else 0))") "
	echo "  round $r: none $pmo, --pmu $pmc cycles/pkt"
done
pm_ratio=$(median $pm_r)
echo "  cycles/pkt: none $(median $pm_off), --pmu $(median $pm_on); paired ratio median" \
	"$pm_ratio ($(tr ' ' '\n' <<< "$pm_r" | sed '/^$/d' | sort -n | sed -n '1p;$p' | paste -sd-))"
target "cycles/pkt ratio --pmu $PMU_EVENTS / none, read every 0.1 s" "$pm_ratio" "<=" 1.03
