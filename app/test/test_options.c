/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of pktpath's option parser (app/pktpath/options*.c, ini.c):
 *  - the option table itself: names, types against the fields they set,
 *    defaults that are values of their own option, the enums' names taken
 *    from the libraries' tables;
 *  - the defaults: the ones pktpath always had, field by field, applied the
 *    same by app_options_default(), an empty command line, --help-ini read
 *    back as an INI file, and every option given its default;
 *  - the generated texts: --help, --help-ini, --help-markdown;
 *  - in test_options_values.c: every type and setter, accepted and refused
 *    with the exact line on stderr (decimal numbers, lib/pkt's addresses and
 *    ports), the INI file's keys, the checks across options, getopt's
 *    mistakes.
 * No EAL: the parser needs none.
 */
#include <sys/mman.h>

#include "test_options.h"

struct app_options o, ref;
char tmpdir[64];

/* ---- helpers ---- */

/* app_options_parse() over argv, with stdout and stderr captured: what it
 * wrote to stderr, without the final newline, in err. */
static int
__parse_argv(struct app_options *opt, char *err, size_t len, int argc, char **argv)
{
	/* in memory: a test parses thousands of times */
	FILE *e = fdopen(memfd_create("stderr", 0), "w+");
	FILE *out = fdopen(memfd_create("stdout", 0), "w+");
	int rc, fd1, fd2;
	size_t n;

	assert_non_null(e);
	assert_non_null(out);
	fflush(stdout);
	fflush(stderr);
	fd1 = dup(1);
	fd2 = dup(2);
	dup2(fileno(out), 1);
	dup2(fileno(e), 2);
	rc = app_options_parse(argc, argv, opt);
	fflush(stdout);
	fflush(stderr);
	dup2(fd1, 1);
	dup2(fd2, 2);
	close(fd1);
	close(fd2);
	rewind(e);
	n = fread(err, 1, len - 1, e);
	err[n] = '\0';
	if (n > 0 && err[n - 1] == '\n')
		err[n - 1] = '\0';
	fclose(e);
	fclose(out);
	return rc;
}

static int
__parse_v(struct app_options *opt, char *err, size_t len, const char *a, va_list ap)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = (char *)"pktpath";
	for (; a != NULL && argc < 63; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	return __parse_argv(opt, err, len, argc, argv);
}

int
__parse_args(struct app_options *opt, char *err, size_t len,
	     const struct test_args *a, const char *extra)
{
	char *argv[RTE_DIM(a->off) + 3];
	int argc = 0;
	unsigned int i;

	argv[argc++] = (char *)"pktpath";
	for (i = 0; i < a->n; i++)
		argv[argc++] = (char *)(uintptr_t)(a->pool + a->off[i]);
	if (extra != NULL)
		argv[argc++] = (char *)(uintptr_t)extra;
	argv[argc] = NULL;
	return __parse_argv(opt, err, len, argc, argv);
}

int
__parse(struct app_options *opt, char *err, size_t len, const char *a, ...)
{
	va_list ap;
	int rc;

	va_start(ap, a);
	rc = __parse_v(opt, err, len, a, ap);
	va_end(ap);
	return rc;
}

