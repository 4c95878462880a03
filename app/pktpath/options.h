/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_OPTIONS_H
#define PKTPATH_OPTIONS_H

/*
 * Application options: the command line after "--", optionally on top of an
 * INI file (--config FILE, section [pktpath], keys are the long option names
 * without dashes). The command line overrides the file.
 *
 * One table (options_table.c) describes every option: its name (the long
 * option and the INI key), its argument, its default, its help and how its
 * value is parsed (a type and a range, or a function). getopt_long's options,
 * app_options_default(), the INI keys, --help, --help-ini (config/default.ini)
 * and --help-markdown (app/pktpath/README.md's options table) all come from it; the
 * integration test options.sh fails when the shipped files differ from it.
 * Files: options.c (getopt, INI, defaults), options_table.c (the table and
 * the app's enum names), options_value.c (the types' value parsers),
 * options_set.c (the setters of the options with a parser of their own),
 * options_check.c (checks across options), options_help.c (the generated
 * texts), options_compare.c (--compare), options_info.c (info.config).
 * Nothing here is thread-safe: options are parsed once, before any thread.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_config.h>

#include "ingress.h"
#include "ingress_pcap.h"
#include "mib.h"
#include "path.h"
#include "pkt.h"
#include "stats_pmu.h"

/* The application's own choices, each with its names indexed by the enum
 * (the libraries' enums have theirs next to them: mib_fold_names, ...). */
enum app_source { APP_SRC_GEN, APP_SRC_PORT, APP_SRC_MAX };
extern const char *const app_source_names[APP_SRC_MAX];	/* gen, port */
enum app_path { APP_PATH_FULL, APP_PATH_RXONLY, APP_PATH_MAX };
extern const char *const app_path_names[APP_PATH_MAX];	/* full, rx-only */
enum app_rx_csum { APP_CSUM_AUTO, APP_CSUM_HW, APP_CSUM_SW, APP_CSUM_MAX };
extern const char *const app_rx_csum_names[APP_CSUM_MAX];	/* auto, hw, sw */
enum app_csum_partial { APP_PARTIAL_AUTO, APP_PARTIAL_ON, APP_PARTIAL_OFF,
			APP_PARTIAL_MAX };
extern const char *const app_csum_partial_names[APP_PARTIAL_MAX]; /* auto, on, off */
enum app_ingress_kind { APP_KIND_RULES, APP_KIND_PCAP_FILTER, APP_KIND_BPF,
			APP_KIND_MAX };
extern const char *const app_ingress_kind_names[APP_KIND_MAX]; /* rules, pcap-filter, bpf */
/* --unpolled-queues refuse|warn, stored as unpolled_warn */
extern const char *const app_unpolled_names[2];

/* --rxd's default: fitted to a driver's limits where --rxd is refused. */
#define APP_RXD_DEFAULT 1024

struct app_rxq {
	unsigned int lcore;
	uint16_t port;
	uint16_t queue;
};

#define APP_MAX_BURST 512
#define APP_MAX_PORT_RANGES 64
/* --compare: values of a knob, knobs (their product), variants in all */
#define APP_MAX_COMPARE 8
#define APP_MAX_KNOBS	    2
#define APP_MAX_VARIANTS    16
/* --mib-lcores: Linux's largest CONFIG_NR_CPUS */
#define APP_MAX_MIB_LCORES 8192
/* --mib-devices: with the run's own (ports), within MIB_DEV_MAX (4096) */
#define APP_MAX_MIB_DEVICES 4000

/*
 * --compare KNOB=V1,V2[,...]: the knobs a variant is made of, each an option
 * of the table by its name (app_knob_names), switched by compare.c between
 * the phases: the ingress mode and scope and the fold strategy live, the
 * others by stopping the workers and starting them again in the new
 * variant. Given twice, two knobs: the variants are their product.
 */
