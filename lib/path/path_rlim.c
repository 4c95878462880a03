/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ICMP rate limits of Linux 6.18 (6.18.44, with 034bbd806298 and
 * 0201eedb69b2 from 6.19), per worker:
 *   net/ipv4/icmp.c       icmp_global_allow, icmp_global_consume: one
 *                         token bucket of icmp_msgs_burst credits refilled
 *                         at icmp_msgs_per_sec, at most once per HZ/50
 *                         jiffies, each message sent taking 0, 1 or 2
 *                         credits at random
 *   net/ipv4/inetpeer.c   inet_getpeer (a new peer's rate_last is 60 s
 *                         back), inet_peer_xrlim_allow: a bucket of
 *                         XRLIM_BURST_FACTOR * tmo jiffies per destination
 *   net/ipv6/icmp.c       icmpv6_mask_allow, icmpv6_global_allow,
 *                         icmpv6_xrlim_allow (in path6_out.c)
 * Time is counted in jiffies of PATH_RLIM_HZ from the worker's clock
 * (path_frag's: the TSC), as the kernel counts it.
 */
#include <errno.h>
#include <string.h>

#include "path.h"

#define XRLIM_BURST_FACTOR 6

int
path_rlim_init(struct path_rlim *r, const struct path_rlim_conf *c)
{
	memset(r, 0, sizeof(*r));
	if (c->on && (c->hz == 0 || c->msgs_per_sec > INT32_MAX ||
		      c->msgs_burst > INT32_MAX || c->ratelimit6_ms > INT32_MAX))
		return -EINVAL;
	r->conf = *c;
	/* proc_dointvec_ms_jiffies: msecs_to_jiffies, rounded up */
	r->tmo = ((uint64_t)c->ratelimit6_ms * PATH_RLIM_HZ + 999) / 1000;
	r->rng = c->seed;
	/* a namespace's credit and stamp start at 0: its first limited
	 * message refills the bucket (delta is HZ, the most there is) */
	return 0;
}

uint64_t
path_rlim_jiffies(struct path_rlim *r, uint64_t now)
{
	uint64_t hz = r->conf.hz;

	/* the worker's clock moves every APP_FLUSH_POLLS polls: the errors
	 * in between take the jiffies of the last conversion */
	if (now == r->now && r->j != 0)
		return r->j;
	r->now = now;
	r->j = 1 + 60 * PATH_RLIM_HZ + now / hz * PATH_RLIM_HZ +
	       now % hz * PATH_RLIM_HZ / hz;
	return r->j;
}

bool
path_rlim_global_allow(struct path_rlim *r, uint64_t j)
{
	uint64_t delta, incr;

	/* "many cpus could find this condition true ... an acceptable race":
	 * one worker here, no race */
	if (r->credit > 0)
		return true;
	delta = RTE_MIN(j - r->stamp, (uint64_t)PATH_RLIM_HZ);
	if (delta < PATH_RLIM_HZ / 50)
		return false;
	incr = (uint64_t)r->conf.msgs_per_sec * delta / PATH_RLIM_HZ;
	if (incr == 0)
		return false;
	r->stamp = j;
	r->credit = RTE_MIN(r->credit + (int64_t)incr, (int64_t)r->conf.msgs_burst);
	return true;
}

void
path_rlim_global_consume(struct path_rlim *r)
{
	r->credit -= path_rlim_rand3(&r->rng);
}

/* inet_getpeer_v6: the peer of addr, made if missing. A set holds
 * PATH_RLIM_WAYS peers; a new one takes a free slot, else the one used
 * longest ago (the kernel keeps a peer until its GC, minutes later: an
 * evicted peer that had used its bucket in the last 6 * tmo jiffies
 * comes back with a full one). */
static struct path_rlim_peer *
__rlim_peer(struct path_rlim *r, uint64_t j, const uint8_t addr[16])
{
	uint64_t h = 0;
	struct path_rlim_peer *set, *victim;
	unsigned int i;

	for (i = 0; i < 16; i += 8) {
		uint64_t w;

		memcpy(&w, addr + i, 8);
		h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
	}
	set = &r->peer[(h >> 60) % PATH_RLIM_SETS * PATH_RLIM_WAYS];
	victim = &set[0];
	for (i = 0; i < PATH_RLIM_WAYS; i++) {
		if (set[i].last != 0 && memcmp(set[i].addr, addr, 16) == 0)
			return &set[i];
		if (set[i].last < victim->last)
			victim = &set[i];
	}
	memcpy(victim->addr, addr, 16);
	victim->tokens = 0;
	/* "60*HZ is arbitrary, but chosen enough high so that the first
	 * calculation of tokens is at its maximum" */
	victim->last = j - 60 * PATH_RLIM_HZ;
	return victim;
}

bool
path_rlim_peer_allow(struct path_rlim *r, uint64_t j, const uint8_t addr[16])
{
	struct path_rlim_peer *p = __rlim_peer(r, j, addr);
	uint64_t token = p->tokens, delta = j - p->last;
	bool rc = false;

	if (delta != 0) {
		p->last = j;
		token += delta;
		if (token > XRLIM_BURST_FACTOR * r->tmo)
			token = XRLIM_BURST_FACTOR * r->tmo;
	}
	if (token >= r->tmo) {
		token -= r->tmo;
		rc = true;
	}
	p->tokens = token;
	return rc;
}