/* A file in tmpdir with this text; its path in path. */
void
__file(char *path, size_t len, const char *name, const char *text)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* What f printed (NUL-terminated, malloc'd). */
char *
__print(void (*fn)(FILE *))
{
	/* static: gcc 12 takes a local's address given to open_memstream()
	 * for a dangling pointer once returned */
	static char *buf;
	static size_t len;
	FILE *f = open_memstream(&buf, &len);
	char *r;

	assert_non_null(f);
	fn(f);
	fclose(f);
	r = buf;
	buf = NULL;
	return r;
}

static void
__opts_usage(FILE *f)
{
	app_options_usage(f, "pktpath");
}

char *
__print_usage(void)
{
	return __print(__opts_usage);
}

/* The defaults pktpath had before the option table, written out by hand:
 * moving them into the table must not have changed one. */
static void
__historical_defaults(struct app_options *r)
{
	static const struct rte_ether_addr dmac = PKT_GEN_PORT_MAC;
	static const struct rte_ether_addr smac = {{ 0x02, 0, 0, 0, 0, 0x02 }};
	static const uint8_t src6[16] = { 0x20, 0x01, 0, 0x02, [15] = 1 };
	static const uint8_t dst6[16] = { 0x20, 0x01, 0, 0x02, 0, 0, 0, 0x01, [15] = 1 };

	memset(r, 0, sizeof(*r));
	r->source = APP_SRC_GEN;
	r->path = APP_PATH_FULL;
	r->duration_s = 10;
	r->interval_s = 1;
	r->warmup_s = -1;	/* auto since issue 15 (was 1 s) */
	r->burst = 32;
	r->mib_layout = MIB_LAYOUT_PERCPU;
	r->fold = MIB_FOLD_LCORE;
	r->flow.pkt_size = 60;
	r->flow.dst_mac = dmac;
	r->flow.src_mac = smac;
	r->flow.src_lo = IP4(198, 18, 0, 1);
	r->flow.src_hi = IP4(198, 18, 0, 254);
	r->flow.dst_lo = r->flow.dst_hi = IP4(198, 19, 0, 1);
	r->flow.sport_lo = 1024;
	r->flow.sport_hi = 65535;
	r->flow.dport_lo = r->flow.dport_hi = 9;
	r->flow.flows = 64;
	r->flow.ttl = 64;
	r->flow.tos = 0;
	r->flow.udp_csum = false;
	r->flow.family = PKT_FAMILY_IPV4; /* since issue 25 */
	r->flow.l4 = PKT_L4_UDP;
	memcpy(r->flow.src6, src6, 16); /* 2001:2::1-2001:2::fe */
	r->flow.src6_n = 254;
	memcpy(r->flow.dst6, dst6, 16); /* 2001:2:0:1::1 */
	r->flow.dst6_n = 1;
	r->alloc = PKT_ALLOC_REUSE;
	r->prefetch = true;
	r->mbufs = 8191;
	r->pool_layout = PKT_POOL_LAYOUT_PAGE;
	r->pool_order = PKT_POOL_ORDER_SHUFFLE;
	r->rxd = 1024;
	r->rx_csum = APP_CSUM_AUTO;
	r->csum_partial = APP_PARTIAL_AUTO;
	r->unpolled_warn = false;
	r->promisc = false;
	r->kernel_netlabel = true;
	r->kernel_pim = true;
	r->ingress_mode = INGRESS_OFF;
	r->ingress_kind = APP_KIND_RULES;
	r->filter_verdict.action = INGRESS_ACT_DROP;
	strcpy(r->bpf_sec, "classifier");
	pktbpf_conf_init(&r->bpf);	/* jit, netmask 0, 5 s */
	r->lock_scope = INGRESS_SCOPE_PACKET;
	r->gp_log_us = 1000;
	r->suspicious_us = 250;
	r->stall_us = 250;
	r->lost_share_pct = 1;
	r->rounds = 3;
	r->phase_warmup_s = 0.5;
	strcpy(r->http, "127.0.0.1:9120");
	r->peer_layout = PEER_LAYOUT_SHARED;
	r->peer_share = 50;
	r->capture_what = PKT_CAPTURE_DROPS;
	r->capture_ring = 4096;
	r->capture_snaplen = 2048;
	r->frag_high = 4194304; /* ipfrag_high_thresh */
	r->frag_time = 30;	/* ipfrag_time */
	r->frag6_high = 4194304; /* ip6frag_high_thresh */
	r->frag6_time = 60;	 /* ip6frag_time */
	r->icmp_msgs_per_sec = 1000; /* icmp_msgs_per_sec */
	r->icmp_msgs_burst = 50;     /* icmp_msgs_burst */
	r->icmp6_ratelimit = 100;    /* net.ipv6.icmp.ratelimit */
}

/* a and b are the same options (the name of --config aside) */
static void
__opts_same(const struct app_options *a, const struct app_options *b, const char *what)
{
	static struct app_options x, y;
	size_t i;

	x = *a;
	y = *b;
	memset(x.config, 0, sizeof(x.config));
	memset(y.config, 0, sizeof(y.config));
	memset(x.given, 0, sizeof(x.given)); /* what was given, not a value */
	memset(y.given, 0, sizeof(y.given));
	if (memcmp(&x, &y, sizeof(x)) == 0)
		return;
	for (i = 0; i < sizeof(x); i++)
		if (((const uint8_t *)&x)[i] != ((const uint8_t *)&y)[i])
			break;
	{
		const char *name = "a field no option sets";
		unsigned int k;

		for (k = 0; k < app_n_opts; k++)
			if (app_opts[k].type != APP_OPT_FN &&
			    app_opts[k].type != APP_OPT_HELP && app_opts[k].off <= i &&
			    i < app_opts[k].off + app_opts[k].size)
				name = app_opts[k].name;
		if (i >= offsetof(struct app_options, flow) &&
		    i < offsetof(struct app_options, flow) + sizeof(x.flow) &&
		    strcmp(name, "a field no option sets") == 0)
			name = "flow (src, dst, sport, dport, src-mac, dst-mac, ttl)";
		fail_msg("%s: the options differ at byte %zu: %s", what, i, name);
	}
}

/* ---- the table ---- */

static void
test_table(void **state)
{
	unsigned int i, j;

	(void)state;
	assert_true(app_n_opts > 60);
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		char arg[128];

		assert_non_null(d->name);
		assert_non_null(d->help);
		if (d->help[0] == '\0' || strstr(d->help, "(default") != NULL ||
		    (d->help[strlen(d->help) - 1] == '.' &&
		     strcmp(d->help + strlen(d->help) - 3, "...") != 0))
			fail_msg("--%s: help text without its default, range or a "
				 "final period, please", d->name);
		for (j = 0; j < i; j++)
			if (strcmp(app_opts[j].name, d->name) == 0)
				fail_msg("--%s twice", d->name);
		assert_ptr_equal(__opt_find(d->name), d);
		if (d->def != NULL && d->def_doc != NULL)
			fail_msg("--%s: a default value and one in words", d->name);
		switch (d->type) {
		case APP_OPT_FLAG:
		case APP_OPT_BOOL:
			assert_int_equal(d->size, sizeof(bool));
			break;
		case APP_OPT_UINT:
			assert_true(d->size == 1 || d->size == 2 || d->size == 4 ||
				    d->size == 8);
			if (d->size < 8 && d->hi >= UINT64_C(1) << (8 * d->size))
				fail_msg("--%s: %" PRIu64 " does not fit %zu bytes",
					 d->name, d->hi, d->size);
			assert_true(d->lo <= d->hi);
			break;
		case APP_OPT_DOUBLE:
			assert_int_equal(d->size, sizeof(double));
			assert_true(d->dlo <= d->dhi);
			break;
		case APP_OPT_CHOICE:
			assert_true(d->size == sizeof(bool) || d->size == sizeof(int));
			assert_true(d->n_names >= 2);
			for (j = 0; j < d->n_names; j++)
				assert_non_null(d->names[j]);
			assert_non_null(d->def);
			break;
		case APP_OPT_PATH:
			assert_int_equal(d->size, PATH_MAX);
			break;
		case APP_OPT_FN:
			assert_non_null(d->set);
			assert_non_null(d->arg);
			break;
		case APP_OPT_HELP:
			assert_true(d->no_ini);
			assert_true(d->help_mode != APP_HELP_NONE);
			break;
		}
		if (d->type != APP_OPT_FN && d->type != APP_OPT_HELP)
			assert_true(d->off + d->size <= sizeof(struct app_options));
		assert_non_null(__opt_arg(d, arg, sizeof(arg)));
	}
	assert_null(__opt_find("nope"));
	assert_null(__opt_find(NULL));
	assert_true(__opt_find("config")->no_ini);
}

