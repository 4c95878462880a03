/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rules grammar (tc flower-like), one rule a line:
 *
 *   [prio N] [proto udp|tcp|icmp|icmp6|NUM] [src PREFIX] [dst PREFIX]
 *   [sport P|LO-HI] [dport P|LO-HI] [vlan ID|none] [dscp N]
 *   action pass|drop|mark N|count
 *   default pass|drop
 *
 * PREFIX is A.B.C.D[/L] (L 0..32) or an IPv6 A[/L] (L 0..128), both
 * families' host bits clear; src and dst of one rule are of one family.
 *
 * Every error is reported as "NAME:LINE: reason", the first one only; the
 * name and every word of the file a reason echoes are quoted (base.h).
 * Numbers, prefixes and ports are pkt_parse_*()'s (lib/pkt): decimal, the
 * whole word, ranges checked, with the reasons the options give for the same
 * mistake ("NAME:LINE: dport: '70000' is not a port or range P-Q ...").
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ingress_pvt.h"
#include "pkt.h"

#define MAX_TOKENS 32
#define PARSE_WHY_LEN 192

struct parser {
	char name[2 * BASE_QUOTE_LEN];	/* quoted */
	uint32_t line;
	char *err;
	size_t errlen;
};

static int __rte_format_printf(3, 4)
fail(struct parser *p, int rc, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->err == NULL || p->errlen == 0)
		return rc;
	n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, p->line);
	if (n < 0 || (size_t)n >= p->errlen)
		return rc;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return rc;
}

/* A number in lo..hi for key: pkt_parse_u64()'s decimal, and its reason. */
static int
parse_num(struct parser *p, const char *key, const char *s, uint64_t lo,
	  uint64_t hi, uint64_t *v)
{
	char why[PARSE_WHY_LEN];

	if (pkt_parse_u64(s, lo, hi, v, why, sizeof(why)) != 0)
		return fail(p, -EINVAL, "%s: %s", key, why);
	return 0;
}

/* A number in 0..hi, or one of the words alt names: a word that is not
 * one of them gets "'s' is not WHAT", a number pkt_parse_u64()'s reason. */
static int
parse_num_or(struct parser *p, const char *key, const char *s, uint64_t hi,
	     const char *what, uint64_t *v)
{
	char why[PARSE_WHY_LEN];
	int rc = pkt_parse_u64(s, 0, hi, v, why, sizeof(why));
	char q[BASE_QUOTE_LEN];

	if (rc == 0)
		return 0;
	if (rc == -ERANGE || (*s >= '0' && *s <= '9'))
		return fail(p, -EINVAL, "%s: %s", key, why);
	return fail(p, -EINVAL, "%s: '%s' is not %s", key,
		    base_quote(q, sizeof(q), s), what);
}

/* A prefix (host bits clear): pkt_parse_prefix() and its reason. */
static int
parse_prefix(struct parser *p, const char *key, const char *s, uint32_t *addr,
	     uint8_t *len)
{
	char why[PARSE_WHY_LEN];

	if (pkt_parse_prefix(s, false, addr, len, why, sizeof(why)) != 0)
		return fail(p, -EINVAL, "%s: %s", key, why);
	return 0;
}

/* An IPv6 prefix A/LEN, LEN 0..128 (128 without one), host bits clear:
 * the address is pkt_parse_ipv6()'s, the length pkt_parse_u64()'s. */
