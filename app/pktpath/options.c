/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command line and INI options: getopt_long over the option table
 * (options_table.c), the INI file's keys, the defaults. See options.h.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ini.h"
#include "options_pvt.h"

#define ERR_LEN APP_OPT_ERR_LEN
#define OPT_VAL0 256	/* getopt_long's value of app_opts[0] */

void
app_options_default(struct app_options *o)
{
	char err[ERR_LEN];
	unsigned int i;

	memset(o, 0, sizeof(*o));
	/* What no option sets (the TTL), and the same flow defaults as the
	 * table's, which are then applied on top (test_options checks that
	 * the two agree). */
	pkt_flow_conf_default(&o->flow);
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];

		if (d->def == NULL)
			continue;
		if (__opt_set(d, o, d->def, err) != 0) {
			/* A wrong table: test_options fails on it first. */
			fprintf(stderr, "pktpath: option table: --%s default '%s': %s\n",
				d->name, d->def, err);
			abort();
		}
	}
}

/* A parse: the options, what was given of each option (g[i] of
 * app_opts[i]) and the INI file being read. */
struct __opt_parse {
	struct app_options *o;
	struct app_opt_given *g;
	char qfile[2 * BASE_QUOTE_LEN];	/* the INI file, quoted */
};

/*
 * d given v (NULL: a flag on the command line), at line of the INI file
 * being read (0: on the command line). Each option is given once, in the
 * INI files as on the command line: a second time is refused naming both
 * values, unless the table says what repeating it does; the command line
 * overrides the INI files (that is precedence, not a repetition).
 * 0, or -1 with the reason in err (len bytes).
 */
static int
__opt_given(struct __opt_parse *p, const struct app_opt *d, const char *v,
	    unsigned int line, char *err, size_t len)
{
	struct app_opt_given *x = &p->g[d - app_opts];
	char q1[BASE_QUOTE_LEN], q2[BASE_QUOTE_LEN];
	char *copy = NULL;

	if (x->given && d->repeat == NULL && (line == 0) == (x->where[0] == '\0')) {
		if (line == 0 && v == NULL)
			snprintf(err, len, "--%s given twice: give it once", d->name);
		else
			snprintf(err, len, "%s%s given twice (%s%s%s, then %s): give it "
				 "once", line == 0 ? "--" : "", d->name,
				 base_quote(q1, sizeof(q1), x->val),
				 line == 0 ? "" : " at ", x->where,
				 base_quote(q2, sizeof(q2), v));
		return -1;
	}
	if (v != NULL && (copy = strdup(v)) == NULL) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	free(x->val);
	x->val = copy;
	x->given = true;
	if (line == 0)
		x->where[0] = '\0';
	else
		snprintf(x->where, sizeof(x->where), "%s:%u", p->qfile, line);
	return 0;
}

/* One "key = value" of an INI file: the option of that name. */
static int
__opt_ini_entry(void *arg, unsigned int line, const char *key, const char *v,
		char *err, size_t len)
{
	struct __opt_parse *p = arg;
	const struct app_opt *d = __opt_find(key);
	char why[ERR_LEN] = "", q[BASE_QUOTE_LEN];

	if (d == NULL || d->no_ini) {
		snprintf(err, len, "unknown key '%s'", base_quote(q, sizeof(q), key));
		return -1;
	}
	if (__opt_given(p, d, v, line, err, len) != 0)
		return -1;
	if (__opt_set(d, p->o, v, why) != 0) {
		snprintf(err, len, "%s: %s", d->name, why);
		return -1;
	}
	return 0;
}

static int
__opt_load_ini(struct __opt_parse *p, const char *file)
{
	char err[APP_INI_ERR_LEN];

	base_quote(p->qfile, sizeof(p->qfile), file);
	if (app_ini_load(file, "pktpath", __opt_ini_entry, p, err, sizeof(err)) != 0) {
		fprintf(stderr, "pktpath: %s\n", err);
		return -1;
	}
	return 0;
}

/* "unknown option" or, for a prefix of several options, "ambiguous". */
static void
__opt_bad_option(const char *arg)
{
	char list[256] = "", q[BASE_QUOTE_LEN], name[BASE_QUOTE_LEN];
	size_t len;
	unsigned int i, n = 0;
	const char *eq;

	if (arg == NULL || strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
		fprintf(stderr, "pktpath: unknown option '%s' (see --help)\n",
			base_quote(q, sizeof(q), arg));
		return;
	}
	eq = strchr(arg, '=');
	len = eq != NULL ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	for (i = 0; i < app_n_opts; i++) {
		if (strncmp(app_opts[i].name, arg + 2, len) != 0)
			continue;
		if (n++ < 4)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s--%s", n > 1 ? ", " : "", app_opts[i].name);
	}
	if (n > 1) {
		snprintf(name, sizeof(name), "%.*s", (int)(len + 2), arg);
		fprintf(stderr, "pktpath: option '%s' is ambiguous (%s%s)\n",
			base_quote(q, sizeof(q), name), list, n > 4 ? ", ..." : "");
	} else {
		fprintf(stderr, "pktpath: unknown option '%s' (see --help)\n",
			base_quote(q, sizeof(q), arg));
	}
}

