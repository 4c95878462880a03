/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --perf-detail: the histograms' bins and percentiles, and the reader of a
 * worker's suspicious polls (stats_hist.h).
 */
#include "base.h"
#include "stats_hist.h"

const uint32_t stats_hist_pct_ppm[STATS_HIST_N_PCT] = {
	500000, 900000, 990000, 999000, 1000000
};
const char *const stats_hist_pct_names[STATS_HIST_N_PCT] = {
	"p50", "p90", "p99", "p99.9", "max"
};

static const char *const kind_names[STATS_PERF_MAX] = {
	[STATS_PERF_POLL_CYCLES] = "poll_cycles",
	[STATS_PERF_POLL_PACKETS] = "poll_packets",
	[STATS_PERF_PKT_CYCLES] = "packet_cycles",
	[STATS_PERF_INGRESS_CYCLES] = "ingress_cycles",
};

const char *
stats_perf_kind_name(enum stats_perf_kind k)
{
	return BASE_ENUM_NAME(kind_names, k);
}

uint64_t
stats_hist_lower(unsigned int i)
{
	unsigned int k = i / 2;

	if (i < 2)
		return i;
	return (i & 1) ? 3ull << (k - 1) : 1ull << k;
}

uint64_t
stats_hist_upper(unsigned int i)
{
	if (i >= STATS_HIST_BINS - 1)
		return UINT64_MAX;
	return stats_hist_lower(i + 1) - 1;
}

uint64_t
stats_hist_count(const struct stats_hist *h)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < STATS_HIST_BINS; i++)
		n += h->bins[i];
	return n;
}

void
stats_hist_load(struct stats_hist *dst, const struct stats_hist *src)
{
	unsigned int i;

	for (i = 0; i < STATS_HIST_BINS; i++)
		dst->bins[i] = __atomic_load_n(&src->bins[i], __ATOMIC_RELAXED);
	dst->sum = __atomic_load_n(&src->sum, __ATOMIC_RELAXED);
	dst->max = __atomic_load_n(&src->max, __ATOMIC_RELAXED);
}

void
stats_hist_merge(struct stats_hist *acc, const struct stats_hist *h)
{
	unsigned int i;

	for (i = 0; i < STATS_HIST_BINS; i++)
		acc->bins[i] += h->bins[i];
	acc->sum += h->sum;
	if (h->max > acc->max)
		acc->max = h->max;
}

bool
stats_hist_delta(struct stats_hist *out, const struct stats_hist *late,
		 const struct stats_hist *early)
{
	int i, top = -1;

	for (i = 0; i < STATS_HIST_BINS; i++) {
		out->bins[i] = late->bins[i] >= early->bins[i] ?
			late->bins[i] - early->bins[i] : 0;
		if (out->bins[i] != 0)
			top = i;
	}
	out->sum = late->sum - early->sum;
	if (top < 0) {
		out->max = 0;
		return true;
	}
	if (late->max < stats_hist_upper((unsigned int)top))
		out->max = late->max;
	else
		out->max = stats_hist_upper((unsigned int)top);
	return late->max > early->max || stats_hist_count(early) == 0;
}

uint64_t
stats_hist_percentile(const struct stats_hist *h, uint32_t ppm)
{
	uint64_t n = stats_hist_count(h), r, cum = 0, up;
	unsigned int i;

	if (n == 0)
		return 0;
	if (ppm > 1000000)
		ppm = 1000000;
	/* r = ceil(n * ppm / 1e6), without overflow */
	r = (uint64_t)(((unsigned __int128)n * ppm + 999999) / 1000000);
	if (r == 0)
		r = 1;
	for (i = 0; i < STATS_HIST_BINS; i++) {
		cum += h->bins[i];
		if (cum >= r)
			break;
	}
	up = stats_hist_upper(i < STATS_HIST_BINS ? i : STATS_HIST_BINS - 1);
	return up < h->max ? up : h->max;
}

unsigned int
stats_perf_drain(const struct stats_perf *p, uint64_t *cursor,
		 struct stats_perf_event *out, unsigned int max, uint64_t *lost)
{
	/* Acquire: pairs with the worker's store-release of the count. */
	uint64_t e = __atomic_load_n(&p->events, __ATOMIC_ACQUIRE), now;
	unsigned int n = 0;

	/* The oldest slot is the one the worker writes next: the last
	 * STATS_PERF_EVENTS - 1 events are readable. */
	if (e - *cursor > STATS_PERF_EVENTS - 1) {
		*lost += e - *cursor - (STATS_PERF_EVENTS - 1);
		*cursor = e - (STATS_PERF_EVENTS - 1);
	}
	while (*cursor < e && n < max) {
		memcpy(&out[n], &p->ev[*cursor % STATS_PERF_EVENTS], sizeof(*out));
		/* The copy is good unless the worker wrapped onto the slot
		 * meanwhile: it writes slot c again for event c + EVENTS,
		 * once its count reached c + EVENTS. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		now = __atomic_load_n(&p->events, __ATOMIC_RELAXED);
		if (now - *cursor >= STATS_PERF_EVENTS)
			(*lost)++;
		else
			n++;
		(*cursor)++;
	}
	return n;
}