/* Every option that takes a word instead of its form (auto, none, off...)
 * names it when it refuses a value that is almost that word. */
static void
test_words_named(void **state)
{
	unsigned int i, k, n = 0;

	(void)state;
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		char w[32], bad[40], err[APP_OPT_ERR_LEN];
		struct app_options o;

		for (k = 0; __opt_arg_word(d, k, w, sizeof(w)); k++, n++) {
			const char *tweak[] = { "%s2", "x%s", "%.1s" };
			unsigned int t;

			for (t = 0; t < RTE_DIM(tweak); t++) {
				snprintf(bad, sizeof(bad), tweak[t], w);
				app_options_default(&o);
				err[0] = '\0';
				if (__opt_set(d, &o, bad, err) == 0)
					continue;	/* a value of its form */
				if (strstr(err, w) == NULL)
					fail_msg("--%s %s: '%s' does not name %s", d->name,
						 bad, err, w);
			}
			app_options_default(&o);
			assert_int_equal(__opt_set(d, &o, w, err), 0);
		}
	}
	assert_true(n >= 4);	/* auto, none twice, off at least */
	{
		char w[32];

		assert_false(__opt_arg_word(__opt_find("src"), 0, w, sizeof(w)));
		assert_true(__opt_arg_word(__opt_find("filter-action"), 1, w, sizeof(w)));
		assert_string_equal(w, "pass");
		assert_false(__opt_arg_word(__opt_find("filter-action"), 2, w, sizeof(w)));
	}
}

