/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checks across options, once the INI files and the command line are both
 * read: first the one that every row of the table gets, an option given
 * where it has no effect (its needs, options_pvt.h), then the values that
 * cannot go together. One line each, naming the option and its value.
 */
#include <stdio.h>
#include <string.h>

#include "options_pvt.h"

bool
app_options_want_ingress(const struct app_options *o)
{
	return o->ingress_mode != INGRESS_OFF || o->rules[0] != '\0' ||
	       o->ingress_kind != APP_KIND_RULES || o->rules_alt[0] != '\0' ||
	       o->update_rate > 0 || app_compare_knob(&o->cmp, APP_KNOB_INGRESS) >= 0 ||
	       app_compare_knob(&o->cmp, APP_KNOB_LOCK_SCOPE) >= 0;
}

/* ---- the needs ---- */

/* Where __opt_value_is() tries a value: options are parsed once, on one
 * thread (options.h), and the struct is too big for the stack. */
static struct app_options __scratch;

/* Whether d's value in o is v (as a user writes it): setting it to v would
 * change nothing. A flag is on or off (its "off" leaves it as it is). */
static bool
__opt_value_is(const struct app_opt *d, const struct app_options *o, const char *v)
{
	char err[APP_OPT_ERR_LEN];
	bool on;

	if (d->type == APP_OPT_FLAG) {
		memcpy(&on, (const char *)o + d->off, sizeof(on));
		return on == (strcmp(v, "on") == 0);
	}
	__scratch = *o;
	if (__opt_set(d, &__scratch, v, err) != 0)
		return false;
	return memcmp(&__scratch, o, sizeof(*o)) == 0;
}

/* Set: on (a flag), given (no default value), not its default (others). */
static bool
__opt_is_set(const struct app_opt *d, const struct app_options *o,
	     const struct app_opt_given *g)
{
	bool on;

	if (d->type == APP_OPT_FLAG) {
		memcpy(&on, (const char *)o + d->off, sizeof(on));
		return on;
	}
	if (d->def == NULL)
		return g[d - app_opts].given;
	return !__opt_value_is(d, o, d->def);
}

static bool
__cond_holds(const struct app_opt_cond *c, const struct app_options *o,
	     const struct app_opt_given *g)
{
	const struct app_opt *d = __opt_find(c->opt);
	const char *v = c->vals;
	char w[64];
	bool r = false;

	if (d == NULL)		/* a wrong table: test_options fails on it */
		return false;
	if (v == NULL)
		return __opt_is_set(d, o, g) != c->neg;
	while (!r && *v != '\0') {
		size_t n = strcspn(v, "|");

		snprintf(w, sizeof(w), "%.*s", (int)n, v);
		r = __opt_value_is(d, o, w);
		v += n + (v[n] == '|');
	}
	return r != c->neg;
}

bool
__opt_needs_met(const struct app_opt *d, const struct app_options *o,
		const struct app_opt_given *g)
{
	bool all = true;
	unsigned int i;

	for (i = 0; i < APP_OPT_NEEDS_MAX && d->needs[i].opt != NULL; i++) {
		if (d->needs[i].alt) {
			if (all)
				return true;	/* the alternative before holds */
			all = true;
		}
		all = all && __cond_holds(&d->needs[i], o, g);
	}
	return all;
}

/* s appended to buf (len bytes), cut where it ends */
static void
__cat(char *buf, size_t len, const char *s)
{
	size_t l = strlen(buf);

	snprintf(buf + l, len - l, "%s", s);
}

/* A condition in words: "--source port", "--ingress-kind pcap-filter or
 * bpf", "--filter", "no --template", "--http other than off", "--ingress
 * other than off". */
