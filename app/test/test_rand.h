/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_RAND_H
#define PKTPATH_TEST_RAND_H

/*
 * The unit tests' pseudo-random numbers (test_mib.c, test_mib_schema.c,
 * test_path.c): xorshift64* (Vigna, "An experimental exploration of
 * Marsaglia's xorshift generators, scrambled", 2016), over a state each
 * test seeds itself (never 0), so that a run is repeated by its seed.
 */

#include <stdint.h>

/* The next number of the sequence of *state (non-zero), advancing it. */
static inline uint64_t
test_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * UINT64_C(2685821657736338717);
}

#endif /* PKTPATH_TEST_RAND_H */
