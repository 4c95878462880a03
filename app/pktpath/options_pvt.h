/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_OPTIONS_PVT_H
#define PKTPATH_OPTIONS_PVT_H

/*
 * The option table and what the options files share (options.h says which
 * file does what). Only the options files and test_options.c use this.
 *
 * An option is either typed (APP_OPT_UINT and the others below: the table
 * gives the field of struct app_options it sets, and its range or names, and
 * the generic parser of the type sets it) or APP_OPT_FN (its own set()).
 * Its default, when it has one, is a value as a user would write it (def),
 * applied by app_options_default() through the same parser as the user's;
 * a default that is not a value ("the --dport range") is described (def_doc)
 * and left to the zero of the field.
 *
 * What an option needs to have an effect (needs) is said in the table too,
 * and one check (__opt_check) refuses an option given, on the command line
 * or in an INI file, in a configuration where it has none:
 *   pktpath: --rxd 512 has no effect with --source gen (it needs --source port)
 * And each option is given once: a second time is refused, naming both
 * values, unless the table says what repeating it does (repeat).
 */

#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "options.h"

/* An error reason (without the option's name). */
#define APP_OPT_ERR_LEN 256

enum app_opt_type {
	APP_OPT_FLAG,	/* no value on the command line; on/off in the INI file */
	APP_OPT_BOOL,	/* on|off (yes/no, true/false, 1/0) */
	APP_OPT_UINT,	/* a decimal integer in lo..hi */
	APP_OPT_DOUBLE,	/* a decimal number in dlo..dhi */
	APP_OPT_CHOICE,	/* one of names[0..n_names - 1], stored as its index */
	APP_OPT_PATH,	/* a file name, shorter than PATH_MAX */
	APP_OPT_FN,	/* set() parses and stores */
	APP_OPT_HELP,	/* --help and its kin: prints, and the run ends */
};

typedef int (*app_opt_set_fn)(struct app_options *o, const char *v, char *err);

/*
 * One condition on another option (opt) for an option to have an effect:
 *  - vals "a|b": its value is one of these, as a user writes them (a
 *    choice's names, on or off, a word such as off for --http);
 *  - vals NULL: it is set: on, for a flag; given, for an option without a
 *    default value; a value other than its default, for the others;
 *  - neg: the opposite ("not one of", "not set").
 * An option's needs are alternatives, any one of which will do, each the
 * conditions that must all hold: a condition with alt set starts the next
 * alternative. No condition: the option always has an effect.
 */
struct app_opt_cond {
	const char *opt;
	const char *vals;
	bool neg;
	bool alt;
};
#define APP_OPT_NEEDS_MAX 6

struct app_opt {
	const char *name;	/* --NAME, and the INI key */
	const char *arg;	/* the value's name in --help; NULL: the type's
				 * (N, on|off, the names a|b|c) */
	enum app_opt_type type;
	size_t off;		/* the field (typed options) */
	size_t size;
	uint64_t lo, hi;	/* APP_OPT_UINT */
	double dlo, dhi;	/* APP_OPT_DOUBLE */
	const char *const *names; /* APP_OPT_CHOICE */
	unsigned int n_names;
	app_opt_set_fn set;	/* APP_OPT_FN */
	enum app_help help_mode; /* APP_OPT_HELP */
	const char *def;	/* the default value, or NULL */
	const char *def_doc;	/* the default in words, when def cannot say it */
	const char *help;	/* what it does, without range or default; in
				 * markdown (`code`, [section](#anchor)), made
				 * plain text in --help and the INI file */
	bool no_ini;		/* not an INI key (--config, the help options) */
	bool no_info;		/* not in the JSON's run information (the
				 * run's own output: --json) */
	struct app_opt_cond needs[APP_OPT_NEEDS_MAX]; /* what it needs to
						 * have an effect (above) */
	const char *repeat;	/* what giving it again does, in words; NULL:
				 * a second one is refused */
};

/* What the user gave of an option: its value (NULL for a flag on the command
 * line) and where, "" for the command line or "FILE:LINE" (quoted) for an
 * INI file; val NULL and where[0] == '\0' with given false: not given. */
struct app_opt_given {
	bool given;
	char *val;		/* malloc'd copy */
	char where[2 * BASE_QUOTE_LEN + 16];
};

extern const struct app_opt app_opts[];
extern const unsigned int app_n_opts;

/* The option named name (in full), or NULL. */
const struct app_opt *__opt_find(const char *name);

/* Parse v as option d's value into o; 0, or -1 with the reason in err
 * (APP_OPT_ERR_LEN bytes). A flag takes NULL (the command line) or on/off. */
/* Defaults that depend on other options, once all are read (options_check.c):
 * the IPv6 frames' size when --pkt-size is not given. */