static void
__cond_text(const struct app_opt_cond *c, char *buf, size_t len)
{
	const struct app_opt *d = __opt_find(c->opt);
	bool flag = d != NULL && d->type == APP_OPT_FLAG;
	const char *dflt = d != NULL && !flag ? d->def : NULL;
	const char *v;
	char part[96];

	if (c->vals == NULL || (flag && strcmp(c->vals, "on") == 0) ||
	    (flag && strcmp(c->vals, "off") == 0)) {
		/* set or not: a flag on, given, or a value other than the default */
		bool set = (c->vals == NULL || strcmp(c->vals, "on") == 0) != c->neg;

		if (dflt == NULL)
			snprintf(part, sizeof(part), "%s--%s", set ? "" : "no ", c->opt);
		else
			snprintf(part, sizeof(part), "--%s %s%s", c->opt,
				 set ? "other than " : "", dflt);
		__cat(buf, len, part);
		return;
	}
	snprintf(part, sizeof(part), "--%s %s", c->opt, c->neg ? "other than " : "");
	__cat(buf, len, part);
	for (v = c->vals; *v != '\0';) {
		size_t n = strcspn(v, "|");

		snprintf(part, sizeof(part), "%.*s%s", (int)n, v,
			 v[n] == '\0' ? "" : strchr(v + n + 1, '|') ? ", " : " or ");
		__cat(buf, len, part);
		v += n + (v[n] == '|');
	}
}

const char *
__opt_needs_text(const struct app_opt *d, char *buf, size_t len)
{
	bool compound = false;
	unsigned int i, n_alt = 0, k = 0;

	buf[0] = '\0';
	for (i = 0; i < APP_OPT_NEEDS_MAX && d->needs[i].opt != NULL; i++) {
		n_alt += i == 0 || d->needs[i].alt;
		compound = compound || (i > 0 && !d->needs[i].alt);
	}
	for (i = 0; i < APP_OPT_NEEDS_MAX && d->needs[i].opt != NULL; i++) {
		if (i > 0 && !d->needs[i].alt)
			__cat(buf, len, " and ");
		else if (i > 0)		/* the k-th alternative starts */
			__cat(buf, len, ++k + 1 == n_alt ? (compound ? ", or " : " or ") :
			      ", ");
		__cond_text(&d->needs[i], buf, len);
	}
	return buf;
}

/* What d's value is, as the user gave it or as its default: quoted. */
static const char *
__opt_value_text(const struct app_opt *d, const struct app_opt_given *g,
		 char *buf, size_t len)
{
	const struct app_opt_given *x = &g[d - app_opts];

	return base_quote(buf, len, x->given && x->val != NULL ? x->val :
			  d->def != NULL ? d->def : "");
}

/* Why d's needs fail, from the first alternative's first condition that
 * does not hold: "with --source gen", "without --capture". */
static const char *
__opt_why_not(const struct app_opt *d, const struct app_options *o,
	      const struct app_opt_given *g, char *buf, size_t len)
{
	const struct app_opt_cond *c = &d->needs[0];
	const struct app_opt *x;
	char v[BASE_QUOTE_LEN];
	unsigned int i;
	bool set;

	for (i = 1; i < APP_OPT_NEEDS_MAX && __cond_holds(c, o, g) &&
	     d->needs[i].opt != NULL && !d->needs[i].alt; i++)
		c = &d->needs[i];
	x = __opt_find(c->opt);
	set = x->type == APP_OPT_FLAG || x->def == NULL ? __opt_is_set(x, o, g) :
	      true;
	if (!set)
		snprintf(buf, len, "without --%s", x->name);
	else if (x->type == APP_OPT_FLAG || __opt_value_text(x, g, v, sizeof(v))[0] == '\0')
		snprintf(buf, len, "with --%s", x->name);
	else
		snprintf(buf, len, "with --%s %s", x->name, v);
	return buf;
}

