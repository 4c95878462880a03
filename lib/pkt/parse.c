/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The values users write for packets' fields (pkt.h, "Parsing"): decimal
 * integers, IPv4 and IPv6 addresses, address ranges, prefixes, port ranges
 * and VLAN tag stacks. The
 * options, the INI file and the rules files all parse them here, so that one
 * mistake gets one reason wherever it is made. A reason echoes the value
 * quoted (base_quote()): one line, no raw control byte.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "pkt.h"

int
pkt_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
	      char *err, size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	uint64_t x = 0;
	bool over = false;
	const char *c;

	if (s == NULL || *s == '\0')
		goto nan;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		snprintf(err, errlen, "'%s' is not a decimal number (hexadecimal is "
			 "not accepted)", base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	for (c = s; *c != '\0'; c++) {
		unsigned int d = (unsigned int)(*c - '0');

		if (*c < '0' || *c > '9')
			goto nan;
		if (x > (UINT64_MAX - d) / 10)
			over = true;	/* keep checking the digits */
		else
			x = x * 10 + d;
	}
	if (over || x < lo || x > hi) {
		snprintf(err, errlen, "'%s' is out of range %" PRIu64 "..%" PRIu64,
			 base_quote(q, sizeof(q), s), lo, hi);
		return -ERANGE;
	}
	*out = x;
	return 0;
nan:
	snprintf(err, errlen, "'%s' is not a number", base_quote(q, sizeof(q), s));
	return -EINVAL;
}

