/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command line and INI options. One table drives getopt_long, the INI keys
 * (rte_cfgfile) and --help, so the three can never disagree.
 */
#include <ctype.h>
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <rte_cfgfile.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "options.h"
#include "stats.h"

#define ERR_LEN 256

typedef int (*opt_set_fn)(struct app_options *o, const char *v, char *err);

struct opt_def {
	const char *name;
	const char *arg;	/* NULL: a flag */
	opt_set_fn set;
	const char *help;
};

static const char *const source_names[] = {
	[APP_SRC_GEN] = "gen", [APP_SRC_PORT] = "port" };
static const char *const path_names[] = {
	[APP_PATH_FULL] = "full", [APP_PATH_RXONLY] = "rx-only" };

const char *
app_source_name(enum app_source s)
{
	return (unsigned int)s < APP_SRC_MAX ? source_names[s] : "?";
}

const char *
app_path_name(enum app_path p)
{
	return (unsigned int)p < APP_PATH_MAX ? path_names[p] : "?";
}

/* ---- value parsers: 0 or -1 with err filled ---- */

static int
__parse_u64(const char *v, uint64_t lo, uint64_t hi, uint64_t *out, char *err)
{
	char *end;
	unsigned long long x;

	if (v == NULL || *v == '\0' || *v == '-' || isspace((unsigned char)*v))
		goto bad;
	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno != 0 || *end != '\0')
		goto bad;
	if (x < lo || x > hi) {
		snprintf(err, ERR_LEN, "'%s' is out of range %" PRIu64 "..%" PRIu64,
			 v, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not a number", v ? v : "");
	return -1;
}

static int
__parse_double(const char *v, double lo, double hi, double *out, char *err)
{
	char *end;
	double x;

	if (v == NULL || *v == '\0')
		goto bad;
	errno = 0;
	x = strtod(v, &end);
	if (errno != 0 || *end != '\0' || isnan(x))
		goto bad;
	if (x < lo || x > hi) {
		snprintf(err, ERR_LEN, "'%s' is out of range %g..%g", v, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not a number", v ? v : "");
	return -1;
}

static int
__parse_bool(const char *v, bool *out, char *err)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	unsigned int i;

	for (i = 0; v != NULL && i < RTE_DIM(yes); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	snprintf(err, ERR_LEN, "'%s' is not on/off", v ? v : "");
	return -1;
}

static int
__choice(const char *v, const char *const *names, unsigned int n, int *out,
	 char *err)
{
	char list[128] = "";
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (v != NULL && strcmp(v, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
		strncat(list, i ? "|" : "", sizeof(list) - strlen(list) - 1);
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
	}
	snprintf(err, ERR_LEN, "'%s' is not one of %s", v ? v : "", list);
	return -1;
}

static int
__ipv4(const char *v, uint32_t *out)
{
	struct in_addr a;

	if (v == NULL || inet_pton(AF_INET, v, &a) != 1)
		return -1;
	*out = rte_be_to_cpu_32(a.s_addr);
	return 0;
}

/* "A" or "A-B" */
static int
__ip_range(const char *v, uint32_t *lo, uint32_t *hi, char *err)
{
	char buf[64];
	char *dash;

	if (v == NULL || strlen(v) >= sizeof(buf))
		goto bad;
	strcpy(buf, v);
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash++ = '\0';
	if (__ipv4(buf, lo) != 0 || __ipv4(dash ? dash : buf, hi) != 0)
		goto bad;
	if (*lo > *hi) {
		snprintf(err, ERR_LEN, "'%s': range is reversed", v);
		return -1;
	}
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not an IPv4 address or range A-B", v ? v : "");
	return -1;
}

/* "P" or "P-Q" */
static int
__port_range(const char *v, uint16_t *lo, uint16_t *hi, char *err)
{
	char buf[32];
	char *dash;
	uint64_t a, b;

	if (v == NULL || strlen(v) >= sizeof(buf))
		goto bad;
	strcpy(buf, v);
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash++ = '\0';
	if (__parse_u64(buf, 0, 65535, &a, err) != 0 ||
	    __parse_u64(dash ? dash : buf, 0, 65535, &b, err) != 0)
		goto bad;
	if (a > b) {
		snprintf(err, ERR_LEN, "'%s': range is reversed", v);
		return -1;
	}
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not a port or range P-Q (0..65535)", v ? v : "");
	return -1;
}

/* ---- setters ---- */

#define SET_CHOICE(fn, field, names, n, type)				\
static int fn(struct app_options *o, const char *v, char *err)		\
{									\
	int x;								\
	if (__choice(v, names, n, &x, err) != 0)			\
		return -1;						\
	o->field = (type)x;						\
	return 0;							\
}

/* A setter for an integer option in [lo, hi]. */
#define SET_UINT(fn, field, type, lo, hi)				\
static int fn(struct app_options *o, const char *v, char *err)		\
{									\
	uint64_t x;							\
	if (__parse_u64(v, lo, hi, &x, err) != 0)			\
		return -1;						\
	o->field = (type)x;						\
	return 0;							\
}

static const char *const layout_names[] = { "percpu", "shared" };
static const char *const fold_names[] = { "field", "lcore" };
static const char *const alloc_names[] = { "reuse", "bulk" };

SET_CHOICE(set_source, source, source_names, APP_SRC_MAX, enum app_source)
SET_CHOICE(set_path, path, path_names, APP_PATH_MAX, enum app_path)
SET_CHOICE(set_layout, mib_layout, layout_names, MIB_LAYOUT_MAX, enum mib_layout)
SET_CHOICE(set_fold, fold, fold_names, MIB_FOLD_MAX, enum mib_fold)
SET_CHOICE(set_alloc, alloc, alloc_names, PKT_ALLOC_MAX, enum pkt_alloc)

static const char *const pool_layout_names[] = { "page", "packed" };
SET_CHOICE(set_pool_layout, pool_packed, pool_layout_names, 2, bool)
static const char *const pool_order_names[] = { "address", "shuffle" };
SET_CHOICE(set_pool_order, pool_shuffle, pool_order_names, 2, bool)

static int set_duration(struct app_options *o, const char *v, char *err)
{ return __parse_double(v, 0, 1e7, &o->duration_s, err); }
static int set_interval(struct app_options *o, const char *v, char *err)
{ return __parse_double(v, 0.01, 3600, &o->interval_s, err); }
static int set_warmup(struct app_options *o, const char *v, char *err)
{ return __parse_double(v, 0, 3600, &o->warmup_s, err); }
static int set_quiet(struct app_options *o, const char *v, char *err)
{ (void)v; (void)err; o->quiet = true; return 0; }
static int set_main_worker(struct app_options *o, const char *v, char *err)
{ (void)v; (void)err; o->main_worker = true; return 0; }
static int set_prefetch(struct app_options *o, const char *v, char *err)
{ return __parse_bool(v, &o->prefetch, err); }
static int set_promisc(struct app_options *o, const char *v, char *err)
{ return __parse_bool(v, &o->promisc, err); }
static int set_udp_csum(struct app_options *o, const char *v, char *err)
{ return __parse_bool(v, &o->flow.udp_csum, err); }

static int
__path_arg(const char *v, char *dst, char *err)
{
	if (v == NULL || *v == '\0' || strlen(v) >= PATH_MAX) {
		snprintf(err, ERR_LEN, "needs a file name");
		return -1;
	}
	strcpy(dst, v);
	return 0;
}

static int set_json(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->json, err); }
static int set_config(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->config, err); }
static int set_template(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->template_file, err); }

SET_UINT(set_burst, burst, uint16_t, 1, APP_MAX_BURST)

SET_UINT(set_pkt_size, flow.pkt_size, uint16_t, PKT_MIN_SIZE, PKT_MAX_SIZE)

SET_UINT(set_flows, flow.flows, uint32_t, 1, 1u << 20)

SET_UINT(set_tos, flow.tos, uint8_t, 0, 255)

SET_UINT(set_mbufs, mbufs, uint32_t, 1024, 1u << 24)

SET_UINT(set_rxd, rxd, uint16_t, 32, 16384)

static int set_src(struct app_options *o, const char *v, char *err)
{ return __ip_range(v, &o->flow.src_lo, &o->flow.src_hi, err); }
static int set_dst(struct app_options *o, const char *v, char *err)
{ return __ip_range(v, &o->flow.dst_lo, &o->flow.dst_hi, err); }
static int set_sport(struct app_options *o, const char *v, char *err)
{ return __port_range(v, &o->flow.sport_lo, &o->flow.sport_hi, err); }
static int set_dport(struct app_options *o, const char *v, char *err)
{ return __port_range(v, &o->flow.dport_lo, &o->flow.dport_hi, err); }

static int
__mac(const char *v, struct rte_ether_addr *out, char *err)
{
	if (v == NULL || rte_ether_unformat_addr(v, out) != 0) {
		snprintf(err, ERR_LEN, "'%s' is not a MAC address", v ? v : "");
		return -1;
	}
	return 0;
}

static int set_src_mac(struct app_options *o, const char *v, char *err)
{ return __mac(v, &o->flow.src_mac, err); }
static int set_dst_mac(struct app_options *o, const char *v, char *err)
{ return __mac(v, &o->flow.dst_mac, err); }

/* Iterate a comma-separated list. */
static int
__list(const char *v, int (*item)(struct app_options *, const char *, char *),
       struct app_options *o, char *err)
{
	char buf[4096];
	char *save = NULL, *tok;

	if (v == NULL || *v == '\0' || strlen(v) >= sizeof(buf)) {
		snprintf(err, ERR_LEN, "needs a non-empty list");
		return -1;
	}
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save))
		if (item(o, tok, err) != 0)
			return -1;
	return 0;
}

