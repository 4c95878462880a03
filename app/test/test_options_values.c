/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_options, the values: every type and setter of the option table,
 * accepted and refused with the exact line on stderr; the checks across
 * options; getopt's mistakes; the INI file's keys.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "test_options.h"

/* ---- values ---- */

void
test_numbers(void **state)
{
	(void)state;
	OK("--burst", "010");
	assert_int_equal(o.burst, 10);
	OK("--burst=512", "--tos", "0255");
	assert_int_equal(o.burst, 512);
	assert_int_equal(o.flow.tos, 255);
	OK("--capture-max", "18446744073709551615", "--capture", "x.pcap");
	assert_true(o.capture_max == UINT64_MAX);
	BAD("pktpath: --capture-max: '18446744073709551616' is out of range "
	    "0..18446744073709551615", "--capture-max", "18446744073709551616");
	BAD("pktpath: --burst: '0' is out of range 1..512", "--burst", "0");
	BAD("pktpath: --burst: '513' is out of range 1..512", "--burst", "513");
	BAD("pktpath: --burst: 'x' is not a number", "--burst", "x");
	BAD("pktpath: --burst: '' is not a number", "--burst", "");
	BAD("pktpath: --burst: '+5' is not a number", "--burst", "+5");
	BAD("pktpath: --burst: ' 5' is not a number", "--burst", " 5");
	BAD("pktpath: --burst: '0x10' is not a decimal number (hexadecimal is not "
	    "accepted)", "--burst", "0x10");
	BAD("pktpath: --pkt-size: '41' is out of range 42..9000", "--pkt-size", "41");
	BAD("pktpath: --mbufs: '1023' is out of range 1024..16777216", "--mbufs", "1023");
	OK("--duration", "0.25", "--interval", "1e-1", "--warmup", "-0");
	assert_true(o.duration_s == 0.25);
	assert_true(o.interval_s == 0.1);
	assert_true(o.warmup_s == 0);
	/* --warmup auto: detected (-1); an explicit value is an override */
	OK("--warmup", "auto");
	assert_true(o.warmup_s == -1);
	OK("--warmup", "2.5");
	assert_true(o.warmup_s == 2.5);
	BAD("pktpath: --warmup: '-1' is out of range 0..3600; also accepted: 'auto'",
	    "--warmup", "-1");
	BAD("pktpath: --warmup: 'Auto' is not a number; also accepted: 'auto'",
	    "--warmup", "Auto");
	OK("--duration", "010");
	assert_true(o.duration_s == 10);
	BAD("pktpath: --duration: '0x1' is not a decimal number (hexadecimal is not "
	    "accepted)", "--duration", "0x1");
	BAD("pktpath: --duration: 'inf' is not a number", "--duration", "inf");
	BAD("pktpath: --duration: 'nan' is not a number", "--duration", "nan");
	BAD("pktpath: --duration: '1e999' is out of range 0..1e+07", "--duration", "1e999");
	BAD("pktpath: --duration: '-1' is out of range 0..1e+07", "--duration", "-1");
	BAD("pktpath: --duration: '.' is not a number", "--duration", ".");
	BAD("pktpath: --duration: '1e' is not a number", "--duration", "1e");
	BAD("pktpath: --interval: '0.001' is out of range 0.01..3600", "--interval", "0.001");
	OK("--update-rate", "2.5", "--ingress", "rcu");
	assert_true(o.update_rate == 2.5);
	/* the ICMP rate limits: the kernel's sysctls are ints; 0 is theirs
	 * (nothing refilled, no burst, no per-address limit) */
	OK("--icmp-msgs-per-sec", "0", "--icmp-msgs-burst", "2147483647",
	   "--icmp6-ratelimit", "0");
	assert_int_equal(o.icmp_msgs_per_sec, 0);
	assert_int_equal(o.icmp_msgs_burst, 2147483647);
	assert_int_equal(o.icmp6_ratelimit, 0);
	BAD("pktpath: --icmp-msgs-per-sec: '2147483648' is out of range 0..2147483647",
	    "--icmp-msgs-per-sec", "2147483648");
	BAD("pktpath: --icmp-msgs-burst: '-1' is not a number", "--icmp-msgs-burst",
	    "-1");
	BAD("pktpath: --icmp6-ratelimit: '86400001' is out of range 0..86400000",
	    "--icmp6-ratelimit", "86400001");
	BAD("pktpath: --icmp6-ratelimit: '1s' is not a number", "--icmp6-ratelimit",
	    "1s");
}