/* s as a dotted quad, host order; no message. */
static int
__pkt_ipv4(const char *s, uint32_t *addr)
{
	struct in_addr a;

	if (s == NULL || inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*addr = ntohl(a.s_addr);
	return 0;
}

int
pkt_parse_ipv4(const char *s, uint32_t *addr, char *err, size_t errlen)
{
	char q[BASE_QUOTE_LEN];

	if (__pkt_ipv4(s, addr) != 0) {
		snprintf(err, errlen, "'%s' is not an IPv4 address A.B.C.D",
			 base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	return 0;
}

/* Copy s into buf and cut it at the first '-': the part after it, or NULL
 * if there is none; -1 if s does not fit. */
static int
__pkt_split(const char *s, char *buf, size_t len, char **second)
{
	char *dash;

	if (s == NULL || strlen(s) >= len)
		return -1;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash++ = '\0';
	*second = dash;
	return 0;
}

int
pkt_parse_ipv4_range(const char *s, uint32_t *lo, uint32_t *hi, char *err,
		     size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	char buf[2 * INET_ADDRSTRLEN], *second;
	uint32_t a, b;

	if (__pkt_split(s, buf, sizeof(buf), &second) != 0 ||
	    __pkt_ipv4(buf, &a) != 0 ||
	    __pkt_ipv4(second != NULL ? second : buf, &b) != 0) {
		snprintf(err, errlen, "'%s' is not an IPv4 address or range A-B",
			 base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	if (a > b) {
		snprintf(err, errlen, "'%s': range is reversed", base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	*lo = a;
	*hi = b;
	return 0;
}

int
pkt_parse_prefix(const char *s, bool host_bits, uint32_t *addr, uint8_t *len,
		 char *err, size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	char buf[INET_ADDRSTRLEN], why[128];
	const char *slash = s != NULL ? strchr(s, '/') : NULL;
	size_t alen = s == NULL ? 0 : slash != NULL ? (size_t)(slash - s) : strlen(s);
	uint64_t l = 32;
	uint32_t a, mask;

	if (alen == 0 || alen >= sizeof(buf))
		goto bad;
	memcpy(buf, s, alen);
	buf[alen] = '\0';
	if (__pkt_ipv4(buf, &a) != 0)
		goto bad;
	if (slash != NULL &&
	    pkt_parse_u64(slash + 1, 0, 32, &l, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "'%s' is not an address A.B.C.D[/LEN]: length %s",
			 base_quote(q, sizeof(q), s), why);
		return -EINVAL;
	}
	mask = l == 0 ? 0 : ~UINT32_C(0) << (32 - l);
	if (!host_bits && (a & ~mask) != 0) {
		struct in_addr n = { .s_addr = htonl(a & mask) };
		char nb[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &n, nb, sizeof(nb));
		snprintf(err, errlen, "'%s' has host bits set (did you mean %s/%u?)",
			 base_quote(q, sizeof(q), s), nb, (unsigned int)l);
		return -EINVAL;
	}
	*addr = a;
	*len = (uint8_t)l;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not an address A.B.C.D[/LEN]", base_quote(q, sizeof(q), s));
	return -EINVAL;
}

int
pkt_parse_ipv6(const char *s, uint8_t addr[16], char *err, size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	struct in6_addr a;

	if (s == NULL || inet_pton(AF_INET6, s, &a) != 1) {
		snprintf(err, errlen, "'%s' is not an IPv6 address",
			 base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	memcpy(addr, a.s6_addr, 16);
	return 0;
}

int
pkt_parse_ipv6_range(const char *s, uint8_t lo[16], uint32_t *n, char *err, size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	char buf[2 * INET6_ADDRSTRLEN], *second;
	uint8_t a[16], b[16];
	uint32_t la, lb;

	if (__pkt_split(s, buf, sizeof(buf), &second) != 0 ||
	    pkt_parse_ipv6(buf, a, err, errlen) != 0 ||
	    pkt_parse_ipv6(second != NULL ? second : buf, b, err, errlen) != 0) {
		snprintf(err, errlen, "'%s' is not an IPv6 address or range A-B",
			 base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	la = (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
	lb = (uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 | (uint32_t)b[14] << 8 | b[15];
	if (memcmp(a, b, 12) != 0 || la > lb || lb - la == UINT32_MAX) {
		snprintf(err, errlen,
			 "'%s': the ends of a range differ in their last 32 "
			 "bits only, the first not above the second",
			 base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	memcpy(lo, a, 16);
	*n = lb - la + 1;
	return 0;
}

int
pkt_parse_prefix6(const char *s, uint8_t addr[16], uint8_t *len, char *err, size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	char buf[INET6_ADDRSTRLEN], why[128];
	const char *slash = s != NULL ? strchr(s, '/') : NULL;
	size_t alen = s == NULL ? 0 : slash != NULL ? (size_t)(slash - s) : strlen(s);
	uint64_t l = 128;

	if (alen == 0 || alen >= sizeof(buf))
		goto bad;
	memcpy(buf, s, alen);
	buf[alen] = '\0';
	if (pkt_parse_ipv6(buf, addr, why, sizeof(why)) != 0)
		goto bad;
	if (slash != NULL &&
	    pkt_parse_u64(slash + 1, 1, 128, &l, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "'%s' is not an address A/LEN: length %s",
			 base_quote(q, sizeof(q), s), why);
		return -EINVAL;
	}
	*len = (uint8_t)l;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not an IPv6 address A[/LEN]",
		 base_quote(q, sizeof(q), s));
	return -EINVAL;
}

int
pkt_parse_port_range(const char *s, uint16_t *lo, uint16_t *hi, char *err,
		     size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	char buf[32], why[128], *second;
	uint64_t a, b;

	if (__pkt_split(s, buf, sizeof(buf), &second) != 0 ||
	    pkt_parse_u64(buf, 0, 65535, &a, why, sizeof(why)) != 0 ||
	    pkt_parse_u64(second != NULL ? second : buf, 0, 65535, &b, why,
			  sizeof(why)) != 0) {
		snprintf(err, errlen, "'%s' is not a port or range P-Q (decimal, "
			 "0..65535)", base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	if (a > b) {
		snprintf(err, errlen, "'%s': range is reversed", base_quote(q, sizeof(q), s));
		return -EINVAL;
	}
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

int
pkt_parse_vlan_stack(const char *s, uint16_t vid_lo, uint16_t vid_hi,
		     bool ranges, struct pkt_vlan_stack *out, char *err,
		     size_t errlen)
{
	char q[BASE_QUOTE_LEN];
	struct pkt_vlan_stack st;
	char buf[64], why[128], *tag, *next;
	uint64_t a, b;

	memset(&st, 0, sizeof(st));
	if (s == NULL || *s == '\0' || strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	for (tag = buf; tag != NULL; tag = next) {
		struct pkt_vlan_range *r = &st.tag[st.depth];
		char *second = NULL;

		next = strchr(tag, '.');
		if (next != NULL)
			*next++ = '\0';
		if (st.depth == PKT_VLAN_DEPTH) {
			snprintf(err, errlen, "'%s' has more than %d tags (QinQ: "
				 "two)", base_quote(q, sizeof(q), s), PKT_VLAN_DEPTH);
			return -EINVAL;
		}
		r->tpid = PKT_ETH_P_8021Q;
		if (strncmp(tag, "ad", 2) == 0) {
			r->tpid = PKT_ETH_P_8021AD;
			tag += 2;
		}
		if (ranges) {
			second = strchr(tag, '-');
			if (second != NULL)
				*second++ = '\0';
		}
		/* Digits only: the number's own reason for the rest. */
		if (*tag == '\0' || strspn(tag, "0123456789") != strlen(tag) ||
		    (second != NULL && (*second == '\0' ||
		     strspn(second, "0123456789") != strlen(second))))
			goto bad;
		if (pkt_parse_u64(tag, vid_lo, vid_hi, &a, why, sizeof(why)) != 0 ||
		    pkt_parse_u64(second != NULL ? second : tag, vid_lo, vid_hi,
				  &b, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "'%s': VID %s", base_quote(q, sizeof(q), s),
				 why);
			return -ERANGE;
		}
		if (a > b) {
			snprintf(err, errlen, "'%s': range is reversed",
				 base_quote(q, sizeof(q), s));
			return -EINVAL;
		}
		r->lo = (uint16_t)a;
		r->hi = (uint16_t)b;
		st.depth++;
	}
	*out = st;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a VLAN tag stack TAG[.TAG], TAG = "
		 "%s (802.1Q) or ad%s (802.1ad)", base_quote(q, sizeof(q), s),
		 ranges ? "VID[-VID]" : "VID", ranges ? "VID[-VID]" : "VID");
	return -EINVAL;
}