static int
__local_item(struct app_options *o, const char *t, char *err)
{
	char buf[64];
	char *slash;
	uint32_t a;
	uint64_t plen = 32;

	if (strlen(t) >= sizeof(buf))
		goto bad;
	strcpy(buf, t);
	slash = strchr(buf, '/');
	if (slash != NULL) {
		*slash++ = '\0';
		if (__parse_u64(slash, 0, 32, &plen, err) != 0)
			goto bad;
	}
	if (__ipv4(buf, &a) != 0)
		goto bad;
	if (o->n_local >= PATH_MAX_LOCAL) {
		snprintf(err, ERR_LEN, "more than %d local addresses", PATH_MAX_LOCAL);
		return -1;
	}
	o->local[o->n_local].addr = a;
	o->local[o->n_local].prefix_len = (uint8_t)plen;
	o->n_local++;
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not an address A.B.C.D[/LEN]", t);
	return -1;
}

static int set_local(struct app_options *o, const char *v, char *err)
{
	o->n_local = 0;
	return __list(v, __local_item, o, err);
}

static int
__mcast_item(struct app_options *o, const char *t, char *err)
{
	uint32_t a;

	if (__ipv4(t, &a) != 0 || (a >> 28) != 0xe) {
		snprintf(err, ERR_LEN, "'%s' is not a multicast group (224.0.0.0/4)", t);
		return -1;
	}
	if (o->n_mcast >= PATH_MAX_MCAST - 1) {
		snprintf(err, ERR_LEN, "more than %d groups", PATH_MAX_MCAST - 1);
		return -1;
	}
	o->mcast[o->n_mcast++] = a;
	return 0;
}

