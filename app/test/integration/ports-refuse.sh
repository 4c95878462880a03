#!/usr/bin/env bash
# Every refusal of the port set-up, with its exact line and exit code 2:
# a queue polled twice, a device with unpolled queue pairs, checksum
# offload a port lacks, frames that cannot fit an mbuf, an MTU the device
# does not take, descriptors outside a NIC's limits (given by the
# pktpath-fakelim.so preload), port options without --source port, bad
# values. And what each refusal's way out accepts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ports_lib.sh"
n=0

# refuse NS LINE PKTPATH_ARGS...: exit 2 and LINE, exactly, on stderr.
refuse() {
	local ns=$1 line=$2; shift 2
	n=$((n + 1))
	set +e
	if [ "$ns" = - ]; then
		"$PKTPATH" "$@" > "$TMP/r$n.out" 2> "$TMP/r$n.err"
	else
		ip netns exec "$ns" "$PKTPATH" "$@" > "$TMP/r$n.out" 2> "$TMP/r$n.err"
	fi
	local rc=$?
	set -e
	[ "$rc" = 2 ] || { cat "$TMP/r$n.err"; fail "exit $rc, expected 2, for: $line"; }
	grep -Fxq -- "$line" "$TMP/r$n.err" || { cat "$TMP/r$n.err"; fail "expected line: $line"; }
}

# accept NS NAME PKTPATH_ARGS...: a short run that must succeed.
accept() {
	local ns=$1 name=$2; shift 2
	set +e
	if [ "$ns" = - ]; then
		"$PKTPATH" "$@" > "$TMP/$name.out" 2>&1
	else
		ip netns exec "$ns" "$PKTPATH" "$@" > "$TMP/$name.out" 2>&1
	fi
	local rc=$?
	set -e
	[ "$rc" = 0 ] || { cat "$TMP/$name.out"; fail "$name: exit $rc"; }
}

NULL=(--vdev net_null0)
RUN=(--duration 0.3 --warmup 0 --quiet --http off)

# One lcore per queue.
refuse - "pktpath: --rxq: port 0 queue 0 is polled by lcores 0 and 1 (one lcore per queue: rte_eth_rx_burst is not thread-safe on a queue)" \
	$(eal dup) "${NULL[@]}" -- --source port --main-worker --rxq 0:0.0,1:0.0 "${RUN[@]}"
refuse - "pktpath: --rxq: port 0 queue 0 is not polled by any lcore" \
	$(eal unp) "${NULL[@]}" -- --source port --rxq 1:0.1 "${RUN[@]}"

# Frames that cannot fit: net_null cannot scatter.
refuse - "pktpath: port 0 (net_null): a 9018-byte frame (MTU 9000) does not fit a 2048-byte mbuf and the driver cannot scatter: give --mbuf-size 9146 or more" \
	$(eal mtu) "${NULL[@]}" -- --source port --mtu 9000 "${RUN[@]}"
accept - mtuok $(eal mtuok) "${NULL[@]}" -- --source port --mtu 9000 --mbuf-size 9146 "${RUN[@]}"
grep -q "9018-byte mbufs" "$TMP/mtuok.out" || { cat "$TMP/mtuok.out"; fail "--mbuf-size 9146 not used"; }

# Port options without ports; bad values.
refuse - "pktpath: --mtu 1400 has no effect with --source gen (it needs --source port)" \
	$(eal g1) -- --mtu 1400 "${RUN[@]}"
refuse - "pktpath: --mbuf-size 4096 has no effect with --source gen (it needs --source port)" \
	$(eal g2) -- --mbuf-size 4096 "${RUN[@]}"
refuse - "pktpath: --rx-csum: 'on' is not one of auto|hw|sw" $(eal v1) -- --rx-csum on
refuse - "pktpath: --rx-csum-partial: 'yes' is not one of auto|on|off" $(eal v2) -- --rx-csum-partial yes
refuse - "pktpath: --unpolled-queues: 'ignore' is not one of refuse|warn" $(eal v3) -- --unpolled-queues ignore
refuse - "pktpath: --mtu: '67' is out of range 68..65535" $(eal v4) -- --mtu 67
refuse - "pktpath: --mbuf-size: '512' is out of range 1024..65535" $(eal v5) -- --mbuf-size 512
# The generator vouches for its own frames only.
"$MKPCAP" "$TMP/t.pcap" 02:00:00:00:00:01 1 > /dev/null
refuse - "pktpath: --rx-csum hw: the generator cannot vouch for the checksums of --template frames; use --rx-csum sw or auto" \
	$(eal tpl) -- --rx-csum hw --template "$TMP/t.pcap" "${RUN[@]}"
accept - genhw $(eal genhw) -- --rx-csum hw --udp-csum on --json "$TMP/genhw.json" "${RUN[@]}"
jcheck "$TMP/genhw.json" 'f("Udp.InDatagrams") > 0' 'f("Udp.InCsumErrors") == 0' \
	'd["conservation"]["ok"]'

