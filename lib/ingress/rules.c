/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "rules" classifier kind: parsed rules (rules_parse.c) compiled twice,
 * into an rte_acl context and into value/mask matchers (struct kmatch) for
 * a linear walk. A set of at most RULES_SMALL_MAX rules is looked up by the
 * walk, a larger one by rte_acl (the README's "The lookup" has the
 * measurements behind the threshold); ingress_rules_view() forces either,
 * or the reference below.
 *
 * Each frame is first reduced to a 20-byte key (struct __ingress_key): the
 * L2/L3/L4 parse happens once, here, so that neither lookup reads beyond the
 * frame and frames that are tagged, not IPv4 or truncated have a well
 * defined key. The key carries two flag bits, "IPv4 header complete" and
 * "ports present"; a rule with an IP key requires the first, a rule with a
 * port key the second, so such rules never match non-IP or truncated
 * frames while rules without IP keys (e.g. "vlan 100 action drop") still do.
 *
 * First match by (prio, file order) is rte_acl's priority: the i-th rule in
 * that order gets priority RTE_ACL_MAX_PRIORITY - i (unique, so no tie is
 * left to rte_acl). pass/drop/mark rules go to category 0, count rules to
 * category 1: category 0 gives the deciding rule, category 1 whether any
 * count rule matched. The walk tries the same rules in the same order over
 * the same key. The linear reference (__ingress_rules_match_linear)
 * re-parses the frame independently and walks the rules in order; the unit
 * test (test_ingress_rules.c) holds both lookups against it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_acl.h>
#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_memory.h>

#include "base.h"
#include "ingress_pvt.h"

/* What a matching rule decides, packed for the classify loop. */
struct verdict {
	uint8_t drop;
	uint8_t marked;
	uint32_t mark;
	uint32_t line;
};

/* A rule compiled for the small-set matcher: value/mask per field, over
 * the same key rte_acl reads. Addresses in network order, ranges in host
 * order. */
struct kmatch {
	uint32_t src, src_mask, dst, dst_mask;
	uint16_t sport_lo, sport_span, dport_lo, dport_span;
	uint16_t vlan_lo, vlan_span;
	uint8_t proto, proto_mask, dscp, dscp_mask;
	uint8_t need;			/* KEY_F_* the key must have */
	uint8_t count;			/* a count rule */
};

struct rules {
	struct ingress_ruleset rs;
	struct verdict *verdicts;	/* rs.n, same order as rs.rules */
	struct kmatch *km;		/* rs.n, same order */
	struct rte_acl_ctx *acl;	/* NULL when there is no rule */
	uint32_t categories;		/* 1, or 4 when count rules exist */
};

/* ---------------------------------------------------------------- */
/* Keys                                                              */
/* ---------------------------------------------------------------- */

/* Eth (14) + one 802.1Q tag (4) + IPv4 with options (60) + 4 bytes of L4. */
#define KEY_HDR_MAX (RTE_ETHER_HDR_LEN + 4 + 60 + 4)