int
app_options_parse(int argc, char **argv, struct app_options *o)
{
	struct option *lopts;
	struct __opt_parse p = { .o = o };
	char err[ERR_LEN], arg[128];
	const char *prog = argc > 0 ? argv[0] : "pktpath";
	const struct app_opt *config = __opt_find("config");
	const struct app_opt *d;
	unsigned int i;
	int c, idx, rc = -1;

	app_options_default(o);
	lopts = calloc(app_n_opts + 1, sizeof(*lopts));	/* zeroed end */
	p.g = calloc(app_n_opts, sizeof(*p.g));
	if (lopts == NULL || p.g == NULL) {
		fprintf(stderr, "pktpath: options: out of memory\n");
		goto out;
	}
	for (i = 0; i < app_n_opts; i++) {
		d = &app_opts[i];
		lopts[i].name = d->name;
		lopts[i].has_arg = d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP ?
				   no_argument : required_argument;
		lopts[i].val = OPT_VAL0 + (int)i;
	}

	/* Pass 1: the INI files, so that the command line overrides them.
	 * getopt_long itself finds them, so every spelling it accepts
	 * (--config F, --config=F, --conf F, ...) is seen here too; mistakes
	 * are left to pass 2. optind = 0 makes glibc start afresh. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lopts, &idx)) != -1) {
		if (c != OPT_VAL0 + (int)(config - app_opts))
			continue;
		if (__opt_given(&p, config, optarg, 0, err, sizeof(err)) != 0 ||
		    __opt_set(config, o, optarg, err) != 0) {
			fprintf(stderr, "pktpath: --config: %s\n", err);
			goto out;
		}
		if (__opt_load_ini(&p, optarg) != 0)
			goto out;
	}

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lopts, &idx)) != -1) {
		if (c == 'h') {
			app_options_usage(stdout, prog);
			rc = 1;
			goto out;
		}
		if (c == '?') {
			/* optopt: the option that lacks its value, or has one
			 * it does not take (--quiet=on) */
			d = optopt >= OPT_VAL0 && optopt - OPT_VAL0 < (int)app_n_opts ?
			    &app_opts[optopt - OPT_VAL0] : NULL;
			if (d != NULL && lopts[optopt - OPT_VAL0].has_arg == no_argument)
				fprintf(stderr, "pktpath: --%s takes no value%s%s%s\n",
					d->name, d->no_ini ? "" : " (in the INI file: ",
					d->no_ini ? "" : d->name, d->no_ini ? "" : " = on)");
			else if (d != NULL)
				fprintf(stderr, "pktpath: --%s needs a value %s\n", d->name,
					__opt_arg(d, arg, sizeof(arg)));
			else
				__opt_bad_option(argv[optind - 1]);
			goto out;
		}
		if (c == ':') {
			fprintf(stderr, "pktpath: option '%s' needs a value\n",
				base_quote(arg, sizeof(arg), argv[optind - 1]));
			goto out;
		}
		if (c < OPT_VAL0 || c - OPT_VAL0 >= (int)app_n_opts)
			goto out;
		d = &app_opts[c - OPT_VAL0];
		if (d == config)
			continue;	/* done in pass 1 */
		if (d->type == APP_OPT_HELP) {
			app_options_help(stdout, d->help_mode, prog);
			rc = 1;
			goto out;
		}
		/* The command line overrides the INI files: a repeatable
		 * option's values from them go (its field, zeroed). */
		if (d->repeat != NULL && d->size > 0 && p.g[c - OPT_VAL0].given &&
		    p.g[c - OPT_VAL0].where[0] != '\0')
			memset((char *)o + d->off, 0, d->size);
		if (__opt_given(&p, d, optarg, 0, err, sizeof(err)) != 0) {
			fprintf(stderr, "pktpath: %s\n", err);
			goto out;
		}
		if (__opt_set(d, o, optarg, err) != 0) {
			fprintf(stderr, "pktpath: --%s: %s\n", d->name, err);
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pktpath: unexpected argument '%s' (see --help)\n",
			base_quote(arg, sizeof(arg), argv[optind]));
		goto out;
	}
	for (i = 0; i < app_n_opts; i++)
		if (p.g[i].given)
			o->given[i / 64] |= UINT64_C(1) << (i % 64);
	__opt_derive(o, p.g);
	rc = __opt_check(o, p.g);
out:
	for (i = 0; p.g != NULL && i < app_n_opts; i++)
		free(p.g[i].val);
	free(p.g);
	free(lopts);
	return rc;
}