# A NIC's limits (the preload): descriptors, the smallest RX buffer.
if [ -n "${PKTPATH_FAKELIM:-}" ] && [ -f "$PKTPATH_FAKELIM" ]; then
	export PKTPATH_FAKE_RX_DESC=64:4096:32
	LD_PRELOAD=$PKTPATH_FAKELIM refuse - "pktpath: --rxd 1000: port 0 (net_null) takes 64..4096 RX descriptors, a multiple of 32" \
		$(eal rxd) "${NULL[@]}" -- --source port --rxd 1000 "${RUN[@]}"
	export PKTPATH_FAKE_RX_DESC=64:512:32
	LD_PRELOAD=$PKTPATH_FAKELIM refuse - "pktpath: --rxd 8192: port 0 (net_null) takes 64..512 RX descriptors, a multiple of 32" \
		$(eal rxd2) "${NULL[@]}" -- --source port --rxd 8192 "${RUN[@]}"
	# The default (1024) is fitted to the limits, not refused.
	LD_PRELOAD=$PKTPATH_FAKELIM accept - rxddef $(eal rxddef) "${NULL[@]}" -- --source port "${RUN[@]}"
	grep -q "port 0 (net_null): 512 RX descriptors (the driver's limits 64..512, align 32)" \
		"$TMP/rxddef.out" || { cat "$TMP/rxddef.out"; fail "default --rxd not fitted"; }
	unset PKTPATH_FAKE_RX_DESC
	export PKTPATH_FAKE_MIN_RX_BUF=4000
	LD_PRELOAD=$PKTPATH_FAKELIM refuse - "pktpath: --mbuf-size 2176: port 0 (net_null) needs at least 4000 bytes of room after the 128-byte headroom" \
		$(eal minbuf) "${NULL[@]}" -- --source port --mbuf-size 2176 "${RUN[@]}"
	unset PKTPATH_FAKE_MIN_RX_BUF
else
	echo "SKIP (part): pktpath-fakelim.so not built (sanitized build): the descriptor limits"
fi

# net_af_packet on a veth in a namespace made here.
veth_pair
AFP="net_af_packet0,iface=$IF_A"
refuse "$NS_A" "pktpath: port 0 (net_af_packet): the device has 2 RX queues (qpairs), 1 polled: the kernel spreads frames over all of them and an unpolled one drops its share; map every queue with --rxq, or --unpolled-queues warn" \
	$(pp_eal q2) --vdev "$AFP,qpairs=2" -- --source port "${RUN[@]}"
accept "$NS_A" q2warn $(pp_eal q2w) --vdev "$AFP,qpairs=2" -- --source port --unpolled-queues warn "${RUN[@]}"
grep -q "port 0 (net_af_packet): 1 of its 2 RX queues polled: frames the kernel puts in the others are lost (--unpolled-queues warn)" \
	"$TMP/q2warn.out" || { cat "$TMP/q2warn.out"; fail "--unpolled-queues warn: no warning"; }
refuse "$NS_A" "pktpath: --rxq: port 0 (net_af_packet) has 1 RX queue, 2 mapped" \
	$(pp_eal q3) --vdev "$AFP" -- --source port --main-worker --rxq 0:0.0,1:0.1 "${RUN[@]}"
refuse "$NS_A" "pktpath: --rx-csum hw: port 0 (net_af_packet) does not offload RX checksums (it lacks IPV4_CKSUM, UDP_CKSUM, TCP_CKSUM); use --rx-csum sw or auto" \
	$(pp_eal hw) --vdev "$AFP" -- --source port --rx-csum hw "${RUN[@]}"
refuse "$NS_A" "pktpath: --mbuf-size 2176: port 0 (net_af_packet) framesz=4096 needs mbufs of at least 4192 bytes (4064 of frame room + 128 headroom)" \
	$(pp_eal fsz) --vdev "$AFP,framesz=4096" -- --source port --mbuf-size 2176 "${RUN[@]}"
# framesz=4096 alone: the pool is made to fit (it was refused with ENOMEM).
accept "$NS_A" fszok $(pp_eal fszok) --vdev "$AFP,framesz=4096" -- --source port "${RUN[@]}"
grep -q "4064-byte mbufs" "$TMP/fszok.out" || { cat "$TMP/fszok.out"; fail "framesz=4096: mbufs not fitted"; }
refuse "$NS_A" "pktpath: --mtu 9000: port 0 (net_af_packet) takes MTU 46..1500 (frames of at most 1518 bytes)" \
	$(pp_eal afmtu) --vdev "$AFP" -- --source port --mtu 9000 "${RUN[@]}"
# A jumbo interface behind a framesz that cuts its frames: said at start.
inA ip link set "$IF_A" mtu 9000
accept "$NS_A" cut $(pp_eal cut) --vdev "$AFP" -- --source port "${RUN[@]}"
grep -q "port 0 (net_af_packet): $IF_A MTU 9000 is more than framesz=2048 holds (frames of 1982 bytes): the kernel cuts longer frames, which then count IpExt InTruncatedPkts; give the vdev framesz=16384,blocksz=16384 or more" \
	"$TMP/cut.out" || { cat "$TMP/cut.out"; fail "no warning for a framesz that cuts frames"; }
accept "$NS_A" nocut $(pp_eal nocut) --vdev "$AFP,framesz=16384,blocksz=16384" -- --source port "${RUN[@]}"
grep -q "cuts longer frames" "$TMP/nocut.out" && { cat "$TMP/nocut.out"; fail "warned with framesz=16384"; }
echo "ports-refuse: $n refusals ok"
