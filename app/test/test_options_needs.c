/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_options, what an option needs to have an effect and how often it is
 * given, generated from the option table: a new row is tested with no new
 * line here (an APP_OPT_FN option with neither a default value nor a word
 * such as none needs an example value below, and the test says so).
 *  - needs: every row with needs is refused, with its one line, given on
 *    the command line and in an INI file in a configuration where its needs
 *    fail (made from its conditions), and accepted where they hold; --help,
 *    --help-ini and --help-markdown say what it needs.
 *  - repeats: every option given twice is refused naming both values, on
 *    the command line, in one INI file and across two; the command line
 *    over an INI file is precedence, accepted; a repeatable one (--config)
 *    is read each time.
 */
#include <inttypes.h>
#include <stdio.h>

#include "test_options.h"

/* Values for the options that have neither a default value nor a type
 * that makes one (APP_OPT_FN without def). */
static const struct {
	const char *opt, *v;
} examples[] = {
	{ "rxq", "1:0.0" },    { "local", "10.0.0.1/24" }, { "mcast", "239.1.1.1" },
	{ "udp-ports", "9" },  { "filter", "udp" },	   { "compare", "off,rcu" },
	{ "baseline", "rcu" }, { "bpf-jit", "off" },	   { "local6", "fd70::1/64" },
	{ "mcast6", "ff05::5" },
};

void
__args_raw(struct test_args *a, const char *arg)
{
	size_t n = strlen(arg) + 1;

	assert_true(a->n < RTE_DIM(a->off) && a->used + n <= sizeof(a->pool));
	memcpy(a->pool + a->used, arg, n);
	a->off[a->n++] = a->used;
	a->used += n;
}

void
__args_add(struct test_args *a, const char *opt, const char *v)
{
	char arg[160];
	unsigned int i;

	for (i = 0; i < a->n_opts; i++)
		if (strcmp(a->opts[i], opt) == 0)
			return;		/* the first one stays */
	assert_true(a->n_opts < RTE_DIM(a->opts));
	a->opts[a->n_opts++] = opt;
	snprintf(arg, sizeof(arg), "--%s%s%s", opt, v != NULL ? "=" : "",
		 v != NULL ? v : "");
	__args_raw(a, arg);
}

/* A value of d other than its default: what makes it set (NULL: a flag,
 * given without a value); an APP_OPT_FN option without an example gets its
 * default, or the first word it takes (none, off). */
const char *
__value_set(const struct app_opt *d, char *buf, size_t len)
{
	unsigned int i;

	switch (d->type) {
	case APP_OPT_FLAG:
		return NULL;
	case APP_OPT_BOOL:
		return strcmp(d->def, "on") == 0 ? "off" : "on";
	case APP_OPT_CHOICE:
		for (i = 0; strcmp(d->names[i], d->def) == 0; i++)
			;
		return d->names[i];
	case APP_OPT_UINT:
		snprintf(buf, len, "%" PRIu64, d->def == NULL ||
			 strtoull(d->def, NULL, 10) != d->lo ? d->lo : d->hi);
		return buf;
	case APP_OPT_DOUBLE:
		snprintf(buf, len, "%.17g", d->def == NULL ||
			 strtod(d->def, NULL) != d->dlo ? d->dlo : d->dhi);
		return buf;
	case APP_OPT_PATH:
		snprintf(buf, len, "%s/x", tmpdir);
		return buf;
	default:
		for (i = 0; i < RTE_DIM(examples); i++)
			if (strcmp(examples[i].opt, d->name) == 0)
				return examples[i].v;
		if (d->def != NULL)	/* what a second value can be */
			return d->def;
		if (__opt_arg_word(d, 0, buf, len))	/* "none", "off", ... */
			return buf;
		fail_msg("--%s: no example value: add one to test_options_needs.c",
			 d->name);
		return NULL;
	}
}

/* A value of d a user could give: its default, or one that sets it. */
const char *
__value_of(const struct app_opt *d, char *buf, size_t len)
{
	return d->def != NULL ? d->def : __value_set(d, buf, len);
}

/* The first word of vals ("a|b") into buf. */
static const char *
__first_word(const char *vals, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(vals, "|"), vals);
	return buf;
}

