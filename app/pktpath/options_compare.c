/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --compare KNOB=V1,V2[,...] and --baseline V (options.h, struct
 * app_compare): a knob is an option of the table, by its name, and its
 * values are parsed by that option's own parser, so a knob takes exactly
 * what the option takes and refuses what it refuses, in its words. The
 * shorthand --compare MODE,... is the ingress knob. A knob takes two
 * values or more: one compares nothing, and a value to run with is its
 * option's (--alloc slab). Given twice, the option gives two knobs, whose
 * product is the variants (a 2x2).
 * Checked after both passes (__opt_check_compare()): a knob that has no
 * effect in this run (its option's needs, as the table says them) is
 * refused with one line, as is a knob whose option is given too (the
 * phases set it) and a --baseline that names no variant. rx-csum is a
 * port's: the generator has no offload to switch (its hw marks frames
 * GOOD once, at set-up), so the knob needs --source port and --path full.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "options_pvt.h"

#define ERR_LEN APP_OPT_ERR_LEN

const char *const app_knob_names[] = { [APP_KNOB_INGRESS] = "ingress",
				       [APP_KNOB_LOCK_SCOPE] = "lock-scope",
				       [APP_KNOB_FOLD] = "fold",
				       [APP_KNOB_PREFETCH] = "prefetch",
				       [APP_KNOB_BURST] = "burst",
				       [APP_KNOB_ALLOC] = "alloc",
				       [APP_KNOB_PEER_LAYOUT] = "peer-layout",
				       [APP_KNOB_RX_CSUM] = "rx-csum",
				       [APP_KNOB_MIB_LAYOUT] = "mib-layout" };
static_assert(RTE_DIM(app_knob_names) == APP_KNOB_MAX, "knob names");

const char *
app_compare_name(const struct app_compare *c, unsigned int v, char *buf, size_t len)
{
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < c->n_knobs; k++) {
		size_t at = strlen(buf);

		snprintf(buf + at, len - at, "%s%s", k ? "/" : "",
			 c->k[k].name[app_compare_index(c, k, v)]);
	}
	return buf;
}

int
app_compare_knob(const struct app_compare *c, enum app_knob k)
{
	unsigned int i;

	for (i = 0; i < c->n_knobs; i++)
		if (c->k[i].knob == k)
			return (int)i;
	return -1;
}

/* The option of knob k. */
static const struct app_opt *
__knob_opt(enum app_knob k)
{
	return __opt_find(app_knob_names[k]);
}

/* Where a value is parsed: options are parsed once, on one thread
 * (options.h), and the struct is too big for the stack. */
static struct app_options __scratch;

/* One value of the knob being filled (the last of o->cmp.k). */
static int
__compare_item(struct app_options *o, const char *t, char *err)
{
	struct app_compare_knob *kn = &o->cmp.k[o->cmp.n_knobs - 1];
	const struct app_opt *d = __knob_opt(kn->knob);
	char q[BASE_QUOTE_LEN], why[ERR_LEN - 32];
	uint32_t x;
	unsigned int i;

	__scratch = *o;
	if (__opt_set(d, &__scratch, t, why) != 0) {
		snprintf(err, ERR_LEN, "%s: %s", d->name, why);
		return -1;
	}
	x = (uint32_t)__opt_load(d, &__scratch);
	for (i = 0; i < kn->n; i++)
		if (kn->val[i] == x) {
			snprintf(err, ERR_LEN, "%s: '%s' is listed twice", d->name,
				 base_quote(q, sizeof(q), t));
			return -1;
		}
	if (kn->n >= APP_MAX_COMPARE) {
		snprintf(err, ERR_LEN, "%s: more than %d values", d->name,
			 APP_MAX_COMPARE);
		return -1;
	}
	/* its name as --help writes it */
	if (d->type == APP_OPT_CHOICE)
		snprintf(kn->name[kn->n], sizeof(kn->name[0]), "%s", d->names[x]);
	else if (d->type == APP_OPT_BOOL)
		snprintf(kn->name[kn->n], sizeof(kn->name[0]), "%s", x ? "on" : "off");
	else
		snprintf(kn->name[kn->n], sizeof(kn->name[0]), "%u", x);
	kn->val[kn->n++] = x;
	return 0;
}

