/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The texts made from the option table: --help, --help-ini (the INI file of
 * every option and its default: config/default.ini) and --help-markdown
 * (app/pktpath/README.md's options table). Each option's line is its help
 * text, then its range (numbers), its default, what it needs to have an
 * effect and what repeating it does, so that these are written once, in the
 * table. Help texts are markdown (`code`, [a section of
 * app/pktpath/README.md](#anchor)): kept as they are in the markdown table,
 * made plain text elsewhere.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export_control.h"
#include "options_pvt.h"

#define TEXT_MAX 2048
#define WIDTH 79	/* --help and INI lines */
#define HEAD 28		/* --help: "  --name ARG" column */

/* s as plain text: without its backticks, and a link to a section
 * of app/pktpath/README.md, where the table is, "[Real ports](#real-ports)",
 * as "app/pktpath/README.md, Real ports" */
static const char *
__help_plain(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; *s != '\0' && n + 1 < len; s++) {
		const char *mid = *s == '[' ? strstr(s, "](#") : NULL;
		const char *end = mid != NULL ? strchr(mid, ')') : NULL;

		if (end != NULL && memchr(s, ']', (size_t)(mid - s)) == NULL) {
			n += (size_t)snprintf(buf + n, len - n,
					      "app/pktpath/README.md, %.*s",
					      (int)(mid - s - 1), s + 1);
			if (n >= len)
				return buf;
			s = end;
		} else if (*s != '`') {
			buf[n++] = *s;
			buf[n] = '\0';
		}
	}
	return buf;
}

/* What an option's help writes for the HTTP endpoint's reading paths:
 * replaced by the control table's (export_control.h), so that the help
 * lists what the endpoint serves. */
#define HELP_HTTP_GET "{GET paths}"

/* help, HELP_HTTP_GET in it replaced by "/, /healthz, /metrics, ..." */
static const char *
__help_expand(const char *help, char *buf, size_t len)
{
	const char *m = strstr(help, HELP_HTTP_GET);
	const struct export_ctl_cmd *t;
	size_t o, start;
	unsigned int i, n;

	if (m == NULL)
		return help;
	start = o = (size_t)snprintf(buf, len, "%.*s", (int)(m - help), help);
	t = export_control_table(&n);
	for (i = 0; i < n && o < len; i++)
		if (!t[i].change && t[i].http != NULL)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      o > start ? ", " : "", t[i].http);
	if (o < len)
		snprintf(buf + o, len - o, "%s", m + strlen(HELP_HTTP_GET));
	return buf;
}

/* A range bound as the user writes it: 10000000, not 1e+07. */
static void
__help_num(double x, char *buf, size_t len)
{
	if (x == floor(x) && fabs(x) < 1e15)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%g", x);
}

/* "LO..HI" for a number, "" otherwise */
static const char *
__help_range(const struct app_opt *d, char *buf, size_t len)
{
	char lo[24], hi[24];

	buf[0] = '\0';
	if (d->type == APP_OPT_UINT)
		snprintf(buf, len, "%" PRIu64 "..%" PRIu64, d->lo, d->hi);
	else if (d->type == APP_OPT_DOUBLE) {
		__help_num(d->dlo, lo, sizeof(lo));
		__help_num(d->dhi, hi, sizeof(hi));
		snprintf(buf, len, "%s..%s", lo, hi);
	}
	return buf;
}

/* help, then " (RANGE; default X; needs Y; repeatable: Z)" with what there
 * is of them */
static const char *
__help_text(const struct app_opt *d, bool with_default, char *buf, size_t len)
{
	char range[80], plain[TEXT_MAX], needs[512], exp[TEXT_MAX];
	const char *sep = " (";

	snprintf(buf, len, "%s",
		 __help_plain(__help_expand(d->help, exp, sizeof(exp)), plain,
			      sizeof(plain)));
	if (__help_range(d, range, sizeof(range))[0] != '\0') {
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", sep, range);
		sep = "; ";
	}
	if (with_default && d->def != NULL) {
		snprintf(buf + strlen(buf), len - strlen(buf), "%sdefault %s", sep,
			 d->def);
		sep = "; ";
	} else if (with_default && d->def_doc != NULL) {
		snprintf(buf + strlen(buf), len - strlen(buf), "%sdefault: %s", sep,
			 __help_plain(d->def_doc, plain, sizeof(plain)));
		sep = "; ";
	}
	if (__opt_needs_text(d, needs, sizeof(needs))[0] != '\0') {
		snprintf(buf + strlen(buf), len - strlen(buf), "%sneeds %s", sep, needs);
		sep = "; ";
	}
	if (d->repeat != NULL) {
		snprintf(buf + strlen(buf), len - strlen(buf), "%srepeatable: %s", sep,
			 d->repeat);
		sep = "; ";
	}
	if (sep[0] == ';')
		snprintf(buf + strlen(buf), len - strlen(buf), ")");
	return buf;
}

/*
 * Print text from column col (already reached), wrapping at WIDTH with each
 * further line starting with prefix; a word longer than a line stays whole.
 */
static void
__help_wrap(FILE *f, const char *text, size_t col, const char *prefix)
{
	const char *w = text;

	while (*w != '\0') {
		const char *e = strchr(w, ' ');
		size_t n = e != NULL ? (size_t)(e - w) : strlen(w);

		if (col > strlen(prefix) && col + 1 + n > WIDTH) {
			fprintf(f, "\n%s", prefix);
			col = strlen(prefix);
		} else if (col > strlen(prefix)) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, w);
		col += n;
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

void
app_options_usage(FILE *f, const char *prog)
{
	char head[128], arg[128], text[TEXT_MAX];
	unsigned int i;

	fprintf(f, "usage: %s [EAL options] -- [options]\n\n", prog);
	__help_wrap(f, "Each option is given once, on the command line or in the "
		    "--config files: a second time is refused, naming both values, "
		    "but where its line says it is repeatable; the command line "
		    "overrides the files. An option given where it has no effect is "
		    "refused: its line says what it needs.", 0, "");
	fputc('\n', f);
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		const char *a = d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP ?
				"" : __opt_arg(d, arg, sizeof(arg));
		int n;

		n = snprintf(head, sizeof(head), "  --%s%s%s", d->name,
			     a[0] ? " " : "", a);
		__help_text(d, true, text, sizeof(text));
		if (n >= HEAD + 2) {
			fprintf(f, "%s\n%*s", head, HEAD + 3, "");
		} else {
			fprintf(f, "%-*s ", HEAD + 2, head);
		}
		__help_wrap(f, text, HEAD + 3, "                               ");
	}
	fprintf(f, "\nEAL without NIC or hugepages: -l 0-1 --no-huge --no-shconf -m 512 "
		"[--vdev net_null0]\n");
}

void
app_options_ini(FILE *f)
{
	char arg[128], text[TEXT_MAX];
	unsigned int i;
	bool needs;

	fprintf(f,
		"; pktpath's options and their defaults, as an INI file for --config,\n"
		"; written by `pktpath -- --help-ini` from the option table (this is\n"
		"; config/default.ini; scripts/options-doc.sh writes it again):\n"
		";   build/app/pktpath/pktpath -l 0-1 --no-huge --no-shconf -m 512 -- --config config/default.ini\n"
		"; One [pktpath] section; keys are the long option names, each at most\n"
		"; once (in all the --config files); the command line overrides the\n"
		"; files. Comment lines start with ';' or '#'; there are no inline\n"
		"; comments (a value is everything after the '=') and no length limit\n"
		"; but the option's own. Numbers are decimal (010 is ten; 0x10 is\n"
		"; refused); flags take on/off. An option without a default value is\n"
		"; commented out, with its argument, and so is one that needs another\n"
		"; (given where it has no effect, it is refused).\n"
		"[pktpath]\n");
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];

		if (d->no_ini)
			continue;
		fprintf(f, "\n; ");
		__help_wrap(f, __help_text(d, d->def == NULL, text, sizeof(text)), 2,
			    "; ");
		needs = d->needs[0].opt != NULL;
		if (d->type == APP_OPT_FLAG)
			fprintf(f, "%s%s = off\n", needs ? ";" : "", d->name);
		else if (d->def != NULL)
			fprintf(f, "%s%s = %s\n", needs ? ";" : "", d->name, d->def);
		else
			fprintf(f, ";%s = %s\n", d->name, __opt_arg(d, arg, sizeof(arg)));
	}
}

