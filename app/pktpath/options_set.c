/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The setters of the options that need their own parser (the table's
 * APP_OPT_FN rows, options_table.c): the run, the generator's flow, the
 * receive path's addresses, ports and tags, ingress, the endpoint. The
 * types' parsers and the list iterator are options_value.c's.
 * Integers, addresses, prefixes and port ranges are lib/pkt's parsers
 * (pkt_parse_*(), the rules files use the same ones): decimal everywhere,
 * leading zeros included (010 is ten); hexadecimal is refused.
 * Each returns 0, or -1 with the reason in err (APP_OPT_ERR_LEN bytes),
 * which the caller prefixes with the option ("--local: ", "FILE:LINE: local: ");
 * a reason echoes the value quoted (base_quote(): one line, no raw control
 * byte).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>

#include "base.h"
#include "options_pvt.h"
#include "export.h"

#define ERR_LEN APP_OPT_ERR_LEN

/* ---- the run ---- */

/* --warmup auto (-1: detect the steady state, stats_series_steady()) or
 * SECONDS (0..3600: the steady state starts at the first fold after it). */
int
__opt_set_warmup(struct app_options *o, const char *v, char *err)
{
	if (v != NULL && strcmp(v, "auto") == 0) {
		o->warmup_s = -1;
		return 0;
	}
	return __opt_double(v, 0, 3600, &o->warmup_s, err);
}

/* ---- the generator ---- */

int
__opt_set_src(struct app_options *o, const char *v, char *err)
{
	if (pkt_parse_ipv4_range(v, &o->flow.src_lo, &o->flow.src_hi, err, ERR_LEN) != 0)
		return -1;
	return 0;
}

int
__opt_set_dst(struct app_options *o, const char *v, char *err)
{
	if (pkt_parse_ipv4_range(v, &o->flow.dst_lo, &o->flow.dst_hi, err, ERR_LEN) != 0)
		return -1;
	return 0;
}

int
__opt_set_sport(struct app_options *o, const char *v, char *err)
{
	struct pkt_flow_conf *f = &o->flow;

	if (pkt_parse_port_range(v, &f->sport_lo, &f->sport_hi, err, ERR_LEN) != 0)
		return -1;
	return 0;
}

int
__opt_set_dport(struct app_options *o, const char *v, char *err)
{
	struct pkt_flow_conf *f = &o->flow;

	if (pkt_parse_port_range(v, &f->dport_lo, &f->dport_hi, err, ERR_LEN) != 0)
		return -1;
	return 0;
}

static int
__opt_mac(const char *v, struct rte_ether_addr *out, char *err)
{
	char q[BASE_QUOTE_LEN];

	if (v == NULL || rte_ether_unformat_addr(v, out) != 0) {
		snprintf(err, ERR_LEN, "'%s' is not a MAC address",
			 base_quote(q, sizeof(q), v));
		return -1;
	}
	return 0;
}

int
__opt_set_src_mac(struct app_options *o, const char *v, char *err)
{
	return __opt_mac(v, &o->flow.src_mac, err);
}

int
__opt_set_dst_mac(struct app_options *o, const char *v, char *err)
{
	return __opt_mac(v, &o->flow.dst_mac, err);
}

/* LCORE:PORT.QUEUE, three decimal numbers (sscanf's %u would take signs,
 * blanks and wrap values over 2^32). */
static int
__opt_rxq_item(struct app_options *o, const char *t, char *err)
{
	char q[BASE_QUOTE_LEN];
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
	if (pkt_parse_u64(buf, 0, RTE_MAX_LCORE - 1, &lcore, why, ERR_LEN) != 0 ||
	    pkt_parse_u64(colon, 0, RTE_MAX_ETHPORTS - 1, &port, why, ERR_LEN) != 0 ||
	    pkt_parse_u64(dot, 0, 1023, &queue, why, ERR_LEN) != 0)
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
	snprintf(err, ERR_LEN,
		 "'%s' is not LCORE:PORT.QUEUE (decimal; lcore < %d, "
		 "port < %d, queue <= 1023)",
		 base_quote(q, sizeof(q), t), RTE_MAX_LCORE, RTE_MAX_ETHPORTS);
	return -1;
}

