/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command line and INI options. One table drives getopt_long, the INI keys
 * (ini.c) and --help, so the three can never disagree. Integers are decimal
 * everywhere (leading zeros included: 010 is ten); hexadecimal is refused.
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

#include <rte_ether.h>
#include <rte_ip.h>

#include "ini.h"
#include "options.h"
#include "export.h"

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

/* Decimal digits only: no sign, no blank, no 0x (strtoull would take
 * " +0x1f" and read "010" as octal). */
static int
__parse_u64(const char *v, uint64_t lo, uint64_t hi, uint64_t *out, char *err)
{
	const char *c;
	char *end;
	unsigned long long x;

	if (v == NULL || *v == '\0')
		goto bad;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		snprintf(err, ERR_LEN, "'%s' is not a decimal number (hexadecimal is "
			 "not accepted)", v);
		return -1;
	}
	for (c = v; *c != '\0'; c++)
		if (*c < '0' || *c > '9')
			goto bad;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno == ERANGE || x < lo || x > hi) {
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

/* A decimal number: [-]digits[.digits][e[+-]digits]; strtod alone would
 * take hexadecimal ("0x10" is 16), "inf", "nan" and leading blanks. */
static int
__parse_double(const char *v, double lo, double hi, double *out, char *err)
{
	const char *c;
	bool digit = false;
	char *end;
	double x;

	if (v == NULL || *v == '\0')
		goto bad;
	if ((v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))) {
		snprintf(err, ERR_LEN, "'%s' is not a decimal number (hexadecimal is "
			 "not accepted)", v);
		return -1;
	}
	c = v + (*v == '-');
	for (; *c >= '0' && *c <= '9'; c++)
		digit = true;
	if (*c == '.')
		for (c++; *c >= '0' && *c <= '9'; c++)
			digit = true;
	if (digit && (*c == 'e' || *c == 'E')) {
		c++;
		c += *c == '+' || *c == '-';
		if (*c < '0' || *c > '9')
			goto bad;
		while (*c >= '0' && *c <= '9')
			c++;
	}
	if (!digit || *c != '\0')
		goto bad;
	errno = 0;
	x = strtod(v, &end);
	if (*end != '\0' || isnan(x))
		goto bad;
	if (errno == ERANGE || x < lo || x > hi) {
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
	snprintf(err, ERR_LEN, "'%s' is not a port or range P-Q (decimal, 0..65535)",
		 v ? v : "");
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
	if (v == NULL || *v == '\0') {
		snprintf(err, ERR_LEN, "needs a file name");
		return -1;
	}
	if (strlen(v) >= PATH_MAX) {
		snprintf(err, ERR_LEN, "file name longer than %d characters",
			 PATH_MAX - 1);
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

static const char *const rx_csum_names[] = { "auto", "hw", "sw" };
SET_CHOICE(set_rx_csum, rx_csum, rx_csum_names, APP_CSUM_MAX, enum app_rx_csum)
static const char *const csum_partial_names[] = { "auto", "on", "off" };
SET_CHOICE(set_csum_partial, csum_partial, csum_partial_names, APP_PARTIAL_MAX,
	   enum app_csum_partial)
SET_UINT(set_mbuf_size, mbuf_size, uint16_t, 1024, 65535)
SET_UINT(set_mtu, mtu, uint16_t, 68, 65535)
static const char *const unpolled_names[] = { "refuse", "warn" };
SET_CHOICE(set_unpolled, unpolled_warn, unpolled_names, 2, bool)

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

#define LIST_MAX 4096

/* Iterate a comma-separated list; an empty item ("," or "a,,b" or "a,") is
 * an error, not "no item" (strtok would skip it and leave the default). */
static int
__list(const char *v, int (*item)(struct app_options *, const char *, char *),
       struct app_options *o, char *err)
{
	char buf[LIST_MAX];
	char *tok, *comma;

	if (v == NULL || *v == '\0') {
		snprintf(err, ERR_LEN, "needs a non-empty list");
		return -1;
	}
	if (strlen(v) >= sizeof(buf)) {
		snprintf(err, ERR_LEN, "list longer than %d characters", LIST_MAX - 1);
		return -1;
	}
	strcpy(buf, v);
	for (tok = buf; tok != NULL; tok = comma) {
		comma = strchr(tok, ',');
		if (comma != NULL)
			*comma++ = '\0';
		if (*tok == '\0') {
			snprintf(err, ERR_LEN, "'%.160s' has an empty item (items are "
				 "separated by single commas)", v);
			return -1;
		}
		if (item(o, tok, err) != 0)
			return -1;
	}
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

static int
__udplite_item(struct app_options *o, const char *t, char *err)
{
	uint16_t lo, hi;

	if (__port_range(t, &lo, &hi, err) != 0)
		return -1;
	if (o->n_udplite_ports >= APP_MAX_PORT_RANGES) {
		snprintf(err, ERR_LEN, "more than %d port ranges", APP_MAX_PORT_RANGES);
		return -1;
	}
	o->udplite_ports[o->n_udplite_ports][0] = lo;
	o->udplite_ports[o->n_udplite_ports][1] = hi;
	o->n_udplite_ports++;
	return 0;
}

static int set_udplite_ports(struct app_options *o, const char *v, char *err)
{
	o->n_udplite_ports = 0;
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	return __list(v, __udplite_item, o, err);
}
static int set_netlabel(struct app_options *o, const char *v, char *err)
{ return __parse_bool(v, &o->kernel_netlabel, err); }
static int set_pim(struct app_options *o, const char *v, char *err)
{ return __parse_bool(v, &o->kernel_pim, err); }

/* LCORE:PORT.QUEUE, three decimal numbers (sscanf's %u would take signs,
 * blanks and wrap values over 2^32). */
static int
__rxq_item(struct app_options *o, const char *t, char *err)
{
	char buf[64], *colon, *dot;
	uint64_t lcore, port, queue;
	char why[ERR_LEN];

	if (strlen(t) >= sizeof(buf))
		goto bad;
	strcpy(buf, t);
	colon = strchr(buf, ':');
	dot = colon != NULL ? strchr(colon + 1, '.') : NULL;
	if (dot == NULL)
		goto bad;
	*colon++ = '\0';
	*dot++ = '\0';
	if (__parse_u64(buf, 0, RTE_MAX_LCORE - 1, &lcore, why) != 0 ||
	    __parse_u64(colon, 0, RTE_MAX_ETHPORTS - 1, &port, why) != 0 ||
	    __parse_u64(dot, 0, 1023, &queue, why) != 0)
		goto bad;
	if (o->n_rxq >= RTE_MAX_LCORE) {
		snprintf(err, ERR_LEN, "too many entries");
		return -1;
	}
	o->rxq[o->n_rxq].lcore = (unsigned int)lcore;
	o->rxq[o->n_rxq].port = (uint16_t)port;
	o->rxq[o->n_rxq].queue = (uint16_t)queue;
	o->n_rxq++;
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not LCORE:PORT.QUEUE (decimal; lcore < %d, "
		 "port < %d, queue <= 1023)", t, RTE_MAX_LCORE, RTE_MAX_ETHPORTS);
	return -1;
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
	const char *c = v;

	while (c != NULL && isspace((unsigned char)*c))
		c++;
	/* libpcap compiles "" (and blanks) to "accept every frame". */
	if (c == NULL || *c == '\0') {
		snprintf(err, ERR_LEN, "empty expression (libpcap would match every "
			 "frame); give one, e.g. 'udp dst port 9'");
		return -1;
	}
	if (strlen(v) >= sizeof(o->filter)) {
		snprintf(err, ERR_LEN, "expression longer than %zu characters",
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
	if (export_http_check_listen(v, why, sizeof(why)) != 0) {
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
	{ "config", "FILE", set_config, "read options from an INI file: one [pktpath] section, key = value lines, ';' or '#' comment lines (the command line overrides it)" },
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
	{ "promisc", "on|off", set_promisc, "port source: promiscuous mode, restored at exit (default off)" },
	{ "rx-csum", "auto|hw|sw", set_rx_csum, "port source: RX checksum offload: hw enables and trusts the port's IPv4/UDP/TCP checksum flags, sw verifies every checksum in software, auto is hw where the port offers it (default auto)" },
	{ "rx-csum-partial", "auto|on|off", set_csum_partial, "a TCP/UDP checksum field holding the pseudo-header sum is a partial checksum (CHECKSUM_PARTIAL, valid local traffic); auto: on for net_af_packet, which loses the kernel's checksum state (default auto)" },
	{ "mbuf-size", "BYTES", set_mbuf_size, "port source: mbuf data room with its 128-byte headroom, as testpmd's (default 2176, or what net_af_packet's framesz needs)" },
	{ "mtu", "BYTES", set_mtu, "port source: set the ports' MTU; frames larger than an mbuf are received scattered (default: the device's)" },
	{ "unpolled-queues", "refuse|warn", set_unpolled, "port source: a device with more RX queues than are polled (net_af_packet qpairs) is refused, or accepted with a warning (default refuse)" },
	{ "local", "A/L,...", set_local, "local addresses with their prefix (default: the generator's destinations, /24)" },
	{ "mcast", "G,...", set_mcast, "joined multicast groups (224.0.0.1 always is)" },
	{ "udp-ports", "P[-Q],...|none", set_udp_ports, "UDP ports with a listener (default: the generator's destination ports)" },
	{ "udplite-ports", "P[-Q],...|none", set_udplite_ports, "UDP-Lite ports with a listener (default none)" },
	{ "netlabel", "on|off", set_netlabel, "the kernel has NetLabel (CONFIG_NETLABEL): a CIPSO option is refused unless a DOI is configured, which pktpath never has (default on)" },
	{ "pim", "on|off", set_pim, "the kernel has PIM-SM v2 (CONFIG_IP_PIMSM_V2): IP protocol 103 is delivered to pim_rcv, not InUnknownProtos (default on)" },
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
	{ "rules", "FILE", set_rules, "ingress rules file, at most 16 MiB (default: no rule, default pass); SIGHUP reloads it (and the churn goes on with it)" },
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
	o->kernel_netlabel = true;
	o->kernel_pim = true;
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

/* One "key = value" of the INI file: the option of that name. */
static int
__ini_entry(void *arg, const char *key, const char *v, char *err, size_t len)
{
	struct app_options *o = arg;
	const struct opt_def *d = __find(key);
	char why[ERR_LEN] = "";

	if (d == NULL || strcmp(d->name, "config") == 0) {
		snprintf(err, len, "unknown key '%.64s'", key);
		return -1;
	}
	if (d->arg == NULL) {
		bool on;

		if (__parse_bool(v, &on, why) != 0) {
			snprintf(err, len, "%s: %s", d->name, why);
			return -1;
		}
		if (!on)
			return 0;
	}
	if (d->set(o, v, why) != 0) {
		snprintf(err, len, "%s: %s", d->name, why);
		return -1;
	}
	return 0;
}

static int
__load_ini(const char *file, struct app_options *o)
{
	char err[APP_INI_ERR_LEN];

	if (app_ini_load(file, "pktpath", __ini_entry, o, err, sizeof(err)) != 0) {
		fprintf(stderr, "pktpath: %s\n", err);
		return -1;
	}
	return 0;
}

/* The first ingress option given (for messages), or NULL. */
static const char *
__ingress_opt(const struct app_options *o)
{
	return o->ingress_mode != INGRESS_OFF ? "--ingress" :
	       o->ingress_kind != APP_KIND_RULES ? "--ingress-kind" :
	       o->rules[0] != '\0' ? "--rules" :
	       o->rules_alt[0] != '\0' ? "--rules-alt" :
	       o->filter[0] != '\0' ? "--filter" :
	       o->bpf_obj[0] != '\0' ? "--bpf-obj" :
	       o->update_rate > 0 ? "--update-rate" : NULL;
}

static int
__check(struct app_options *o)
{
	if (o->n_compare > 0 && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --compare: needs --path full\n");
		return -1;
	}
	if (o->path != APP_PATH_FULL && __ingress_opt(o) != NULL) {
		fprintf(stderr, "pktpath: %s: needs --path full (rx-only frees every "
			"frame untouched: nothing would be classified)\n",
			__ingress_opt(o));
		return -1;
	}
	if (o->n_rxq > 0 && o->source != APP_SRC_PORT) {
		fprintf(stderr, "pktpath: --rxq: only with --source port\n");
		return -1;
	}
	if ((o->mtu != 0 || o->mbuf_size != 0) && o->source != APP_SRC_PORT) {
		fprintf(stderr, "pktpath: --%s: only with --source port\n",
			o->mtu != 0 ? "mtu" : "mbuf-size");
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
	if ((uint64_t)o->flow.dst_hi - o->flow.dst_lo >= PATH_MAX_LOCAL &&
	    o->n_local == 0) {
		fprintf(stderr, "pktpath: --dst: more than %d destinations; give --local\n",
			PATH_MAX_LOCAL);
		return -1;
	}
	return 0;
}

/* "unknown option" or, for a prefix of several options, "ambiguous". */
static void
__bad_option(const char *arg)
{
	char list[256] = "";
	size_t len;
	unsigned int i, n = 0;
	const char *eq;

	if (arg == NULL || strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
		fprintf(stderr, "pktpath: unknown option '%s' (see --help)\n",
			arg ? arg : "");
		return;
	}
	eq = strchr(arg, '=');
	len = eq != NULL ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	for (i = 0; i < RTE_DIM(opt_defs); i++) {
		if (strncmp(opt_defs[i].name, arg + 2, len) != 0)
			continue;
		if (n++ < 4)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s--%s", n > 1 ? ", " : "", opt_defs[i].name);
	}
	if (n > 1)
		fprintf(stderr, "pktpath: option '%.*s' is ambiguous (%s%s)\n",
			(int)(len + 2), arg, list, n > 4 ? ", ..." : "");
	else
		fprintf(stderr, "pktpath: unknown option '%s' (see --help)\n", arg);
}

int
app_options_parse(int argc, char **argv, struct app_options *o)
{
	struct option lopts[RTE_DIM(opt_defs) + 2];
	char err[ERR_LEN];
	const char *prog = argc > 0 ? argv[0] : "pktpath";
	unsigned int i, config = 0;
	int c, idx;

	app_options_default(o);

	for (i = 0; i < RTE_DIM(opt_defs); i++) {
		lopts[i].name = opt_defs[i].name;
		lopts[i].has_arg = opt_defs[i].arg ? required_argument : no_argument;
		lopts[i].flag = NULL;
		lopts[i].val = 256 + (int)i;
		if (strcmp(opt_defs[i].name, "config") == 0)
			config = i;
	}
	lopts[i].name = "help";
	lopts[i].has_arg = no_argument;
	lopts[i].flag = NULL;
	lopts[i].val = 'h';
	memset(&lopts[i + 1], 0, sizeof(lopts[i + 1]));

	/* Pass 1: the INI files, so that the command line overrides them.
	 * getopt_long itself finds them, so every spelling it accepts
	 * (--config F, --config=F, --conf F, ...) is seen here too; mistakes
	 * are left to pass 2. optind = 0 makes glibc start afresh. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lopts, &idx)) != -1) {
		if (c != 256 + (int)config)
			continue;
		if (set_config(o, optarg, err) != 0) {
			fprintf(stderr, "pktpath: --config: %s\n", err);
			return -1;
		}
		if (__load_ini(optarg, o) != 0)
			return -1;
	}

	optind = 0;
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
				__bad_option(argv[optind - 1]);
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
		if (i == config)
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