static int set_mcast(struct app_options *o, const char *v, char *err)
{
	o->n_mcast = 0;
	return __list(v, __mcast_item, o, err);
}

static int
__udp_item(struct app_options *o, const char *t, char *err)
{
	uint16_t lo, hi;

	if (__port_range(t, &lo, &hi, err) != 0)
		return -1;
	if (o->n_udp_ports >= APP_MAX_PORT_RANGES) {
		snprintf(err, ERR_LEN, "more than %d port ranges", APP_MAX_PORT_RANGES);
		return -1;
	}
	o->udp_ports[o->n_udp_ports][0] = lo;
	o->udp_ports[o->n_udp_ports][1] = hi;
	o->n_udp_ports++;
	return 0;
}

static int set_udp_ports(struct app_options *o, const char *v, char *err)
{
	o->n_udp_ports = 0;
	o->udp_ports_set = true;
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	return __list(v, __udp_item, o, err);
}

/* LCORE:PORT.QUEUE */
static int
__rxq_item(struct app_options *o, const char *t, char *err)
{
	unsigned int lcore, port, queue;
	char tail;

	if (sscanf(t, "%u:%u.%u%c", &lcore, &port, &queue, &tail) != 3 ||
	    lcore >= RTE_MAX_LCORE || port >= RTE_MAX_ETHPORTS || queue > 1023) {
		snprintf(err, ERR_LEN, "'%s' is not LCORE:PORT.QUEUE", t);
		return -1;
	}
	if (o->n_rxq >= RTE_MAX_LCORE) {
		snprintf(err, ERR_LEN, "too many entries");
		return -1;
	}
	o->rxq[o->n_rxq].lcore = lcore;
	o->rxq[o->n_rxq].port = (uint16_t)port;
	o->rxq[o->n_rxq].queue = (uint16_t)queue;
	o->n_rxq++;
	return 0;
}

static int set_rxq(struct app_options *o, const char *v, char *err)
{
	o->n_rxq = 0;
	return __list(v, __rxq_item, o, err);
}

static int set_ingress(struct app_options *o, const char *v, char *err)
{
	static const char *const names[] = { "off", "none", "lock", "rwlock", "rcu" };
	int x;

	if (__choice(v, names, INGRESS_MODE_MAX, &x, err) != 0)
		return -1;
	o->ingress_mode = (enum ingress_mode)x;
	return 0;
}

static int set_lock_scope(struct app_options *o, const char *v, char *err)
{
	static const char *const names[] = { "packet", "burst" };
	int x;

	if (__choice(v, names, INGRESS_SCOPE_MAX, &x, err) != 0)
		return -1;
	o->lock_scope = (enum ingress_scope)x;
	return 0;
}

static const char *const kind_names[] = { "rules", "pcap-filter", "bpf" };
SET_CHOICE(set_ingress_kind, ingress_kind, kind_names, APP_KIND_MAX,
	   enum app_ingress_kind)

static int set_filter(struct app_options *o, const char *v, char *err)
{
	if (v == NULL || strlen(v) >= sizeof(o->filter)) {
		snprintf(err, ERR_LEN, "expression missing or longer than %zu bytes",
			 sizeof(o->filter) - 1);
		return -1;
	}
	strcpy(o->filter, v);
	return 0;
}

/* drop | pass | mark N (also mark:N, mark=N) */
static int set_filter_action(struct app_options *o, const char *v, char *err)
{
	uint64_t m;

	memset(&o->filter_verdict, 0, sizeof(o->filter_verdict));
	if (v != NULL && strcmp(v, "drop") == 0) {
		o->filter_verdict.action = INGRESS_ACT_DROP;
		return 0;
	}
	if (v != NULL && strcmp(v, "pass") == 0)
		return 0;
	if (v != NULL && strncmp(v, "mark", 4) == 0 &&
	    (v[4] == ' ' || v[4] == ':' || v[4] == '=') &&
	    __parse_u64(v + 5, 0, UINT32_MAX, &m, err) == 0) {
		o->filter_verdict.marked = 1;
		o->filter_verdict.mark = (uint32_t)m;
		return 0;
	}
	snprintf(err, ERR_LEN, "'%s' is not drop, pass or 'mark N'", v ? v : "");
	return -1;
}

static int set_bpf_obj(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->bpf_obj, err); }