/* The choices are the libraries' own name tables, not copies. */
static void
test_enum_tables(void **state)
{
	static const struct {
		const char *opt;
		const char *const *names;
		unsigned int n;
	} t[] = {
		{ "source", app_source_names, APP_SRC_MAX },
		{ "path", app_path_names, APP_PATH_MAX },
		{ "mib-layout", mib_layout_names, MIB_LAYOUT_MAX },
		{ "fold", mib_fold_names, MIB_FOLD_MAX },
		{ "alloc", pkt_alloc_names, PKT_ALLOC_MAX },
		{ "pool-layout", pkt_pool_layout_names, PKT_POOL_LAYOUT_MAX },
		{ "pool-order", pkt_pool_order_names, PKT_POOL_ORDER_MAX },
		{ "rx-csum", app_rx_csum_names, APP_CSUM_MAX },
		{ "rx-csum-partial", app_csum_partial_names, APP_PARTIAL_MAX },
		{ "unpolled-queues", app_unpolled_names, 2 },
		{ "ingress", ingress_mode_names, INGRESS_MODE_MAX },
		{ "lock-scope", ingress_scope_names, INGRESS_SCOPE_MAX },
		{ "ingress-kind", app_ingress_kind_names, APP_KIND_MAX },
		{ "peer-layout", peer_layout_names, PEER_LAYOUT_MAX },
		{ "capture-what", pkt_capture_what_names, PKT_CAPTURE_MAX },
		{ "bpf-engine", pktbpf_engine_names, PKTBPF_ENGINE_MAX },
		{ "family", pkt_family_names, PKT_FAMILY_MAX },
		{ "l4", pkt_l4_names, PKT_L4_MAX },
		{ "frag-order", pkt_frag_order_names, PKT_FRAG_ORDER_MAX },
	};
	unsigned int i, j, n = 0;

	(void)state;
	for (i = 0; i < RTE_DIM(t); i++) {
		const struct app_opt *d = __opt_find(t[i].opt);

		assert_non_null(d);
		assert_int_equal(d->type, APP_OPT_CHOICE);
		assert_ptr_equal(d->names, t[i].names);
		assert_int_equal(d->n_names, t[i].n);
		/* each name sets its index */
		for (j = 0; j < t[i].n; j++) {
			static struct test_args a;
			char arg[128], err[512];
			uint32_t v = 0;

			/* with what the option needs; the kinds need their source */
			memset(&a, 0, sizeof(a));
			__needs_args(d, &a);
			if (strcmp(t[i].opt, "ingress-kind") == 0 && j == APP_KIND_PCAP_FILTER)
				__args_add(&a, "filter", "udp");
			if (strcmp(t[i].opt, "ingress-kind") == 0 && j == APP_KIND_BPF)
				__args_add(&a, "bpf-obj", "x.o");
			snprintf(arg, sizeof(arg), "--%s=%s", t[i].opt, t[i].names[j]);
			if (__parse_args(&o, err, sizeof(err), &a, arg) != 0)
				fail_msg("%s: %s", arg, err);
			memcpy(&v, (char *)&o + d->off, d->size);
			assert_int_equal(v, j);
		}
	}
	for (i = 0; i < app_n_opts; i++)
		n += app_opts[i].type == APP_OPT_CHOICE;
	assert_int_equal(n, RTE_DIM(t));	/* every choice is listed above */
	/* lib/mib cannot use lib/ingress's names (it sits below): its Mode
	 * group's labels must be the same, in the same order */
	assert_int_equal(MIB_MODES, INGRESS_MODE_MAX);
	for (i = 0; i < INGRESS_MODE_MAX; i++)
		assert_string_equal(mib_mode_name(i), ingress_mode_names[i]);
	assert_string_equal(app_source_name(APP_SRC_PORT), "port");
	assert_string_equal(app_path_name(APP_PATH_RXONLY), "rx-only");
	assert_string_equal(app_path_name(APP_PATH_MAX), "?");
}