/* Whether word w is one of vals ("a|b"). */
static bool
__among(const char *w, const char *vals)
{
	size_t n = strlen(w);

	for (; *vals != '\0'; vals += strcspn(vals, "|") + (vals[strcspn(vals, "|")] != '\0'))
		if (strncmp(vals, w, n) == 0 && (vals[n] == '|' || vals[n] == '\0'))
			return true;
	return false;
}

/* A value of CHOICE, BOOL or UINT d that is not among vals; NULL if none. */
static const char *
__value_not(const struct app_opt *d, const char *vals)
{
	static const char *const onoff[] = { "on", "off" };
	const char *const *names = d->type == APP_OPT_CHOICE ? d->names : onoff;
	unsigned int n = d->type == APP_OPT_CHOICE ? d->n_names : 2, i;
	static char num[24];
	uint64_t u;

	/* a number: the lowest of its range that is none of them */
	for (u = d->lo; d->type == APP_OPT_UINT && u <= d->hi && u < d->lo + 8; u++) {
		snprintf(num, sizeof(num), "%" PRIu64, u);
		if (!__among(num, vals))
			return num;
	}
	if (d->type != APP_OPT_CHOICE && d->type != APP_OPT_BOOL)
		return NULL;
	for (i = 0; i < n; i++)
		if (!__among(names[i], vals))
			return names[i];
	return NULL;
}

static void __cond_meet(const struct app_opt_cond *c, struct test_args *a,
			unsigned int depth);

/* d given v, with what d needs (its first alternative). */
static void
__give(const struct app_opt *d, const char *v, struct test_args *a,
       unsigned int depth)
{
	unsigned int i;

	assert_true(depth < 8);		/* needs do not go round in circles */
	__args_add(a, d->name, v);
	for (i = 0; i < APP_OPT_NEEDS_MAX && d->needs[i].opt != NULL; i++) {
		if (i > 0 && d->needs[i].alt)
			break;
		__cond_meet(&d->needs[i], a, depth + 1);
	}
}

/* Arguments that make c hold (and what they need in turn). */
static void
__cond_meet(const struct app_opt_cond *c, struct test_args *a, unsigned int depth)
{
	const struct app_opt *x = __opt_find(c->opt);
	char buf[64], w[64];
	const char *v;

	assert_non_null(x);
	if (c->vals == NULL && c->neg)
		return;				/* not set: as by default */
	if (c->vals == NULL) {
		__give(x, __value_set(x, buf, sizeof(buf)), a, depth);
		return;
	}
	if (!c->neg) {
		v = __first_word(c->vals, w, sizeof(w));
		if (x->type == APP_OPT_FLAG && strcmp(v, "off") == 0)
			return;
		__give(x, x->type == APP_OPT_FLAG ? NULL : v, a, depth);
		return;
	}
	if (x->def != NULL && !__among(x->def, c->vals))
		return;				/* the default is none of them */
	v = __value_not(x, c->vals);
	assert_non_null(v);
	__give(x, v, a, depth);
}

void
__needs_args(const struct app_opt *d, struct test_args *a)
{
	unsigned int i;

	for (i = 0; i < APP_OPT_NEEDS_MAX && d->needs[i].opt != NULL; i++) {
		if (i > 0 && d->needs[i].alt)
			break;
		__cond_meet(&d->needs[i], a, 0);
	}
}

/* Arguments that make c fail; false if no argument can. */
static bool
__cond_fail(const struct app_opt_cond *c, struct test_args *a)
{
	const struct app_opt *x = __opt_find(c->opt);
	char buf[64], w[64];
	const char *v;

	if (c->vals == NULL && !c->neg)
		return true;			/* not set: as by default */
	if (c->vals == NULL) {
		__give(x, __value_set(x, buf, sizeof(buf)), a, 0);
		return true;
	}
	if (c->neg) {
		__give(x, __first_word(c->vals, w, sizeof(w)), a, 0);
		return true;
	}
	if (x->type == APP_OPT_FLAG)
		return strcmp(c->vals, "on") == 0;	/* off by default */
	v = __value_not(x, c->vals);
	if (v == NULL)
		return false;
	__give(x, v, a, 0);
	return true;
}