static int set_bpf_sec(struct app_options *o, const char *v, char *err)
{
	if (v == NULL || *v == '\0' || strlen(v) >= sizeof(o->bpf_sec)) {
		snprintf(err, ERR_LEN, "needs a section name of at most %zu bytes",
			 sizeof(o->bpf_sec) - 1);
		return -1;
	}
	strcpy(o->bpf_sec, v);
	return 0;
}

static int set_bpf_jit(struct app_options *o, const char *v, char *err)
{
	bool on;

	if (__parse_bool(v, &on, err) != 0)
		return -1;
	o->bpf.engine = on ? INGRESS_BPF_JIT : INGRESS_BPF_INTERP;
	return 0;
}

static int set_bpf_engine(struct app_options *o, const char *v, char *err)
{
	if (ingress_bpf_engine_parse(v, &o->bpf.engine) == 0)
		return 0;
	snprintf(err, ERR_LEN, "'%s' is not one of jit|interp|libpcap", v ? v : "");
	return -1;
}

static int set_filter_netmask(struct app_options *o, const char *v, char *err)
{
	if (__ipv4(v, &o->bpf.netmask) == 0 && v[0] != '\0')
		return 0;
	snprintf(err, ERR_LEN, "'%s' is not an IPv4 netmask A.B.C.D", v ? v : "");
	return -1;
}

static int set_bpf_load_timeout(struct app_options *o, const char *v, char *err)
{ return __parse_double(v, 0.01, 3600, &o->bpf.load_timeout_s, err); }

static int set_rules(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->rules, err); }
static int set_rules_alt(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->rules_alt, err); }
static int set_update_rate(struct app_options *o, const char *v, char *err)
{ return __parse_double(v, 0, 1e6, &o->update_rate, err); }
static int set_phase_warmup(struct app_options *o, const char *v, char *err)
{ return __parse_double(v, 0, 60, &o->phase_warmup_s, err); }

SET_UINT(set_gp_log_us, gp_log_us, uint32_t, 0, 60000000)

static int set_rounds(struct app_options *o, const char *v, char *err)
{
	uint64_t x;

	if (__parse_u64(v, 1, 1000, &x, err) != 0)
		return -1;
	o->rounds = (unsigned int)x;
	return 0;
}

static int
__compare_item(struct app_options *o, const char *t, char *err)
{
	enum ingress_mode m;
	unsigned int i;

	if (set_ingress(o, t, err) != 0)
		return -1;
	m = o->ingress_mode;
	for (i = 0; i < o->n_compare; i++)
		if (o->compare[i] == m) {
			snprintf(err, ERR_LEN, "'%s' is listed twice", t);
			return -1;
		}
	if (o->n_compare >= APP_MAX_COMPARE) {
		snprintf(err, ERR_LEN, "more than %d modes", APP_MAX_COMPARE);
		return -1;
	}
	o->compare[o->n_compare++] = m;
	return 0;
}

static int set_compare(struct app_options *o, const char *v, char *err)
{
	enum ingress_mode keep = o->ingress_mode;
	int rc;

	o->n_compare = 0;
	rc = __list(v, __compare_item, o, err);
	o->ingress_mode = keep;
	return rc;
}

static int set_capture(struct app_options *o, const char *v, char *err)
{ return __path_arg(v, o->capture, err); }

static const char *const capture_names[] = { "drops", "marked", "all" };
SET_CHOICE(set_capture_what, capture_what, capture_names, PKT_CAPTURE_MAX,
	   enum pkt_capture_what)

static int set_capture_max(struct app_options *o, const char *v, char *err)
{ return __parse_u64(v, 0, UINT64_MAX, &o->capture_max, err); }

SET_UINT(set_capture_ring, capture_ring, uint32_t, 16, 1u << 20)

SET_UINT(set_capture_snaplen, capture_snaplen, uint32_t, 14, 65535)

static int set_peer(struct app_options *o, const char *v, char *err)
{ return __parse_bool(v, &o->peer, err); }

static const char *const peer_layout_names[] = { "shared", "split" };
SET_CHOICE(set_peer_layout, peer_layout, peer_layout_names, PEER_LAYOUT_MAX,
	   enum peer_layout)

SET_UINT(set_peers, peers, uint32_t, 1, PEER_MAX)

static int set_http(struct app_options *o, const char *v, char *err)
{
	char why[ERR_LEN / 2];

	if (v != NULL && strcmp(v, "off") == 0) {
		o->http[0] = '\0';
		return 0;
	}
	if (v == NULL || strlen(v) >= sizeof(o->http)) {
		snprintf(err, ERR_LEN, "address too long");
		return -1;
	}
	if (stats_http_check_listen(v, why, sizeof(why)) != 0) {
		snprintf(err, ERR_LEN, "%s", why);
		return -1;
	}
	strcpy(o->http, v);
	return 0;
}
static int set_http_control(struct app_options *o, const char *v, char *err)
{ (void)v; (void)err; o->http_control = true; return 0; }
static int set_metrics_lcore_mib(struct app_options *o, const char *v, char *err)
{ (void)v; (void)err; o->metrics_lcore_mib = true; return 0; }