/* s with '|' escaped for a markdown table cell */
static void
__help_cell(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void
app_options_markdown(FILE *f)
{
	char arg[128], range[80], needs[512], exp[TEXT_MAX];
	const char *sep;
	unsigned int i;

	fprintf(f, "| option | default | meaning |\n| --- | --- | --- |\n");
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		const char *a = d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP ?
				"" : __opt_arg(d, arg, sizeof(arg));

		fprintf(f, "| `--%s%s", d->name, a[0] ? " " : "");
		__help_cell(f, a);
		fprintf(f, "` |");
		if (d->def != NULL || d->def_doc != NULL) {
			fputc(' ', f);
			__help_cell(f, d->def != NULL ? d->def : d->def_doc);
		}
		fprintf(f, " | ");
		__help_cell(f, __help_expand(d->help, exp, sizeof(exp)));
		sep = " (";
		if (__help_range(d, range, sizeof(range))[0] != '\0') {
			fprintf(f, "%s%s", sep, range);
			sep = "; ";
		}
		if (__opt_needs_text(d, needs, sizeof(needs))[0] != '\0') {
			fprintf(f, "%sneeds ", sep);
			__help_cell(f, needs);
			sep = "; ";
		}
		if (d->repeat != NULL) {
			fprintf(f, "%srepeatable: ", sep);
			__help_cell(f, d->repeat);
			sep = "; ";
		}
		fprintf(f, "%s |\n", sep[0] == ';' ? ")" : "");
	}
}

void
app_options_help(FILE *f, enum app_help h, const char *prog)
{
	switch (h) {
	case APP_HELP_USAGE:
		app_options_usage(f, prog);
		break;
	case APP_HELP_INI:
		app_options_ini(f);
		break;
	case APP_HELP_MARKDOWN:
		app_options_markdown(f);
		break;
	default:
		break;
	}
}

enum app_help
app_options_wants_help(int argc, char **argv)
{
	const struct app_opt *d;
	bool app = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!app) {
			app = strcmp(argv[i], "--") == 0;
			continue;
		}
		if (strcmp(argv[i], "-h") == 0)
			return APP_HELP_USAGE;
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		d = __opt_find(argv[i] + 2);
		if (d != NULL && d->type == APP_OPT_HELP)
			return d->help_mode;
	}
	return APP_HELP_NONE;
}