int
__opt_set_compare(struct app_options *o, const char *v, char *err)
{
	struct app_compare *c = &o->cmp;
	const char *eq = v != NULL ? strchr(v, '=') : NULL;
	char q[BASE_QUOTE_LEN], list[160], knob[32];
	unsigned int i, n;
	int k = (int)APP_KNOB_INGRESS;

	if (eq != NULL) {
		snprintf(knob, sizeof(knob), "%.*s", (int)(eq - v), v);
		k = base_name_index(app_knob_names, APP_KNOB_MAX, knob);
		if (k < 0) {
			snprintf(err, ERR_LEN,
				 "'%s' is not a knob: one of %s "
				 "(KNOB=V1,V2,...), or ingress modes alone",
				 base_quote(q, sizeof(q), knob),
				 __opt_join(app_knob_names, APP_KNOB_MAX, list,
					    sizeof(list)));
			return -1;
		}
		v = eq + 1;
	}
	if (app_compare_knob(c, (enum app_knob)k) >= 0) {
		snprintf(err, ERR_LEN, "knob %s given twice", app_knob_names[k]);
		return -1;
	}
	if (c->n_knobs >= APP_MAX_KNOBS) {
		snprintf(err, ERR_LEN,
			 "more than %d knobs (the variants are their "
			 "product)",
			 APP_MAX_KNOBS);
		return -1;
	}
	memset(&c->k[c->n_knobs], 0, sizeof(c->k[0]));
	c->k[c->n_knobs++].knob = (enum app_knob)k;
	if (__opt_list(v, __compare_item, o, err) != 0)
		return -1;
	if (c->k[c->n_knobs - 1].n < 2) { /* nothing to pair it with */
		const char *one = c->k[c->n_knobs - 1].name[0];

		snprintf(err, ERR_LEN,
			 "%s: '%s' alone compares nothing: give two values or "
			 "more, or --%s %s to run with it",
			 app_knob_names[k], one, app_knob_names[k], one);
		return -1;
	}
	for (i = 0, n = 1; i < c->n_knobs; i++)
		n *= c->k[i].n;
	if (n > APP_MAX_VARIANTS) {
		snprintf(err, ERR_LEN, "%u variants: at most %d", n, APP_MAX_VARIANTS);
		return -1;
	}
	c->n = n;
	return 0;
}

int
__opt_set_baseline(struct app_options *o, const char *v, char *err)
{
	if (v == NULL || *v == '\0' || strlen(v) >= sizeof(o->cmp.baseline)) {
		snprintf(err, ERR_LEN, "needs a variant's name of at most %zu bytes",
			 sizeof(o->cmp.baseline) - 1);
		return -1;
	}
	strcpy(o->cmp.baseline, v);
	return 0;
}

/* A knob that has no effect: one line, -1. */
static int
__knob_no_effect(const struct app_opt *d, const char *why)
{
	fprintf(stderr, "pktpath: --compare %s=...: the knob has no effect %s\n", d->name,
		why);
	return -1;
}

int
__opt_check_compare(struct app_options *o, const struct app_opt_given *g)
{
	struct app_compare *c = &o->cmp;
	char needs[512], name[64], q[BASE_QUOTE_LEN], why[600];
	unsigned int i, v;
	int lock = -1;

	if (c->n == 0)
		return 0;
	for (i = 0; i < c->n_knobs; i++) {
		const struct app_opt *d = __knob_opt(c->k[i].knob);
		const struct app_opt_given *x = &g[d - app_opts];

		if (x->given) {
			fprintf(stderr,
				"pktpath: --compare %s=...: --%s %s is given "
				"too; the phases set it: give one\n",
				d->name, d->name,
				base_quote(q, sizeof(q), x->val != NULL ? x->val : "on"));
			return -1;
		}
		if (!__opt_needs_met(d, o, g)) {
			snprintf(why, sizeof(why), "(it needs %s)",
				 __opt_needs_text(d, needs, sizeof(needs)));
			return __knob_no_effect(d, why);
		}
	}
	if (app_compare_knob(c, APP_KNOB_RX_CSUM) >= 0 &&
	    (o->source != APP_SRC_PORT || o->path != APP_PATH_FULL))
		return __knob_no_effect(__knob_opt(APP_KNOB_RX_CSUM),
					"(it needs --source port and --path full)");
	/* The scope is that of the lock: some variant must take one. */
	if (app_compare_knob(c, APP_KNOB_LOCK_SCOPE) >= 0) {
		int k = app_compare_knob(c, APP_KNOB_INGRESS);

		for (v = 0; v < c->n && lock < 0; v++) {
			uint32_t m = k >= 0 ? app_compare_value(c, (unsigned int)k, v)
					    : (uint32_t)o->ingress_mode;

			if (m == INGRESS_LOCK || m == INGRESS_RWLOCK)
				lock = (int)v;
		}
		if (lock < 0)
			return __knob_no_effect(
				__knob_opt(APP_KNOB_LOCK_SCOPE),
				"(it needs --ingress lock or rwlock, or either among "
				"--compare ingress=...)");
	}
	c->base = 0;
	if (c->baseline[0] == '\0')
		return 0;
	for (v = 0; v < c->n; v++)
		if (strcmp(app_compare_name(c, v, name, sizeof(name)), c->baseline) ==
		    0) {
			c->base = v;
			return 0;
		}
	snprintf(why, sizeof(why),
		 "pktpath: --baseline: '%s' is not one of the "
		 "variants:",
		 base_quote(q, sizeof(q), c->baseline));
	for (v = 0; v < c->n; v++)
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " %s",
			 app_compare_name(c, v, name, sizeof(name)));
	fprintf(stderr, "%s\n", why);
	return -1;
}