static const struct opt_def opt_defs[] = {
	{ "config", "FILE", set_config, "read options from an INI file, section [pktpath] (the command line overrides it)" },
	{ "source", "gen|port", set_source, "packet source: the built-in generator or ethdev ports (default gen)" },
	{ "path", "full|rx-only", set_path, "full receive path, or receive+free only: the testpmd rxonly baseline (default full)" },
	{ "duration", "SECONDS", set_duration, "run time; 0 runs until SIGINT/SIGTERM (default 10)" },
	{ "interval", "SECONDS", set_interval, "stats fold/report interval (default 1)" },
	{ "warmup", "SECONDS", set_warmup, "steady-state figures start after this (default 1)" },
	{ "json", "FILE", set_json, "write the run summary, MIB totals and per-lcore values as JSON" },
	{ "quiet", NULL, set_quiet, "no per-interval lines, only the summary" },
	{ "burst", "N", set_burst, "packets per burst, 1..512 (default 32)" },
	{ "main-worker", NULL, set_main_worker, "the main lcore runs a receive loop too" },
	{ "mib-layout", "percpu|shared", set_layout, "per-lcore MIB blocks, or all lcores interleaved in shared cache lines (default percpu)" },
	{ "fold", "field|lcore", set_fold, "fold strategy: per field over lcores (snmp_fold_field) or per lcore over fields (default lcore)" },
	{ "pkt-size", "BYTES", set_pkt_size, "generated frame size without FCS, 42..9000 (default 60)" },
	{ "flows", "N", set_flows, "distinct generated flows, range mode (default 64)" },
	{ "src", "A[-B]", set_src, "generated source addresses (default 198.18.0.1-198.18.0.254)" },
	{ "dst", "A[-B]", set_dst, "generated destination addresses (default 198.19.0.1)" },
	{ "sport", "P[-Q]", set_sport, "generated UDP source ports (default 1024-65535)" },
	{ "dport", "P[-Q]", set_dport, "generated UDP destination ports (default 9)" },
	{ "src-mac", "MAC", set_src_mac, "generated source MAC (default 02:00:00:00:00:02)" },
	{ "dst-mac", "MAC", set_dst_mac, "generated destination MAC (default 02:00:00:00:00:01, the generator port's own: another MAC makes every frame PACKET_OTHERHOST)" },
	{ "tos", "N", set_tos, "generated IP TOS byte, DSCP and ECN (default 0)" },
	{ "udp-csum", "on|off", set_udp_csum, "generate UDP checksums, like pktgen UDPCSUM (default off: checksum 0)" },
	{ "template", "FILE.pcap", set_template, "generate the frames of a pcap file, round-robin, instead of synthesised ones" },
	{ "alloc", "reuse|bulk", set_alloc, "generator mbufs: recycled (pktgen clone_skb) or bulk alloc/free every burst (default reuse)" },
	{ "prefetch", "on|off", set_prefetch, "prefetch the next packet's header while processing one (default on)" },
	{ "pool-layout", "page|packed", set_pool_layout, "mbuf pools: rte_pktmbuf_pool_create()'s (page: with --no-huge one mbuf per 4 KiB page, all at the same offset) or back to back as on hugepages (packed; needs IOVA as VA) (default page)" },
	{ "pool-order", "address|shuffle", set_pool_order, "the order a new pool hands out its mbufs: as created (address: a loop recycles consecutive pages) or a fixed pseudo-random one, as a pool in use for a while (default shuffle)" },
	{ "mbufs", "N", set_mbufs, "mbufs per generator worker pool, and at least this many per port pool (default 8191)" },
	{ "rxq", "L:P.Q,...", set_rxq, "port source: lcore L polls port P queue Q (default: workers over port 0.., queue per worker)" },
	{ "rxd", "N", set_rxd, "RX descriptors per queue (default 1024)" },
	{ "promisc", "on|off", set_promisc, "port source: promiscuous mode (default off)" },
	{ "local", "A/L,...", set_local, "local addresses with their prefix (default: the generator's destinations, /24)" },
	{ "mcast", "G,...", set_mcast, "joined multicast groups (224.0.0.1 always is)" },
	{ "udp-ports", "P[-Q],...|none", set_udp_ports, "UDP ports with a listener (default: the generator's destination ports)" },
	{ "ingress", "off|none|lock|rwlock|rcu", set_ingress, "ingress hook guard: off (no hook), none (unguarded), spinlock, rwlock or RCU (default off)" },
	{ "lock-scope", "packet|burst", set_lock_scope, "classify (and lock) per packet, like the old ingress qdisc, or per burst (default packet)" },
	{ "ingress-kind", "rules|pcap-filter|bpf", set_ingress_kind, "classifier kind: rules (--rules), a tcpdump expression (--filter) or an eBPF object (--bpf-obj) (default rules)" },
	{ "filter", "EXPR", set_filter, "pcap-filter: the tcpdump expression (libpcap -> pktpath's eBPF conversion -> rte_bpf, or libpcap itself: see --bpf-engine)" },
	{ "filter-action", "drop|pass|mark N", set_filter_action, "pcap-filter: what a match does (default drop)" },
	{ "bpf-obj", "FILE.o", set_bpf_obj, "bpf: the eBPF ELF object (e.g. build/config/bpf/drop_udp_port.o)" },
	{ "bpf-sec", "NAME", set_bpf_sec, "bpf: the program's section or name (default classifier)" },
	{ "bpf-jit", "on|off", set_bpf_jit, "pcap-filter and bpf: --bpf-engine jit (on) or interp (off) (default on)" },
	{ "bpf-engine", "jit|interp|libpcap", set_bpf_engine, "pcap-filter and bpf: rte_bpf's JIT (its code checked, else the interpreter), rte_bpf's interpreter, or libpcap's own (pcap-filter only; also what runs filters rte_bpf cannot) (default jit)" },
	{ "filter-netmask", "A.B.C.D", set_filter_netmask, "pcap-filter: the netmask 'ip broadcast' uses (default 0.0.0.0, as tcpdump -r)" },
	{ "bpf-load-timeout", "SECONDS", set_bpf_load_timeout, "pcap-filter and bpf: longest rte_bpf_load may verify a program (default 5)" },
	{ "rules", "FILE", set_rules, "ingress rules file (default: no rule, default pass); SIGHUP reloads it" },
	{ "rules-alt", "FILE", set_rules_alt, "the second ruleset --update-rate alternates with (default: no rule, default pass)" },
	{ "update-rate", "N", set_update_rate, "replace the ruleset N times a second from a control thread (default 0)" },
	{ "gp-log-us", "US", set_gp_log_us, "log RCU grace periods slower than this (default 1000)" },
	{ "compare", "MODE,...", set_compare, "run the modes as back-to-back phases of --duration each and print the comparison table" },
	{ "rounds", "N", set_rounds, "--compare: rounds, phases interleaved A B C A B C... (default 3)" },
	{ "phase-warmup", "SECONDS", set_phase_warmup, "--compare: settle time before each measured phase (default 0.5)" },
	{ "peer", "on|off", set_peer, "inetpeer-like stage for delivered packets: source lookup, get, touch, put (default off)" },
	{ "peer-layout", "shared|split", set_peer_layout, "refcount and last-use on the key's cache line, or on their own (default shared)" },
	{ "peers", "N", set_peers, "peers in the table, from the first --src address (default: one per --src address)" },
	{ "http", "ADDR:PORT|off", set_http, "stats endpoint (/metrics, /snmp, /netstat, /stats.json); port 0 picks a free one; IPv6 as [::1]:PORT (default 127.0.0.1:9120)" },
	{ "http-control", NULL, set_http_control, "serve the control endpoints: POST /ingress/mode, /ingress/rules, /stats/clear" },
	{ "metrics-lcore-mib", NULL, set_metrics_lcore_mib, "/metrics: every MIB field per worker lcore too (large)" },
	{ "capture", "FILE.pcap", set_capture, "copy chosen packets to per-worker rings, written to FILE.pcap by a control thread" },
	{ "capture-what", "drops|marked|all", set_capture_what, "which packets --capture copies (default drops)" },
	{ "capture-max", "N", set_capture_max, "capture at most N packets; 0: no limit (default 0)" },
	{ "capture-ring", "N", set_capture_ring, "slots per worker ring; a full ring counts CaptureOverflow (default 4096)" },
	{ "capture-snaplen", "BYTES", set_capture_snaplen, "bytes copied per packet (default 2048)" },
};

