/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "rules" classifier kind: parsed rules (rules_parse.c) compiled twice,
 * into rte_acl contexts and into value/mask matchers (struct kmatch,
 * struct kmatch6) for a linear walk. A set of at most RULES_SMALL_MAX rules
 * is looked up by the walk, a larger one by rte_acl (the README's "The
 * lookup" has the measurements behind the threshold); ingress_rules_view()
 * forces either, or the reference.
 *
 * Each frame is first reduced to a key (__ingress_key_extract(), inline in
 * ingress_pvt.h): IPv6 frames to the 44-byte struct __ingress_key6
 * (rte_acl's IPv6 layout), every other frame to the 20-byte struct
 * __ingress_key. A key carries two flag bits, "IP header complete" and
 * "ports present"; a rule with an IP key requires the first, a rule with a
 * port key the second, so such rules never match non-IP or truncated
 * frames while rules without IP keys (e.g. "vlan 100 action drop") still
 * do. Each family has its own rules -- the rules of its family
 * and the rules of none (no address) -- compiled into its own rte_acl
 * context and matchers: an IPv4-only set never looks at an IPv6 rule, and
 * a frame is looked up once, in its family's.
 *
 * First match by (prio, file order) is rte_acl's priority: the i-th rule in
 * that order gets priority RTE_ACL_MAX_PRIORITY - i (unique, so no tie is
 * left to rte_acl). pass/drop/mark rules go to category 0, count rules to
 * category 1: category 0 gives the deciding rule, category 1 whether any
 * count rule matched. The walk tries the same rules in the same order over
 * the same key; both families number their rules in the one (prio, file)
 * order, so a verdict is the same whichever context gives it. The linear
 * reference (rules_ref.c) re-parses the frame independently and walks the
 * rules in order; the unit tests (test_ingress_rules.c,
 * test_ingress_rules6.c) hold both lookups against it.
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
#include "ingress_rules.h"

/* What a matching rule decides, packed for the classify loop. */
struct verdict {
	uint8_t drop;
	uint8_t marked;
	uint32_t mark;
	uint32_t line;
};

/* A rule compiled for the small-set matcher: value/mask per field, over
 * the same key rte_acl reads. Addresses in network order, ranges in host
 * order. vi: the rule's index in rs.rules and verdicts. */
struct kmatch {
	uint32_t src, src_mask, dst, dst_mask;
	uint16_t sport_lo, sport_span, dport_lo, dport_span;
	uint16_t vlan_lo, vlan_span;
	uint8_t proto, proto_mask, dscp, dscp_mask;
	uint8_t need;			/* KEY_F_* the key must have */
	uint8_t count;			/* a count rule */
	uint32_t vi;
};

/* The same over the IPv6 key: each address two 64-bit halves. */
struct kmatch6 {
	uint64_t src[2], src_mask[2], dst[2], dst_mask[2];
	uint16_t sport_lo, sport_span, dport_lo, dport_span;
	uint16_t vlan_lo, vlan_span;
	uint8_t proto, proto_mask, dscp, dscp_mask;
	uint8_t need;
	uint8_t count;
	uint32_t vi;
};

/* Each family has its own rules (those of its family and those of none,
 * in rs order), matchers and rte_acl context: IPv4 keys (every frame but
 * IPv6) go to the first, IPv6 keys to the second. */
struct rules {
	struct ingress_ruleset rs;
	struct verdict *verdicts;	/* rs.n, same order as rs.rules */
	struct kmatch *km;		/* n4 */
	struct kmatch6 *km6;		/* n6 */
	uint32_t n4, n6;
	struct rte_acl_ctx *acl;	/* IPv4 keys; NULL when n4 is 0 */
	struct rte_acl_ctx *acl6;	/* IPv6 keys; NULL when n6 is 0 */
	uint32_t categories;		/* 1, or 4 when count rules exist */
};

static bool
rule_for(const struct ingress_rule *r, uint8_t family)
{
	return r->family == RULE_FAM_ANY || r->family == family;
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

/* IPv6: rte_acl's layout, each address four 32-bit MASK fields. */
enum {
	F6_PROTO,
	F6_SRC,
	F6_DST = F6_SRC + 4,
	F6_SPORT = F6_DST + 4,
	F6_DPORT,
	F6_VLAN,
	F6_DSCP,
	F6_FLAGS,
	F6_NUM
};

RTE_ACL_RULE_DEF(acl_rule6, F6_NUM);

#define KOFF6(f) ((uint32_t)offsetof(struct __ingress_key6, f))
#define ADDR6_DEFS(f, first, input)                                                     \
	{ RTE_ACL_FIELD_TYPE_MASK, 4, (first), (input), KOFF6(f) },                     \
		{ RTE_ACL_FIELD_TYPE_MASK, 4, (first) + 1, (input) + 1, KOFF6(f) + 4 }, \
		{ RTE_ACL_FIELD_TYPE_MASK, 4, (first) + 2, (input) + 2, KOFF6(f) + 8 }, \
	{                                                                               \
		RTE_ACL_FIELD_TYPE_MASK, 4, (first) + 3, (input) + 3, KOFF6(f) + 12     \
	}

static const struct rte_acl_field_def acl_defs6[F6_NUM] = {
	{ RTE_ACL_FIELD_TYPE_BITMASK, 1, F6_PROTO, 0, KOFF6(proto) },
	ADDR6_DEFS(src, F6_SRC, 1),
	ADDR6_DEFS(dst, F6_DST, 5),
	{ RTE_ACL_FIELD_TYPE_RANGE, 2, F6_SPORT, 9, KOFF6(sport) },
	{ RTE_ACL_FIELD_TYPE_RANGE, 2, F6_DPORT, 9, KOFF6(dport) },
	{ RTE_ACL_FIELD_TYPE_RANGE, 2, F6_VLAN, 10, KOFF6(vlan) },
	{ RTE_ACL_FIELD_TYPE_BITMASK, 1, F6_DSCP, 10, KOFF6(dscp) },
	{ RTE_ACL_FIELD_TYPE_BITMASK, 1, F6_FLAGS, 10, KOFF6(flags) },
};

static_assert(sizeof(struct __ingress_key6) == 44, "rte_acl key layout");
static_assert(offsetof(struct __ingress_key6, sport) == 36, "rte_acl key layout");
static_assert(offsetof(struct __ingress_key6, vlan) == 40, "rte_acl key layout");

/* The fields both families share, at their indexes in either layout. */
static void
acl_common_fill(const struct ingress_rule *r, uint32_t idx, struct rte_acl_rule *a,
		struct rte_acl_field *fp, struct rte_acl_field *fsp,
		struct rte_acl_field *fdp, struct rte_acl_field *fv,
		struct rte_acl_field *fds, struct rte_acl_field *ff)
{
	uint8_t need = 0;

	a->data.category_mask = r->action == RULE_COUNT ? 2 : 1;
	a->data.priority = (int32_t)(RTE_ACL_MAX_PRIORITY - idx);
	a->data.userdata = idx + 1;		/* 0 means "no match" */
	if (r->keys & RULE_K_PROTO) {
		fp->value.u8 = r->proto;
		fp->mask_range.u8 = 0xff;
	}
	fsp->value.u16 = (r->keys & RULE_K_SPORT) ? r->sport_lo : 0;
	fsp->mask_range.u16 = (r->keys & RULE_K_SPORT) ? r->sport_hi : 0xffff;
	fdp->value.u16 = (r->keys & RULE_K_DPORT) ? r->dport_lo : 0;
	fdp->mask_range.u16 = (r->keys & RULE_K_DPORT) ? r->dport_hi : 0xffff;
	fv->value.u16 = (r->keys & RULE_K_VLAN) ? r->vlan : 0;
	fv->mask_range.u16 = (r->keys & RULE_K_VLAN) ? r->vlan : 0xffff;
	if (r->keys & RULE_K_DSCP) {
		fds->value.u8 = r->dscp;
		fds->mask_range.u8 = 0xff;
	}
	if (r->keys & RULE_K_IP)
		need |= KEY_F_IP;
	if (r->keys & RULE_K_PORTS)
		need |= KEY_F_IP | KEY_F_PORTS;
	ff->value.u8 = need;
	ff->mask_range.u8 = need;
}

/* rte_acl rule values are host order (the input key is network order). */
static void
acl_rule_fill(const struct ingress_rule *r, uint32_t idx, void *rule)
{
	struct acl_rule *a = rule;

	memset(a, 0, sizeof(*a));
	acl_common_fill(r, idx, (struct rte_acl_rule *)a, &a->field[F_PROTO],
			&a->field[F_SPORT], &a->field[F_DPORT], &a->field[F_VLAN],
			&a->field[F_DSCP], &a->field[F_FLAGS]);
	if (r->keys & RULE_K_SRC) {
		a->field[F_SRC].value.u32 = r->src;
		a->field[F_SRC].mask_range.u32 = r->src_len;
	}
	if (r->keys & RULE_K_DST) {
		a->field[F_DST].value.u32 = r->dst;
		a->field[F_DST].mask_range.u32 = r->dst_len;
	}
}

/* One address: word w of the prefix has min(32, max(0, len - 32 w)) bits. */
static void
acl_addr6_fill(const uint8_t *addr, uint8_t len, struct rte_acl_field *f)
{
	uint32_t w, word;

	for (w = 0; w < 4; w++) {
		memcpy(&word, addr + 4 * w, 4);
		f[w].value.u32 = rte_be_to_cpu_32(word);
		f[w].mask_range.u32 = len > 32 * w ? RTE_MIN(32u, len - 32 * w) : 0;
	}
}

static void
acl_rule6_fill(const struct ingress_rule *r, uint32_t idx, void *rule)
{
	struct acl_rule6 *a = rule;

	memset(a, 0, sizeof(*a));
	acl_common_fill(r, idx, (struct rte_acl_rule *)a, &a->field[F6_PROTO],
			&a->field[F6_SPORT], &a->field[F6_DPORT], &a->field[F6_VLAN],
			&a->field[F6_DSCP], &a->field[F6_FLAGS]);
	if (r->keys & RULE_K_SRC)
		acl_addr6_fill(r->src6, r->src_len, &a->field[F6_SRC]);
	if (r->keys & RULE_K_DST)
		acl_addr6_fill(r->dst6, r->dst_len, &a->field[F6_DST]);
}

/* What differs between the two families' contexts. */
static const struct acl_family {
	uint8_t family;
	const char *tag; /* context name */
	uint32_t num_fields;
	size_t rule_size;
	const struct rte_acl_field_def *defs;
	void (*fill)(const struct ingress_rule *r, uint32_t idx, void *rule);
} acl_families[] = {
	{ RULE_FAM_4, "ingress", F_NUM, RTE_ACL_RULE_SZ(F_NUM), acl_defs, acl_rule_fill },
	{ RULE_FAM_6, "ingress6", F6_NUM, RTE_ACL_RULE_SZ(F6_NUM), acl_defs6,
	  acl_rule6_fill },
};

/* The context of family f's n rules (n > 0) into *out. */
static int
acl_compile(struct rules *r, const struct acl_family *f, uint32_t n,
	    struct rte_acl_ctx **out, const char *name, char *err, size_t errlen)
{
	static uint32_t seq;	/* rte_acl_create returns an existing ctx of
				   the same name: make each name unique */
	char acl_name[RTE_ACL_NAMESIZE];
	struct rte_acl_param prm = {
		.name = acl_name,
		.socket_id = SOCKET_ID_ANY,
		.rule_size = (uint32_t)f->rule_size,
		.max_rule_num = n,
	};
	struct rte_acl_config cfg;
	uint8_t *ar;
	uint32_t i, k;
	int rc;

	snprintf(acl_name, sizeof(acl_name), "%s-%u", f->tag,
		 __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	/* rte_acl_create() sets rte_errno for a bad parameter only (never
	 * ours): NULL is its allocations failing, whatever rte_errno holds */
	*out = rte_acl_create(&prm);
	if (*out == NULL) {
		snprintf(err, errlen, "%s: rte_acl_create: out of memory", name);
		return -ENOMEM;
	}
	ar = malloc(f->rule_size * n);
	if (ar == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	for (i = 0, k = 0; i < r->rs.n; i++)
		if (rule_for(&r->rs.rules[i], f->family))
			f->fill(&r->rs.rules[i], i, ar + f->rule_size * k++);
	rc = rte_acl_add_rules(*out, (const struct rte_acl_rule *)ar, n);
	free(ar);
	if (rc) {
		snprintf(err, errlen, "%s: rte_acl_add_rules: %s", name,
			 strerror(-rc));
		return rc;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.num_categories = r->categories;
	cfg.num_fields = f->num_fields;
	memcpy(cfg.defs, f->defs, sizeof(cfg.defs[0]) * f->num_fields);
	rc = rte_acl_build(*out, &cfg);
	if (rc) {
		snprintf(err, errlen, "%s: cannot compile %u rules (rte_acl_build: %s)",
			 name, n, strerror(-rc));
		return rc;
	}
	return 0;
}

static int
acl_compile_all(struct rules *r, const char *name, char *err, size_t errlen)
{
	int rc = 0;

	r->categories = r->rs.n_count ? RTE_ACL_RESULTS_MULTIPLIER : 1;
	if (r->n4)
		rc = acl_compile(r, &acl_families[0], r->n4, &r->acl, name, err, errlen);
	if (rc == 0 && r->n6)
		rc = acl_compile(r, &acl_families[1], r->n6, &r->acl6, name, err, errlen);
	return rc;
}

/* ---------------------------------------------------------------- */
/* The small-set matcher                                             */
/* ---------------------------------------------------------------- */

/* The fields both families share. */
#define KMATCH_COMMON_FILL(r, k, vi_)                                           \
	do {                                                                    \
		(k)->count = (r)->action == RULE_COUNT;                         \
		(k)->vi = (vi_);                                                \
		if ((r)->keys & RULE_K_PROTO) {                                 \
			(k)->proto = (r)->proto;                                \
			(k)->proto_mask = 0xff;                                 \
		}                                                               \
		if ((r)->keys & RULE_K_DSCP) {                                  \
			(k)->dscp = (r)->dscp;                                  \
			(k)->dscp_mask = 0xff;                                  \
		}                                                               \
		(k)->sport_lo = ((r)->keys & RULE_K_SPORT) ? (r)->sport_lo : 0; \
		(k)->sport_span = ((r)->keys & RULE_K_SPORT)                    \
					  ? (r)->sport_hi - (r)->sport_lo       \
					  : 0xffff;                             \
		(k)->dport_lo = ((r)->keys & RULE_K_DPORT) ? (r)->dport_lo : 0; \
		(k)->dport_span = ((r)->keys & RULE_K_DPORT)                    \
					  ? (r)->dport_hi - (r)->dport_lo       \
					  : 0xffff;                             \
		(k)->vlan_lo = ((r)->keys & RULE_K_VLAN) ? (r)->vlan : 0;       \
		(k)->vlan_span = ((r)->keys & RULE_K_VLAN) ? 0 : 0xffff;        \
		if ((r)->keys & RULE_K_IP)                                      \
			(k)->need |= KEY_F_IP;                                  \
		if ((r)->keys & RULE_K_PORTS)                                   \
			(k)->need |= KEY_F_IP | KEY_F_PORTS;                    \
	} while (0)

static void
kmatch_fill(const struct ingress_rule *r, uint32_t vi, struct kmatch *k)
{
	memset(k, 0, sizeof(*k));
	KMATCH_COMMON_FILL(r, k, vi);
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
}

/* A /len prefix as two network-order 64-bit value/mask halves. */
static void
kmatch6_addr(const uint8_t *addr, uint8_t len, uint64_t v[2], uint64_t mask[2])
{
	uint8_t mb[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		mb[i] = len >= 8 * (i + 1) ? 0xff
			: len > 8 * i	   ? (uint8_t)(0xff << (8 - (len - 8 * i)))
					   : 0;
	memcpy(mask, mb, 16);
	memcpy(v, addr, 16);
	v[0] &= mask[0];
	v[1] &= mask[1];
}

static void
kmatch6_fill(const struct ingress_rule *r, uint32_t vi, struct kmatch6 *k)
{
	memset(k, 0, sizeof(*k));
	KMATCH_COMMON_FILL(r, k, vi);
	if (r->keys & RULE_K_SRC)
		kmatch6_addr(r->src6, r->src_len, k->src, k->src_mask);
	if (r->keys & RULE_K_DST)
		kmatch6_addr(r->dst6, r->dst_len, k->dst, k->dst_mask);
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

static __rte_always_inline void
verdict_set(const struct verdict *v, struct ingress_result *o)
{
	o->action = v->drop;
	o->marked = v->marked;
	o->mark = v->mark;
	o->rule = v->line;
}

/* The walk over an IPv6 key (o holds the default result). */
static __rte_noinline void
small_walk6(const struct rules *r, const struct __ingress_key6 *k,
	    struct ingress_result *o)
{
	uint16_t sp = rte_be_to_cpu_16(k->sport), dp = rte_be_to_cpu_16(k->dport);
	uint16_t vl = rte_be_to_cpu_16(k->vlan);
	uint64_t s[2], d[2];
	uint32_t j;

	memcpy(s, k->src, 16);
	memcpy(d, k->dst, 16);
	for (j = 0; j < r->n6; j++) {
		const struct kmatch6 *m = &r->km6[j];

		if ((k->flags & m->need) != m->need ||
		    ((s[0] ^ m->src[0]) & m->src_mask[0]) != 0 ||
		    ((s[1] ^ m->src[1]) & m->src_mask[1]) != 0 ||
		    ((d[0] ^ m->dst[0]) & m->dst_mask[0]) != 0 ||
		    ((d[1] ^ m->dst[1]) & m->dst_mask[1]) != 0 ||
		    ((k->proto ^ m->proto) & m->proto_mask) != 0 ||
		    ((k->dscp ^ m->dscp) & m->dscp_mask) != 0 ||
		    (uint16_t)(sp - m->sport_lo) > m->sport_span ||
		    (uint16_t)(dp - m->dport_lo) > m->dport_span ||
		    (uint16_t)(vl - m->vlan_lo) > m->vlan_span)
			continue;
		o->matched = 1;
		if (m->count)
			continue;
		verdict_set(&r->verdicts[m->vi], o);
		return;
	}
}

static void
rules_classify_small(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
		     struct ingress_result *res)
{
	const struct rules *r = ctx;
	const uint32_t nr = r->n4;
	struct __ingress_key k;
	struct __ingress_key6 k6;
	uint16_t i;
	uint32_t j;

	for (i = 0; i < n; i++) {
		struct ingress_result *o = &res[i];
		uint16_t sp, dp, vl;
		int fam = __ingress_key_extract(pkts[i], &k, &k6);

		o->action = r->rs.default_drop;
		o->matched = 0;
		o->marked = 0;
		o->mark = 0;
		o->rule = 0;
		if (unlikely(fam == 6)) {
			small_walk6(r, &k6, o);
			continue;
		}
		sp = rte_be_to_cpu_16(k.sport);
		dp = rte_be_to_cpu_16(k.dport);
		vl = rte_be_to_cpu_16(k.vlan);
		for (j = 0; j < nr; j++) {
			const struct kmatch *m = &r->km[j];

			if (!kmatch_one(m, &k, sp, dp, vl))
				continue;
			o->matched = 1;
			if (m->count)
				continue;
			verdict_set(&r->verdicts[m->vi], o);
			break;
		}
	}
}

/* ---------------------------------------------------------------- */
/* The kind                                                          */
/* ---------------------------------------------------------------- */

#define CHUNK 64

/* The result of a frame no rule of its family decided: the default, and
 * whether a count rule matched. */
static __rte_always_inline void
default_set(const struct rules *r, uint8_t counted, struct ingress_result *o)
{
	o->action = r->rs.default_drop;
	o->matched = counted;
	o->marked = 0;
	o->mark = 0;
	o->rule = 0;
}

/* One family's k keys of a chunk through its context acl (not NULL): the
 * result of data[i] goes to res[at[i]], or to res[i] when at is NULL (a
 * chunk of one family: the frames in order). */
static __rte_always_inline void
acl_family_classify(const struct rules *r, const struct rte_acl_ctx *acl,
		    const uint8_t **data, const uint16_t *at, uint16_t k,
		    struct ingress_result *res)
{
	const uint32_t cat = r->categories;
	uint32_t ar[CHUNK * RTE_ACL_RESULTS_MULTIPLIER];
	uint16_t i;

	rte_acl_classify(acl, data, ar, k, cat);
	for (i = 0; i < k; i++) {
		struct ingress_result *o = &res[at != NULL ? at[i] : i];
		uint32_t u = ar[i * cat];

		if (u != 0) {
			verdict_set(&r->verdicts[u - 1], o);
			o->matched = 1;
		} else {
			default_set(r, cat > 1 && ar[i * cat + 1] != 0, o);
		}
	}
}

static void
rules_classify(const void *ctx, struct rte_mbuf **pkts, uint16_t n,
	       struct ingress_result *res)
{
	const struct rules *r = ctx;
	struct __ingress_key keys[CHUNK];
	struct __ingress_key6 keys6[CHUNK];
	const uint8_t *data[CHUNK], *data6[CHUNK];
	uint16_t at[CHUNK], at6[CHUNK];
	uint16_t off, k, i, n4, n6;

	for (off = 0; off < n; off += k) {
		k = RTE_MIN((uint16_t)(n - off), (uint16_t)CHUNK);
		n4 = 0;
		n6 = 0;
		for (i = 0; i < k; i++) {
			if (likely(__ingress_key_extract(pkts[off + i], &keys[n4],
							 &keys6[n6]) == 4)) {
				data[n4] = (const uint8_t *)&keys[n4];
				at[n4++] = off + i;
			} else {
				data6[n6] = (const uint8_t *)&keys6[n6];
				at6[n6++] = off + i;
			}
		}
		/* a family without rules: every frame of it gets the default */
		if (likely(n6 == 0 && r->acl != NULL)) {
			acl_family_classify(r, r->acl, data, NULL, n4, res + off);
			continue;
		}
		if (n4 != 0 && r->acl != NULL)
			acl_family_classify(r, r->acl, data, at, n4, res);
		else
			for (i = 0; i < n4; i++)
				default_set(r, 0, &res[at[i]]);
		if (n6 == 0)
			continue;
		if (r->acl6 != NULL)
			acl_family_classify(r, r->acl6, data6, at6, n6, res);
		else
			for (i = 0; i < n6; i++)
				default_set(r, 0, &res[at6[i]]);
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
	rte_acl_free(r->acl6);
	if (r->rs.rules) {
		__ingress_poison(r->rs.rules, sizeof(*r->rs.rules) * r->rs.n);
		free(r->rs.rules);
	}
	if (r->verdicts) {
		__ingress_poison(r->verdicts, sizeof(*r->verdicts) * r->rs.n);
		free(r->verdicts);
	}
	if (r->km) {
		__ingress_poison(r->km, sizeof(*r->km) * r->n4);
		free(r->km);
	}
	if (r->km6) {
		__ingress_poison(r->km6, sizeof(*r->km6) * r->n6);
		free(r->km6);
	}
	__ingress_poison(r, sizeof(*r));
	free(r);
}

/* The number of rules, count rules included (the ops' rules). */
static int
rules_n(const void *ctx)
{
	return (int)((const struct rules *)ctx)->rs.n;
}

/* One ops table per lookup; all share the same data, free() and count. */
static const struct ingress_classifier_ops rules_ops[INGRESS_RULES_VIEW_MAX] = {
	[INGRESS_RULES_VIEW_ACL] = { "rules", rules_classify, rules_free, rules_n },
	[INGRESS_RULES_VIEW_SMALL] = { "rules", rules_classify_small, rules_free, rules_n },
	[INGRESS_RULES_VIEW_REFERENCE] = { "rules", rules_classify_linear, rules_free,
					   rules_n },
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
	return __ingress_rules_of(c) != NULL ? rules_n(c->ctx) : -EINVAL;
}

int
ingress_rules_parse_string(const char *text, const char *name,
			   struct ingress_classifier **out, char *err,
			   size_t errlen)
{
	char dummy[1], desc[INGRESS_DESC_MAX], qn[2 * BASE_QUOTE_LEN], qd[100];
	struct ingress_classifier *c;
	struct rules *r;
	uint32_t i, j4, j6;
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
		for (i = 0; i < r->rs.n; i++) {
			r->n4 += rule_for(&r->rs.rules[i], RULE_FAM_4);
			r->n6 += rule_for(&r->rs.rules[i], RULE_FAM_6);
		}
		r->verdicts = calloc(r->rs.n, sizeof(*r->verdicts));
		r->km = calloc(RTE_MAX(r->n4, 1u), sizeof(*r->km));
		r->km6 = calloc(RTE_MAX(r->n6, 1u), sizeof(*r->km6));
		if (r->verdicts == NULL || r->km == NULL || r->km6 == NULL) {
			snprintf(err, errlen, "%s: out of memory", qn);
			rules_free(r);
			return -ENOMEM;
		}
		for (i = 0, j4 = 0, j6 = 0; i < r->rs.n; i++) {
			const struct ingress_rule *x = &r->rs.rules[i];

			r->verdicts[i].drop = x->action == RULE_DROP;
			r->verdicts[i].marked = x->action == RULE_MARK;
			r->verdicts[i].mark = x->mark;
			r->verdicts[i].line = x->line;
			if (rule_for(x, RULE_FAM_4))
				kmatch_fill(x, i, &r->km[j4++]);
			if (rule_for(x, RULE_FAM_6))
				kmatch6_fill(x, i, &r->km6[j6++]);
		}
		rc = acl_compile_all(r, qn, err, errlen);
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