void
test_words(void **state)
{
	(void)state;
	OK("--prefetch", "off", "--udp-csum", "ON", "--peer", "1");
	assert_false(o.prefetch);
	assert_true(o.flow.udp_csum);
	assert_true(o.peer);
	OK("--source", "port", "--promisc", "yes");
	assert_true(o.promisc);
	OK("--bpf-jit", "false", "--netlabel", "no", "--pim", "0", "--ingress-kind",
	   "pcap-filter", "--filter", "udp");
	assert_int_equal(o.bpf.engine, PKTBPF_INTERP);
	assert_false(o.kernel_netlabel);
	assert_false(o.kernel_pim);
	OK("--bpf-jit", "on", "--ingress-kind", "bpf", "--bpf-obj", "x.o");
	assert_int_equal(o.bpf.engine, PKTBPF_JIT);
	/* --bpf-engine is a choice of lib/bpf's names; the last of
	 * --bpf-jit and --bpf-engine wins */
	OK("--bpf-engine", "libpcap", "--ingress-kind", "pcap-filter", "--filter", "udp");
	assert_int_equal(o.bpf.engine, PKTBPF_LIBPCAP);
	OK("--bpf-jit", "off", "--bpf-engine", "jit", "--ingress-kind", "bpf",
	   "--bpf-obj", "x.o");
	assert_int_equal(o.bpf.engine, PKTBPF_JIT);
	BAD("pktpath: --bpf-engine: 'jot' is not one of jit|interp|libpcap",
	    "--bpf-engine", "jot");
	OK("--filter-netmask", "255.255.255.0", "--ingress-kind", "pcap-filter",
	   "--filter", "udp");
	assert_int_equal(o.bpf.netmask, 0xffffff00);
	BAD("pktpath: --filter-netmask: '255.255.0' is not an IPv4 netmask A.B.C.D",
	    "--filter-netmask", "255.255.0");
	BAD("pktpath: --filter-netmask: '' is not an IPv4 netmask A.B.C.D",
	    "--filter-netmask", "");
	OK("--bpf-load-timeout", "0.5", "--ingress-kind", "pcap-filter", "--filter",
	   "udp");
	assert_true(o.bpf.load_timeout_s == 0.5);
	BAD("pktpath: --bpf-load-timeout: '0' is out of range 0.01..3600",
	    "--bpf-load-timeout", "0");
	BAD("pktpath: --prefetch: 'maybe' is not on/off", "--prefetch", "maybe");
	OK("--quiet", "--main-worker", "--http-control", "--metrics-lcore-mib");
	assert_true(o.quiet && o.main_worker && o.http_control && o.metrics_lcore_mib);
	BAD("pktpath: --quiet takes no value (in the INI file: quiet = on)",
	    "--quiet=on");
	OK("--pool-layout", "packed", "--pool-order", "address");
	assert_int_equal(o.pool_layout, PKT_POOL_LAYOUT_PACKED);
	assert_int_equal(o.pool_order, PKT_POOL_ORDER_ADDRESS);
	assert_int_equal(app_pool_flags(&o), PKT_POOL_PACKED);
	OK("--unpolled-queues", "warn", "--source", "port");
	assert_true(o.unpolled_warn);
	BAD("pktpath: --source: 'nic' is not one of gen|port", "--source", "nic");
	BAD("pktpath: --pool-layout: 'huge' is not one of page|packed", "--pool-layout", "huge");
	BAD("pktpath: --pool-order: 'random' is not one of address|shuffle",
	    "--pool-order", "random");
	BAD("pktpath: --ingress: 'RCU' is not one of off|none|lock|rwlock|rcu",
	    "--ingress", "RCU");
	BAD("pktpath: --capture-what: 'some' is not one of drops|marked|all",
	    "--capture-what", "some");
	BAD("pktpath: --fold: '' is not one of field|lcore", "--fold", "");
	/* files */
	OK("--json", "/tmp/x.json", "--template", "t.pcap");
	assert_string_equal(o.json, "/tmp/x.json");
	assert_string_equal(o.template_file, "t.pcap");
	BAD("pktpath: --json: needs a file name", "--json", "");
	{
		static char longname[PATH_MAX + 8];
		char want[128];

		memset(longname, 'a', PATH_MAX);
		longname[PATH_MAX] = '\0';
		snprintf(want, sizeof(want), "pktpath: --rules: file name longer than %d "
			 "characters", PATH_MAX - 1);
		BAD(want, "--rules", longname);
	}
	/* MACs */
	OK("--src-mac", "02:aa:bb:cc:dd:ee");
	assert_int_equal(o.flow.src_mac.addr_bytes[1], 0xaa);
	BAD("pktpath: --dst-mac: '02:00:00:00:00' is not a MAC address", "--dst-mac",
	    "02:00:00:00:00");
	/* the ingress kinds' own values */
	OK("--ingress-kind", "pcap-filter", "--filter", "udp", "--filter-action", "mark:7");
	assert_string_equal(o.filter, "udp");
	assert_int_equal(o.filter_verdict.marked, 1);
	assert_int_equal(o.filter_verdict.mark, 7);
	assert_int_equal(o.filter_verdict.action, 0);
	OK("--ingress-kind", "pcap-filter", "--filter", "udp", "--filter-action", "pass");
	assert_int_equal(o.filter_verdict.marked, 0);
	assert_int_equal(o.filter_verdict.action, 0);
	BAD("pktpath: --filter-action: 'mark 0x7' is not drop, pass or 'mark N'",
	    "--filter-action", "mark 0x7");
	BAD("pktpath: --filter: empty expression (libpcap would match every frame); "
	    "give one, e.g. 'udp dst port 9'", "--filter", " \t");
	BAD("pktpath: --bpf-sec: needs a section name of at most 63 bytes", "--bpf-sec", "");
	OK("--http", "off");
	assert_string_equal(o.http, "");
	OK("--http", "[::1]:0");
	assert_string_equal(o.http, "[::1]:0");
	BAD("pktpath: --http: expected ADDR:PORT (127.0.0.1:9120 or [::1]:9120); also "
	    "accepted: 'off'", "--http", "nonsense");
}