void __opt_derive(struct app_options *o, const struct app_opt_given *g);
int __opt_set(const struct app_opt *d, struct app_options *o, const char *v,
	      char *err);

/* The k-th word an APP_OPT_FN option takes instead of its form: an
 * alternative of d->arg of lowercase letters only (auto in "auto|SECONDS",
 * none, off), into w (len bytes); false after the last. A refusal of such
 * an option names the ones its own reason does not (__opt_set). */
bool __opt_arg_word(const struct app_opt *d, unsigned int k, char *w, size_t len);

/* The text of d's argument: d->arg, or the type's ("a|b|c", "on|off", "N"). */
const char *__opt_arg(const struct app_opt *d, char *buf, size_t len);

/* Checks across options, after both passes, g[i] what was given of
 * app_opts[i]: an option given that has no effect (its needs), then the
 * values that cannot go together; 0 or -1 with the line printed. */
int __opt_check(struct app_options *o, const struct app_opt_given *g);

/* Whether d's needs are met in o (g: what was given). */
bool __opt_needs_met(const struct app_opt *d, const struct app_options *o,
		     const struct app_opt_given *g);

/* What d needs, in words ("--source port", "--filter or --bpf-obj"), into
 * buf (len bytes): "" if it needs nothing. */
const char *__opt_needs_text(const struct app_opt *d, char *buf, size_t len);

/* x into d's field (typed options: 1, 2, 4 or 8 bytes), and back. */
void __opt_store(const struct app_opt *d, struct app_options *o, uint64_t x);
uint64_t __opt_load(const struct app_opt *d, const struct app_options *o);

/* The types' parsers the setters use too (options_value.c): a decimal
 * number in lo..hi, on/off (yes/no, true/false, 1/0). 0, or -1 with the
 * reason in err. */
int __opt_double(const char *v, double lo, double hi, double *out, char *err);
int __opt_bool(const char *v, bool *out, char *err);

/* names[0..n-1] joined with '|' into buf (len bytes); buf. */
const char *__opt_join(const char *const *names, unsigned int n, char *buf, size_t len);

/* v's comma-separated items, each given to item(o, item, err) in turn; 0,
 * or -1 with the reason in err (an empty item, the item's own). */
int __opt_list(const char *v, int (*item)(struct app_options *, const char *, char *),
	       struct app_options *o, char *err);

/* --compare (options_compare.c): the knobs' values against the other
 * options (a knob that has no effect, a knob's option given too, the
 * baseline); 0 or -1 with the line printed. */
int __opt_check_compare(struct app_options *o, const struct app_opt_given *g);

/* The setters of the APP_OPT_FN options (options_set.c). */
int __opt_set_warmup(struct app_options *o, const char *v, char *err);
int __opt_set_src(struct app_options *o, const char *v, char *err);
int __opt_set_dst(struct app_options *o, const char *v, char *err);
int __opt_set_sport(struct app_options *o, const char *v, char *err);
int __opt_set_dport(struct app_options *o, const char *v, char *err);
int __opt_set_src_mac(struct app_options *o, const char *v, char *err);
int __opt_set_dst_mac(struct app_options *o, const char *v, char *err);
int __opt_set_rxq(struct app_options *o, const char *v, char *err);
int __opt_set_local(struct app_options *o, const char *v, char *err);
int __opt_set_mcast(struct app_options *o, const char *v, char *err);
int __opt_set_local6(struct app_options *o, const char *v, char *err);
int __opt_set_mcast6(struct app_options *o, const char *v, char *err);
int __opt_set_src6(struct app_options *o, const char *v, char *err);
int __opt_set_dst6(struct app_options *o, const char *v, char *err);
int __opt_set_ext6(struct app_options *o, const char *v, char *err);
int __opt_set_udp_ports(struct app_options *o, const char *v, char *err);
int __opt_set_udplite_ports(struct app_options *o, const char *v, char *err);
int __opt_set_vlan(struct app_options *o, const char *v, char *err);
int __opt_set_vlan_tags(struct app_options *o, const char *v, char *err);
int __opt_set_filter(struct app_options *o, const char *v, char *err);
int __opt_set_filter_action(struct app_options *o, const char *v, char *err);
int __opt_set_bpf_sec(struct app_options *o, const char *v, char *err);
int __opt_set_bpf_jit(struct app_options *o, const char *v, char *err);
int __opt_set_filter_netmask(struct app_options *o, const char *v, char *err);
int __opt_set_compare(struct app_options *o, const char *v, char *err);
int __opt_set_baseline(struct app_options *o, const char *v, char *err);
int __opt_set_http(struct app_options *o, const char *v, char *err);
int __opt_set_pmu(struct app_options *o, const char *v, char *err);

#endif