/* The conditions of d that start each alternative, and how many each has. */
static unsigned int
__alternatives(const struct app_opt *d, unsigned int *start, unsigned int *len)
{
	unsigned int i, n = 0;

	for (i = 0; i < APP_OPT_NEEDS_MAX && d->needs[i].opt != NULL; i++) {
		if (i == 0 || d->needs[i].alt)
			start[n++] = i;
		len[n - 1] = i - start[n - 1] + 1;
	}
	return n;
}

/* "pktpath: --NAME VALUE has no effect " for d given v on the command line */
static void
__no_effect_head(const struct app_opt *d, const char *v, char *buf, size_t len)
{
	snprintf(buf, len, "pktpath: --%s%s%s has no effect ", d->name,
		 v != NULL ? " " : "", v != NULL ? v : "");
}

/*
 * Arguments where d has no effect: one condition of each alternative made
 * to fail, trying every choice of them until the options they give are
 * accepted alone and d with them is refused for having no effect. False if
 * no choice does.
 */
static bool
__where_no_effect(const struct app_opt *d, const char *v, struct test_args *out)
{
	unsigned int start[APP_OPT_NEEDS_MAX], len[APP_OPT_NEEDS_MAX], pick[APP_OPT_NEEDS_MAX];
	unsigned int n = __alternatives(d, start, len), k;
	char err[512], head[256], arg[128];

	__no_effect_head(d, v, head, sizeof(head));
	snprintf(arg, sizeof(arg), "--%s%s%s", d->name, v ? "=" : "", v ? v : "");
	memset(pick, 0, sizeof(pick));
	for (;;) {
		struct test_args a;
		bool ok = true;

		memset(&a, 0, sizeof(a));

		for (k = 0; k < n && ok; k++)
			ok = __cond_fail(&d->needs[start[k] + pick[k]], &a);
		if (ok && __parse_args(&o, err, sizeof(err), &a, NULL) == 0 &&
		    __parse_args(&o, err, sizeof(err), &a, arg) == -1 &&
		    strncmp(err, head, strlen(head)) == 0) {
			*out = a;
			return true;
		}
		for (k = 0; k < n && ++pick[k] == len[k]; k++)
			pick[k] = 0;	/* the next choice, as an odometer */
		if (k == n)
			return false;
	}
}