void
app_options_default(struct app_options *o)
{
	memset(o, 0, sizeof(*o));
	o->source = APP_SRC_GEN;
	o->path = APP_PATH_FULL;
	o->duration_s = 10;
	o->interval_s = 1;
	o->warmup_s = 1;
	o->burst = 32;
	o->mib_layout = MIB_LAYOUT_PERCPU;
	o->fold = MIB_FOLD_LCORE;
	pkt_flow_conf_default(&o->flow);
	o->alloc = PKT_ALLOC_REUSE;
	o->prefetch = true;
	o->mbufs = 8191;
	o->pool_shuffle = true;
	o->rxd = 1024;
	o->promisc = false;
	o->ingress_mode = INGRESS_OFF;
	o->ingress_kind = APP_KIND_RULES;
	o->filter_verdict.action = INGRESS_ACT_DROP;
	strcpy(o->bpf_sec, "classifier");
	ingress_bpf_conf_init(&o->bpf);
	o->lock_scope = INGRESS_SCOPE_PACKET;
	o->gp_log_us = 1000;
	o->rounds = 3;
	o->phase_warmup_s = 0.5;
	strcpy(o->http, "127.0.0.1:9120");
	o->peer_layout = PEER_LAYOUT_SHARED;
	o->capture_what = PKT_CAPTURE_DROPS;
	o->capture_ring = 4096;
	o->capture_snaplen = 2048;
}

bool
app_options_want_ingress(const struct app_options *o)
{
	return o->ingress_mode != INGRESS_OFF || o->rules[0] != '\0' ||
	       o->ingress_kind != APP_KIND_RULES ||
	       o->rules_alt[0] != '\0' || o->update_rate > 0 || o->n_compare > 0;
}

void
app_options_usage(const char *prog)
{
	unsigned int i;

	printf("usage: %s [EAL options] -- [options]\n\n", prog);
	for (i = 0; i < RTE_DIM(opt_defs); i++) {
		char head[64];

		snprintf(head, sizeof(head), "--%s%s%s", opt_defs[i].name,
			 opt_defs[i].arg ? " " : "",
			 opt_defs[i].arg ? opt_defs[i].arg : "");
		printf("  %-28s %s\n", head, opt_defs[i].help);
	}
	printf("  %-28s %s\n", "--help", "this text");
	printf("\nEAL without NIC or hugepages: -l 0-1 --no-huge --no-shconf -m 512 "
	       "[--vdev net_null0]\n");
}