void
__ingress_key_extract(const struct rte_mbuf *m, struct __ingress_key *k)
{
	uint8_t buf[KEY_HDR_MAX];
	uint32_t hl = RTE_MIN(rte_pktmbuf_pkt_len(m), (uint32_t)KEY_HDR_MAX);
	const uint8_t *p = rte_pktmbuf_read(m, 0, hl, buf);
	const uint8_t *ip;
	uint32_t off = RTE_ETHER_HDR_LEN, ihl;
	uint16_t et;

	memset(k, 0, sizeof(*k));
	k->vlan = RTE_BE16(RULE_VLAN_NONE);
	if (p == NULL || hl < RTE_ETHER_HDR_LEN)
		return;				/* runt: untagged, not IP */
	et = (uint16_t)(p[12] << 8 | p[13]);
	if (et == RTE_ETHER_TYPE_VLAN) {
		if (hl < RTE_ETHER_HDR_LEN + 4)
			return;			/* incomplete tag: a runt */
		k->vlan = rte_cpu_to_be_16((uint16_t)((p[14] << 8 | p[15]) & 0xfff));
		et = (uint16_t)(p[16] << 8 | p[17]);
		off += 4;
	}
	if (et != RTE_ETHER_TYPE_IPV4 || hl < off + 20)
		return;
	ip = p + off;
	ihl = (ip[0] & 0xfu) * 4;
	if ((ip[0] >> 4) != 4 || ihl < 20 || hl < off + ihl)
		return;				/* not v4, or truncated */
	k->flags = KEY_F_IP;
	k->proto = ip[9];
	k->dscp = ip[1] >> 2;
	memcpy(&k->src, ip + 12, 4);
	memcpy(&k->dst, ip + 16, 4);
	/* Like tc flower's dissector (flags 0): no ports for any fragment,
	 * first fragments included. */
	if ((ip[6] << 8 | ip[7]) & 0x3fff)
		return;
	if ((k->proto != IPPROTO_UDP && k->proto != IPPROTO_TCP) ||
	    hl < off + ihl + 4)
		return;
	memcpy(&k->sport, ip + ihl, 2);
	memcpy(&k->dport, ip + ihl + 2, 2);
	k->flags |= KEY_F_PORTS;
}

/* ---------------------------------------------------------------- */
/* The linear reference                                              */
/* ---------------------------------------------------------------- */

struct lin_pkt {
	bool ip, ports;
	int vlan;			/* -1: untagged */
	uint8_t proto, dscp;
	uint32_t src, dst;		/* host order */
	uint16_t sport, dport;
};

/* Written apart from __ingress_key_extract on purpose, with the rte_*_hdr
 * structs and one rte_pktmbuf_read per header. */