/* An option given where its needs fail: one line, -1. */
static int
__opt_no_effect(const struct app_opt *d, const struct app_options *o,
		const struct app_opt_given *g)
{
	const struct app_opt_given *x = &g[d - app_opts];
	char v[BASE_QUOTE_LEN], why[2 * BASE_QUOTE_LEN], needs[512];

	__opt_why_not(d, o, g, why, sizeof(why));
	__opt_needs_text(d, needs, sizeof(needs));
	if (x->where[0] != '\0')	/* from an INI file */
		fprintf(stderr, "pktpath: %s: %s = %s has no effect %s (it needs %s)\n",
			x->where, d->name, base_quote(v, sizeof(v), x->val), why,
			needs);
	else
		fprintf(stderr, "pktpath: --%s%s%s has no effect %s (it needs %s)\n",
			d->name, x->val != NULL ? " " : "",
			x->val != NULL ? base_quote(v, sizeof(v), x->val) : "", why,
			needs);
	return -1;
}

/*
 * The hook's options (HOOK in options_table.c: an alternative of their
 * needs is --compare) take effect under --compare only when its variants
 * have a hook, i.e. when it compares ingress modes or lock scopes
 * (app_options_want_ingress()): a --compare of another knob makes none, and
 * the table's needs cannot tell one knob from another. One line, -1.
 */
static int
__opt_check_hook(const struct app_options *o, const struct app_opt_given *g)
{
	char v[BASE_QUOTE_LEN], needs[512];
	unsigned int i, j;
	size_t n;

	if (o->cmp.n == 0 || app_options_want_ingress(o))
		return 0;
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		bool hook = false;

		for (j = 0; j < APP_OPT_NEEDS_MAX && d->needs[j].opt != NULL; j++)
			hook = hook || (d->needs[j].alt && d->needs[j].vals == NULL &&
					!d->needs[j].neg &&
					strcmp(d->needs[j].opt, "compare") == 0);
		if (!hook || !g[i].given)
			continue;
		__opt_needs_text(d, needs, sizeof(needs));
		/* "..., --update-rate other than 0 or --compare": which --compare */
		n = strlen(needs);
		if (n > strlen(" or --compare") &&
		    strcmp(needs + n - strlen(" or --compare"), " or --compare") == 0)
			needs[n - strlen(" or --compare")] = '\0';
		if (g[i].where[0] != '\0') /* from an INI file, as __opt_no_effect() */
			fprintf(stderr,
				"pktpath: %s: %s = %s has no effect with --compare %s=...: "
				"no variant has an ingress hook (it needs %s, or a --compare "
				"of ingress=... or lock-scope=...)\n",
				g[i].where, d->name, base_quote(v, sizeof(v), g[i].val),
				app_knob_names[o->cmp.k[0].knob], needs);
		else
			fprintf(stderr,
				"pktpath: --%s%s%s has no effect with --compare %s=...: no "
				"variant has an ingress hook (it needs %s, or a --compare of "
				"ingress=... or lock-scope=...)\n",
				d->name, g[i].val != NULL ? " " : "",
				g[i].val != NULL ? base_quote(v, sizeof(v), g[i].val)
						 : "",
				app_knob_names[o->cmp.k[0].knob], needs);
		return -1;
	}
	return 0;
}

/* ---- defaults that depend on other options ---- */

void
__opt_derive(struct app_options *o, const struct app_opt_given *g)
{
	const struct app_opt *d = __opt_find("pkt-size");
	uint16_t m;

	/* IPv6 frames are at least their headers' length. */
	if (d != NULL && !g[d - app_opts].given && o->flow.family != PKT_FAMILY_IPV4) {
		m = pkt_min_size(&o->flow, PKT_FAMILY_IPV6);
		if (m > o->flow.pkt_size)
			o->flow.pkt_size = m;
	}
}

/* ---- the values that cannot go together ---- */

