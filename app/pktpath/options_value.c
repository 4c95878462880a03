/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parsers of option values: the generic one of each type of the option
 * table (options_pvt.h), and the list iterator the setters of the options
 * that need their own (options_set.c, options_compare.c) share.
 * Integers, addresses, prefixes and port ranges are lib/pkt's parsers
 * (pkt_parse_*(), the rules files use the same ones): decimal everywhere,
 * leading zeros included (010 is ten); hexadecimal is refused.
 * Each returns 0, or -1 with the reason in err (APP_OPT_ERR_LEN bytes),
 * which the caller prefixes with the option ("--burst: ", "FILE:LINE: burst: ");
 * a reason echoes the value quoted (base_quote(): one line, no raw control
 * byte).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base.h"
#include "options_pvt.h"

#define ERR_LEN APP_OPT_ERR_LEN
#define LIST_MAX 4096

/* ---- the types ---- */

/* A decimal number: [-]digits[.digits][e[+-]digits]; strtod alone would
 * take hexadecimal ("0x10" is 16), "inf", "nan" and leading blanks. */
int
__opt_double(const char *v, double lo, double hi, double *out, char *err)
{
	char q[BASE_QUOTE_LEN];
	const char *c;
	bool digit = false;
	char *end;
	double x;

	if (v == NULL || *v == '\0')
		goto bad;
	if ((v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))) {
		snprintf(err, ERR_LEN, "'%s' is not a decimal number (hexadecimal is "
			 "not accepted)", base_quote(q, sizeof(q), v));
		return -1;
	}
	c = v + (*v == '-');
	for (; *c >= '0' && *c <= '9'; c++)
		digit = true;
	if (*c == '.')
		for (c++; *c >= '0' && *c <= '9'; c++)
			digit = true;
	if (digit && (*c == 'e' || *c == 'E')) {
		c++;
		c += *c == '+' || *c == '-';
		if (*c < '0' || *c > '9')
			goto bad;
		while (*c >= '0' && *c <= '9')
			c++;
	}
	if (!digit || *c != '\0')
		goto bad;
	errno = 0;
	x = strtod(v, &end);
	if (*end != '\0' || isnan(x))
		goto bad;
	if (errno == ERANGE || x < lo || x > hi) {
		snprintf(err, ERR_LEN, "'%s' is out of range %g..%g",
			 base_quote(q, sizeof(q), v), lo, hi);
		return -1;
	}
	*out = x;
	return 0;
bad:
	snprintf(err, ERR_LEN, "'%s' is not a number", base_quote(q, sizeof(q), v));
	return -1;
}

int
__opt_bool(const char *v, bool *out, char *err)
{
	char q[BASE_QUOTE_LEN];
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	unsigned int i;

	for (i = 0; v != NULL && i < RTE_DIM(yes); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	snprintf(err, ERR_LEN, "'%s' is not on/off", base_quote(q, sizeof(q), v));
	return -1;
}

/* names[0..n-1] joined with '|' into buf */
const char *
__opt_join(const char *const *names, unsigned int n, char *buf, size_t len)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "|" : "",
			 names[i]);
	return buf;
}

static const char *
__opt_names(const struct app_opt *d, char *buf, size_t len)
{
	return __opt_join(d->names, d->n_names, buf, len);
}

const char *
__opt_arg(const struct app_opt *d, char *buf, size_t len)
{
	if (d->arg != NULL)
		return d->arg;
	switch (d->type) {
	case APP_OPT_BOOL:
		return "on|off";
	case APP_OPT_CHOICE:
		return __opt_names(d, buf, len);
	case APP_OPT_UINT:
	case APP_OPT_DOUBLE:
		return "N";
	case APP_OPT_PATH:
		return "FILE";
	default:
		return "";
	}
}

static int
__opt_path(const char *v, char *dst, char *err)
{
	if (v == NULL || *v == '\0') {
		snprintf(err, ERR_LEN, "needs a file name");
		return -1;
	}
	if (strlen(v) >= PATH_MAX) {
		snprintf(err, ERR_LEN, "file name longer than %d characters",
			 PATH_MAX - 1);
		return -1;
	}
	strcpy(dst, v);
	return 0;
}

/* x into the field of d (1, 2, 4 or 8 bytes: the table's sizeof). */
void
__opt_store(const struct app_opt *d, struct app_options *o, uint64_t x)
{
	char *p = (char *)o + d->off;
	uint8_t u8 = (uint8_t)x;
	uint16_t u16 = (uint16_t)x;
	uint32_t u32 = (uint32_t)x;

	switch (d->size) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &u16, 2);
		break;
	case 4:
		memcpy(p, &u32, 4);
		break;
	default:
		memcpy(p, &x, 8);
		break;
	}
}