int
__opt_set_rxq(struct app_options *o, const char *v, char *err)
{
	o->n_rxq = 0;
	return __opt_list(v, __opt_rxq_item, o, err);
}

/* ---- the receive path ---- */

/* Where a value is tried against lib/path's own rules: options are parsed
 * once, on one thread (options.h). */
static struct path_conf __opt_scratch_conf;

static int
__opt_local_item(struct app_options *o, const char *t, char *err)
{
	uint32_t a;
	uint8_t plen;

	if (pkt_parse_prefix(t, true, &a, &plen, err, ERR_LEN) != 0)
		return -1;
	if (o->n_local >= PATH_MAX_LOCAL) {
		snprintf(err, ERR_LEN, "more than %d local addresses", PATH_MAX_LOCAL);
		return -1;
	}
	o->local[o->n_local].addr = a;
	o->local[o->n_local].prefix_len = plen;
	o->n_local++;
	return 0;
}

int
__opt_set_local(struct app_options *o, const char *v, char *err)
{
	o->n_local = 0;
	return __opt_list(v, __opt_local_item, o, err);
}

static int
__opt_mcast_item(struct app_options *o, const char *t, char *err)
{
	char q[BASE_QUOTE_LEN];
	uint32_t a;

	if (pkt_parse_ipv4(t, &a, err, ERR_LEN) != 0 || (a >> 28) != 0xe) {
		snprintf(err, ERR_LEN, "'%s' is not a multicast group (224.0.0.0/4)",
			 base_quote(q, sizeof(q), t));
		return -1;
	}
	if (o->n_mcast >= PATH_MAX_MCAST - 1) {
		snprintf(err, ERR_LEN, "more than %d groups", PATH_MAX_MCAST - 1);
		return -1;
	}
	o->mcast[o->n_mcast++] = a;
	return 0;
}

int
__opt_set_mcast(struct app_options *o, const char *v, char *err)
{
	o->n_mcast = 0;
	return __opt_list(v, __opt_mcast_item, o, err);
}

static int
__opt_local6_item(struct app_options *o, const char *t, char *err)
{
	struct path_conf *c = &__opt_scratch_conf;
	char q[BASE_QUOTE_LEN];
	uint8_t a[16], plen;

	if (pkt_parse_prefix6(t, a, &plen, err, ERR_LEN) != 0)
		return -1;
	if (o->n_local6 >= PATH_MAX_LOCAL6) {
		snprintf(err, ERR_LEN, "more than %d local IPv6 addresses",
			 PATH_MAX_LOCAL6);
		return -1;
	}
	/* what lib/path takes: not unspecified, loopback, multicast, nor
	 * link-local (the port's own is from its MAC) */
	c->n_local6 = 0;
	if (path_conf_add_local6(c, a, plen) != 0) {
		snprintf(err, ERR_LEN,
			 "'%s' is not a unicast address a port may have "
			 "besides its link-local one",
			 base_quote(q, sizeof(q), t));
		return -1;
	}
	memcpy(o->local6[o->n_local6].addr, a, 16);
	o->local6[o->n_local6].prefix_len = plen;
	o->n_local6++;
	return 0;
}

int
__opt_set_local6(struct app_options *o, const char *v, char *err)
{
	o->n_local6 = 0;
	return __opt_list(v, __opt_local6_item, o, err);
}

static int
__opt_mcast6_item(struct app_options *o, const char *t, char *err)
{
	struct path_conf *c = &__opt_scratch_conf;
	char q[BASE_QUOTE_LEN];
	uint8_t g[16];

	if (pkt_parse_ipv6(t, g, err, ERR_LEN) != 0)
		return -1;
	c->n_mcast6 = 0;
	if (path_conf_add_mcast6(c, g) != 0) {
		snprintf(err, ERR_LEN,
			 "'%s' is not a multicast group of link-local "
			 "or wider scope (ffX2::/16 and up)",
			 base_quote(q, sizeof(q), t));
		return -1;
	}
	if (o->n_mcast6 >= PATH_MAX_MCAST6) {
		snprintf(err, ERR_LEN, "more than %d groups", PATH_MAX_MCAST6);
		return -1;
	}
	memcpy(o->mcast6[o->n_mcast6++], g, 16);
	return 0;
}