void
test_addresses(void **state)
{
	(void)state;
	OK("--src", "10.0.0.1-10.0.0.9", "--dst", "10.1.0.1", "--sport", "7", "--dport",
	   "080-0100");
	assert_int_equal(o.flow.src_lo, IP4(10, 0, 0, 1));
	assert_int_equal(o.flow.src_hi, IP4(10, 0, 0, 9));
	assert_int_equal(o.flow.dst_lo, IP4(10, 1, 0, 1));
	assert_int_equal(o.flow.dst_hi, IP4(10, 1, 0, 1));
	assert_int_equal(o.flow.sport_lo, 7);
	assert_int_equal(o.flow.sport_hi, 7);
	assert_int_equal(o.flow.dport_lo, 80);
	assert_int_equal(o.flow.dport_hi, 100);
	BAD("pktpath: --src: '10.0.0.9-10.0.0.1': range is reversed", "--src",
	    "10.0.0.9-10.0.0.1");
	BAD("pktpath: --dst: '10.0.0' is not an IPv4 address or range A-B", "--dst", "10.0.0");
	BAD("pktpath: --dport: '70000' is not a port or range P-Q (decimal, 0..65535)",
	    "--dport", "70000");
	BAD("pktpath: --dport: '0x50' is not a port or range P-Q (decimal, 0..65535)",
	    "--dport", "0x50");
	BAD("pktpath: --sport: '9-5': range is reversed", "--sport", "9-5");
	/* --dst wider than the local addresses pktpath can hold */
	BAD("pktpath: --dst: more than 64 destinations; give --local", "--dst",
	    "10.0.0.0-10.0.1.0");
	OK("--dst", "10.0.0.0-10.0.1.0", "--local", "10.0.0.0/16");

	OK("--local", "198.51.100.1/24,10.0.0.1,10.0.0.1/08");
	assert_int_equal(o.n_local, 3);
	assert_int_equal(o.local[0].addr, IP4(198, 51, 100, 1));
	assert_int_equal(o.local[0].prefix_len, 24);
	assert_int_equal(o.local[1].prefix_len, 32);
	assert_int_equal(o.local[2].addr, IP4(10, 0, 0, 1));
	assert_int_equal(o.local[2].prefix_len, 8);
	BAD("pktpath: --local: '1.2.3.4/33' is not an address A.B.C.D[/LEN]: length '33' "
	    "is out of range 0..32", "--local", "1.2.3.4/33");
	BAD("pktpath: --local: '1.2.3' is not an address A.B.C.D[/LEN]", "--local", "1.2.3");
	/* inet_aton() would read 010 as octal: refused, not guessed */
	BAD("pktpath: --local: '010.0.0.1/8' is not an address A.B.C.D[/LEN]", "--local",
	    "010.0.0.1/8");
	BAD("pktpath: --local: ',' has an empty item (items are separated by single "
	    "commas)", "--local", ",");
	BAD("pktpath: --local: '198.19.0.1/24,' has an empty item (items are separated "
	    "by single commas)", "--local", "198.19.0.1/24,");
	BAD("pktpath: --local: needs a non-empty list", "--local", "");
	OK("--mcast", "239.1.1.1,224.0.0.251");
	assert_int_equal(o.n_mcast, 2);
	assert_int_equal(o.mcast[1], IP4(224, 0, 0, 251));
	BAD("pktpath: --mcast: '10.0.0.1' is not a multicast group (224.0.0.0/4)",
	    "--mcast", "10.0.0.1");
	BAD("pktpath: --mcast: 'x' is not a multicast group (224.0.0.0/4)", "--mcast", "x");

	OK("--udp-ports", "9,1000-2000,0053");
	assert_true(o.udp_ports_set);
	assert_int_equal(o.n_udp_ports, 3);
	assert_int_equal(o.udp_ports[1][0], 1000);
	assert_int_equal(o.udp_ports[1][1], 2000);
	assert_int_equal(o.udp_ports[2][0], 53);
	OK("--udp-ports", "none", "--udplite-ports", "5-6");
	assert_true(o.udp_ports_set);
	assert_int_equal(o.n_udp_ports, 0);
	assert_int_equal(o.n_udplite_ports, 1);
	assert_int_equal(o.udplite_ports[0][1], 6);
	BAD("pktpath: --udp-ports: '9,,10' has an empty item (items are separated by "
	    "single commas); also accepted: 'none'", "--udp-ports", "9,,10");
	BAD("pktpath: --udplite-ports: 'x' is not a port or range P-Q (decimal, 0..65535); "
	    "also accepted: 'none'", "--udplite-ports", "x");
	{
		char list[1024] = "", want[128];
		unsigned int i;

		for (i = 0; i <= APP_MAX_PORT_RANGES; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u",
				 i ? "," : "", i);
		snprintf(want, sizeof(want), "pktpath: --udp-ports: more than %d port ranges; "
			 "also accepted: 'none'", APP_MAX_PORT_RANGES);
		BAD(want, "--udp-ports", list);
	}

	OK("--source", "port", "--rxq", "1:0.0,2:0.01");
	assert_int_equal(o.n_rxq, 2);
	assert_int_equal(o.rxq[1].lcore, 2);
	assert_int_equal(o.rxq[1].queue, 1);
	BAD("pktpath: --rxq: '1:+0.0' is not LCORE:PORT.QUEUE (decimal; lcore < 128, "
	    "port < 32, queue <= 1023)", "--source", "port", "--rxq", "1:+0.0");
	BAD("pktpath: --rxq: '1:0' is not LCORE:PORT.QUEUE (decimal; lcore < 128, "
	    "port < 32, queue <= 1023)", "--source", "port", "--rxq", "1:0");
}

/* Every knob of --compare: two values parsed by its option's own parser
 * (names as --help writes them), a bad value refused in the option's
 * words, and, where the knob's option needs something, the knob refused
 * without it, with one line. */
/* clang-format off */
static const struct {
	enum app_knob knob;
	const char *vals, *n0, *n1;	/* the values given, their names */
	uint32_t v0, v1;
	const char *with, *with_val;	/* what it needs (NULL: nothing) */
	const char *bad, *bad_why;	/* a bad value, and the reason */
	const char *without, *without_val, *needs; /* a run where it has no effect */
} knobs[] = {
	{ APP_KNOB_INGRESS, "none,rcu", "none", "rcu", INGRESS_NONE, INGRESS_RCU,
	  NULL, NULL, "spin", "'spin' is not one of off|none|lock|rwlock|rcu",
	  "--path", "rx-only", "(it needs --path full)" },
	{ APP_KNOB_LOCK_SCOPE, "burst,packet", "burst", "packet", INGRESS_SCOPE_BURST,
	  INGRESS_SCOPE_PACKET, "--ingress", "lock", "pkt",
	  "'pkt' is not one of packet|burst", "--ingress", "rcu",
	  "(it needs --ingress lock or rwlock, or either among --compare ingress=...)" },
	{ APP_KNOB_FOLD, "field,lcore", "field", "lcore", MIB_FOLD_FIELD, MIB_FOLD_LCORE,
	  NULL, NULL, "cpu", "'cpu' is not one of field|lcore", NULL, NULL, NULL },
	{ APP_KNOB_PREFETCH, "on,off", "on", "off", 1, 0, NULL, NULL, "maybe",
	  "'maybe' is not on/off", "--path", "rx-only", "(it needs --path full)" },
	{ APP_KNOB_BURST, "16,256", "16", "256", 16, 256, NULL, NULL, "513",
	  "'513' is out of range 1..512", NULL, NULL, NULL },
	{ APP_KNOB_ALLOC, "reuse,bulk", "reuse", "bulk", PKT_ALLOC_REUSE, PKT_ALLOC_BULK,
	  NULL, NULL, "slub", "'slub' is not one of reuse|bulk|slab", "--source", "port",
	  "(it needs --source gen)" },
	{ APP_KNOB_PEER_LAYOUT, "split,shared", "split", "shared", PEER_LAYOUT_SPLIT,
	  PEER_LAYOUT_SHARED, "--peer", "on", "packed",
	  "'packed' is not one of shared|split", "--duration", "1",
	  "(it needs --peer on)" },
	{ APP_KNOB_RX_CSUM, "hw,sw", "hw", "sw", APP_CSUM_HW, APP_CSUM_SW, "--source",
	  "port", "on", "'on' is not one of auto|hw|sw", "--source", "gen",
	  "(it needs --source port and --path full)" },
	{ APP_KNOB_MIB_LAYOUT, "shared,percpu", "shared", "percpu", MIB_LAYOUT_SHARED,
	  MIB_LAYOUT_PERCPU, NULL, NULL, "numa", "'numa' is not one of percpu|shared",
	  NULL, NULL, NULL },
};
/* clang-format on */
static_assert(RTE_DIM(knobs) == APP_KNOB_MAX, "a case per knob");