/* The field of d, as __opt_store() puts it. */
uint64_t
__opt_load(const struct app_opt *d, const struct app_options *o)
{
	const char *p = (const char *)o + d->off;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t x;

	switch (d->size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&x, p, 8);
		return x;
	}
}

/* A word the value may be instead of its form (auto, none, off in
 * "auto|SECONDS", "P[-Q],...|none"): an alternative of d->arg made of
 * lowercase letters only. The k-th one into w; false when there is none. */
bool
__opt_arg_word(const struct app_opt *d, unsigned int k, char *w, size_t len)
{
	const char *a = d->type == APP_OPT_FN ? d->arg : NULL;

	while (a != NULL && *a != '\0') {
		size_t n = strcspn(a, "|"), j;
		bool word = n > 0 && n < len;

		for (j = 0; word && j < n; j++)
			word = a[j] >= 'a' && a[j] <= 'z';
		if (word && k-- == 0) {
			memcpy(w, a, n);
			w[n] = '\0';
			return true;
		}
		a += n + (a[n] == '|');
	}
	return false;
}

/* A set() that refused a value names the words it also takes, so that
 * "--warmup auto2" does not hide that auto exists. */
static void
__opt_name_words(const struct app_opt *d, char *err)
{
	char w[32];
	unsigned int k, said = 0;
	size_t l;

	for (k = 0; __opt_arg_word(d, k, w, sizeof(w)); k++) {
		if (strstr(err, w) != NULL)
			continue;
		l = strlen(err);
		snprintf(err + l, ERR_LEN - l, "%s'%s'", said++ ? ", " :
			 "; also accepted: ", w);
	}
}

int
__opt_set(const struct app_opt *d, struct app_options *o, const char *v,
	  char *err)
{
	char q[BASE_QUOTE_LEN];
	char *field = (char *)o + d->off;
	uint64_t x;
	double dx;
	bool b;
	int i;

	switch (d->type) {
	case APP_OPT_FLAG:
		if (v != NULL && __opt_bool(v, &b, err) != 0)
			return -1;
		if (v == NULL || b)
			__opt_store(d, o, 1);	/* off leaves the flag as it is */
		return 0;
	case APP_OPT_BOOL:
		if (__opt_bool(v, &b, err) != 0)
			return -1;
		__opt_store(d, o, b);
		return 0;
	case APP_OPT_UINT:
		if (pkt_parse_u64(v, d->lo, d->hi, &x, err, ERR_LEN) != 0)
			return -1;
		__opt_store(d, o, x);
		return 0;
	case APP_OPT_DOUBLE:
		if (__opt_double(v, d->dlo, d->dhi, &dx, err) != 0)
			return -1;
		memcpy(field, &dx, sizeof(dx));
		return 0;
	case APP_OPT_CHOICE:
		i = base_name_index(d->names, d->n_names, v);
		if (i >= 0) {
			__opt_store(d, o, (uint64_t)i);
			return 0;
		}
		{
			char list[128];

			snprintf(err, ERR_LEN, "'%s' is not one of %s",
				 base_quote(q, sizeof(q), v),
				 __opt_names(d, list, sizeof(list)));
		}
		return -1;
	case APP_OPT_PATH:
		return __opt_path(v, field, err);
	case APP_OPT_FN:
		if (d->set(o, v, err) == 0)
			return 0;
		__opt_name_words(d, err);
		return -1;
	default:
		snprintf(err, ERR_LEN, "not a setting");
		return -1;
	}
}

/* ---- lists ---- */

/* Iterate a comma-separated list; an empty item ("," or "a,,b" or "a,") is
 * an error, not "no item" (strtok would skip it and leave the default). */
int
__opt_list(const char *v, int (*item)(struct app_options *, const char *, char *),
	   struct app_options *o, char *err)
{
	char q[BASE_QUOTE_LEN];
	char buf[LIST_MAX];
	char *tok, *comma;

	if (v == NULL || *v == '\0') {
		snprintf(err, ERR_LEN, "needs a non-empty list");
		return -1;
	}
	if (strlen(v) >= sizeof(buf)) {
		snprintf(err, ERR_LEN, "list longer than %d characters", LIST_MAX - 1);
		return -1;
	}
	strcpy(buf, v);
	for (tok = buf; tok != NULL; tok = comma) {
		comma = strchr(tok, ',');
		if (comma != NULL)
			*comma++ = '\0';
		if (*tok == '\0') {
			snprintf(err, ERR_LEN, "'%s' has an empty item (items are "
				 "separated by single commas)", base_quote(q, sizeof(q), v));
			return -1;
		}
		if (item(o, tok, err) != 0)
			return -1;
	}
	return 0;
}