int
__opt_set_mcast6(struct app_options *o, const char *v, char *err)
{
	o->n_mcast6 = 0;
	return __opt_list(v, __opt_mcast6_item, o, err);
}

/* One range into ports[*n] (at most APP_MAX_PORT_RANGES). */
static int
__opt_port_item(uint16_t (*ports)[2], unsigned int *n, const char *t, char *err)
{
	uint16_t lo, hi;

	if (pkt_parse_port_range(t, &lo, &hi, err, ERR_LEN) != 0)
		return -1;
	if (*n >= APP_MAX_PORT_RANGES) {
		snprintf(err, ERR_LEN, "more than %d port ranges", APP_MAX_PORT_RANGES);
		return -1;
	}
	ports[*n][0] = lo;
	ports[*n][1] = hi;
	(*n)++;
	return 0;
}

static int
__opt_udp_item(struct app_options *o, const char *t, char *err)
{
	return __opt_port_item(o->udp_ports, &o->n_udp_ports, t, err);
}

static int
__opt_udplite_item(struct app_options *o, const char *t, char *err)
{
	return __opt_port_item(o->udplite_ports, &o->n_udplite_ports, t, err);
}

int
__opt_set_udp_ports(struct app_options *o, const char *v, char *err)
{
	o->n_udp_ports = 0;
	o->udp_ports_set = true;
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	return __opt_list(v, __opt_udp_item, o, err);
}

int
__opt_set_udplite_ports(struct app_options *o, const char *v, char *err)
{
	o->n_udplite_ports = 0;
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	return __opt_list(v, __opt_udplite_item, o, err);
}

static int
__opt_vlan_item(struct app_options *o, const char *t, char *err)
{
	struct pkt_vlan_stack s;
	int rc;

	if (pkt_parse_vlan_stack(t, 1, 4094, true, &s, err, ERR_LEN) != 0)
		return -1;
	rc = path_vlans_add(&o->vlan, &s);
	if (rc == -ENOSPC) {
		snprintf(err, ERR_LEN,
			 "'%s': more than %d VLAN devices on VLAN "
			 "devices",
			 t, PATH_MAX_VLAN_QINQ);
		return -1;
	}
	if (rc != 0) {
		snprintf(err, ERR_LEN, "'%s': %s", t, strerror(-rc));
		return -1;
	}
	return 0;
}

/* --vlan STACK,...|none: the VLAN devices of every port. */
int
__opt_set_vlan(struct app_options *o, const char *v, char *err)
{
	memset(&o->vlan, 0, sizeof(o->vlan));
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	return __opt_list(v, __opt_vlan_item, o, err);
}

/* --vlan-tags [ad]VID[.[ad]VID]|none: the generator's tags, PCP 0. */
int
__opt_set_vlan_tags(struct app_options *o, const char *v, char *err)
{
	struct pkt_vlan_stack s;
	unsigned int k;

	o->flow.n_tags = 0;
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	if (pkt_parse_vlan_stack(v, 0, 4095, false, &s, err, ERR_LEN) != 0)
		return -1;
	for (k = 0; k < s.depth; k++) {
		o->flow.tags[k].tpid = s.tag[k].tpid;
		o->flow.tags[k].tci = s.tag[k].lo;
	}
	o->flow.n_tags = s.depth;
	return 0;
}

int
__opt_set_src6(struct app_options *o, const char *v, char *err)
{
	return pkt_parse_ipv6_range(v, o->flow.src6, &o->flow.src6_n, err, ERR_LEN) != 0
		       ? -1
		       : 0;
}