/* The run information (app_options_value()) of the last parse says
 * option name's value is text (it is there, as text). */
static void
__info_says(const char *name, const char *text)
{
	struct app_option_value v;
	char key[48];
	unsigned int i;
	char *c;
	int rc;

	snprintf(key, sizeof(key), "%s", name);
	for (c = key; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
	for (i = 0; (rc = app_options_value(&o, i, &v)) >= 0; i++)
		if (rc == 1 && strcmp(v.key, key) == 0) {
			assert_int_equal(v.type, APP_VAL_TEXT);
			assert_string_equal(v.text, text);
			return;
		}
	fail_msg("info.config has no %s", key);
}

void
test_compare(void **state)
{
	char arg[64 + 128], line[512], name[64], opt[32], path[128];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(knobs); i++) {
		const char *k = app_knob_names[knobs[i].knob];
		const char *w = knobs[i].with ? knobs[i].with : "--duration";
		const char *wv = knobs[i].with ? knobs[i].with_val : "1";

		assert_int_equal(knobs[i].knob, i);
		snprintf(arg, sizeof(arg), "%s=%s", k, knobs[i].vals);
		OK("--compare", arg, w, wv);
		assert_int_equal(o.cmp.n, 2);
		assert_int_equal(o.cmp.n_knobs, 1);
		assert_int_equal(o.cmp.k[0].knob, knobs[i].knob);
		assert_int_equal(app_compare_value(&o.cmp, 0, 0), knobs[i].v0);
		assert_int_equal(app_compare_value(&o.cmp, 0, 1), knobs[i].v1);
		assert_string_equal(app_compare_name(&o.cmp, 0, name, sizeof(name)),
				    knobs[i].n0);
		assert_string_equal(app_compare_name(&o.cmp, 1, name, sizeof(name)),
				    knobs[i].n1);
		assert_int_equal(o.cmp.base, 0);
		/* info.config says the values the phases ran, not the default */
		snprintf(line, sizeof(line), "%s,%s", knobs[i].n0, knobs[i].n1);
		__info_says(k, line);
		/* one value compares nothing: refused, and with a second knob */
		snprintf(arg, sizeof(arg), "%s=%s", k, knobs[i].n0);
		snprintf(line, sizeof(line),
			 "pktpath: --compare: %s: '%s' alone compares nothing: give "
			 "two values or more, or --%s %s to run with it",
			 k, knobs[i].n0, k, knobs[i].n0);
		BAD(line, "--compare", arg, w, wv);
		BAD(line, "--compare", arg, "--compare",
		    knobs[i].knob == APP_KNOB_FOLD ? "burst=16,32" : "fold=field,lcore",
		    w, wv);
		/* the hook only for the knobs that need it */
		assert_int_equal(app_options_want_ingress(&o),
				 knobs[i].knob <= APP_KNOB_LOCK_SCOPE);
		snprintf(arg, sizeof(arg), "%s=%s,%s", k, knobs[i].n0, knobs[i].bad);
		snprintf(line, sizeof(line), "pktpath: --compare: %s: %s", k,
			 knobs[i].bad_why);
		BAD(line, "--compare", arg, w, wv);
		snprintf(arg, sizeof(arg), "%s=%s,%s", k, knobs[i].n0, knobs[i].n0);
		snprintf(line, sizeof(line),
			 "pktpath: --compare: %s: '%s' is listed "
			 "twice",
			 k, knobs[i].n0);
		BAD(line, "--compare", arg, w, wv);
		snprintf(arg, sizeof(arg), "%s=%s", k, knobs[i].vals);
		snprintf(line, sizeof(line),
			 "pktpath: --compare %s=...: --%s %s is "
			 "given too; the phases set it: give one",
			 k, k, knobs[i].n0);
		snprintf(opt, sizeof(opt), "--%s", k);
		BAD(line, "--compare", arg, w, wv, opt, knobs[i].n0);
		if (knobs[i].without == NULL)
			continue;
		snprintf(line, sizeof(line),
			 "pktpath: --compare %s=...: the knob has "
			 "no effect %s",
			 k, knobs[i].needs);
		BAD(line, "--compare", arg, knobs[i].without, knobs[i].without_val);
	}
	/* an INI file's two knobs are a product; the command line's knob
	 * replaces them (precedence, not a third knob) */
	__file(path, sizeof(path), "knobs.ini",
	       "[pktpath]\ncompare = lock,rcu\ncompare = fold=field,lcore\n");
	snprintf(arg, sizeof(arg), "--config=%s", path);
	OK(arg);
	assert_int_equal(o.cmp.n, 4);
	assert_int_equal(o.cmp.k[1].knob, APP_KNOB_FOLD);
	OK(arg, "--compare", "burst=8,16,32");
	assert_int_equal(o.cmp.n_knobs, 1);
	assert_int_equal(o.cmp.n, 3);
	assert_int_equal(o.cmp.k[0].knob, APP_KNOB_BURST);
	/* the shorthand: ingress modes; one is refused as the knob's is */
	BAD("pktpath: --compare: ingress: 'none' alone compares nothing: give two "
	    "values or more, or --ingress none to run with it",
	    "--compare", "none");
	OK("--compare", "off,rcu,lock");
	__info_says("ingress", "off,rcu,lock");
	assert_int_equal(o.cmp.n, 3);
	assert_int_equal(o.cmp.k[0].knob, APP_KNOB_INGRESS);
	assert_int_equal(app_compare_value(&o.cmp, 0, 1), INGRESS_RCU);
	assert_true(app_options_want_ingress(&o));
	/* two knobs: their product, the first knob's values slowest */
	OK("--compare", "ingress=lock,rcu", "--compare", "peer-layout=shared,split",
	   "--peer", "on", "--baseline", "rcu/shared");
	assert_int_equal(o.cmp.n, 4);
	assert_int_equal(o.cmp.n_knobs, 2);
	assert_string_equal(app_compare_name(&o.cmp, 1, name, sizeof(name)),
			    "lock/split");
	assert_string_equal(app_compare_name(&o.cmp, 2, name, sizeof(name)),
			    "rcu/shared");
	assert_int_equal(app_compare_value(&o.cmp, 0, 2), INGRESS_RCU);
	assert_int_equal(app_compare_value(&o.cmp, 1, 2), PEER_LAYOUT_SHARED);
	assert_int_equal(app_compare_value(&o.cmp, 1, 3), PEER_LAYOUT_SPLIT);
	assert_int_equal(o.cmp.base, 2);
	BAD("pktpath: --baseline: 'rcu' is not one of the variants: lock/shared "
	    "lock/split rcu/shared rcu/split",
	    "--compare", "lock,rcu", "--compare", "peer-layout=shared,split", "--peer",
	    "on", "--baseline", "rcu");
	BAD("pktpath: --compare: more than 2 knobs (the variants are their product)",
	    "--compare", "lock,rcu", "--compare", "fold=field,lcore", "--compare",
	    "burst=8,16");
	BAD("pktpath: --compare: knob ingress given twice", "--compare", "lock,rcu",
	    "--compare", "ingress=none,off");
	BAD("pktpath: --compare: 20 variants: at most 16", "--compare",
	    "off,none,lock,rwlock,rcu", "--compare", "burst=1,2,4,8");
	BAD("pktpath: --compare: 'mtu' is not a knob: one of ingress|lock-scope|fold|"
	    "prefetch|burst|alloc|peer-layout|rx-csum|mib-layout (KNOB=V1,V2,...), or "
	    "ingress modes "
	    "alone",
	    "--compare", "mtu=1500,9000");
	BAD("pktpath: --baseline rcu has no effect without --compare (it needs --compare)",
	    "--baseline", "rcu");
	BAD("pktpath: --compare: 'off,,rcu' has an empty item (items are "
	    "separated by single commas)",
	    "--compare", "off,,rcu");
	BAD("pktpath: --compare: needs --duration > 0 (the length of a phase)",
	    "--compare", "off,rcu", "--duration", "0");
	OK("--rounds", "1", "--phase-warmup", "0", "--compare", "off,rcu");
	/* the hook's options need a variant with a hook, not any --compare */
	BAD("pktpath: --lock-scope burst has no effect with --compare fold=...: no "
	    "variant has an ingress hook (it needs --ingress other than off, "
	    "--ingress-kind other than rules, --rules, --update-rate other than 0, "
	    "or a --compare of ingress=... or lock-scope=...)",
	    "--compare", "fold=field,lcore", "--lock-scope", "burst");
	BAD("pktpath: --gp-log-us 50 has no effect with --compare burst=...: no "
	    "variant has an ingress hook (it needs --ingress other than off, "
	    "--ingress-kind other than rules, --rules, --update-rate other than 0, "
	    "or a --compare of ingress=... or lock-scope=...)",
	    "--compare", "burst=16,32", "--gp-log-us", "50");
	/* from an INI file: its file and line, as every needs refusal */
	__file(path, sizeof(path), "hook.ini", "[pktpath]\ngp-log-us = 50\n");
	snprintf(arg, sizeof(arg), "--config=%s", path);
	snprintf(line, sizeof(line),
		 "pktpath: %s:2: gp-log-us = 50 has no effect with --compare "
		 "burst=...: no variant has an ingress hook (it needs --ingress other "
		 "than off, --ingress-kind other than rules, --rules, --update-rate "
		 "other than 0, or a --compare of ingress=... or lock-scope=...)",
		 path);
	BAD(line, arg, "--compare", "burst=16,32");
	OK("--compare", "fold=field,lcore", "--ingress", "lock", "--lock-scope", "burst");
	OK("--compare", "lock,rcu", "--gp-log-us", "50");
	BAD("pktpath: --rounds: '0' is out of range 1..1000", "--rounds", "0");
	/* rx-csum: a port's, on the receive path (the generator has no
	 * offload to switch; rx-only verifies no checksum) */
	BAD("pktpath: --compare rx-csum=...: the knob has no effect (it needs --source "
	    "port and --path full)",
	    "--compare", "rx-csum=hw,sw", "--source", "port", "--path", "rx-only");
	BAD("pktpath: --compare rx-csum=...: the knob has no effect (it needs --source "
	    "port and --path full)",
	    "--compare", "rx-csum=auto,sw");
	BAD("pktpath: --compare: rx-csum: 'hw' is listed twice", "--compare",
	    "rx-csum=hw,sw,hw", "--source", "port");
	OK("--compare", "rx-csum=auto,hw,sw", "--source", "port");
	assert_int_equal(o.cmp.n, 3);
}