/* ---- defaults ---- */

static void
test_defaults(void **state)
{
	static struct pkt_flow_conf flow;
	char err[512];
	char *ini;
	char path[128];
	unsigned int i;

	(void)state;
	__historical_defaults(&ref);
	memset(&o, 0x5a, sizeof(o));
	app_options_default(&o);
	__opts_same(&o, &ref, "app_options_default() vs the historical defaults");
	/* lib/pkt's flow defaults are the table's */
	pkt_flow_conf_default(&flow);
	assert_memory_equal(&o.flow, &flow, sizeof(flow));
	assert_int_equal(app_pool_flags(&o), PKT_POOL_SHUFFLE);
	assert_false(app_options_want_ingress(&o));

	/* an empty command line */
	assert_int_equal(__parse(&o, err, sizeof(err), NULL), 0);
	__opts_same(&o, &ref, "no option");

	/* --help-ini read back as the INI file */
	ini = __print(app_options_ini);
	__file(path, sizeof(path), "default.ini", ini);
	free(ini);
	if (__parse(&o, err, sizeof(err), "--config", path, NULL) != 0)
		fail_msg("--help-ini refused: %s", err);
	__opts_same(&o, &ref, "--config (--help-ini)");
	assert_string_equal(o.config, path);

	/* every option given its default, with what it needs: the same as
	 * what it needs alone, and said in the run information (it has an
	 * effect: its needs were given; --capture-max was not said when it
	 * judged "needs --capture" as if nothing had been given) */
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		static struct app_options with;
		static struct test_args a;
		struct app_option_value v;
		char arg[600];

		if (d->def == NULL)
			continue;
		memset(&a, 0, sizeof(a));
		__needs_args(d, &a);
		if (__parse_args(&with, err, sizeof(err), &a, NULL) != 0)
			fail_msg("--%s's needs: %s", d->name, err);
		snprintf(arg, sizeof(arg), "--%s=%s", d->name, d->def);
		if (__parse_args(&o, err, sizeof(err), &a, arg) != 0)
			fail_msg("%s: %s", arg, err);
		__opts_same(&o, &with, arg);
		assert_true((o.given[i / 64] >> (i % 64)) & 1);
		if (d->no_ini || d->no_info || d->type == APP_OPT_FN ||
		    d->type == APP_OPT_HELP)
			continue;
		if (app_options_value(&o, i, &v) != 1)
			fail_msg("%s: not in info.config", arg);
	}
}

/* ---- the generated texts ---- */