void
test_needs(void **state)
{
	char buf[64], err[512], head[256], tail[600], arg[200], needs[512];
	char path[128], text[256];
	unsigned int i, rows = 0;

	(void)state;
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		static struct test_args where, meet;
		const char *v;

		if (d->needs[0].opt == NULL)
			continue;
		v = d->type == APP_OPT_FLAG ? NULL : __value_of(d, buf, sizeof(buf));
		memset(&where, 0, sizeof(where));
		memset(&meet, 0, sizeof(meet));
		rows++;
		/* the line: the option, its value, what it needs */
		if (!__where_no_effect(d, v, &where))
			fail_msg("--%s: no configuration found where it has no effect",
				 d->name);
		snprintf(arg, sizeof(arg), "--%s%s%s", d->name, v ? "=" : "", v ? v : "");
		assert_int_equal(__parse_args(&o, err, sizeof(err), &where, arg), -1);
		__no_effect_head(d, v, head, sizeof(head));
		snprintf(tail, sizeof(tail), " (it needs %s)",
			 __opt_needs_text(d, needs, sizeof(needs)));
		if (strncmp(err, head, strlen(head)) != 0 ||
		    strcmp(err + strlen(err) - strlen(tail), tail) != 0 ||
		    (strncmp(err + strlen(head), "with --", 7) != 0 &&
		     strncmp(err + strlen(head), "without --", 10) != 0))
			fail_msg("--%s: \"%s\"", d->name, err);
		/* the same from an INI file */
		snprintf(text, sizeof(text), "[pktpath]\n%s = %s\n", d->name, v ? v : "on");
		__file(path, sizeof(path), "needs.ini", text);
		snprintf(head, sizeof(head), "pktpath: %s:2: %s = %s has no effect ", path,
			 d->name, v ? v : "on");
		snprintf(arg, sizeof(arg), "--config=%s", path);
		assert_int_equal(__parse_args(&o, err, sizeof(err), &where, arg), -1);
		if (strncmp(err, head, strlen(head)) != 0 ||
		    strcmp(err + strlen(err) - strlen(tail), tail) != 0)
			fail_msg("--%s in an INI file: \"%s\"", d->name, err);
		/* and accepted where its needs hold */
		__give(d, v, &meet, 0);
		if (__parse_args(&o, err, sizeof(err), &meet, NULL) != 0)
			fail_msg("--%s with what it needs: \"%s\"", d->name, err);
	}
	assert_true(rows >= 50);
	/* lines as a user sees them */
	BAD("pktpath: --rxd 512 has no effect with --source gen (it needs --source port)",
	    "--rxd", "512");
	BAD("pktpath: --pkt-size 100 has no effect with --template t.pcap (it needs "
	    "--source gen and no --template)", "--template", "t.pcap", "--pkt-size", "100");
	BAD("pktpath: --capture-max 5 has no effect without --capture (it needs --capture)",
	    "--capture-max", "5");
	BAD("pktpath: --bpf-engine interp has no effect without --filter (it needs "
	    "--filter or --bpf-obj)", "--bpf-engine", "interp");
	BAD("pktpath: --src 10.0.0.1 has no effect with --source port (it needs "
	    "--source gen and no --template, or --peer on)", "--source", "port",
	    "--src", "10.0.0.1");
	BAD("pktpath: --http-control has no effect with --http off (it needs --http "
	    "other than off)", "--http", "off", "--http-control");
	BAD("pktpath: --lock-scope burst has no effect with --ingress off (it needs "
	    "--ingress other than off, --ingress-kind other than rules, --rules, "
	    "--update-rate other than 0 or --compare)", "--lock-scope", "burst");
	BAD("pktpath: --peers 4 has no effect with --peer off (it needs --peer on)",
	    "--peer", "off", "--peers", "4");
	/* given as its default value, it still has no effect */
	BAD("pktpath: --promisc off has no effect with --source gen (it needs --source "
	    "port)", "--promisc", "off");
	OK("--source", "port", "--rxd", "512", "--promisc", "on");
	OK("--source", "port", "--src", "10.0.0.1", "--peer", "on");
	OK("--template", "t.pcap", "--src", "10.0.0.1", "--peer", "on");
	OK("--ingress", "off", "--rules", "x.rules", "--lock-scope", "burst");
}

/* The texts say what an option needs: --help, each INI line (commented
 * out: it would be refused by default) and each markdown row. */
void
test_needs_help(void **state)
{
	char *usage = __print_usage(), *ini = __print(app_options_ini);
	char *md = __print(app_options_markdown), *flat, *r, *w;
	char needs[512], want[700];
	unsigned int i;

	(void)state;
	flat = strdup(usage);
	assert_non_null(flat);
	for (r = w = flat; *r != '\0'; r++)	/* one line of words */
		if (*r != ' ' && *r != '\n')
			*w++ = *r;
		else if (w > flat && w[-1] != ' ')
			*w++ = ' ';
	*w = '\0';
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];

		if (__opt_needs_text(d, needs, sizeof(needs))[0] == '\0')
			continue;
		snprintf(want, sizeof(want), "needs %s)", needs);
		if (strstr(flat, want) == NULL || strstr(md, want) == NULL)
			fail_msg("--%s: --help or --help-markdown lacks \"%s\"", d->name,
				 want);
		snprintf(want, sizeof(want), "\n;%s = ", d->name);
		if (!d->no_ini && strstr(ini, want) == NULL)
			fail_msg("--help-ini: %s is not commented out", d->name);
	}
	assert_non_null(strstr(flat, "--rxd N RX descriptors per queue; refused outside "
			       "the driver's rx_desc_lim (the default is fitted to it) "
			       "(32..16384; default 1024; needs --source port) "));
	assert_non_null(strstr(md, "| `--rxd N` | 1024 | RX descriptors per queue; "
			       "refused outside the driver's `rx_desc_lim` (the default is "
			       "fitted to it) (32..16384; needs --source port) |\n"));
	assert_non_null(strstr(ini, "\n;rxd = 1024\n"));
	free(flat);
	free(usage);
	free(ini);
	free(md);
}