/* Each check across options, with its line: the needs of the rows that
 * had a check of their own before the table said them (every row's are
 * in test_options_needs.c), and the values that cannot go together. */
void
test_checks(void **state)
{
	(void)state;
	BAD("pktpath: --ingress rcu has no effect with --path rx-only (it needs --path "
	    "full)", "--path", "rx-only", "--ingress", "rcu");
	BAD("pktpath: --ingress-kind bpf has no effect with --path rx-only (it needs "
	    "--path full)", "--path", "rx-only", "--ingress-kind", "bpf", "--bpf-obj",
	    "x.o");
	BAD("pktpath: --rules x.rules has no effect with --path rx-only (it needs "
	    "--ingress-kind rules and --path full)", "--path", "rx-only", "--rules",
	    "x.rules");
	BAD("pktpath: --update-rate 10 has no effect with --path rx-only (it needs --path "
	    "full)", "--path", "rx-only", "--update-rate", "10");
	BAD("pktpath: --compare ingress=...: the knob has no effect (it needs --path "
	    "full)",
	    "--path", "rx-only", "--compare", "off,rcu");
	BAD("pktpath: --rxq 1:0.0 has no effect with --source gen (it needs --source "
	    "port)", "--rxq", "1:0.0");
	BAD("pktpath: --mtu 9000 has no effect with --source gen (it needs --source port)",
	    "--mtu", "9000");
	BAD("pktpath: --mbuf-size 4096 has no effect with --source gen (it needs --source "
	    "port)", "--mbuf-size", "4096");
	BAD("pktpath: --template t.pcap has no effect with --source port (it needs "
	    "--source gen)", "--source", "port", "--template", "t.pcap");
	BAD("pktpath: --filter udp has no effect with --ingress-kind rules (it needs "
	    "--ingress-kind pcap-filter)", "--filter", "udp");
	BAD("pktpath: --bpf-obj x.o has no effect with --ingress-kind rules (it needs "
	    "--ingress-kind bpf)", "--bpf-obj", "x.o");
	BAD("pktpath: --rules x.rules has no effect with --ingress-kind bpf (it needs "
	    "--ingress-kind rules and --path full)", "--ingress-kind", "bpf",
	    "--bpf-obj", "x.o", "--rules", "x.rules");
	BAD("pktpath: --peer on has no effect with --path rx-only (it needs --path full)",
	    "--path", "rx-only", "--peer", "on");
	BAD("pktpath: --capture x.pcap has no effect with --path rx-only (it needs "
	    "--path full)", "--path", "rx-only", "--capture", "x.pcap");
	BAD("pktpath: --suspicious-us 1000 has no effect without --perf-detail (it needs "
	    "--perf-detail)", "--suspicious-us", "1000");
	/* the values that cannot go together */
	BAD("pktpath: --update-rate: refused with --ingress none (unguarded readers "
	    "cannot survive rule updates)", "--ingress", "none", "--update-rate", "5");
	BAD("pktpath: --ingress-kind pcap-filter: needs --filter EXPR", "--ingress-kind",
	    "pcap-filter");
	BAD("pktpath: --ingress-kind bpf: needs --bpf-obj FILE", "--ingress-kind", "bpf");
	OK("--path", "rx-only", "--source", "port", "--mtu", "1500");
	assert_int_equal(o.mtu, 1500);
}

