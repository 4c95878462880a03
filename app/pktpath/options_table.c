/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table: every option of pktpath, once. getopt_long's options,
 * the defaults, the INI keys, --help, --help-ini (config/default.ini) and
 * --help-markdown (app/pktpath/README.md's options table) are made from it;
 * to add an option, add its row here and regenerate the two files with
 * scripts/options-doc.sh (integration/options.sh fails until they agree).
 *
 * A row: the name; the argument's name (NULL: the type's: N, on|off, the
 * choices); the type with the field and range, or the setter; the default
 * as a value (def, parsed like the user's) or in words (def_doc); what it
 * needs to have an effect (NEEDS, below: an option given where it has none
 * is refused), and what repeating it does if it may be repeated (repeat);
 * the help text, without its range, default and needs (the printers add
 * them), in markdown: `code` and [sections of app/pktpath/README.md](#anchor), made plain in
 * --help and the INI file.
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "base.h"
#include "options_pvt.h"

/* ---- the application's enums (options.h) ---- */

const char *const app_source_names[] = {
	[APP_SRC_GEN] = "gen", [APP_SRC_PORT] = "port" };
static_assert(RTE_DIM(app_source_names) == APP_SRC_MAX, "source names");
const char *const app_path_names[] = {
	[APP_PATH_FULL] = "full", [APP_PATH_RXONLY] = "rx-only" };
static_assert(RTE_DIM(app_path_names) == APP_PATH_MAX, "path names");
const char *const app_rx_csum_names[] = {
	[APP_CSUM_AUTO] = "auto", [APP_CSUM_HW] = "hw", [APP_CSUM_SW] = "sw" };
static_assert(RTE_DIM(app_rx_csum_names) == APP_CSUM_MAX, "rx-csum names");
const char *const app_csum_partial_names[] = {
	[APP_PARTIAL_AUTO] = "auto", [APP_PARTIAL_ON] = "on",
	[APP_PARTIAL_OFF] = "off" };
static_assert(RTE_DIM(app_csum_partial_names) == APP_PARTIAL_MAX,
	      "rx-csum-partial names");
const char *const app_ingress_kind_names[] = {
	[APP_KIND_RULES] = "rules", [APP_KIND_PCAP_FILTER] = "pcap-filter",
	[APP_KIND_BPF] = "bpf" };
static_assert(RTE_DIM(app_ingress_kind_names) == APP_KIND_MAX, "kind names");
const char *const app_unpolled_names[] = { [false] = "refuse", [true] = "warn" };
static_assert(RTE_DIM(app_unpolled_names) == 2, "unpolled names");

const char *
app_source_name(enum app_source s)
{
	return BASE_ENUM_NAME(app_source_names, s);
}

const char *
app_path_name(enum app_path p)
{
	return BASE_ENUM_NAME(app_path_names, p);
}

/* ---- the table ---- */

#define FIELD(f) .off = offsetof(struct app_options, f), \
	.size = sizeof(((struct app_options *)0)->f)
#define UINT(f, l, h) .type = APP_OPT_UINT, FIELD(f), .lo = (l), .hi = (h)
#define DOUBLE(f, l, h) .type = APP_OPT_DOUBLE, FIELD(f), .dlo = (l), .dhi = (h)
#define BOOL(f) .type = APP_OPT_BOOL, FIELD(f)
#define FLAG(f) .type = APP_OPT_FLAG, FIELD(f)
#define CHOICE(f, tbl) .type = APP_OPT_CHOICE, FIELD(f), .names = (tbl), \
	.n_names = RTE_DIM(tbl)
#define PATHNAME(f) .type = APP_OPT_PATH, FIELD(f)
#define FN(fn) .type = APP_OPT_FN, .set = (fn)
#define HELP(m) .type = APP_OPT_HELP, .help_mode = (m), .no_ini = true

/* What an option needs to have an effect (options_pvt.h, struct
 * app_opt_cond): IS(o, "a|b") o's value is one of these, NOT(o, "a|b") it
 * is none of them, SET(o) o is set, UNSET(o) it is not; OR_IS and OR_SET
 * start another alternative. The conditions the table says most often: */
#define IS(o, v) { .opt = (o), .vals = (v) }
#define NOT(o, v) { .opt = (o), .vals = (v), .neg = true }
#define SET(o) { .opt = (o) }
#define UNSET(o) { .opt = (o), .neg = true }
#define OR_IS(o, v) { .opt = (o), .vals = (v), .alt = true }
#define OR_SET(o) { .opt = (o), .alt = true }
#define NEEDS(...) .needs = { __VA_ARGS__ }
/* the ports' options */
#define PORT_ONLY NEEDS(IS("source", "port"))
/* what the generator synthesises (a --template's frames are as captured) */
#define GEN_SYNTH NEEDS(IS("source", "gen"), UNSET("template"))
/* the receive path's work (rx-only frees every frame untouched) */
#define PATH_FULL NEEDS(IS("path", "full"))
/* the ingress hook: what creates it (app_options_want_ingress(); --rules-alt
 * needs --update-rate) */
#define HOOK NEEDS(SET("ingress"), OR_SET("ingress-kind"), OR_SET("rules"), \
		   OR_SET("update-rate"), OR_SET("compare"))

/* one row an option, laid out by hand */
/* clang-format off */
const struct app_opt app_opts[] = {
	{ "config", "FILE", PATHNAME(config), .no_ini = true,
	  .repeat = "the files are read in turn, as one file: a key that two of "
		    "them set is given twice",
	  .help = "read options from an INI file: one `[pktpath]` section, "
		  "`key = value` lines (keys are the long option names, flags take "
		  "on/off), comment lines starting with `;` or `#`; the command line "
		  "overrides it" },
	{ "source", NULL, CHOICE(source, app_source_names), .def = "gen",
	  .help = "packet source: the built-in generator, or `rte_eth_rx_burst` "
		  "from ethdev ports (any PMD)" },
	{ "path", NULL, CHOICE(path, app_path_names), .def = "full",
	  .help = "the whole receive path, or receive and free with no path work: "
		  "the testpmd `rxonly` baseline (no packet is touched, so RxOctets "
		  "is not counted)" },
	{ "duration", "SECONDS", DOUBLE(duration_s, 0, 1e7), .def = "10",
	  .help = "run time; 0 runs until SIGINT/SIGTERM" },
	{ "interval", "SECONDS", DOUBLE(interval_s, 0.01, 3600), .def = "1",
	  .help = "stats fold and report interval" },
	{ "warmup", "auto|SECONDS", FN(__opt_set_warmup), .def = "auto",
	  .help = "where the steady-state summary starts: `auto` detects the end "
		  "of the warm-up from the per-interval rates (MSER: the start that "
		  "minimises the standard error of the steady mean); SECONDS "
		  "(0..3600) starts it at the first fold after that many seconds "
		  "instead" },
	{ "json", "FILE", PATHNAME(json), .no_info = true,
	  .help = "write the run summary, all MIB totals and per-lcore values as "
		  "JSON" },
	{ "quiet", NULL, FLAG(quiet),
	  .help = "no per-interval lines, only the summary" },
	{ "burst", NULL, UINT(burst, 1, APP_MAX_BURST), .def = "32",
	  .help = "packets per burst" },
	{ "main-worker", NULL, FLAG(main_worker),
	  .help = "the main lcore runs a receive loop too (the stats thread then "
		  "shares its core)" },
	{ "mib-layout", NULL, CHOICE(mib_layout, mib_layout_names), .def = "percpu",
	  .help = "one page-aligned MIB block per lcore on its socket (a Linux "
		  "per-CPU unit), or all "
		  "lcores' counters interleaved in the same cache lines (false "
		  "sharing, to measure its cost)" },
	{ "fold", NULL, CHOICE(fold, mib_fold_names), .def = "lcore",
	  .help = "fold strategy: `snmp_fold_field` order (each field over all "
		  "lcores) or `snmp_get_cpu_field64_batch` order (each lcore, all "
		  "fields)" },
	{ "mib-lcores", "N", UINT(mib_lcores, 0, APP_MAX_MIB_LCORES), .def = "0",
	  .help = "MIB blocks for N lcores in all, as on an N-CPU server: the "
		  "workers' and N - workers phantom ones (page-aligned, never "
		  "written, zero in every total) that the stats thread and every "
		  "fold walk; 0: the workers' only" },
	{ "mib-devices", "N", UINT(mib_devices, 0, APP_MAX_MIB_DEVICES), .def = "0",
	  PATH_FULL,
	  .help = "per-device IPv6 MIBs (Linux's inet6_dev) for the ports, or the "
		  "generator's device, and N phantom devices veth0..: "
		  "/dev_snmp6/DEV, the link dump /links (folded with --fold); 0: "
		  "off" },
	{ "fold-on-read", NULL, FLAG(fold_on_read),
	  .help = "every read of /snmp, /netstat, /metrics, /stats.json and "
		  "/pktpath/mib folds the blocks itself, as procfs does, instead "
		  "of serving the stats thread's last snapshot (timed: "
		  "`pktpath_read_fold_seconds`)" },
	{ "reader", "N", UINT(readers, 0, 64), .def = "0",
	  NEEDS(SET("fold-on-read")),
	  .help = "N threads that read the MIBs endlessly, each read a fold "
		  "through `--fold-on-read`'s code (the endpoint's, without "
		  "HTTP), as the snmp_fold_field thread read /proc/net/snmp; "
		  "their reads/s and ns per fold in the summary and per "
		  "`--compare` variant; on the control threads' CPUs, never a "
		  "worker's; see [Paired comparisons](#paired-comparisons---compare)" },
	{ "reader-links", NULL, FLAG(reader_links),
	  NEEDS(SET("reader"), NOT("mib-devices", "0")),
	  .help = "`--reader`'s threads make link dumps instead (`/links`' fold "
		  "of every device's Ip6 and Icmp6 counters, as `docker run`'s "
		  "RTM_GETLINK dumps did), counted and timed as its folds" },
	{ "perf-detail", NULL, FLAG(perf_detail),
	  .help = "the workers keep log-scale "
		  "histograms of each busy poll's cycles, packets and cycles per "
		  "packet (and the ingress stage's cycles per burst), and log "
		  "suspicious polls (`--suspicious-us`)" },
	{ "suspicious-us", "US", UINT(suspicious_us, 0, 60000000),
	  .def = RTE_STR(APP_SUSPICIOUS_US_DEFAULT),
	  NEEDS(SET("perf-detail")),
	  .help = "`--perf-detail`: a poll longer than this many microseconds is "
		  "suspicious: counted (Rx SuspiciousPolls), logged with the polls "
		  "around it; 0: none is" },
	{ "stall-us", "US", UINT(stall_us, 0, 60000000),
	  .def = RTE_STR(APP_STALL_US_DEFAULT),
	  .help = "a poll longer than this many microseconds spans time the worker "
		  "did not run (preempted, stopped, stolen by a hypervisor): its "
		  "cycles are lost (Rx LostCycles), neither busy nor idle, so no "
		  "cycles/pkt includes them; 0: no poll is. The kernel's own "
		  "accounting of each worker thread is reported beside it "
		  "([Lost time](#lost-time-preemption-and-stalls))" },
	{ "lost-share", "PERCENT", DOUBLE(lost_share_pct, 0.01, 100), .def = "1",
	  .help = "an interval in which a worker did not run for this share of it "
		  "or more (the kernel's accounting of its thread) is flagged in "
		  "every output and left out of the steady state and the spread; a "
		  "`--compare` phase measures again; 100: none is "
		  "([Lost time](#lost-time-preemption-and-stalls))" },
	{ "stage-cycles", NULL, FLAG(stage_cycles),
	  .help = "time each stage of a burst (rx, l2, ingress, ip, peer, capture, "
		  "free), the burst processed stage by stage with one TSC read "
		  "between two stages: a `show runtime`-like table in the summary "
		  "and `--json`, the Stage MIB group, `pktpath_stage_cycles_total`; "
		  "see [Where the cycles go](#where-the-cycles-go---stage-cycles)" },
	{ "pmu", "EVENTS|off", FN(__opt_set_pmu), .def_doc = "off",
	  .help = "count these perf events on each worker's thread from its first "
		  "poll, and around the stats thread's folds: per interval and in "
		  "the summary, events per packet and IPC per lcore in every output "
		  "(`pktpath_pmu_events_total`); `perf list`'s names (`cycles`, "
		  "`instructions`, `L1-dcache-load-misses`, `LLC-load-misses`, "
		  "`branch-misses`, ..., `rNNNN` raw codes; `task-clock`, "
		  "`context-switches`, `cpu-migrations`, `page-faults`), at most 8, "
		  "`default` for the first five; hardware events in user space. "
		  "Where the machine cannot count them, one line says why and what to "
		  "do (exit 2); see [Counting events](#counting-events---pmu)" },
	{ "pkt-size", "BYTES", UINT(flow.pkt_size, PKT_MIN_SIZE, PKT_MAX_SIZE),
	  .def = "60", GEN_SYNTH,
	  .help = "generated frame size without FCS" },
	{ "flows", NULL, UINT(flow.flows, 1, 1u << 20), .def = "64",
	  GEN_SYNTH,
	  .help = "distinct generated flows (pktgen range mode: source address, "
		  "source port, destination address and port vary in that order)" },
	{ "src", "A[-B]", FN(__opt_set_src), .def = "198.18.0.1-198.18.0.254",
	  NEEDS(IS("source", "gen"), UNSET("template"), OR_IS("peer", "on")),
	  .help = "generated source addresses" },
	{ "dst", "A[-B]", FN(__opt_set_dst), .def = "198.19.0.1",
	  NEEDS(IS("source", "gen"), UNSET("template"), OR_IS("path", "full"),
		UNSET("local")),
	  .help = "generated destination addresses" },
	{ "sport", "P[-Q]", FN(__opt_set_sport), .def = "1024-65535",
	  GEN_SYNTH,
	  .help = "generated UDP source ports" },
	{ "dport", "P[-Q]", FN(__opt_set_dport), .def = "9",
	  NEEDS(IS("source", "gen"), UNSET("template"), OR_IS("path", "full"),
		UNSET("udp-ports")),
	  .help = "generated UDP destination ports" },
	{ "src-mac", "MAC", FN(__opt_set_src_mac), .def = "02:00:00:00:00:02",
	  GEN_SYNTH,
	  .help = "generated source MAC" },
	{ "dst-mac", "MAC", FN(__opt_set_dst_mac), .def = "02:00:00:00:00:01",
	  GEN_SYNTH,
	  .help = "generated destination MAC; the default is the generator port's "
		  "own, so another one makes every frame PACKET_OTHERHOST" },
	{ "tos", NULL, UINT(flow.tos, 0, 255), .def = "0",
	  GEN_SYNTH,
	  .help = "generated IP TOS byte (DSCP and ECN bits)" },
	{ "udp-csum", NULL, BOOL(flow.udp_csum), .def = "off",
	  GEN_SYNTH,
	  .help = "compute UDP checksums (pktgen's UDPCSUM); off sends checksum 0, "
		  "which Linux accepts without verifying" },
	{ "family", NULL, CHOICE(flow.family, pkt_family_names), .def = "ipv4",
	  GEN_SYNTH,
	  .help = "generated frames' IP version; mixed: flow i is IPv6 if i is odd, "
		  "IPv4 if even, so that the two come in turn" },
	{ "l4", NULL, CHOICE(flow.l4, pkt_l4_names), .def = "udp",
	  GEN_SYNTH,
	  .help = "generated frames' upper layer: UDP datagrams (`--sport`, "
		  "`--dport`), TCP SYNs (the same ports; no socket: Linux answers "
		  "a reset) or echo requests (ICMP over IPv4, ICMPv6 over IPv6)" },
	{ "src6", "A[-B]", FN(__opt_set_src6), .def = "2001:2::1-2001:2::fe",
	  NEEDS(IS("source", "gen"), UNSET("template"), NOT("family", "ipv4")),
	  .help = "generated IPv6 source addresses (a range's ends differ in their "
		  "last 32 bits); RFC 5180's benchmarking prefix by default" },
	{ "dst6", "A[-B]", FN(__opt_set_dst6), .def = "2001:2:0:1::1",
	  NEEDS(IS("source", "gen"), UNSET("template"), NOT("family", "ipv4")),
	  .help = "generated IPv6 destination addresses" },
	{ "ext6", "HDR,...|none", FN(__opt_set_ext6), .def = "none",
	  NEEDS(IS("source", "gen"), UNSET("template"), NOT("family", "ipv4")),
	  .help = "IPv6 extension headers of the generated frames, outermost "
		  "first: hop (hop-by-hop options: PadN), dst (destination "
		  "options: PadN), rt (a type 0 routing header with no segment "
		  "left), frag (an atomic fragment: offset 0, no more); 8 bytes "
		  "each, inside `--pkt-size`. A hop-by-hop header anywhere but "
		  "first is an unknown next header, as Linux has it" },
	{ "frag", "BYTES", UINT(flow.frag_size, 0, PKT_MAX_SIZE), .def = "0", GEN_SYNTH,
	  .help = "split each generated datagram (IPv4 and IPv6) into fragments "
		  "of at most BYTES of data, a multiple of 8 that holds the "
		  "upper-layer header and `--ext6`'s; each fragment is a frame "
		  "(a template), so `--pkt-size` is the datagram's frame before "
		  "the split, and a datagram of every family sent must need two "
		  "fragments at least (refused otherwise); 0: no fragments. See "
		  "[IPv6 reassembly](../../lib/path/README.md#ipv6-reassembly)" },
	{ "frag-order", NULL, CHOICE(flow.frag_order, pkt_frag_order_names), .def = "in",
	  NEEDS(IS("source", "gen"), UNSET("template"), SET("frag")),
	  .help = "the order a datagram's fragments are sent in: by offset, "
		  "the last first, or a fixed random order per flow" },
	{ "vlan-tags", "[ad]VID[.[ad]VID]|none", FN(__opt_set_vlan_tags), .def = "none",
	  GEN_SYNTH,
	  .help = "generated frames carry these tags after the MACs, outermost "
		  "first: `VID` an 802.1Q tag, `adVID` an 802.1ad one, VID 0..4095 "
		  "(0: a priority tag), PCP 0; inside `--pkt-size`, as pktgen counts "
		  "its `vlan_id` and `svlan_id`. Without a VLAN device for them "
		  "(`--vlan`) the frames are PACKET_OTHERHOST" },
	{ "template", "FILE.pcap", PATHNAME(template_file),
	  NEEDS(IS("source", "gen")),
	  .help = "generate the frames of a pcap file, round-robin, instead of "
		  "synthesised ones (each worker its own mbufs)" },
	{ "alloc", NULL, CHOICE(alloc, pkt_alloc_names), .def = "reuse",
	  NEEDS(IS("source", "gen")),
	  .help = "generator mbufs recycled burst after burst (pktgen `clone_skb`), "
		  "or `rte_pktmbuf_alloc_bulk` + `rte_pktmbuf_free_bulk` every "
		  "burst, or `slab`: the recycled mbufs plus, for every packet, a "
		  "256-byte sk_buff-like head from a per-lcore SLUB-like cache "
		  "(lib/slab), allocated in bulk per burst, built as "
		  "`__build_skb_around()` builds an sk_buff and freed in bulk after "
		  "the path: the difference from `reuse` is SLUB's bulk "
		  "alloc + build + free. A failed allocation counts RxNoMbuf" },
	{ "prefetch", NULL, BOOL(prefetch), .def = "on",
	  PATH_FULL,
	  .help = "prefetch the next packet's header while processing one; under "
		  "`--alloc slab` instead the slab's next free object as one is "
		  "handed out (SLUB's `prefetch_freepointer`), the header "
		  "prefetch staying on" },
	{ "pool-layout", NULL, CHOICE(pool_layout, pkt_pool_layout_names),
	  .def = "page",
	  .help = "mbuf pools as `rte_pktmbuf_pool_create()` lays them out (page: "
		  "with `--no-huge` one mbuf per 4 KiB page, all at the same offset, "
		  "so a burst's mbufs share L1 sets), or back to back as on "
		  "hugepages (packed: `RTE_MEMPOOL_F_NO_IOVA_CONTIG`, refused unless "
		  "the EAL runs IOVA as VA); measured in `scripts/bench.d/journal/`" },
	{ "pool-order", NULL, CHOICE(pool_order, pkt_pool_order_names),
	  .def = "shuffle",
	  .help = "the order in which a new pool hands out its mbufs: address "
		  "leaves `rte_pktmbuf_pool_create()`'s, in which a receive loop "
		  "recycles mbufs of consecutive addresses (with `--no-huge`, "
		  "consecutive 4 KiB pages); shuffle puts them in a fixed "
		  "pseudo-random order (the same every run), as a pool in use for a "
		  "while holds them; measured in `scripts/bench.d/journal/` (pool "
		  "order)" },
	{ "mbufs", NULL, UINT(mbufs, 1024, 1u << 24), .def = "8191",
	  .help = "mbufs per generator worker pool, and at least this many per "
		  "port pool" },
	{ "rxq", "L:P.Q,...", FN(__opt_set_rxq),
	  .def_doc = "workers over ports 0.., a queue per worker",
	  PORT_ONLY,
	  .help = "port source: lcore L polls port P queue Q; one lcore per queue, "
		  "every queue of a port polled; see [Real ports](#real-ports)" },
	{ "rxd", NULL, UINT(rxd, 32, 16384), .def = RTE_STR(APP_RXD_DEFAULT),
	  PORT_ONLY,
	  .help = "RX descriptors per queue; refused outside the driver's "
		  "`rx_desc_lim` (the default is fitted to it)" },
	{ "promisc", NULL, BOOL(promisc), .def = "off",
	  PORT_ONLY,
	  .help = "port source: promiscuous mode (frames to other MACs are then "
		  "counted RxOtherHost); put back as found at exit" },
	{ "rx-csum", NULL, CHOICE(rx_csum, app_rx_csum_names), .def = "auto",
	  NEEDS(IS("path", "full"), OR_IS("source", "port")),
	  .help = "RX checksum offload: hw enables `IPV4_CKSUM`, `UDP_CKSUM`, "
		  "`TCP_CKSUM` (refused if the port lacks one) and trusts the mbuf's "
		  "flags as Linux trusts `CHECKSUM_UNNECESSARY`; sw verifies every "
		  "checksum in software; auto is hw where the port offers all three. "
		  "On the generator hw marks its frames GOOD, as an offloading NIC "
		  "would, and auto is sw" },
	{ "rx-csum-partial", NULL, CHOICE(csum_partial, app_csum_partial_names),
	  .def = "auto",
	  PATH_FULL,
	  .help = "a TCP/UDP checksum field that holds the pseudo-header sum is a "
		  "partial checksum (`CHECKSUM_PARTIAL`: valid local traffic); auto "
		  "is on for `net_af_packet`, which loses the kernel's checksum "
		  "state" },
	{ "mbuf-size", "BYTES", UINT(mbuf_size, 1024, 65535),
	  .def_doc = "2176, or what `net_af_packet`'s `framesz` needs",
	  PORT_ONLY,
	  .help = "port source: the mbuf data room with its 128-byte headroom, as "
		  "testpmd's `--mbuf-size`" },
	{ "mtu", "BYTES", UINT(mtu, 68, 65535), .def_doc = "the device's",
	  PORT_ONLY,
	  .help = "port source: the ports' MTU; a frame longer than an mbuf is "
		  "received scattered, or refused if the driver cannot scatter" },
	{ "unpolled-queues", NULL, CHOICE(unpolled_warn, app_unpolled_names),
	  .def = "refuse",
	  PORT_ONLY,
	  .help = "port source: a device whose RX queues exist whether configured "
		  "or not (`net_af_packet` `qpairs`) with fewer of them polled is "
		  "refused, or accepted with a warning" },
	{ "local", "A/L,...", FN(__opt_set_local),
	  .def_doc = "the `--dst` addresses, /24",
	  PATH_FULL,
	  .help = "local addresses and their subnets (directed broadcast is the "
		  "subnet's all-ones address)" },
	{ "mcast", "G,...", FN(__opt_set_mcast),
	  PATH_FULL,
	  .help = "joined multicast groups; 224.0.0.1 always is" },
	{ "local6", "A/L,...", FN(__opt_set_local6),
	  .def_doc = "the `--dst6` addresses, /64 (with `--family ipv6` or mixed)",
	  PATH_FULL,
	  .help = "local IPv6 addresses and their on-link prefixes, as `ip -6 addr "
		  "add A/L dev PORT nodad` makes them; the port's link-local address "
		  "(fe80::/64, EUI-64 of its MAC) always is one; no default route "
		  "(`lib/path/README.md`, IPv6)" },
	{ "mcast6", "G,...", FN(__opt_set_mcast6),
	  PATH_FULL,
	  .help = "joined IPv6 groups; ff02::1 and the solicited-node group of every "
		  "local address always are" },
	{ "udp-ports", "P[-Q],...|none", FN(__opt_set_udp_ports),
	  .def_doc = "the `--dport` range",
	  PATH_FULL,
	  .help = "UDP ports with a listening socket (IPv4 and IPv6)" },
	{ "udplite-ports", "P[-Q],...|none", FN(__opt_set_udplite_ports),
	  .def = "none",
	  PATH_FULL,
	  .help = "UDP-Lite (IP protocol 136) ports with a listening socket (IPv4 "
		  "and IPv6)" },
	{ "netlabel", NULL, BOOL(kernel_netlabel), .def = "on",
	  PATH_FULL,
	  .help = "the kernel pktpath mimics has NetLabel (`CONFIG_NETLABEL`): a "
		  "CIPSO option is refused (InHdrErrors) as on a host with no CIPSO "
		  "DOI configured; off: only the checks of the kernel's stub" },
	{ "pim", NULL, BOOL(kernel_pim), .def = "on",
	  PATH_FULL,
	  .help = "the kernel has PIM-SM v2 (`CONFIG_IP_PIMSM_V2`): IP protocol "
		  "103 goes to `pim_rcv` (InDelivers, Path PimDelivered); off: "
		  "InUnknownProtos" },
	{ "vlan", "STACK,...|none", FN(__opt_set_vlan), .def = "none",
	  PATH_FULL,
	  .help = "VLAN devices on every port, and on the generator's: a STACK "
		  "`VID` declares an 802.1Q device (as `ip link add link P name "
		  "P.VID type vlan id VID`), `adVID` an 802.1ad one (`protocol "
		  "802.1ad`), `A-B` a range, VID 1..4094; `A.B` declares A and a "
		  "device B on it (QinQ: two levels at most, 4096 devices on "
		  "devices). A tagged frame that no device takes (same TPID and VID, "
		  "on the device that has the frame) is PACKET_OTHERHOST "
		  "(`RxVlanNoDevice`, then `RxOtherHost`) unless the VID is 0 (a "
		  "priority tag: stripped); none: no VLAN device, Linux's default. "
		  "See [VLAN tags](#vlan-tags-and-vlan-devices---vlan)" },
	{ "ingress", NULL, CHOICE(ingress_mode, ingress_mode_names), .def = "off",
	  PATH_FULL,
	  .help = "ingress hook guard: off, none (unguarded), spinlock, rwlock or "
		  "RCU; any ingress option creates the hook (off: the hook is there "
		  "and classifies nothing); see "
		  "[Ingress](#ingress-classifier-guards-and-rule-churn-libingress)" },
	{ "lock-scope", NULL, CHOICE(lock_scope, ingress_scope_names),
	  .def = "packet",
	  HOOK,
	  .help = "classify (and lock) per packet, like the old ingress qdisc, or "
		  "per burst" },
	{ "ingress-kind", NULL, CHOICE(ingress_kind, app_ingress_kind_names),
	  .def = "rules",
	  PATH_FULL,
	  .help = "classifier kind: rules (`--rules`), a tcpdump expression "
		  "(`--filter`) or an eBPF object (`--bpf-obj`)" },
	{ "filter", "EXPR", FN(__opt_set_filter),
	  NEEDS(IS("ingress-kind", "pcap-filter")),
	  .help = "pcap-filter: the tcpdump expression (libpcap, then pktpath's "
		  "eBPF conversion, run by rte_bpf; or libpcap itself: see "
		  "`--bpf-engine`)" },
	{ "filter-action", "drop|pass|mark N", FN(__opt_set_filter_action),
	  .def = "drop", NEEDS(SET("filter")),
	  .help = "pcap-filter: what a match does" },
	{ "bpf-obj", "FILE.o", PATHNAME(bpf_obj),
	  NEEDS(IS("ingress-kind", "bpf")),
	  .help = "bpf: the eBPF ELF object (e.g. build/config/drop_udp_port.o, built from config/bpf/drop_udp_port.c)" },
	{ "bpf-sec", "NAME", FN(__opt_set_bpf_sec), .def = "classifier",
	  NEEDS(SET("bpf-obj")),
	  .help = "bpf: the program's section or name" },
	{ "bpf-jit", "on|off", FN(__opt_set_bpf_jit), .def_doc = "on",
	  NEEDS(SET("filter"), OR_SET("bpf-obj")),
	  .help = "pcap-filter and bpf: `--bpf-engine jit` (on) or `interp` (off)" },
	{ "bpf-engine", NULL, CHOICE(bpf.engine, pktbpf_engine_names),
	  .def = "jit",
	  NEEDS(SET("filter"), OR_SET("bpf-obj")),
	  .help = "pcap-filter and bpf: rte_bpf's JIT (its code checked, else the "
		  "interpreter), rte_bpf's interpreter, or libpcap's own "
		  "(pcap-filter only; also what runs the filters rte_bpf cannot)" },
	{ "filter-netmask", "A.B.C.D", FN(__opt_set_filter_netmask),
	  .def = "0.0.0.0",
	  NEEDS(SET("filter")),
	  .help = "pcap-filter: the netmask `ip broadcast` uses (0.0.0.0 as "
		  "`tcpdump -r`)" },
	{ "bpf-load-timeout", "SECONDS", DOUBLE(bpf.load_timeout_s, 0.01, 3600),
	  .def = "5",
	  NEEDS(SET("filter"), OR_SET("bpf-obj")),
	  .help = "pcap-filter and bpf: longest time `rte_bpf_load` may take to "
		  "verify a program" },
	{ "rules", "FILE", PATHNAME(rules), .def_doc = "no rule, `default pass`",
	  NEEDS(IS("ingress-kind", "rules"), IS("path", "full")),
	  .help = "ingress rules file, at most 16 MiB; SIGHUP reloads it (a broken "
		  "file is reported as FILE:LINE: reason and the running rules "
		  "stay), and the churn goes on with it" },
	{ "rules-alt", "FILE", PATHNAME(rules_alt),
	  .def_doc = "no rule, `default pass`",
	  NEEDS(SET("update-rate")),
	  .help = "the second ruleset `--update-rate` alternates with the first" },
	{ "update-rate", NULL, DOUBLE(update_rate, 0, 1e6), .def = "0",
	  PATH_FULL,
	  .help = "replace the ruleset N times a second from a control thread "
		  "(paused while in none)" },
	{ "gp-log-us", "US", UINT(gp_log_us, 0, 60000000), .def = "1000",
	  HOOK,
	  .help = "log RCU grace periods slower than this many microseconds" },
	{ "compare", "KNOB=V1,V2,...|MODE,...", FN(__opt_set_compare),
	  FIELD(cmp),
	  .repeat = "a second knob: the variants are the product of the two "
		    "(a 2x2)",
	  .help = "run the variants of a knob (`ingress`, `lock-scope`, `fold`, "
		  "`prefetch`, `burst`, `alloc`, `peer-layout`, `rx-csum` (with "
		  "`--source port`), `mib-layout`, each taking its "
		  "option's values; MODE,... is `ingress=MODE,...`) as back-to-back "
		  "phases of `--duration` each, rounds interleaved and their order "
		  "alternated, and print every pair's difference with its 95% "
		  "interval and verdict; see [Paired "
		  "comparisons](#paired-comparisons---compare)" },
	{ "baseline", "V", FN(__opt_set_baseline), .def_doc = "the first variant",
	  NEEDS(SET("compare")),
	  .help = "`--compare`: the variant the table's differences are against "
		  "(its name as the table prints it: `rcu`, `lock/split`)" },
	{ "rounds", NULL, UINT(rounds, 1, 1000), .def = "3",
	  NEEDS(SET("compare")),
	  .help = "`--compare`: rounds, phases interleaved A B C C B A..." },
	{ "phase-warmup", "SECONDS", DOUBLE(phase_warmup_s, 0, 60), .def = "0.5",
	  NEEDS(SET("compare")),
	  .help = "`--compare`: settle time before each measured phase" },
	{ "peer", NULL, BOOL(peer), .def = "off",
	  PATH_FULL,
	  .help = "inetpeer-like stage for delivered packets: source lookup, get, "
		  "touch, put (Peer group)" },
	{ "peer-layout", NULL, CHOICE(peer_layout, peer_layout_names),
	  .def = "shared",
	  NEEDS(IS("peer", "on")),
	  .help = "refcount and last-use on the key's cache line, or on their own" },
	{ "peers", NULL, UINT(peers, 1, PEER_MAX),
	  .def_doc = "one per `--src` address",
	  NEEDS(IS("peer", "on")),
	  .help = "peers in the table, from the first `--src` address" },
	{ "peer-share", "PCT", UINT(peer_share, 0, 100), .def = "50",
	  NEEDS(IS("peer", "on")),
	  .help = "of each worker's lookups, the share that reaches peers every "
		  "worker uses; the others reach peers only this worker uses "
		  "(blocks of one source address per worker, PCT of every 100 "
		  "blocks shared; see lib/path/README.md)" },
	{ "http", "ADDR:PORT|off", FN(__opt_set_http), .def = "127.0.0.1:9120",
	  .help = "stats endpoint: GET {GET paths}; POST with --http-control; "
		  "port 0 picks a free one; IPv6 as [::1]:PORT; see "
		  "[Stats endpoint](#stats-endpoint-prometheus-snmp-json-dpdk-telemetry)" },
	{ "http-control", NULL, FLAG(http_control),
	  NEEDS(NOT("http", "off")),
	  .help = "serve the control commands: POST /ingress/mode, "
		  "/ingress/rules, /ingress/reload, /stats/clear and their "
		  "telemetry commands" },
	{ "metrics-lcore-mib", NULL, FLAG(metrics_lcore_mib),
	  NEEDS(NOT("http", "off")),
	  .help = "/metrics: every MIB field per worker lcore too (large)" },
	{ "capture", "FILE.pcap", PATHNAME(capture),
	  PATH_FULL,
	  .help = "copy chosen packets to per-worker rings, written to FILE.pcap by "
		  "a control thread; see [Capture](#capture)" },
	{ "capture-what", NULL, CHOICE(capture_what, pkt_capture_what_names),
	  .def = "drops",
	  NEEDS(SET("capture")),
	  .help = "which packets `--capture` copies: those not delivered to a "
		  "listener (ingress drops included), those the ingress hook "
		  "marked, or all" },
	{ "capture-max", NULL, UINT(capture_max, 0, UINT64_MAX), .def = "0",
	  NEEDS(SET("capture")),
	  .help = "capture at most N packets over all workers; 0: no limit" },
	{ "capture-ring", NULL, UINT(capture_ring, 16, 1u << 20), .def = "4096",
	  NEEDS(SET("capture")),
	  .help = "slots per worker ring; a full ring counts CaptureOverflow" },
	{ "capture-snaplen", "BYTES", UINT(capture_snaplen, 14, 65535),
	  .def = "2048", NEEDS(SET("capture")),
	  .help = "bytes copied per packet" },
	{ "frag-high", "BYTES", UINT(frag_high, 0, UINT64_C(1) << 40),
	  .def = "4194304", PATH_FULL,
	  .help = "IPv4 reassembly memory of each worker, as "
		  "`net.ipv4.ipfrag_high_thresh`: past it a fragment is refused "
		  "(`ReasmFails`); 0 refuses all; see "
		  "[IPv4 reassembly](../../lib/path/README.md#ipv4-reassembly)" },
	{ "frag-time", "SECONDS", UINT(frag_time, 1, 86400), .def = "30",
	  PATH_FULL,
	  .help = "seconds an incomplete IPv4 datagram is kept, as "
		  "`net.ipv4.ipfrag_time` (then `ReasmTimeout`)" },
	{ "frag6-high", "BYTES", UINT(frag6_high, 0, UINT64_C(1) << 40),
	  .def = "4194304", PATH_FULL,
	  .help = "IPv6 reassembly memory of each worker, as "
		  "`net.ipv6.ip6frag_high_thresh`: past it a fragment is refused "
		  "(`Ip6ReasmFails`); 0 refuses all; see "
		  "[IPv6 reassembly](../../lib/path/README.md#ipv6-reassembly)" },
	{ "frag6-time", "SECONDS", UINT(frag6_time, 1, 86400), .def = "60",
	  PATH_FULL,
	  .help = "seconds an incomplete IPv6 datagram is kept, as "
		  "`net.ipv6.ip6frag_time` (then `Ip6ReasmTimeout`)" },
	{ "icmp-msgs-per-sec", "N", UINT(icmp_msgs_per_sec, 0, INT32_MAX),
	  .def = "1000", PATH_FULL,
	  .help = "refill of each worker's global ICMP token bucket, as "
		  "`net.ipv4.icmp_msgs_per_sec`: ICMPv6 errors of the ratemask "
		  "past it are not sent (`Icmp OutRateLimitGlobal`); see "
		  "[rate limits](../../lib/path/README.md#icmp-rate-limits)" },
	{ "icmp-msgs-burst", "N", UINT(icmp_msgs_burst, 0, INT32_MAX),
	  .def = "50", PATH_FULL,
	  .help = "size of each worker's global ICMP token bucket, as "
		  "`net.ipv4.icmp_msgs_burst`" },
	{ "icmp6-ratelimit", "MS", UINT(icmp6_ratelimit, 0, 86400000),
	  .def = "100", PATH_FULL,
	  .help = "milliseconds between two ICMPv6 errors to one address (after "
		  "a burst of 6), as `net.ipv6.icmp.ratelimit` (Linux 6.18's "
		  "default; `Icmp6 OutRateLimitHost`); 0: no per-address limit" },
	{ "help", NULL, HELP(APP_HELP_USAGE), .help = "this text" },
	{ "help-ini", NULL, HELP(APP_HELP_INI),
	  .help = "every option with its default as an INI file for `--config` "
		  "(config/default.ini)" },
	{ "help-markdown", NULL, HELP(APP_HELP_MARKDOWN),
	  .help = "every option with its default as a markdown table (the one "
		  "in app/pktpath/README.md)" },
};
/* clang-format on */

const unsigned int app_n_opts = RTE_DIM(app_opts);
static_assert(RTE_DIM(app_opts) <= 64 * APP_OPT_GIVEN_WORDS,
	      "app_options.given has a bit for every option");

const struct app_opt *
__opt_find(const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < app_n_opts; i++)
		if (strcmp(app_opts[i].name, name) == 0)
			return &app_opts[i];
	return NULL;
}