static void
lin_parse(const struct rte_mbuf *m, struct lin_pkt *q)
{
	struct rte_ether_hdr ehb;
	struct rte_vlan_hdr vhb;
	struct rte_ipv4_hdr ihb;
	uint16_t l4b[2];
	const struct rte_ether_hdr *eh;
	const struct rte_vlan_hdr *vh;
	const struct rte_ipv4_hdr *ih;
	const uint16_t *l4;
	uint32_t off = sizeof(*eh), ihl;
	uint16_t et;

	memset(q, 0, sizeof(*q));
	q->vlan = -1;
	eh = rte_pktmbuf_read(m, 0, sizeof(*eh), &ehb);
	if (eh == NULL)
		return;
	et = rte_be_to_cpu_16(eh->ether_type);
	if (et == RTE_ETHER_TYPE_VLAN) {
		vh = rte_pktmbuf_read(m, off, sizeof(*vh), &vhb);
		if (vh == NULL)
			return;
		q->vlan = rte_be_to_cpu_16(vh->vlan_tci) & 0xfff;
		et = rte_be_to_cpu_16(vh->eth_proto);
		off += sizeof(*vh);
	}
	if (et != RTE_ETHER_TYPE_IPV4)
		return;
	ih = rte_pktmbuf_read(m, off, sizeof(*ih), &ihb);
	if (ih == NULL || (ih->version_ihl >> 4) != 4)
		return;
	ihl = rte_ipv4_hdr_len(ih);
	if (ihl < sizeof(*ih) || off + ihl > rte_pktmbuf_pkt_len(m))
		return;
	q->ip = true;
	q->proto = ih->next_proto_id;
	q->dscp = ih->type_of_service >> 2;
	q->src = rte_be_to_cpu_32(ih->src_addr);
	q->dst = rte_be_to_cpu_32(ih->dst_addr);
	if (rte_be_to_cpu_16(ih->fragment_offset) &
	    (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
		return;
	if (q->proto != IPPROTO_UDP && q->proto != IPPROTO_TCP)
		return;
	l4 = rte_pktmbuf_read(m, off + ihl, sizeof(l4b), l4b);
	if (l4 == NULL)
		return;
	q->ports = true;
	q->sport = rte_be_to_cpu_16(l4[0]);
	q->dport = rte_be_to_cpu_16(l4[1]);
}

static bool
prefix_match(uint32_t a, uint32_t net, uint8_t len)
{
	return len == 0 || ((a ^ net) >> (32 - len)) == 0;
}

static bool
lin_match(const struct ingress_rule *r, const struct lin_pkt *q)
{
	if (r->keys & RULE_K_VLAN) {
		if (r->vlan == RULE_VLAN_NONE ? q->vlan != -1 : q->vlan != r->vlan)
			return false;
	}
	if ((r->keys & RULE_K_IP) && !q->ip)
		return false;
	if ((r->keys & RULE_K_PORTS) && !q->ports)
		return false;
	if ((r->keys & RULE_K_PROTO) && q->proto != r->proto)
		return false;
	if ((r->keys & RULE_K_SRC) && !prefix_match(q->src, r->src, r->src_len))
		return false;
	if ((r->keys & RULE_K_DST) && !prefix_match(q->dst, r->dst, r->dst_len))
		return false;
	if ((r->keys & RULE_K_DSCP) && q->dscp != r->dscp)
		return false;
	if ((r->keys & RULE_K_SPORT) &&
	    (q->sport < r->sport_lo || q->sport > r->sport_hi))
		return false;
	if ((r->keys & RULE_K_DPORT) &&
	    (q->dport < r->dport_lo || q->dport > r->dport_hi))
		return false;
	return true;
}

void
__ingress_rules_match_linear(const struct ingress_ruleset *rs,
			     const struct rte_mbuf *m, struct ingress_result *o)
{
	struct lin_pkt q;
	uint32_t i;

	lin_parse(m, &q);
	memset(o, 0, sizeof(*o));
	o->action = rs->default_drop ? INGRESS_ACT_DROP : INGRESS_ACT_PASS;
	for (i = 0; i < rs->n; i++) {
		const struct ingress_rule *r = &rs->rules[i];

		if (!lin_match(r, &q))
			continue;
		o->matched = 1;
		if (r->action == RULE_COUNT)
			continue;
		o->action = r->action == RULE_DROP ? INGRESS_ACT_DROP :
						     INGRESS_ACT_PASS;
		o->marked = r->action == RULE_MARK;
		o->mark = r->action == RULE_MARK ? r->mark : 0;
		o->rule = r->line;
		return;
	}
}

/* ---------------------------------------------------------------- */
/* rte_acl                                                           */
/* ---------------------------------------------------------------- */

enum { F_PROTO, F_SRC, F_DST, F_SPORT, F_DPORT, F_VLAN, F_DSCP, F_FLAGS, F_NUM };

RTE_ACL_RULE_DEF(acl_rule, F_NUM);

#define KOFF(f) ((uint32_t)offsetof(struct __ingress_key, f))

static const struct rte_acl_field_def acl_defs[F_NUM] = {
	{ RTE_ACL_FIELD_TYPE_BITMASK, 1, F_PROTO, 0, KOFF(proto) },
	{ RTE_ACL_FIELD_TYPE_MASK, 4, F_SRC, 1, KOFF(src) },
	{ RTE_ACL_FIELD_TYPE_MASK, 4, F_DST, 2, KOFF(dst) },
	{ RTE_ACL_FIELD_TYPE_RANGE, 2, F_SPORT, 3, KOFF(sport) },
	{ RTE_ACL_FIELD_TYPE_RANGE, 2, F_DPORT, 3, KOFF(dport) },
	{ RTE_ACL_FIELD_TYPE_RANGE, 2, F_VLAN, 4, KOFF(vlan) },
	{ RTE_ACL_FIELD_TYPE_BITMASK, 1, F_DSCP, 4, KOFF(dscp) },
	{ RTE_ACL_FIELD_TYPE_BITMASK, 1, F_FLAGS, 4, KOFF(flags) },
};

static_assert(sizeof(struct __ingress_key) == 20, "rte_acl key layout");
static_assert(offsetof(struct __ingress_key, vlan) == 16, "rte_acl key layout");

/* rte_acl rule values are host order (the input key is network order). */
static void
acl_rule_fill(const struct ingress_rule *r, uint32_t idx, struct acl_rule *a)
{
	uint8_t need = 0;

	memset(a, 0, sizeof(*a));
	a->data.category_mask = r->action == RULE_COUNT ? 2 : 1;
	a->data.priority = (int32_t)(RTE_ACL_MAX_PRIORITY - idx);
	a->data.userdata = idx + 1;		/* 0 means "no match" */
	if (r->keys & RULE_K_PROTO) {
		a->field[F_PROTO].value.u8 = r->proto;
		a->field[F_PROTO].mask_range.u8 = 0xff;
	}
	if (r->keys & RULE_K_SRC) {
		a->field[F_SRC].value.u32 = r->src;
		a->field[F_SRC].mask_range.u32 = r->src_len;
	}
	if (r->keys & RULE_K_DST) {
		a->field[F_DST].value.u32 = r->dst;
		a->field[F_DST].mask_range.u32 = r->dst_len;
	}
	a->field[F_SPORT].value.u16 = (r->keys & RULE_K_SPORT) ? r->sport_lo : 0;
	a->field[F_SPORT].mask_range.u16 = (r->keys & RULE_K_SPORT) ? r->sport_hi : 0xffff;
	a->field[F_DPORT].value.u16 = (r->keys & RULE_K_DPORT) ? r->dport_lo : 0;
	a->field[F_DPORT].mask_range.u16 = (r->keys & RULE_K_DPORT) ? r->dport_hi : 0xffff;
	a->field[F_VLAN].value.u16 = (r->keys & RULE_K_VLAN) ? r->vlan : 0;
	a->field[F_VLAN].mask_range.u16 = (r->keys & RULE_K_VLAN) ? r->vlan : 0xffff;
	if (r->keys & RULE_K_DSCP) {
		a->field[F_DSCP].value.u8 = r->dscp;
		a->field[F_DSCP].mask_range.u8 = 0xff;
	}
	if (r->keys & RULE_K_IP)
		need |= KEY_F_IP;
	if (r->keys & RULE_K_PORTS)
		need |= KEY_F_IP | KEY_F_PORTS;
	a->field[F_FLAGS].value.u8 = need;
	a->field[F_FLAGS].mask_range.u8 = need;
}

static int
acl_compile(struct rules *r, const char *name, char *err, size_t errlen)
{
	static uint32_t seq;	/* rte_acl_create returns an existing ctx of
				   the same name: make each name unique */
	char acl_name[RTE_ACL_NAMESIZE];
	struct rte_acl_param prm = {
		.name = acl_name,
		.socket_id = SOCKET_ID_ANY,
		.rule_size = RTE_ACL_RULE_SZ(F_NUM),
		.max_rule_num = r->rs.n,
	};
	struct rte_acl_config cfg;
	struct acl_rule *ar;
	uint32_t i;
	int rc;

	snprintf(acl_name, sizeof(acl_name), "ingress-%u",
		 __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	r->categories = r->rs.n_count ? RTE_ACL_RESULTS_MULTIPLIER : 1;
	/* rte_acl_create() sets rte_errno for a bad parameter only (never
	 * ours): NULL is its allocations failing, whatever rte_errno holds */
	r->acl = rte_acl_create(&prm);
	if (r->acl == NULL) {
		snprintf(err, errlen, "%s: rte_acl_create: out of memory", name);
		return -ENOMEM;
	}
	ar = malloc(sizeof(*ar) * r->rs.n);
	if (ar == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	for (i = 0; i < r->rs.n; i++)
		acl_rule_fill(&r->rs.rules[i], i, &ar[i]);
	rc = rte_acl_add_rules(r->acl, (const struct rte_acl_rule *)ar, r->rs.n);
	free(ar);
	if (rc) {
		snprintf(err, errlen, "%s: rte_acl_add_rules: %s", name,
			 strerror(-rc));
		return rc;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.num_categories = r->categories;
	cfg.num_fields = F_NUM;
	memcpy(cfg.defs, acl_defs, sizeof(acl_defs));
	rc = rte_acl_build(r->acl, &cfg);
	if (rc) {
		snprintf(err, errlen, "%s: cannot compile %u rules (rte_acl_build: %s)",
			 name, r->rs.n, strerror(-rc));
		return rc;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* The small-set matcher                                             */
/* ---------------------------------------------------------------- */

static void
kmatch_fill(const struct ingress_rule *r, struct kmatch *k)
{
	memset(k, 0, sizeof(*k));
	k->count = r->action == RULE_COUNT;
	if (r->keys & RULE_K_PROTO) {
		k->proto = r->proto;
		k->proto_mask = 0xff;
	}
	if (r->keys & RULE_K_SRC) {
		k->src_mask = rte_cpu_to_be_32(RTE_ACL_MASKLEN_TO_BITMASK(
			(uint32_t)r->src_len, sizeof(uint32_t)));
		k->src = rte_cpu_to_be_32(r->src) & k->src_mask;
	}
	if (r->keys & RULE_K_DST) {
		k->dst_mask = rte_cpu_to_be_32(RTE_ACL_MASKLEN_TO_BITMASK(
			(uint32_t)r->dst_len, sizeof(uint32_t)));
		k->dst = rte_cpu_to_be_32(r->dst) & k->dst_mask;
	}
	if (r->keys & RULE_K_DSCP) {
		k->dscp = r->dscp;
		k->dscp_mask = 0xff;
	}
	k->sport_lo = (r->keys & RULE_K_SPORT) ? r->sport_lo : 0;
	k->sport_span = (r->keys & RULE_K_SPORT) ? r->sport_hi - r->sport_lo : 0xffff;
	k->dport_lo = (r->keys & RULE_K_DPORT) ? r->dport_lo : 0;
	k->dport_span = (r->keys & RULE_K_DPORT) ? r->dport_hi - r->dport_lo : 0xffff;
	k->vlan_lo = (r->keys & RULE_K_VLAN) ? r->vlan : 0;
	k->vlan_span = (r->keys & RULE_K_VLAN) ? 0 : 0xffff;
	if (r->keys & RULE_K_IP)
		k->need |= KEY_F_IP;
	if (r->keys & RULE_K_PORTS)
		k->need |= KEY_F_IP | KEY_F_PORTS;
}

static __rte_always_inline bool
kmatch_one(const struct kmatch *r, const struct __ingress_key *k,
	   uint16_t sport, uint16_t dport, uint16_t vlan)
{
	/* Unsigned span tests: x - lo <= hi - lo is lo <= x <= hi. */
	return (k->flags & r->need) == r->need &&
	       ((k->src ^ r->src) & r->src_mask) == 0 &&
	       ((k->dst ^ r->dst) & r->dst_mask) == 0 &&
	       ((k->proto ^ r->proto) & r->proto_mask) == 0 &&
	       ((k->dscp ^ r->dscp) & r->dscp_mask) == 0 &&
	       (uint16_t)(sport - r->sport_lo) <= r->sport_span &&
	       (uint16_t)(dport - r->dport_lo) <= r->dport_span &&
	       (uint16_t)(vlan - r->vlan_lo) <= r->vlan_span;
}

static void
rules_classify_small(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
		     struct ingress_result *res)
{
	const struct rules *r = ctx;
	const uint32_t nr = r->rs.n;
	struct __ingress_key k;
	uint16_t i;
	uint32_t j;

	for (i = 0; i < n; i++) {
		struct ingress_result *o = &res[i];
		uint16_t sp, dp, vl;

		__ingress_key_extract(pkts[i], &k);
		sp = rte_be_to_cpu_16(k.sport);
		dp = rte_be_to_cpu_16(k.dport);
		vl = rte_be_to_cpu_16(k.vlan);
		o->action = r->rs.default_drop;
		o->matched = 0;
		o->marked = 0;
		o->mark = 0;
		o->rule = 0;
		for (j = 0; j < nr; j++) {
			const struct kmatch *m = &r->km[j];
			const struct verdict *v;

			if (!kmatch_one(m, &k, sp, dp, vl))
				continue;
			o->matched = 1;
			if (m->count)
				continue;
			v = &r->verdicts[j];
			o->action = v->drop;
			o->marked = v->marked;
			o->mark = v->mark;
			o->rule = v->line;
			break;
		}
	}
}

/* ---------------------------------------------------------------- */
/* The kind                                                          */
/* ---------------------------------------------------------------- */

#define CHUNK 64

static void
rules_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	       struct ingress_result *res)
{
	const struct rules *r = ctx;
	const uint32_t cat = r->categories;
	struct __ingress_key keys[CHUNK];
	const uint8_t *data[CHUNK];
	uint32_t ar[CHUNK * RTE_ACL_RESULTS_MULTIPLIER];
	uint16_t off, k, i;

	if (unlikely(r->acl == NULL)) {
		for (i = 0; i < n; i++) {
			memset(&res[i], 0, sizeof(res[i]));
			res[i].action = r->rs.default_drop;
		}
		return;
	}
	for (off = 0; off < n; off += k) {
		k = RTE_MIN((uint16_t)(n - off), (uint16_t)CHUNK);
		for (i = 0; i < k; i++) {
			__ingress_key_extract(pkts[off + i], &keys[i]);
			data[i] = (const uint8_t *)&keys[i];
		}
		rte_acl_classify(r->acl, data, ar, k, cat);
		for (i = 0; i < k; i++) {
			struct ingress_result *o = &res[off + i];
			uint32_t u = ar[i * cat];

			if (u != 0) {
				const struct verdict *v = &r->verdicts[u - 1];

				o->action = v->drop;
				o->matched = 1;
				o->marked = v->marked;
				o->mark = v->mark;
				o->rule = v->line;
			} else {
				o->action = r->rs.default_drop;
				o->matched = cat > 1 && ar[i * cat + 1] != 0;
				o->marked = 0;
				o->mark = 0;
				o->rule = 0;
			}
		}
	}
}

static void
rules_classify_linear(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
		      struct ingress_result *res)
{
	const struct rules *r = ctx;
	uint16_t i;

	for (i = 0; i < n; i++)
		__ingress_rules_match_linear(&r->rs, pkts[i], &res[i]);
}

static void
rules_free(void *ctx)
{
	struct rules *r = ctx;

	if (r == NULL)
		return;
	rte_acl_free(r->acl);
	if (r->rs.rules) {
		__ingress_poison(r->rs.rules, sizeof(*r->rs.rules) * r->rs.n);
		free(r->rs.rules);
	}
	if (r->verdicts) {
		__ingress_poison(r->verdicts, sizeof(*r->verdicts) * r->rs.n);
		free(r->verdicts);
	}
	if (r->km) {
		__ingress_poison(r->km, sizeof(*r->km) * r->rs.n);
		free(r->km);
	}
	__ingress_poison(r, sizeof(*r));
	free(r);
}

/* One ops table per lookup; all share the same data and free(). */
static const struct ingress_classifier_ops rules_ops[INGRESS_RULES_VIEW_MAX] = {
	[INGRESS_RULES_VIEW_ACL] = { "rules", rules_classify, rules_free },
	[INGRESS_RULES_VIEW_SMALL] = { "rules", rules_classify_small, rules_free },
	[INGRESS_RULES_VIEW_REFERENCE] = { "rules", rules_classify_linear, rules_free },
};

const struct ingress_ruleset *
__ingress_rules_of(const struct ingress_classifier *c)
{
	if (c == NULL || c->ops < &rules_ops[0] ||
	    c->ops >= &rules_ops[INGRESS_RULES_VIEW_MAX])
		return NULL;
	return &((const struct rules *)c->ctx)->rs;
}

struct ingress_classifier *
ingress_rules_view(const struct ingress_classifier *c,
		   enum ingress_rules_view v)
{
	if (__ingress_rules_of(c) == NULL ||
	    (unsigned int)v >= INGRESS_RULES_VIEW_MAX) {
		rte_errno = EINVAL;
		return NULL;
	}
	return __ingress_classifier_view(c, &rules_ops[v]);
}

int
ingress_rules_count(const struct ingress_classifier *c)
{
	const struct ingress_ruleset *rs = __ingress_rules_of(c);

	return rs ? (int)rs->n : -EINVAL;
}

int
ingress_rules_parse_string(const char *text, const char *name,
			   struct ingress_classifier **out, char *err,
			   size_t errlen)
{
	char dummy[1], desc[INGRESS_DESC_MAX], qn[2 * BASE_QUOTE_LEN], qd[100];
	struct ingress_classifier *c;
	struct rules *r;
	uint32_t i;
	int rc;

	if (err == NULL || errlen == 0) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	if (name == NULL)
		name = "rules";
	base_quote(qn, sizeof(qn), name);	/* as every message names it */
	if (out == NULL) {
		snprintf(err, errlen, "%s: no output", qn);
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		snprintf(err, errlen, "%s: out of memory", qn);
		return -ENOMEM;
	}
	rc = __ingress_rules_parse(text, name, &r->rs, err, errlen);
	if (rc) {
		free(r);
		return rc;
	}
	if (r->rs.n) {
		r->verdicts = calloc(r->rs.n, sizeof(*r->verdicts));
		r->km = calloc(r->rs.n, sizeof(*r->km));
		if (r->verdicts == NULL || r->km == NULL) {
			snprintf(err, errlen, "%s: out of memory", qn);
			rules_free(r);
			return -ENOMEM;
		}
		for (i = 0; i < r->rs.n; i++) {
			const struct ingress_rule *x = &r->rs.rules[i];

			r->verdicts[i].drop = x->action == RULE_DROP;
			r->verdicts[i].marked = x->action == RULE_MARK;
			r->verdicts[i].mark = x->mark;
			r->verdicts[i].line = x->line;
			kmatch_fill(x, &r->km[i]);
		}
		rc = acl_compile(r, qn, err, errlen);
		if (rc) {
			rules_free(r);
			return rc;
		}
	} else {
		r->categories = 1;
	}
	/* the description holds a shorter name: what the rest leaves room for */
	snprintf(desc, sizeof(desc), "rules %s: %u rule%s (%u count), default %s",
		 base_quote(qd, sizeof(qd), name), r->rs.n, r->rs.n == 1 ? "" : "s", r->rs.n_count,
		 r->rs.default_drop ? "drop" : "pass");
	/* frees r on failure */
	c = ingress_classifier_create(&rules_ops[r->rs.n <= RULES_SMALL_MAX ?
						 INGRESS_RULES_VIEW_SMALL : INGRESS_RULES_VIEW_ACL],
				      r, desc);
	if (c == NULL) {
		snprintf(err, errlen, "%s: out of memory", qn);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

int
ingress_rules_parse_file(const char *path, struct ingress_classifier **out,
			 char *err, size_t errlen)
{
	char dummy[1], qp[2 * BASE_QUOTE_LEN];
	char *text;
	size_t len = 0;
	int rc;

	base_quote(qp, sizeof(qp), path);	/* as every message names it */
	if (err == NULL || errlen == 0) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	if (path == NULL) {
		snprintf(err, errlen, "rules: no file name");
		return -EINVAL;
	}
	/* A regular file, refused before it is read when over the bound
	 * (reading a file of gigabytes first took seconds before the
	 * refusal); a FIFO never blocks the reader (base.h, "Files"). */
	rc = base_file_read(path, INGRESS_RULES_FILE_MAX, &text, &len, err, errlen);
	if (rc == -EFBIG) {
		size_t l = strlen(err);

		snprintf(err + l, errlen - l, " (a rules file has at most 65536 rules)");
		return rc;
	}
	if (rc != 0)
		return rc;
	if (memchr(text, '\0', len) != NULL) {
		snprintf(err, errlen, "%s: binary file (NUL byte)", qp);
		free(text);
		return -EINVAL;
	}
	rc = ingress_rules_parse_string(text, path, out, err, errlen);
	free(text);
	return rc;
}