/* --vlan (the ports' VLAN devices) and --vlan-tags (the generator's tags). */
void
test_vlan(void **state)
{
	(void)state;
	OK("--vlan", "100,ad200-201,ad300.5,7.ad8-9");
	assert_int_equal((o.vlan.port[0][100 / 64] >> (100 % 64)) & 1, 1);
	assert_int_equal((o.vlan.port[1][200 / 64] >> (200 % 64)) & 3, 3);
	assert_int_equal((o.vlan.port[1][300 / 64] >> (300 % 64)) & 1, 1);
	assert_int_equal((o.vlan.port[0][0] >> 7) & 1, 1);
	assert_int_equal(o.vlan.n_qinq, 3);
	/* Given once, as every option (one list holds them all); none: no
	 * device. */
	BAD("pktpath: --vlan given twice (100, then 5): give it once",
	    "--vlan", "100", "--vlan", "5");
	OK("--vlan", "none");
	assert_int_equal(memcmp(&o.vlan, &ref.vlan, sizeof(o.vlan)), 0);
	BAD("pktpath: --vlan: '0': VID '0' is out of range 1..4094; also accepted: 'none'",
	    "--vlan", "0");
	BAD("pktpath: --vlan: '4095': VID '4095' is out of range 1..4094; also accepted: "
	    "'none'", "--vlan", "4095");
	BAD("pktpath: --vlan: '1.2.3' has more than 2 tags (QinQ: two); also accepted: "
	    "'none'", "--vlan", "1.2.3");
	BAD("pktpath: --vlan: 'q5' is not a VLAN tag stack TAG[.TAG], TAG = VID[-VID] "
	    "(802.1Q) or adVID[-VID] (802.1ad); also accepted: 'none'", "--vlan", "q5");
	BAD("pktpath: --vlan: '1-4094.1-4094': more than 4096 VLAN devices on VLAN "
	    "devices; also accepted: 'none'", "--vlan", "1-4094.1-4094");
	BAD("pktpath: --vlan: '5,,6' has an empty item (items are separated by single "
	    "commas); also accepted: 'none'", "--vlan", "5,,6");
	OK("--vlan-tags", "ad4095.0");
	assert_int_equal(o.flow.n_tags, 2);
	assert_int_equal(o.flow.tags[0].tpid, PKT_ETH_P_8021AD);
	assert_int_equal(o.flow.tags[0].tci, 4095);
	assert_int_equal(o.flow.tags[1].tpid, PKT_ETH_P_8021Q);
	assert_int_equal(o.flow.tags[1].tci, 0);
	BAD("pktpath: --vlan-tags given twice (7, then none): give it once",
	    "--vlan-tags", "7", "--vlan-tags", "none");
	OK("--vlan-tags", "none");
	assert_int_equal(o.flow.n_tags, 0);
	BAD("pktpath: --vlan-tags: '5-6' is not a VLAN tag stack TAG[.TAG], TAG = VID "
	    "(802.1Q) or adVID (802.1ad); also accepted: 'none'", "--vlan-tags", "5-6");
	BAD("pktpath: --vlan-tags: '4096': VID '4096' is out of range 0..4095; also "
	    "accepted: 'none'", "--vlan-tags", "4096");
	/* where it has no effect: the table's NEEDS (test_options_needs.c
	 * goes through every row) */
	BAD("pktpath: --vlan-tags 5 has no effect with --source port (it needs "
	    "--source gen and no --template)", "--source", "port", "--vlan-tags", "5");
	BAD("pktpath: --vlan 5 has no effect with --path rx-only (it needs --path "
	    "full)", "--path", "rx-only", "--vlan", "5");
	BAD("pktpath: --pkt-size: 49 bytes leave no room for --vlan-tags' 2 tags and "
	    "IPv4's --l4 udp: at least 50",
	    "--pkt-size", "49", "--vlan-tags", "5.6");
	OK("--pkt-size", "50", "--vlan-tags", "5.6");
	/* IPv6: its header, the extension headers and the upper layer */
	BAD("pktpath: --pkt-size: 85 bytes leave no room for --vlan-tags' 1 tags, IPv6, "
	    "--ext6's 2 headers and --l4 tcp: at least 94",
	    "--family", "ipv6", "--pkt-size", "85", "--vlan-tags", "5", "--ext6",
	    "hop,frag", "--l4", "tcp");
	OK("--family", "ipv6", "--pkt-size", "94", "--vlan-tags", "5", "--ext6",
	   "hop,frag", "--l4", "tcp");
	BAD("pktpath: --pkt-size: 61 bytes leave no room for --vlan-tags' 0 tags, IPv6, "
	    "--ext6's 0 headers and --l4 tcp: at least 74",
	    "--family", "mixed", "--pkt-size", "61", "--l4", "tcp");
	BAD("pktpath: --pkt-size: 53 bytes leave no room for --vlan-tags' 0 tags and "
	    "IPv4's --l4 tcp: at least 54",
	    "--pkt-size", "53", "--l4", "tcp");
}

