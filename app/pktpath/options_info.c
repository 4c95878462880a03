/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a run says of its options, from the option table: the JSON's run
 * information ("info.config": every option with a value of its own that
 * has an effect, app_options_value(); a compared knob: the values its
 * phases ran, "field,lcore") and the banner's variant knobs
 * (app_options_variant_text()). No second list of the options: a row
 * added to the table is in both. Main thread only (options.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options_pvt.h"

/* What was given of each option, from o->given as the parse left it
 * (calloc'd once, app_n_opts rows), to check an option's needs against
 * as the parse checked them: "--capture-max needs --capture" holds when
 * --capture was given. */
static const struct app_opt_given *
__given(const struct app_options *o)
{
	static struct app_opt_given *g;
	unsigned int i;

	if (g == NULL && (g = calloc(app_n_opts, sizeof(*g))) == NULL)
		return NULL;
	for (i = 0; i < app_n_opts; i++)
		g[i].given = (o->given[i / 64] >> (i % 64)) & 1;
	return g;
}

static bool
__has_effect(const struct app_opt *d, const struct app_options *o)
{
	const struct app_opt_given *g = __given(o);

	return g != NULL && __opt_needs_met(d, o, g);
}

/* The key of option d in info.config. */
static void
__value_key(const struct app_opt *d, struct app_option_value *v)
{
	char *c;

	snprintf(v->key, sizeof(v->key), "%s%s", d->name,
		 d->arg != NULL && strcmp(d->arg, "SECONDS") == 0 ? "_s" : "");
	for (c = v->key; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
}

/* If d is a knob of o's --compare: true, *v its values as --compare
 * lists them (the knob was checked to have an effect when parsed). */
static bool
__compared(const struct app_opt *d, const struct app_options *o,
	   struct app_option_value *v)
{
	int k = base_name_index(app_knob_names, APP_KNOB_MAX, d->name);
	int ki = k >= 0 ? app_compare_knob(&o->cmp, (enum app_knob)k) : -1;
	unsigned int j;

	if (ki < 0)
		return false;
	memset(v, 0, sizeof(*v));
	__value_key(d, v);
	for (j = 0; j < o->cmp.k[ki].n; j++) {
		size_t at = strlen(v->list);

		snprintf(v->list + at, sizeof(v->list) - at, "%s%s", j ? "," : "",
			 o->cmp.k[ki].name[j]);
	}
	v->type = APP_VAL_TEXT;
	v->text = v->list;
	return true;
}

int
app_options_value(const struct app_options *o, unsigned int i, struct app_option_value *v)
{
	const struct app_opt *d;

	if (i >= app_n_opts)
		return -1;
	d = &app_opts[i];
	if (d->no_ini || d->no_info)
		return 0;
	if (__compared(d, o, v))
		return 1;
	if (d->type == APP_OPT_FN || d->type == APP_OPT_HELP || !__has_effect(d, o))
		return 0;
	memset(v, 0, sizeof(*v));
	__value_key(d, v);
	switch (d->type) {
	case APP_OPT_UINT:
		v->type = APP_VAL_UINT;
		v->u = __opt_load(d, o);
		return 1;
	case APP_OPT_DOUBLE:
		v->type = APP_VAL_DOUBLE;
		memcpy(&v->d, (const char *)o + d->off, sizeof(v->d));
		return 1;
	case APP_OPT_BOOL:
	case APP_OPT_FLAG:
		v->type = APP_VAL_BOOL;
		v->b = __opt_load(d, o) != 0;
		return 1;
	case APP_OPT_CHOICE:
		v->type = APP_VAL_TEXT;
		v->text = d->names[__opt_load(d, o)];
		return 1;
	default: /* a file name: given, or nothing to say */
		v->type = APP_VAL_TEXT;
		v->text = (const char *)o + d->off;
		return v->text[0] != '\0';
	}
}

/* The options that define a variant, in the banner's order. */
static const char *const variant_opts[] = {
	"burst", "fold",	"mib-layout", "alloc",	 "prefetch",
	"peer",	 "peer-layout", "peer-share", "ingress", "lock-scope",
};

const char *
app_options_variant_text(const struct app_options *o, char *buf, size_t len)
{
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(variant_opts); i++) {
		const struct app_opt *d = __opt_find(variant_opts[i]);
		int k = base_name_index(app_knob_names, APP_KNOB_MAX, d->name);
		int ki = k >= 0 ? app_compare_knob(&o->cmp, (enum app_knob)k) : -1;
		size_t at = strlen(buf);
		struct app_option_value v;
		char val[32];

		if (ki >= 0) { /* compared: its values */
			const struct app_compare_knob *kn = &o->cmp.k[ki];

			snprintf(buf + at, len - at, "%s%s ", at ? ", " : "", d->name);
			for (j = 0; j < kn->n; j++) {
				at = strlen(buf);
				snprintf(buf + at, len - at, "%s%s", j ? "|" : "",
					 kn->name[j]);
			}
			at = strlen(buf);
			snprintf(buf + at, len - at, " (compared)");
			continue;
		}
		if (app_options_value(o, (unsigned int)(d - app_opts), &v) != 1 &&
		    !(strcmp(d->name, "lock-scope") == 0 && app_options_want_ingress(o)))
			continue;
		if (d->type == APP_OPT_UINT)
			snprintf(val, sizeof(val), "%" PRIu64, __opt_load(d, o));
		else if (d->type == APP_OPT_BOOL)
			snprintf(val, sizeof(val), "%s", __opt_load(d, o) ? "on" : "off");
		else
			snprintf(val, sizeof(val), "%s", d->names[__opt_load(d, o)]);
		snprintf(buf + at, len - at, "%s%s %s", at ? ", " : "", d->name, val);
	}
	return buf;
}