static int
parse_prefix6(struct parser *p, const char *key, const char *s, uint8_t addr[16],
	      uint8_t *len)
{
	char why[PARSE_WHY_LEN], buf[64], q[BASE_QUOTE_LEN], net[INET6_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t alen = slash != NULL ? (size_t)(slash - s) : strlen(s);
	uint8_t a[16];
	uint64_t l = 128;
	unsigned int i;
	bool host = false;

	if (alen >= sizeof(buf))
		alen = sizeof(buf) - 1; /* too long: refused below */
	memcpy(buf, s, alen);
	buf[alen] = '\0';
	if (pkt_parse_ipv6(buf, a, why, sizeof(why)) != 0)
		return fail(p, -EINVAL, "%s: '%s' is not an IPv6 address A[/LEN]", key,
			    base_quote(q, sizeof(q), s));
	if (slash != NULL && pkt_parse_u64(slash + 1, 0, 128, &l, why, sizeof(why)) != 0)
		return fail(p, -EINVAL,
			    "%s: '%s' is not an IPv6 address A[/LEN]: length %s", key,
			    base_quote(q, sizeof(q), s), why);
	for (i = 0; i < 16; i++) {
		uint8_t m = l >= 8 * (i + 1) ? 0xff
			    : l > 8 * i	     ? (uint8_t)(0xff << (8 - (l - 8 * i)))
					     : 0;

		host |= (a[i] & ~m) != 0;
		a[i] &= m;
	}
	if (host) {
		inet_ntop(AF_INET6, a, net, sizeof(net));
		return fail(p, -EINVAL,
			    "%s: '%s' has host bits set (did you mean %s/%u?)", key,
			    base_quote(q, sizeof(q), s), net, (unsigned int)l);
	}
	memcpy(addr, a, 16);
	*len = (uint8_t)l;
	return 0;
}

/* src or dst: an IPv4 prefix, or an IPv6 one (a word with a ':'), which
 * sets the rule's family; the two must agree. */
static int
parse_addr(struct parser *p, const char *key, const char *s, struct ingress_rule *r,
	   uint32_t *a4, uint8_t *a6, uint8_t *len)
{
	uint8_t fam = strchr(s, ':') != NULL ? RULE_FAM_6 : RULE_FAM_4;
	int rc;

	if (r->family != RULE_FAM_ANY && r->family != fam)
		return fail(p, -EINVAL,
			    "%s: an IPv%c prefix in an IPv%c rule (src and dst "
			    "must be of one family)",
			    key, fam == RULE_FAM_6 ? '6' : '4',
			    fam == RULE_FAM_6 ? '4' : '6');
	rc = fam == RULE_FAM_6 ? parse_prefix6(p, key, s, a6, len)
			       : parse_prefix(p, key, s, a4, len);
	if (rc == 0)
		r->family = fam;
	return rc;
}

/* A port or range: pkt_parse_port_range() and its reason. */
static int
parse_ports(struct parser *p, const char *key, const char *s, uint16_t *lo,
	    uint16_t *hi)
{
	char why[PARSE_WHY_LEN];

	if (pkt_parse_port_range(s, lo, hi, why, sizeof(why)) != 0)
		return fail(p, -EINVAL, "%s: %s", key, why);
	return 0;
}

static const struct {
	const char *name;
	uint32_t key;
} keywords[] = {
	{ "prio", RULE_K_PRIO }, { "proto", RULE_K_PROTO },
	{ "src", RULE_K_SRC }, { "dst", RULE_K_DST },
	{ "sport", RULE_K_SPORT }, { "dport", RULE_K_DPORT },
	{ "vlan", RULE_K_VLAN }, { "dscp", RULE_K_DSCP },
	{ "action", RULE_K_ACTION },
};

/* One rule from its tokens. */
static int
parse_rule(struct parser *p, char **tok, int nt, struct ingress_rule *r)
{
	char q[BASE_QUOTE_LEN];
	uint64_t v;
	int i, rc;

	memset(r, 0, sizeof(*r));
	r->line = p->line;
	r->prio = RULE_PRIO_DEFAULT;
	r->vlan = 0;
	for (i = 0; i < nt; i++) {
		const char *k = tok[i], *val;
		uint32_t key = 0;
		unsigned int j;

		for (j = 0; j < RTE_DIM(keywords); j++)
			if (strcmp(k, keywords[j].name) == 0)
				key = keywords[j].key;
		if (key == 0) {
			if (strcmp(k, "default") == 0)
				return fail(p, -EINVAL,
					    "'default' must be alone on its line");
			return fail(p, -EINVAL, "unknown keyword '%s'",
				    base_quote(q, sizeof(q), k));
		}
		if (r->keys & key)
			return fail(p, -EINVAL, "duplicate key '%s'", k);
		r->keys |= key;
		if (i + 1 >= nt)
			return fail(p, -EINVAL, "'%s' needs a value", k);
		val = tok[++i];
		switch (key) {
		case RULE_K_PRIO:
			rc = parse_num(p, "prio", val, 0, 65535, &v);
			if (rc)
				return rc;
			r->prio = (uint16_t)v;
			break;
		case RULE_K_PROTO:
			if (strcmp(val, "udp") == 0)
				r->proto = IPPROTO_UDP;
			else if (strcmp(val, "tcp") == 0)
				r->proto = IPPROTO_TCP;
			else if (strcmp(val, "icmp") == 0)
				r->proto = IPPROTO_ICMP;
			else if (strcmp(val, "icmp6") == 0)
				r->proto = IPPROTO_ICMPV6;
			else {
				rc = parse_num_or(
					p, "proto", val, 255,
					"udp, tcp, icmp, icmp6 or a number 0..255", &v);
				if (rc)
					return rc;
				r->proto = (uint8_t)v;
			}
			break;
		case RULE_K_SRC:
			rc = parse_addr(p, "src", val, r, &r->src, r->src6, &r->src_len);
			if (rc)
				return rc;
			break;
		case RULE_K_DST:
			rc = parse_addr(p, "dst", val, r, &r->dst, r->dst6, &r->dst_len);
			if (rc)
				return rc;
			break;
		case RULE_K_SPORT:
			rc = parse_ports(p, "sport", val, &r->sport_lo, &r->sport_hi);
			if (rc)
				return rc;
			break;
		case RULE_K_DPORT:
			rc = parse_ports(p, "dport", val, &r->dport_lo, &r->dport_hi);
			if (rc)
				return rc;
			break;
		case RULE_K_VLAN:
			if (strcmp(val, "none") == 0) {
				r->vlan = RULE_VLAN_NONE;
				break;
			}
			rc = parse_num_or(p, "vlan", val, 4095,
					  "a VLAN ID 0..4095 or none", &v);
			if (rc)
				return rc;
			r->vlan = (uint16_t)v;
			break;
		case RULE_K_DSCP:
			rc = parse_num(p, "dscp", val, 0, 63, &v);
			if (rc)
				return rc;
			r->dscp = (uint8_t)v;
			break;
		case RULE_K_ACTION:
			if (strcmp(val, "pass") == 0)
				r->action = RULE_PASS;
			else if (strcmp(val, "drop") == 0)
				r->action = RULE_DROP;
			else if (strcmp(val, "count") == 0)
				r->action = RULE_COUNT;
			else if (strcmp(val, "mark") == 0) {
				if (i + 1 >= nt)
					return fail(p, -EINVAL,
						    "'action mark' needs a value");
				rc = parse_num(p, "mark", tok[++i], 0,
					       UINT32_MAX, &v);
				if (rc)
					return rc;
				r->action = RULE_MARK;
				r->mark = (uint32_t)v;
			} else
				return fail(p, -EINVAL,
					    "unknown action '%s' (expected pass, drop, mark N or count)",
					    base_quote(q, sizeof(q), val));
			break;
		}
	}
	if (!(r->keys & RULE_K_ACTION))
		return fail(p, -EINVAL, "missing action");
	if ((r->keys & RULE_K_PORTS) && (r->keys & RULE_K_PROTO) &&
	    r->proto != IPPROTO_UDP && r->proto != IPPROTO_TCP)
		return fail(p, -EINVAL,
			    "sport/dport need proto udp or tcp (or no proto), not %u",
			    r->proto);
	return 0;
}

static int
cmp_rule(const void *a, const void *b)
{
	const struct ingress_rule *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int
__ingress_rules_parse(const char *text, const char *name,
		      struct ingress_ruleset *rs, char *err, size_t errlen)
{
	struct parser p = { .line = 0, .err = err, .errlen = errlen };
	const char *s = text;
	char *buf = NULL;
	size_t cap = 0, bufcap = 0;
	uint32_t default_line = 0;
	int rc = 0;

	base_quote(p.name, sizeof(p.name), name ? name : "rules");
	memset(rs, 0, sizeof(*rs));
	if (err && errlen)
		err[0] = '\0';
	if (text == NULL)
		return fail(&p, -EINVAL, "no text");
	while (*s) {
		const char *eol = strchr(s, '\n');
		size_t len = eol ? (size_t)(eol - s) : strlen(s);
		char *tok[MAX_TOKENS + 1], *c, *save = NULL;
		int nt = 0;

		p.line++;
		if (len + 1 > bufcap) {
			char *nb = realloc(buf, len + 1);

			if (nb == NULL) {
				rc = fail(&p, -ENOMEM, "out of memory");
				goto out;
			}
			buf = nb;
			bufcap = len + 1;
		}
		memcpy(buf, s, len);
		buf[len] = '\0';
		s += len + (eol != NULL);
		c = strchr(buf, '#');
		if (c)
			*c = '\0';
		for (c = strtok_r(buf, " \t\r\v\f", &save); c;
		     c = strtok_r(NULL, " \t\r\v\f", &save)) {
			if (nt == MAX_TOKENS) {
				rc = fail(&p, -EINVAL, "too many words (max %d)",
					  MAX_TOKENS);
				goto out;
			}
			tok[nt++] = c;
		}
		if (nt == 0)
			continue;
		if (strcmp(tok[0], "default") == 0) {
			if (default_line) {
				rc = fail(&p, -EINVAL,
					  "duplicate 'default' (first at line %u)",
					  default_line);
				goto out;
			}
			if (nt != 2 || (strcmp(tok[1], "pass") != 0 &&
					strcmp(tok[1], "drop") != 0)) {
				rc = fail(&p, -EINVAL,
					  "'default' takes exactly one of pass, drop");
				goto out;
			}
			default_line = p.line;
			rs->default_drop = strcmp(tok[1], "drop") == 0;
			continue;
		}
		if (rs->n == RULES_MAX) {
			rc = fail(&p, -E2BIG, "too many rules (max %d)", RULES_MAX);
			goto out;
		}
		if (rs->n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct ingress_rule *nr =
				realloc(rs->rules, nc * sizeof(*nr));

			if (nr == NULL) {
				rc = fail(&p, -ENOMEM, "out of memory");
				goto out;
			}
			rs->rules = nr;
			cap = nc;
		}
		rc = parse_rule(&p, tok, nt, &rs->rules[rs->n]);
		if (rc)
			goto out;
		if (rs->rules[rs->n].action == RULE_COUNT)
			rs->n_count++;
		rs->n++;
	}
	/* Stable order: (prio, line); lines are unique, so qsort is stable. */
	if (rs->n)
		qsort(rs->rules, rs->n, sizeof(*rs->rules), cmp_rule);
out:
	free(buf);
	if (rc) {
		free(rs->rules);
		memset(rs, 0, sizeof(*rs));
	}
	return rc;
}