/* getopt's side: unknown, ambiguous, missing values, stray words. */
void
test_getopt(void **state)
{
	char err[512];

	(void)state;
	BAD("pktpath: unknown option '--nope' (see --help)", "--nope");
	BAD("pktpath: unknown option '-x' (see --help)", "-x");
	BAD("pktpath: option '--co' is ambiguous (--config, --compare)", "--co", "x");
	BAD("pktpath: option '--capture-' is ambiguous (--capture-what, --capture-max, "
	    "--capture-ring, --capture-snaplen)", "--capture-=1");
	BAD("pktpath: option '--help-' is ambiguous (--help-ini, --help-markdown)",
	    "--help-");
	BAD("pktpath: --burst needs a value N", "--burst");
	BAD("pktpath: --source needs a value gen|port", "--source");
	BAD("pktpath: unexpected argument 'stray' (see --help)", "stray");
	/* an abbreviation is the option; an exact name wins over the longer
	 * names it abbreviates (--fold, --fold-on-read) */
	BAD("pktpath: option '--fo' is ambiguous (--fold, --fold-on-read)",
	    "--fo=field");
	OK("--bur", "16", "--fold=field", "--mib-la=shared");
	assert_int_equal(o.burst, 16);
	assert_int_equal(o.fold, MIB_FOLD_FIELD);
	assert_int_equal(o.mib_layout, MIB_LAYOUT_SHARED);
	assert_false(o.fold_on_read);
	OK("--fold-on", "--mib-lc", "300");
	assert_true(o.fold_on_read);
	assert_int_equal(o.mib_lcores, 300);
	/* --mib-lcores: up to Linux's largest NR_CPUS */
	OK("--mib-lcores", "8192");
	assert_int_equal(o.mib_lcores, 8192);
	BAD("pktpath: --mib-lcores: '8193' is out of range 0..8192", "--mib-lcores",
	    "8193");
	/* once (test_options_needs.c: every option, the INI files) */
	BAD("pktpath: --burst given twice (16, then 8): give it once", "--burst", "16",
	    "--burst", "8");
	/* the help options print and end the run */
	assert_int_equal(__parse(&o, err, sizeof(err), "--burst", "8", "--help", NULL), 1);
	assert_int_equal(__parse(&o, err, sizeof(err), "-h", NULL), 1);
	assert_int_equal(__parse(&o, err, sizeof(err), "--help-ini", NULL), 1);
	assert_int_equal(__parse(&o, err, sizeof(err), "--help-mark", NULL), 1);
	assert_string_equal(err, "");
	{
		char *argv[] = { "pktpath", "-l", "0", "--", "--help-markdown", NULL };
		char *argv2[] = { "pktpath", "--help", NULL };	/* EAL's, not ours */
		char *argv3[] = { "pktpath", "--", "--burst", "1", "-h", NULL };
		char *argv4[] = { "pktpath", "--", "--help-m", NULL };

		assert_int_equal(app_options_wants_help(5, argv), APP_HELP_MARKDOWN);
		assert_int_equal(app_options_wants_help(2, argv2), APP_HELP_NONE);
		assert_int_equal(app_options_wants_help(5, argv3), APP_HELP_USAGE);
		assert_int_equal(app_options_wants_help(3, argv4), APP_HELP_NONE);
	}
}