static const struct opt_def *
__find(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(opt_defs); i++)
		if (strcmp(opt_defs[i].name, name) == 0)
			return &opt_defs[i];
	return NULL;
}

/* Line of the first "key =" in file, for messages (0 if not found). */
static unsigned int
__ini_line_of(const char *file, const char *key)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	unsigned int n = 0;
	size_t kl = strlen(key);

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = line;

		n++;
		while (isspace((unsigned char)*p))
			p++;
		if (strncmp(p, key, kl) == 0) {
			p += kl;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '=') {
				fclose(f);
				return n;
			}
		}
	}
	fclose(f);
	return 0;
}

/* The first line rte_cfgfile would choke on, with the reason. */
static unsigned int
__ini_syntax(const char *file, char *why)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	unsigned int n = 0;

	if (f == NULL) {
		snprintf(why, ERR_LEN, "%s", strerror(errno));
		return 0;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = line, *e;

		n++;
		while (isspace((unsigned char)*p))
			p++;
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (*p == '\0' || *p == ';' || *p == '#')
			continue;
		if (*p == '[') {
			if (e[-1] != ']') {
				snprintf(why, ERR_LEN, "section header without ']'");
				fclose(f);
				return n;
			}
			continue;
		}
		if (strchr(p, '=') == NULL) {
			snprintf(why, ERR_LEN, "expected 'key = value' or '[section]'");
			fclose(f);
			return n;
		}
	}
	fclose(f);
	snprintf(why, ERR_LEN, "cannot be parsed");
	return 0;
}

static int
__load_ini(const char *file, struct app_options *o)
{
	struct rte_cfgfile *cf;
	char err[ERR_LEN] = "";
	int nsec, i, j, nent;
	char **secs = NULL;
	struct rte_cfgfile_entry *ents = NULL;
	int rc = -1;

	/* A FIFO, a device or a huge file is not a configuration. */
	{
		struct stat st;

		if (stat(file, &st) != 0) {
			fprintf(stderr, "pktpath: --config %s: %s\n", file, strerror(errno));
			return -1;
		}
		if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20)) {
			fprintf(stderr, "pktpath: --config %s: not a regular file of at most 1 MiB\n",
				file);
			return -1;
		}
	}
	/* rte_cfgfile skips some malformed lines silently: check first. */
	{
		unsigned int line = __ini_syntax(file, err);

		if (line != 0) {
			fprintf(stderr, "pktpath: %s:%u: %s\n", file, line, err);
			return -1;
		}
	}
	cf = rte_cfgfile_load(file, CFG_FLAG_EMPTY_VALUES);
	if (cf == NULL) {
		unsigned int line = __ini_syntax(file, err);

		if (line)
			fprintf(stderr, "pktpath: %s:%u: %s\n", file, line, err);
		else
			fprintf(stderr, "pktpath: --config %s: %s\n", file, err);
		return -1;
	}
	nsec = rte_cfgfile_num_sections(cf, NULL, 0);
	secs = calloc(nsec > 0 ? nsec : 1, sizeof(*secs));
	if (secs == NULL)
		goto out;
	for (i = 0; i < nsec; i++) {
		secs[i] = malloc(CFG_NAME_LEN);
		if (secs[i] == NULL)
			goto out;
	}
	rte_cfgfile_sections(cf, secs, nsec);
	for (i = 0; i < nsec; i++) {
		if (strcmp(secs[i], "pktpath") != 0) {
			fprintf(stderr, "pktpath: %s: unknown section [%s] (only [pktpath])\n",
				file, secs[i]);
			goto out;
		}
	}
	if (rte_cfgfile_num_sections(cf, "pktpath", strlen("pktpath")) == 0) {
		fprintf(stderr, "pktpath: %s: no [pktpath] section\n", file);
		goto out;
	}
	nent = rte_cfgfile_section_num_entries(cf, "pktpath");
	ents = calloc(nent > 0 ? nent : 1, sizeof(*ents));
	if (ents == NULL)
		goto out;
	rte_cfgfile_section_entries(cf, "pktpath", ents, nent);
	for (j = 0; j < nent; j++) {
		const struct opt_def *d = __find(ents[j].name);
		unsigned int line = __ini_line_of(file, ents[j].name);
		const char *v = ents[j].value;

		if (d == NULL || strcmp(d->name, "config") == 0) {
			fprintf(stderr, "pktpath: %s:%u: unknown key '%s'\n", file,
				line, ents[j].name);
			goto out;
		}
		if (d->arg == NULL) {
			bool on;

			if (__parse_bool(v, &on, err) != 0) {
				fprintf(stderr, "pktpath: %s:%u: %s: %s\n", file, line,
					d->name, err);
				goto out;
			}
			if (!on)
				continue;
		}
		if (d->set(o, v, err) != 0) {
			fprintf(stderr, "pktpath: %s:%u: %s: %s\n", file, line,
				d->name, err);
			goto out;
		}
	}
	rc = 0;
out:
	if (secs != NULL)
		for (i = 0; i < nsec; i++)
			free(secs[i]);
	free(secs);
	free(ents);
	rte_cfgfile_close(cf);
	return rc;
}