int
__opt_check(struct app_options *o, const struct app_opt_given *g)
{
	unsigned int i;

	for (i = 0; i < app_n_opts; i++)
		if (g[i].given && !__opt_needs_met(&app_opts[i], o, g))
			return __opt_no_effect(&app_opts[i], o, g);
	if (o->update_rate > 0 && o->ingress_mode == INGRESS_NONE) {
		fprintf(stderr, "pktpath: --update-rate: refused with --ingress none "
			"(unguarded readers cannot survive rule updates)\n");
		return -1;
	}
	if (o->ingress_kind == APP_KIND_PCAP_FILTER && o->filter[0] == '\0') {
		fprintf(stderr, "pktpath: --ingress-kind pcap-filter: needs --filter EXPR\n");
		return -1;
	}
	if (o->ingress_kind == APP_KIND_BPF && o->bpf_obj[0] == '\0') {
		fprintf(stderr, "pktpath: --ingress-kind bpf: needs --bpf-obj FILE\n");
		return -1;
	}
	if (o->cmp.n > 0 && o->duration_s <= 0) {
		fprintf(stderr, "pktpath: --compare: needs --duration > 0 (the length of a phase)\n");
		return -1;
	}
	if (__opt_check_compare(o, g) != 0 || __opt_check_hook(o, g) != 0)
		return -1;
	if (o->flow.family != PKT_FAMILY_IPV6 &&
	    o->flow.pkt_size < pkt_min_size(&o->flow, PKT_FAMILY_IPV4)) {
		fprintf(stderr,
			"pktpath: --pkt-size: %u bytes leave no room for "
			"--vlan-tags' %u tags and IPv4's --l4 %s: at least %u\n",
			o->flow.pkt_size, o->flow.n_tags, pkt_l4_names[o->flow.l4],
			pkt_min_size(&o->flow, PKT_FAMILY_IPV4));
		return -1;
	}
	if (o->flow.family != PKT_FAMILY_IPV4 &&
	    o->flow.pkt_size < pkt_min_size(&o->flow, PKT_FAMILY_IPV6)) {
		fprintf(stderr,
			"pktpath: --pkt-size: %u bytes leave no room for "
			"--vlan-tags' %u tags, IPv6, --ext6's %u headers and --l4 %s: "
			"at least %u\n",
			o->flow.pkt_size, o->flow.n_tags, o->flow.n_ext6,
			pkt_l4_names[o->flow.l4],
			pkt_min_size(&o->flow, PKT_FAMILY_IPV6));
		return -1;
	}
	if (o->flow.frag_size != 0 &&
	    (o->flow.frag_size % 8 != 0 || o->flow.frag_size < pkt_frag_min(&o->flow))) {
		fprintf(stderr,
			"pktpath: --frag: %u bytes: a fragment's data must be a "
			"multiple of 8 bytes and hold --ext6's headers and --l4 %s's: "
			"at least %u\n",
			o->flow.frag_size, pkt_l4_names[o->flow.l4],
			pkt_frag_min(&o->flow));
		return -1;
	}
	if (o->flow.frag_size != 0 && o->flow.family != PKT_FAMILY_IPV4 &&
	    memchr(o->flow.ext6, PKT_EXT6_FRAG, o->flow.n_ext6) != NULL) {
		fprintf(stderr, "pktpath: --frag: refused with --ext6 frag (a second "
				"fragment header)\n");
		return -1;
	}
	if (o->flow.family != PKT_FAMILY_IPV4 && o->flow.dst6_n > PATH_MAX_LOCAL6 &&
	    o->n_local6 == 0) {
		fprintf(stderr,
			"pktpath: --dst6: more than %d destinations; give "
			"--local6\n",
			PATH_MAX_LOCAL6);
		return -1;
	}
	if ((uint64_t)o->flow.dst_hi - o->flow.dst_lo >= PATH_MAX_LOCAL &&
	    o->n_local == 0) {
		fprintf(stderr, "pktpath: --dst: more than %d destinations; give --local\n",
			PATH_MAX_LOCAL);
		return -1;
	}
	return 0;
}