static void
test_help(void **state)
{
	char *usage = __print(__opts_usage), *ini = __print(app_options_ini);
	char *md = __print(app_options_markdown);
	char line[4096], *p;
	unsigned int i, rows = 0;

	(void)state;
	/* --help: every option at the start of a line, every line within 79
	 * columns unless one word is longer */
	for (p = usage; *p != '\0';) {
		char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);

		if (n > 79 && memchr(p + 31, ' ', n - 31) != NULL &&
		    strncmp(p, "EAL without", 11) != 0)
			fail_msg("--help line over 79 columns: %.*s", (int)n, p);
		p += n + (nl != NULL);
	}
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		char arg[128];

		snprintf(line, sizeof(line), "\n  --%s%s%s%s", d->name,
			 d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP ? "" : " ",
			 d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP ? "" :
			 __opt_arg(d, arg, sizeof(arg)), " ");
		if (strstr(usage, line) == NULL) {
			line[strlen(line) - 1] = '\n';	/* a long head: help below */
			if (strstr(usage, line) == NULL)
				fail_msg("--help lacks --%s", d->name);
		}
		/* its markdown row */
		snprintf(line, sizeof(line), "| `--%s%s", d->name,
			 d->type == APP_OPT_FLAG || d->type == APP_OPT_HELP ? "`" : " ");
		if (strstr(md, line) == NULL)
			fail_msg("--help-markdown lacks --%s", d->name);
	}
	assert_non_null(strstr(usage, "  --burst N                    packets per burst "
				      "(1..512; default 32)\n"));
	{
		/* the texts, as one line of words */
		char *flat = strdup(usage), *r, *w;

		assert_non_null(flat);
		for (r = w = flat; *r != '\0'; r++)
			if (*r != ' ' && *r != '\n')
				*w++ = *r;
			else if (w > flat && w[-1] != ' ')
				*w++ = ' ';
		*w = '\0';
		assert_non_null(strstr(
			flat,
			" --udp-ports P[-Q],...|none UDP ports with a "
			"listening socket (IPv4 and IPv6) (default: the --dport range; "
			"needs --path full) "));
		assert_non_null(strstr(flat, " --duration SECONDS run time; 0 runs until "
					     "SIGINT/SIGTERM (0..10000000; default 10) "));
		assert_non_null(strstr(flat, " --quiet no per-interval lines, only the "
					     "summary --burst"));
		assert_non_null(strstr(
			flat,
			" polled; see app/pktpath/README.md, Real ports (default: "));
		free(flat);
	}
	assert_null(strchr(usage, '`'));
	assert_null(strstr(usage, "](#"));
	/* markdown: a header, then one row per option, three cells each */
	for (p = md; *p != '\0'; p = strchr(p, '\n') + 1) {
		unsigned int cells = 0;
		char *q;

		for (q = p; *q != '\n'; q++)
			cells += *q == '|' && (q == p || q[-1] != '\\');
		assert_int_equal(cells, 4);
		rows++;
	}
	assert_int_equal(rows, app_n_opts + 2);
	assert_non_null(strstr(md, "| `--burst N` | 32 | packets per burst (1..512) |\n"));
	assert_non_null(strstr(md, "| `--source gen\\|port` | gen | "));
	assert_non_null(strstr(md, "| `--quiet` | | no per-interval lines"));
	assert_non_null(strstr(md, "| `--udp-ports P[-Q],...\\|none` | the `--dport` range | "));
	/* INI: every key but --config and the help options, once */
	for (i = 0; i < app_n_opts; i++) {
		const struct app_opt *d = &app_opts[i];
		char *a, *b;

		snprintf(line, sizeof(line), "\n%s%s = ", (d->def != NULL ||
			 d->type == APP_OPT_FLAG) && d->needs[0].opt == NULL ? "" : ";",
			 d->name);
		a = strstr(ini, line);
		b = a != NULL ? strstr(a + 1, line) : NULL;
		if (d->no_ini ? a != NULL : a == NULL || b != NULL)
			fail_msg("--help-ini: key %s", d->name);
	}
	assert_non_null(strstr(ini, "\n[pktpath]\n"));
	assert_non_null(strstr(ini, "\n; packets per burst (1..512)\nburst = 32\n"));
	assert_non_null(strstr(ini, "\nquiet = off\n"));
	assert_non_null(strstr(ini, "\n;peers = N\n"));
	assert_non_null(strstr(ini, "\n;json = FILE\n"));
	assert_null(strchr(strstr(ini, "[pktpath]"), '`'));
	assert_null(strstr(ini, "](#"));
	assert_non_null(strstr(md, "see [Real ports](#real-ports)"));
	free(usage);
	free(ini);
	free(md);
}

static int
__setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_options.XXXXXX");
	return mkdtemp(tmpdir) != NULL ? 0 : -1;
}

static int
__teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_enum_tables),
		cmocka_unit_test(test_words_named),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_vlan),
		cmocka_unit_test(test_getopt),
		cmocka_unit_test(test_ini),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_needs),
		cmocka_unit_test(test_needs_help),
		cmocka_unit_test(test_repeats),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, __setup, __teardown);
}
