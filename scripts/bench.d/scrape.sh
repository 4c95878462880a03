# bench.sh section "scrape" (sourced): scraping must not disturb the data
# path. Mpps while a second process fetches /metrics 50 times a second,
# against Mpps with no scraping, alternated; target: ratio >= 0.99.
echo "== scrape: Mpps with 50 /metrics scrapes a second vs none, alternated"
s_on=(); s_off=()
for r in $(seq "$ROUNDS"); do
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	python3 - "$port" $((SECS + 3)) > "$TMP/scraper$r.out" 2>&1 <<'PY' &
import sys, time, urllib.request
port, secs = int(sys.argv[1]), float(sys.argv[2])
end = time.time() + secs; ok = 0; t = time.time()
while time.time() < end:
    try:
        urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=1).read()
        ok += 1
    except Exception:
        pass
    t += 0.02
    time.sleep(max(0, t - time.time()))
print("scrapes", ok)
PY
	scraper=$!
	x=$(pp "scrape_on$r" -- --duration "$SECS" --warmup 1 --http "127.0.0.1:$port" | cut -d' ' -f1)
	wait $scraper
	y=$(pp "scrape_off$r" -- --duration "$SECS" --warmup 1 --http off | cut -d' ' -f1)
	s_on+=("$x"); s_off+=("$y")
	echo "  round $r: scraped $x Mpps ($(cat "$TMP/scraper$r.out")), not scraped $y Mpps"
done
a=$(median "${s_on[@]}"); b=$(median "${s_off[@]}")
ratio=$(python3 -c "print('%.4f' % ($a / $b if $b else 0))")
echo "  median ratio $ratio"
target "Mpps ratio 50 scrapes/s / no scraping" "$ratio" ">=" 0.99