enum app_knob {
	APP_KNOB_INGRESS,     /* --ingress (the shorthand --compare MODE,...) */
	APP_KNOB_LOCK_SCOPE,  /* --lock-scope */
	APP_KNOB_FOLD,	      /* --fold */
	APP_KNOB_PREFETCH,    /* --prefetch */
	APP_KNOB_BURST,	      /* --burst */
	APP_KNOB_ALLOC,	      /* --alloc */
	APP_KNOB_PEER_LAYOUT, /* --peer-layout */
	APP_KNOB_RX_CSUM,     /* --rx-csum (--source port) */
	APP_KNOB_MIB_LAYOUT,  /* --mib-layout */
	APP_KNOB_MAX
};
extern const char *const app_knob_names[APP_KNOB_MAX];

struct app_compare_knob {
	enum app_knob knob;
	unsigned int n;			/* values */
	uint32_t val[APP_MAX_COMPARE];	/* as the option's field holds them */
	char name[APP_MAX_COMPARE][16]; /* as --help names them */
};

struct app_compare {
	unsigned int n_knobs;
	struct app_compare_knob k[APP_MAX_KNOBS];
	unsigned int n;	   /* variants: the product, 0: no --compare */
	char baseline[64]; /* --baseline, "": the first variant */
	unsigned int base; /* the baseline's variant (options_check.c) */
};

/* The index of variant v's value of knob k (an index in app_compare.k)
 * in the knob's values: variants are numbered with the first knob's
 * values slowest; and the value itself. */
static inline unsigned int
app_compare_index(const struct app_compare *c, unsigned int k, unsigned int v)
{
	unsigned int j, div = 1;

	for (j = k + 1; j < c->n_knobs && j < APP_MAX_KNOBS; j++)
		div *= c->k[j].n;
	return (v / div) % c->k[k].n;
}

static inline uint32_t
app_compare_value(const struct app_compare *c, unsigned int k, unsigned int v)
{
	return c->k[k].val[app_compare_index(c, k, v)];
}

/* Whether some variant takes value x of knob k. */
static inline bool
app_compare_has(const struct app_compare *c, enum app_knob k, uint32_t x)
{
	unsigned int i, j;

	for (i = 0; i < c->n_knobs; i++)
		for (j = 0; c->k[i].knob == k && j < c->k[i].n; j++)
			if (c->k[i].val[j] == x)
				return true;
	return false;
}

/* The largest value knob k takes (a number above 0: burst), or dflt when
 * it is not compared. */
static inline uint32_t
app_compare_max(const struct app_compare *c, enum app_knob k, uint32_t dflt)
{
	uint32_t m = 0;
	unsigned int i, j;

	for (i = 0; i < c->n_knobs; i++)
		for (j = 0; c->k[i].knob == k && j < c->k[i].n; j++)
			m = RTE_MAX(m, c->k[i].val[j]);
	return m ? m : dflt;
}

/* Its name: the knobs' values joined by '/' ("lock/split"), into buf. */
const char *app_compare_name(const struct app_compare *c, unsigned int v, char *buf,
			     size_t len);

/* The index in c->k of knob k, or -1 when it is not compared. */
int app_compare_knob(const struct app_compare *c, enum app_knob k);

struct app_options {
	enum app_source source;
	enum app_path path;
	double duration_s;	/* 0: until SIGINT/SIGTERM */
	double interval_s;
	double warmup_s;	/* -1: auto (detected); else seconds */
	char json[PATH_MAX];
	char config[PATH_MAX];
	bool quiet;
	uint16_t burst;
	bool main_worker;
	enum mib_layout mib_layout;
	enum mib_fold fold;
	unsigned int mib_lcores;	/* 0: the workers' */
	unsigned int mib_devices;	/* --mib-devices: phantom devices, 0: off */
	bool fold_on_read;
	unsigned int readers;		/* --reader: threads reading endlessly */
	bool reader_links;		/* --reader-links: they dump the links */
	bool perf_detail;		/* --perf-detail */
	uint32_t suspicious_us;		/* --suspicious-us, 0: none */
#define APP_SUSPICIOUS_US_DEFAULT 250
	uint32_t stall_us;		/* --stall-us, 0: no poll is lost */
#define APP_STALL_US_DEFAULT 250
	double lost_share_pct;		/* --lost-share, percent */
	bool stage_cycles;	/* --stage-cycles */
	struct stats_pmu_conf pmu;	/* --pmu EVENTS (n 0: off) */

