/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_INGRESS_PVT_H
#define PKTPATH_INGRESS_PVT_H

/*
 * lib/ingress internals, shared by its .c files and its unit test. Other
 * modules use ingress.h only.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "ingress.h"

extern int ingress_logtype;
#define INGRESS_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, ingress_logtype, "pktpath: ingress: " fmt "\n", \
		##__VA_ARGS__)

/* ---- classifier objects (classifier.c) ---- */

/* What clones share: the kind's data and its description. */
struct __ingress_body {
	uint32_t refcnt;			/* atomic */
	const struct ingress_classifier_ops *ops;
	void *ctx;
	char desc[INGRESS_DESC_MAX];
};

/* memset(p, INGRESS_POISON, len): every kind's free() calls it. */
void __ingress_poison(void *p, size_t len);

/* ---- control side of the hook (ingress.c) ---- */

struct __ingress_ctl {
	pthread_mutex_t mtx;		/* the writer mutex */
	uint32_t ctl_waiting;		/* atomic: ctl_lock() callers waiting */
	struct mib_block mib;		/* control block (written under mtx) */
	uint32_t gp_log_us;		/* atomic */
	int socket;
	/* updater */
	pthread_mutex_t upd_mtx;	/* serialises start/stop */
	bool upd_running;		/* under mtx (read by set_mode) */
	pthread_t upd_tid;
	uint32_t upd_stop;		/* atomic */
	double upd_rate;
	ingress_make_fn upd_make;
	void *upd_arg;
	uint64_t upd_count;		/* atomic: replaces, every run */
	uint64_t upd_runs;		/* atomic, written under upd_mtx: runs */
	unsigned int upd_seq;		/* under upd_mtx: next make() seq */
	/* What ingress_info() reports: updated by writers (under mtx) after
	 * each swap, read under info_mtx alone, so that a reader never waits
	 * for a writer's grace period or a flip. */
	pthread_mutex_t info_mtx;
	struct ingress_info info;
};

/* ---- the "rules" kind (rules_parse.c, rules.c) ---- */

/* Keys present in a rule. */
enum {
	RULE_K_PRIO = 1 << 0,
	RULE_K_PROTO = 1 << 1,
	RULE_K_SRC = 1 << 2,
	RULE_K_DST = 1 << 3,
	RULE_K_SPORT = 1 << 4,
	RULE_K_DPORT = 1 << 5,
	RULE_K_VLAN = 1 << 6,
	RULE_K_DSCP = 1 << 7,
	RULE_K_ACTION = 1 << 8,
};
#define RULE_K_IP (RULE_K_PROTO | RULE_K_SRC | RULE_K_DST | RULE_K_DSCP)
#define RULE_K_PORTS (RULE_K_SPORT | RULE_K_DPORT)

enum rule_action { RULE_PASS, RULE_DROP, RULE_MARK, RULE_COUNT };

#define RULE_PRIO_DEFAULT 32768
#define RULE_VLAN_NONE 0xffff		/* "vlan none": untagged */
#define RULES_MAX 65536

/* The family a rule matches: an IPv4 or IPv6 address key makes it one
 * family's; a rule with neither applies to both (and, without IP keys, to
 * every frame). */
enum rule_family {
	RULE_FAM_ANY,
	RULE_FAM_4,
	RULE_FAM_6
};

/* One parsed rule. IPv4 addresses and ports in host byte order, IPv6
 * addresses in network order. */
struct ingress_rule {
	uint32_t line;			/* source line, 1-based */
	uint32_t keys;			/* RULE_K_* present */
	uint16_t prio;
	uint8_t action;			/* enum rule_action */
	uint8_t proto;
	uint8_t family;		    /* enum rule_family */
	uint32_t src, dst;	    /* RULE_FAM_4 */
	uint8_t src6[16], dst6[16]; /* RULE_FAM_6 */
	uint8_t src_len, dst_len;   /* 0..32, or 0..128 for RULE_FAM_6 */
	uint8_t dscp;
	uint16_t sport_lo, sport_hi;
	uint16_t dport_lo, dport_hi;
	uint16_t vlan;			/* VID or RULE_VLAN_NONE */
	uint32_t mark;
};

/* A parsed rule set, rules sorted by (prio, line). */
struct ingress_ruleset {
	uint32_t n;
	uint32_t n_count;		/* rules with action count */
	uint8_t default_drop;
	struct ingress_rule *rules;
};

/*
 * Parse text into rs (rules sorted). On error: -errno and "NAME:LINE: reason"
 * in err. rs->rules is malloc'ed; free with free().
 */
int __ingress_rules_parse(const char *text, const char *name,
			  struct ingress_ruleset *rs, char *err, size_t errlen);

/* The packet fields rules look at, as the key rte_acl reads. Network byte
 * order where multi-byte. Groups of 4 bytes = rte_acl input indexes. */
struct __ingress_key {
	uint8_t proto;			/* input 0 (rte_acl: first field 1 byte) */
	uint8_t pad[3];
	uint32_t src;			/* input 1 */
	uint32_t dst;			/* input 2 */
	uint16_t sport;			/* input 3 */
	uint16_t dport;
	uint16_t vlan;			/* input 4: VID, or RULE_VLAN_NONE */
	uint8_t dscp;
	uint8_t flags;			/* KEY_F_* */
};
#define KEY_F_IP    0x01	/* complete IP header: IP keys apply */
#define KEY_F_PORTS 0x02	/* unfragmented UDP/TCP with ports */