int
__opt_set_dst6(struct app_options *o, const char *v, char *err)
{
	return pkt_parse_ipv6_range(v, o->flow.dst6, &o->flow.dst6_n, err, ERR_LEN) != 0
		       ? -1
		       : 0;
}

static int
__opt_ext6_item(struct app_options *o, const char *t, char *err)
{
	static const struct {
		const char *name;
		uint8_t nh;
	} hdrs[] = { { "hop", PKT_EXT6_HOP },
		     { "dst", PKT_EXT6_DST },
		     { "rt", PKT_EXT6_RT },
		     { "frag", PKT_EXT6_FRAG } };
	char q[BASE_QUOTE_LEN];
	unsigned int i;

	if (o->flow.n_ext6 >= PKT_EXT6_MAX) {
		snprintf(err, ERR_LEN, "more than %d headers", PKT_EXT6_MAX);
		return -1;
	}
	for (i = 0; i < RTE_DIM(hdrs); i++)
		if (strcmp(t, hdrs[i].name) == 0) {
			o->flow.ext6[o->flow.n_ext6++] = hdrs[i].nh;
			return 0;
		}
	snprintf(err, ERR_LEN, "'%s' is not one of hop, dst, rt, frag",
		 base_quote(q, sizeof(q), t));
	return -1;
}

int
__opt_set_ext6(struct app_options *o, const char *v, char *err)
{
	o->flow.n_ext6 = 0;
	if (v != NULL && strcmp(v, "none") == 0)
		return 0;
	return __opt_list(v, __opt_ext6_item, o, err);
}

/* ---- ingress ---- */

int
__opt_set_filter(struct app_options *o, const char *v, char *err)
{
	const char *c = v;

	while (c != NULL && isspace((unsigned char)*c))
		c++;
	/* libpcap compiles "" (and blanks) to "accept every frame". */
	if (c == NULL || *c == '\0') {
		snprintf(err, ERR_LEN,
			 "empty expression (libpcap would match every "
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
int
__opt_set_filter_action(struct app_options *o, const char *v, char *err)
{
	char q[BASE_QUOTE_LEN];
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
	    pkt_parse_u64(v + 5, 0, UINT32_MAX, &m, err, ERR_LEN) == 0) {
		o->filter_verdict.marked = 1;
		o->filter_verdict.mark = (uint32_t)m;
		return 0;
	}
	snprintf(err, ERR_LEN, "'%s' is not drop, pass or 'mark N'",
		 base_quote(q, sizeof(q), v));
	return -1;
}

int
__opt_set_bpf_sec(struct app_options *o, const char *v, char *err)
{
	if (v == NULL || *v == '\0' || strlen(v) >= sizeof(o->bpf_sec)) {
		snprintf(err, ERR_LEN, "needs a section name of at most %zu bytes",
			 sizeof(o->bpf_sec) - 1);
		return -1;
	}
	strcpy(o->bpf_sec, v);
	return 0;
}

int
__opt_set_bpf_jit(struct app_options *o, const char *v, char *err)
{
	bool on;

	if (__opt_bool(v, &on, err) != 0)
		return -1;
	o->bpf.engine = on ? PKTBPF_JIT : PKTBPF_INTERP;
	return 0;
}

int
__opt_set_filter_netmask(struct app_options *o, const char *v, char *err)
{
	char q[BASE_QUOTE_LEN];
	char why[ERR_LEN];

	if (pkt_parse_ipv4(v, &o->bpf.netmask, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, ERR_LEN, "'%s' is not an IPv4 netmask A.B.C.D",
		 base_quote(q, sizeof(q), v));
	return -1;
}

/* ---- the stats endpoint ---- */

int
__opt_set_http(struct app_options *o, const char *v, char *err)
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

int
__opt_set_pmu(struct app_options *o, const char *v, char *err)
{
	if (v != NULL && strcmp(v, "off") == 0) {
		memset(&o->pmu, 0, sizeof(o->pmu));
		return 0;
	}
	return stats_pmu_parse(v != NULL ? v : "", &o->pmu, err, ERR_LEN) == 0 ? 0 : -1;
}