	/* generator */
	struct pkt_flow_conf flow;
	enum pkt_alloc alloc;
	bool prefetch;
	char template_file[PATH_MAX];
	uint32_t mbufs;		/* per worker pool */
	enum pkt_pool_layout pool_layout;	/* --pool-layout */
	enum pkt_pool_order pool_order;		/* --pool-order */

	/* ports */
	unsigned int n_rxq;
	struct app_rxq rxq[RTE_MAX_LCORE];
	uint16_t rxd;
	bool promisc;
	enum app_rx_csum rx_csum;
	enum app_csum_partial csum_partial;
	uint16_t mbuf_size;	/* port pools' data room; 0: the default, or
				 * what the driver needs (net_af_packet framesz) */
	uint16_t mtu;		/* 0: the device's */
	bool unpolled_warn;	/* --unpolled-queues warn */

	/* path */
	unsigned int n_local;
	struct path_local local[PATH_MAX_LOCAL];
	unsigned int n_mcast;
	uint32_t mcast[PATH_MAX_MCAST];
	unsigned int n_local6; /* --local6 */
	struct path_local6 local6[PATH_MAX_LOCAL6];
	unsigned int n_mcast6; /* --mcast6 */
	uint8_t mcast6[PATH_MAX_MCAST6][16];
	unsigned int n_udp_ports;
	uint16_t udp_ports[APP_MAX_PORT_RANGES][2];
	bool udp_ports_set;
	unsigned int n_udplite_ports;	/* --udplite-ports */
	uint16_t udplite_ports[APP_MAX_PORT_RANGES][2];
	bool kernel_netlabel;		/* --netlabel: CONFIG_NETLABEL */
	bool kernel_pim;		/* --pim: CONFIG_IP_PIMSM_V2 */
	struct path_vlans vlan;		/* --vlan: every port's VLAN devices */

	/* ingress */
	enum app_ingress_kind ingress_kind;
	char filter[1024];		/* --filter EXPR */
	struct ingress_verdict_conf filter_verdict;
	char bpf_obj[PATH_MAX];
	char bpf_sec[64];
	struct pktbpf_conf bpf;		/* --bpf-engine, --bpf-jit,
					   --filter-netmask, --bpf-load-timeout */
	enum ingress_mode ingress_mode;
	enum ingress_scope lock_scope;
	char rules[PATH_MAX];
	char rules_alt[PATH_MAX];
	double update_rate;	/* rule replacements per second, 0: none */
	uint32_t gp_log_us;	/* log grace periods slower than this */
	struct app_compare cmp; /* --compare, --baseline */
	unsigned int rounds;
	double phase_warmup_s;	/* --compare: settle time before each phase */

	/* the inetpeer-like stage */
	bool peer;
	enum peer_layout peer_layout;
	uint32_t peers;		/* 0: one per generator source address */
	uint32_t peer_share;	/* % of the address blocks all workers share */

	/* IPv4 reassembly, per worker (ipfrag_high_thresh, ipfrag_time) */
	uint64_t frag_high; /* bytes */
	uint32_t frag_time; /* seconds */
	/* IPv6 reassembly, per worker (ip6frag_high_thresh, ip6frag_time) */
	uint64_t frag6_high; /* bytes */
	uint32_t frag6_time; /* seconds */
	/* ICMP rate limits, per worker (icmp_msgs_per_sec, icmp_msgs_burst,
	 * net.ipv6.icmp.ratelimit) */
	uint32_t icmp_msgs_per_sec;
	uint32_t icmp_msgs_burst;
	uint32_t icmp6_ratelimit; /* ms */