/* Every option twice: on the command line, in an INI file, in two. */
void
test_repeats(void **state)
{
	char b1[64], b2[64], err[512], want[700], path[128], path2[128], text[512];
	char arg1[128], arg2[128], cfg[160], cfg2[160];
	unsigned int i, n = 0;

	(void)state;
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		const char *v1, *v2;
		static struct test_args meet, t;

		if (d->type == APP_OPT_HELP || d->repeat != NULL)
			continue;
		n++;
		memset(&meet, 0, sizeof(meet));
		v1 = d->type == APP_OPT_FLAG ? NULL : __value_of(d, b1, sizeof(b1));
		v2 = d->type == APP_OPT_FLAG ? NULL : __value_set(d, b2, sizeof(b2));
		__needs_args(d, &meet);
		snprintf(arg1, sizeof(arg1), "--%s%s%s", d->name, v1 ? "=" : "", v1 ? v1 : "");
		snprintf(arg2, sizeof(arg2), "--%s%s%s", d->name, v2 ? "=" : "", v2 ? v2 : "");
		/* the command line: both values named */
		t = meet;
		__args_raw(&t, arg1);
		assert_int_equal(__parse_args(&o, err, sizeof(err), &t, arg2), -1);
		if (d->type == APP_OPT_FLAG)
			snprintf(want, sizeof(want), "pktpath: --%s given twice: give it once",
				 d->name);
		else
			snprintf(want, sizeof(want), "pktpath: --%s given twice (%s, then "
				 "%s): give it once", d->name, v1, v2);
		if (strcmp(err, want) != 0)
			fail_msg("\"%s\"\n  want \"%s\"", err, want);
		if (d->no_ini)
			continue;
		/* one INI file */
		snprintf(text, sizeof(text), "[pktpath]\n%s = %s\n%s = %s\n", d->name,
			 v1 ? v1 : "on", d->name, v2 ? v2 : "on");
		__file(path, sizeof(path), "twice.ini", text);
		snprintf(cfg, sizeof(cfg), "--config=%s", path);
		assert_int_equal(__parse_args(&o, err, sizeof(err), &meet, cfg), -1);
		snprintf(want, sizeof(want), "pktpath: %s:3: %s given twice (%s at %s:2, "
			 "then %s): give it once", path, d->name, v1 ? v1 : "on", path,
			 v2 ? v2 : "on");
		if (strcmp(err, want) != 0)
			fail_msg("\"%s\"\n  want \"%s\"", err, want);
		/* two: as one file */
		snprintf(text, sizeof(text), "[pktpath]\n%s = %s\n", d->name, v1 ? v1 : "on");
		__file(path, sizeof(path), "one.ini", text);
		snprintf(text, sizeof(text), "; the other\n[pktpath]\n%s = %s\n", d->name,
			 v2 ? v2 : "on");
		__file(path2, sizeof(path2), "two.ini", text);
		snprintf(cfg, sizeof(cfg), "--config=%s", path);
		snprintf(cfg2, sizeof(cfg2), "--config=%s", path2);
		t = meet;
		__args_raw(&meet, cfg);
		assert_int_equal(__parse_args(&o, err, sizeof(err), &meet, cfg2), -1);
		snprintf(want, sizeof(want), "pktpath: %s:3: %s given twice (%s at %s:2, "
			 "then %s): give it once", path2, d->name, v1 ? v1 : "on", path,
			 v2 ? v2 : "on");
		if (strcmp(err, want) != 0)
			fail_msg("\"%s\"\n  want \"%s\"", err, want);
		/* the command line over an INI file: precedence */
		__args_raw(&t, cfg2);
		if (__parse_args(&o, err, sizeof(err), &t, arg1) != 0)
			fail_msg("%s over %s: \"%s\"", arg1, path2, err);
	}
	assert_true(n > 60);
	/* --config may be given again: both files are read */
	__file(path, sizeof(path), "a.ini", "[pktpath]\nburst = 16\n");
	__file(path2, sizeof(path2), "b.ini", "[pktpath]\nfold = field\n");
	OK("--config", path, "--config", path2);
	assert_int_equal(o.burst, 16);
	assert_int_equal(o.fold, MIB_FOLD_FIELD);
	BAD("pktpath: --burst given twice (16, then 8): give it once", "--burst", "16",
	    "--bur", "8");
}
