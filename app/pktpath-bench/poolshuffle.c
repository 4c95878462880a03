/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LD_PRELOAD module for scripts/bench.sh: another program's (dpdk-testpmd's)
 * rte_pktmbuf_pool_create() pools come back shuffled by pkt_pool_shuffle()
 * with pktpath's seed, so that its receive loop and pktpath's can be set
 * side by side on pools in the same order (pktpath --pool-order shuffle).
 *
 *   LD_PRELOAD=build/app/pktpath-bench/pktpath-poolshuffle.so dpdk-testpmd ...
 *
 * Measurement aid only; it prints one line per pool it shuffles.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "pkt.h"

typedef struct rte_mempool *pool_create_fn(const char *, unsigned int,
					   unsigned int, uint16_t, uint16_t,
					   int);

struct rte_mempool *
rte_pktmbuf_pool_create(const char *name, unsigned int n,
			unsigned int cache_size, uint16_t priv_size,
			uint16_t data_room_size, int socket_id)
{
	pool_create_fn *real = (pool_create_fn *)dlsym(RTLD_NEXT,
						       "rte_pktmbuf_pool_create");
	struct rte_mempool *mp;
	int rc;

	if (real == NULL) {
		fprintf(stderr, "pktpath-poolshuffle: rte_pktmbuf_pool_create not found\n");
		rte_errno = ENOSYS;
		return NULL;
	}
	mp = real(name, n, cache_size, priv_size, data_room_size, socket_id);
	if (mp == NULL)
		return NULL;
	rc = pkt_pool_shuffle(mp, PKT_POOL_SEED);
	if (rc != 0) {
		/* A pool in the wrong order would compare silently wrong. */
		fprintf(stderr, "pktpath-poolshuffle: pool %s: %s\n", name, strerror(-rc));
		rte_mempool_free(mp);
		rte_errno = -rc;
		return NULL;
	}
	fprintf(stderr, "pktpath-poolshuffle: pool %s: %u mbufs shuffled\n", name, n);
	return mp;
}