	/* stats endpoint */
	char http[128];		/* "ADDR:PORT", or "" for off */
	bool http_control;
	bool metrics_lcore_mib;

	/* capture */
	char capture[PATH_MAX];
	enum pkt_capture_what capture_what;
	uint64_t capture_max;
	uint32_t capture_ring;
	uint32_t capture_snaplen;

	/* which options were given, bit i for the option table's row i: an
	 * option's effect is judged by it after the parse as during it */
#define APP_OPT_GIVEN_WORDS 4
	uint64_t given[APP_OPT_GIVEN_WORDS];
};

/* An option's value in a run, for the JSON's run information (main.c). */
struct app_option_value {
	char key[48]; /* the name, '-' as '_'; "_s" after a SECONDS */
	enum {
		APP_VAL_UINT,
		APP_VAL_DOUBLE,
		APP_VAL_BOOL,
		APP_VAL_TEXT
	} type;
	uint64_t u;
	double d;
	bool b;
	const char *text;		 /* in the table, in o, or in list */
	char list[APP_MAX_COMPARE * 16]; /* a compared knob's values */
};

/*
 * The i-th option of the table (options_info.c), if it has a value of its
 * own (a number, on/off, a choice, a file name: not one a setter parses)
 * that has an effect in o (its needs met, as far as o says: an option
 * whose need is another's being given counts as not met) and is not the
 * run's own output: 1 with *v; 0 for an option without; -1 past the last.
 * A knob of --compare is the values the phases ran, whatever the
 * option's type: text, its values as --compare lists them ("field,lcore",
 * "16,32"), not the option's default, which no phase may have run.
 */
int app_options_value(const struct app_options *o, unsigned int i,
		      struct app_option_value *v);

/*
 * The banner's variant knobs (options_info.c): each option that defines a
 * variant (burst, fold, mib-layout, alloc, prefetch, peer, peer-layout,
 * ingress, lock-scope) that has an effect in o, with its value, or its
 * values and "compared" for --compare's knobs: "burst 32, fold lcore, ...,
 * ingress lock|rcu (compared)", into buf.
 */
const char *app_options_variant_text(const struct app_options *o, char *buf, size_t len);

/* True if the run needs the ingress hook object (any ingress option). */
bool app_options_want_ingress(const struct app_options *o);

/*
 * Parse argc/argv (argv[0] is the program name, as after rte_eal_init()).
 * Returns 0; 1 if --help, --help-ini or --help-markdown was printed (exit
 * 0); -1 on a user error, with one line naming the option (or the file and
 * line) already printed on stderr.
 */
int app_options_parse(int argc, char **argv, struct app_options *o);

/* Defaults: every option's table default, applied by its own parser. */
void app_options_default(struct app_options *o);

/* What the help options print. */
enum app_help { APP_HELP_NONE, APP_HELP_USAGE, APP_HELP_INI, APP_HELP_MARKDOWN };

/* --help: usage and every option, its argument, range and default. */
void app_options_usage(FILE *f, const char *prog);
/* --help-ini: every option as an INI file for --config (config/default.ini). */
void app_options_ini(FILE *f);
/* --help-markdown: the options table of app/pktpath/README.md. */
void app_options_markdown(FILE *f);
/* Print what h asks for (APP_HELP_NONE prints nothing). */
void app_options_help(FILE *f, enum app_help h, const char *prog);

/*
 * The help option among the application's arguments (after the first "--"
 * of argv, spelled in full: --help, -h, --help-ini, --help-markdown), so
 * that main() prints it before EAL starts; APP_HELP_NONE if there is none.
 */
enum app_help app_options_wants_help(int argc, char **argv);

const char *app_source_name(enum app_source s);
const char *app_path_name(enum app_path p);

/* pkt_pool_create() flags for --pool-layout and --pool-order. */
static inline unsigned int
app_pool_flags(const struct app_options *o)
{
	return pkt_pool_flags(o->pool_layout, o->pool_order);
}

#endif
