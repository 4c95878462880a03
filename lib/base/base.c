/* SPDX-License-Identifier: BSD-3-Clause */
/* Enum name lookup and the median. See base.h. */
#include <stdlib.h>
#include <string.h>

#include "base.h"

const char *
base_name(const char *const *names, unsigned int n, unsigned int v)
{
	return v < n && names[v] != NULL ? names[v] : "?";
}

int
base_name_index(const char *const *names, unsigned int n, const char *s)
{
	unsigned int i;

	for (i = 0; s != NULL && i < n; i++)
		if (names[i] != NULL && strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

static int
__base_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

uint64_t
base_scale(uint64_t v, uint64_t mul, uint64_t div)
{
	unsigned __int128 x;

	if (div == 0)
		return 0;
	if (mul == 0 || v <= UINT64_MAX / mul)
		return v * mul / div;
	x = (unsigned __int128)v * mul / div;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

double
base_median(double *v, unsigned int n, double *min, double *max)
{
	if (n > 0)
		qsort(v, n, sizeof(*v), __base_cmp_double);
	if (min != NULL)
		*min = n > 0 ? v[0] : 0;
	if (max != NULL)
		*max = n > 0 ? v[n - 1] : 0;
	return n == 0 ? 0 : (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double
base_quantile(double *v, unsigned int n, double q)
{
	size_t k;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), __base_cmp_double);
	k = (size_t)(q * (double)n);	/* ceil(q * n), without libm */
	if ((double)k < q * (double)n)
		k++;
	if (k == 0)
		k = 1;
	return v[(k < n ? k : n) - 1];
}