static int
__check(struct app_options *o)
{
	if (o->n_rxq > 0 && o->source != APP_SRC_PORT) {
		fprintf(stderr, "pktpath: --rxq: only with --source port\n");
		return -1;
	}
	if (o->template_file[0] != '\0' && o->source != APP_SRC_GEN) {
		fprintf(stderr, "pktpath: --template: only with --source gen\n");
		return -1;
	}
	if (o->update_rate > 0 && o->ingress_mode == INGRESS_NONE) {
		fprintf(stderr, "pktpath: --update-rate: refused with --ingress none "
			"(unguarded readers cannot survive rule updates)\n");
		return -1;
	}
	if (o->ingress_kind == APP_KIND_PCAP_FILTER && o->filter[0] == '\0') {
		fprintf(stderr, "pktpath: --ingress-kind pcap-filter: needs --filter EXPR\n");
		return -1;
	}
	if (o->ingress_kind == APP_KIND_BPF && o->bpf_obj[0] == '\0') {
		fprintf(stderr, "pktpath: --ingress-kind bpf: needs --bpf-obj FILE\n");
		return -1;
	}
	if (o->filter[0] != '\0' && o->ingress_kind != APP_KIND_PCAP_FILTER) {
		fprintf(stderr, "pktpath: --filter: only with --ingress-kind pcap-filter\n");
		return -1;
	}
	if (o->bpf_obj[0] != '\0' && o->ingress_kind != APP_KIND_BPF) {
		fprintf(stderr, "pktpath: --bpf-obj: only with --ingress-kind bpf\n");
		return -1;
	}
	if (o->rules[0] != '\0' && o->ingress_kind != APP_KIND_RULES) {
		fprintf(stderr, "pktpath: --rules: only with --ingress-kind rules\n");
		return -1;
	}
	if (o->peer && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --peer: needs --path full\n");
		return -1;
	}
	if (o->capture[0] != '\0' && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --capture: needs --path full (rx-only touches no packet)\n");
		return -1;
	}
	if (o->n_compare > 0 && o->duration_s <= 0) {
		fprintf(stderr, "pktpath: --compare: needs --duration > 0 (the length of a phase)\n");
		return -1;
	}
	if (o->n_compare > 0 && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --compare: needs --path full\n");
		return -1;
	}
	if ((uint64_t)o->flow.dst_hi - o->flow.dst_lo >= PATH_MAX_LOCAL &&
	    o->n_local == 0) {
		fprintf(stderr, "pktpath: --dst: more than %d destinations; give --local\n",
			PATH_MAX_LOCAL);
		return -1;
	}
	return 0;
}

int
app_options_parse(int argc, char **argv, struct app_options *o)
{
	struct option lopts[RTE_DIM(opt_defs) + 2];
	char err[ERR_LEN];
	const char *prog = argc > 0 ? argv[0] : "pktpath";
	unsigned int i;
	int c, idx;

	app_options_default(o);

	/* Pass 1: the INI file, so that the command line overrides it. */
	for (c = 1; c < argc; c++) {
		const char *cfg = NULL;

		if (strcmp(argv[c], "--") == 0)
			break;
		if (strcmp(argv[c], "--config") == 0 && c + 1 < argc)
			cfg = argv[c + 1];
		else if (strncmp(argv[c], "--config=", 9) == 0)
			cfg = argv[c] + 9;
		if (cfg != NULL) {
			if (set_config(o, cfg, err) != 0) {
				fprintf(stderr, "pktpath: --config: %s\n", err);
				return -1;
			}
			if (__load_ini(cfg, o) != 0)
				return -1;
		}
	}

	for (i = 0; i < RTE_DIM(opt_defs); i++) {
		lopts[i].name = opt_defs[i].name;
		lopts[i].has_arg = opt_defs[i].arg ? required_argument : no_argument;
		lopts[i].flag = NULL;
		lopts[i].val = 256 + (int)i;
	}
	lopts[i].name = "help";
	lopts[i].has_arg = no_argument;
	lopts[i].flag = NULL;
	lopts[i].val = 'h';
	memset(&lopts[i + 1], 0, sizeof(lopts[i + 1]));

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lopts, &idx)) != -1) {
		if (c == 'h') {
			app_options_usage(prog);
			return 1;
		}
		if (c == '?') {
			if (optopt >= 256)
				fprintf(stderr, "pktpath: --%s needs a value %s\n",
					opt_defs[optopt - 256].name,
					opt_defs[optopt - 256].arg);
			else
				fprintf(stderr, "pktpath: unknown option '%s' (see --help)\n",
					argv[optind - 1]);
			return -1;
		}
		if (c == ':') {
			fprintf(stderr, "pktpath: option '%s' needs a value\n",
				argv[optind - 1]);
			return -1;
		}
		i = (unsigned int)(c - 256);
		if (i >= RTE_DIM(opt_defs))
			return -1;
		if (strcmp(opt_defs[i].name, "config") == 0)
			continue;	/* done in pass 1 */
		if (opt_defs[i].set(o, optarg, err) != 0) {
			fprintf(stderr, "pktpath: --%s: %s\n", opt_defs[i].name, err);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pktpath: unexpected argument '%s' (see --help)\n",
			argv[optind]);
		return -1;
	}
	return __check(o);
}