/* The same for an IPv6 frame whose fixed header is complete: rte_acl's
 * IPv6 layout, each address four 32-bit inputs. proto is the upper-layer
 * protocol after the extension headers, dscp the traffic class's. */
struct __ingress_key6 {
	uint8_t proto; /* input 0 */
	uint8_t pad[3];
	uint8_t src[16]; /* inputs 1-4 */
	uint8_t dst[16]; /* inputs 5-8 */
	uint16_t sport;	 /* input 9 */
	uint16_t dport;
	uint16_t vlan; /* input 10: VID, or RULE_VLAN_NONE */
	uint8_t dscp;
	uint8_t flags; /* KEY_F_* */
};

/* Extension headers the key walks over before giving up (proto is then
 * the ninth header's type). */
#define KEY6_EXT_MAX 8

/*
 * Fill k6 from the IPv6 frame m whose IPv6 header (complete: 40 bytes)
 * starts at off, with vlan (network order) as the IPv4 key has it. Returns
 * 6. The semantics are documented in ingress_rules.h. The IPv4 key's
 * parse, __ingress_key_extract() below, calls it for IPv6 frames.
 */
int __ingress_key6_extract(const struct rte_mbuf *m, uint32_t off, uint16_t vlan,
			   struct __ingress_key6 *k6);

/* Eth (14) + one 802.1Q tag (4) + IPv4 with options (60) + 4 bytes of L4. */
#define KEY_HDR_MAX (RTE_ETHER_HDR_LEN + 4 + 60 + 4)

/*
 * Fill k, or k6 for an IPv6 frame (ethertype 0x86dd, version 6, the fixed
 * 40-byte header in the frame: __ingress_key6_extract()): 6 when k6 was
 * filled, 4 when k was (IPv4, and every other frame: not IP, truncated,
 * runts, with no flag). Inlined in both of rules.c's lookups: the IPv4
 * path's cost. Thread-safe (no state).
 */
static __rte_always_inline int
__ingress_key_extract(const struct rte_mbuf *m, struct __ingress_key *k,
		      struct __ingress_key6 *k6)
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
		return 4; /* runt: untagged, not IP */
	et = (uint16_t)(p[12] << 8 | p[13]);
	if (et == RTE_ETHER_TYPE_VLAN) {
		if (hl < RTE_ETHER_HDR_LEN + 4)
			return 4; /* incomplete tag: a runt */
		k->vlan = rte_cpu_to_be_16((uint16_t)((p[14] << 8 | p[15]) & 0xfff));
		et = (uint16_t)(p[16] << 8 | p[17]);
		off += 4;
	}
	if (et != RTE_ETHER_TYPE_IPV4 || hl < off + 20) {
		/* hl >= off + 40 when the frame holds the IPv6 header */
		if (et == RTE_ETHER_TYPE_IPV6 && rte_pktmbuf_pkt_len(m) >= off + 40 &&
		    (p[off] >> 4) == 6)
			return __ingress_key6_extract(m, off, k->vlan, k6);
		return 4;
	}
	ip = p + off;
	ihl = (ip[0] & 0xfu) * 4;
	if ((ip[0] >> 4) != 4 || ihl < 20 || hl < off + ihl)
		return 4; /* not v4, or truncated */
	k->flags = KEY_F_IP;
	k->proto = ip[9];
	k->dscp = ip[1] >> 2;
	memcpy(&k->src, ip + 12, 4);
	memcpy(&k->dst, ip + 16, 4);
	/* Like tc flower's dissector (flags 0): no ports for any fragment,
	 * first fragments included. */
	if ((ip[6] << 8 | ip[7]) & 0x3fff)
		return 4;
	if ((k->proto != IPPROTO_UDP && k->proto != IPPROTO_TCP) || hl < off + ihl + 4)
		return 4;
	memcpy(&k->sport, ip + ihl, 2);
	memcpy(&k->dport, ip + ihl + 2, 2);
	k->flags |= KEY_F_PORTS;
	return 4;
}

/*
 * The naive reference: walk rs's rules in order on frame m, parsed
 * independently of the keys (__ingress_key_extract(), rules_key.c). For
 * tests.
 */
void __ingress_rules_match_linear(const struct ingress_ruleset *rs,
				  const struct rte_mbuf *m,
				  struct ingress_result *r);

/* The parsed rules of a "rules" classifier, or NULL for another kind. */
const struct ingress_ruleset *
__ingress_rules_of(const struct ingress_classifier *c);

/*
 * A "rules" classifier looks its rules up with rte_acl, or, when it has at
 * most RULES_SMALL_MAX rules, with a linear walk over the same key (cheaper
 * per packet: see the journal's classification table). Both are always
 * built; ingress_rules_view() (ingress_rules.h) picks one explicitly.
 */
#define RULES_SMALL_MAX 16

/* A clone of c with other ops (same data, same refcount). */
struct ingress_classifier *
__ingress_classifier_view(const struct ingress_classifier *c,
			  const struct ingress_classifier_ops *ops);

#endif /* PKTPATH_INGRESS_PVT_H */