/* The INI file: keys are the table's names; the command line wins. */
void
test_ini(void **state)
{
	char path[128], want[256];

	(void)state;
	__file(path, sizeof(path), "a.ini", "; c\n[pktpath]\nburst = 16\nquiet = on\n"
	       "main-worker = off\nfold = field\nlocal = 10.0.0.1/8\n");
	OK("--config", path, "--fold", "lcore");
	assert_int_equal(o.burst, 16);
	assert_true(o.quiet);
	assert_false(o.main_worker);
	assert_int_equal(o.fold, MIB_FOLD_LCORE);
	assert_int_equal(o.n_local, 1);
	/* whatever the order on the command line */
	OK("--fold", "lcore", "--conf", path);
	assert_int_equal(o.fold, MIB_FOLD_LCORE);
	__file(path, sizeof(path), "b.ini", "[pktpath]\nburst = 16\nfoo = 1\n");
	snprintf(want, sizeof(want), "pktpath: %s:3: unknown key 'foo'", path);
	BAD(want, "--config", path);
	__file(path, sizeof(path), "c.ini", "[pktpath]\nconfig = other.ini\n");
	snprintf(want, sizeof(want), "pktpath: %s:2: unknown key 'config'", path);
	BAD(want, "--config", path);
	__file(path, sizeof(path), "d.ini", "[pktpath]\nhelp = on\n");
	snprintf(want, sizeof(want), "pktpath: %s:2: unknown key 'help'", path);
	BAD(want, "--config", path);
	__file(path, sizeof(path), "e.ini", "[pktpath]\nquiet = sometimes\n");
	snprintf(want, sizeof(want), "pktpath: %s:2: quiet: 'sometimes' is not on/off", path);
	BAD(want, "--config", path);
	__file(path, sizeof(path), "f.ini", "[pktpath]\nburst = 0x20\n");
	snprintf(want, sizeof(want), "pktpath: %s:2: burst: '0x20' is not a decimal number "
		 "(hexadecimal is not accepted)", path);
	BAD(want, "--config", path);
	__file(path, sizeof(path), "g.ini", "[pktpath]\ndport = 70000\n");
	snprintf(want, sizeof(want), "pktpath: %s:2: dport: '70000' is not a port or range "
		 "P-Q (decimal, 0..65535)", path);
	BAD(want, "--config", path);
	/* a check across options sees the file and the command line together */
	__file(path, sizeof(path), "h.ini", "[pktpath]\npath = rx-only\n");
	BAD("pktpath: --peer on has no effect with --path rx-only (it needs --path full)",
	    "--config", path, "--peer", "on");
	BAD("pktpath: --config: needs a file name", "--config", "");
	BAD("pktpath: --config /nonexistent.ini: cannot open: No such file or directory",
	    "--config", "/nonexistent.ini");
	/* what is not a regular file is refused before a byte is read: a
	 * FIFO with no writer used to block the open until a signal */
	snprintf(path, sizeof(path), "%s/fifo.ini", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(want, sizeof(want), "pktpath: --config %s: a FIFO, not a regular file",
		 path);
	BAD(want, "--config", path);
	unlink(path);
	snprintf(want, sizeof(want), "pktpath: --config %s: a directory, not a regular "
		 "file", tmpdir);
	BAD(want, "--config", tmpdir);
	BAD("pktpath: --config /dev/zero: a character device, not a regular file",
	    "--config", "/dev/zero");
}

/* Every option's value (once, and twice), an INI file's value, key and
 * section, a stray word and an unknown option, each made of every control
 * and high byte: whatever the parser says of it is one line with no raw
 * control byte. */
void
test_quoting(void **state)
{
	char v[8], arg[96], err[512], path[128], text[256];
	const char *bad;
	unsigned int i, k;

	(void)state;
	for (k = 0; k < TEST_ONELINE_BYTES; k++) {
		snprintf(v, sizeof(v), "1%c2", (char)test_oneline_byte(k));
		for (i = 0; i < app_n_opts; i++) {
			const struct app_opt *d = &app_opts[i];

			if (d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP)
				continue;
			snprintf(arg, sizeof(arg), "--%s=%s", d->name, v);
			__parse(&o, err, sizeof(err), arg, NULL);
			if ((bad = test_oneline_bad(err)) != NULL)
				fail_msg("--%s 1\\x%02x2: %s in \"%s\"", d->name,
					 test_oneline_byte(k), bad, err);
			/* twice: the line names both values */
			__parse(&o, err, sizeof(err), arg, arg, NULL);
			if ((bad = test_oneline_bad(err)) != NULL)
				fail_msg("--%s 1\\x%02x2 twice: %s in \"%s\"", d->name,
					 test_oneline_byte(k), bad, err);
			if (d->no_ini)
				continue;
			snprintf(text, sizeof(text), "[pktpath]\n%s = %s\n", d->name, v);
			if (v[1] == '\n')
				continue;	/* a line of its own */
			__file(path, sizeof(path), "q.ini", text);
			__parse(&o, err, sizeof(err), "--config", path, NULL);
			if ((bad = test_oneline_bad(err)) != NULL)
				fail_msg("%s = 1\\x%02x2: %s in \"%s\"", d->name,
					 test_oneline_byte(k), bad, err);
		}
		/* an unknown option, a stray word, a config file's name */
		snprintf(arg, sizeof(arg), "--no%s", v);
		__parse(&o, err, sizeof(err), arg, NULL);
		assert_null(test_oneline_bad(err));
		__parse(&o, err, sizeof(err), v, NULL);
		assert_null(test_oneline_bad(err));
		snprintf(arg, sizeof(arg), "/nonexistent/%s.ini", v);
		__parse(&o, err, sizeof(err), "--config", arg, NULL);
		assert_null(test_oneline_bad(err));
		if (v[1] == '\n')
			continue;
		/* an INI key and section */
		snprintf(text, sizeof(text), "[pktpath]\nb%sst = 1\n", v);
		__file(path, sizeof(path), "q.ini", text);
		__parse(&o, err, sizeof(err), "--config", path, NULL);
		assert_non_null(strstr(err, "unknown key"));
		assert_null(test_oneline_bad(err));
		snprintf(text, sizeof(text), "[p%s]\nburst = 1\n", v);
		__file(path, sizeof(path), "q.ini", text);
		__parse(&o, err, sizeof(err), "--config", path, NULL);
		assert_non_null(strstr(err, "unknown section"));
		assert_null(test_oneline_bad(err));
	}
	/* what it looks like */
	BAD("pktpath: --burst: '1\\x1b[31m2' is not a number", "--burst", "1\x1b[31m2");
	BAD("pktpath: --burst: '1\\n2' is not a number", "--burst", "1\n2");
}
