/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The application side of the ingress hook: building it from the options,
 * the rule churn (two rulesets alternated by lib/ingress's updater thread),
 * and the hooks through which lib/export's control table (HTTP, telemetry,
 * SIGHUP, SIGUSR1) flips the mode and reloads the rules.
 *
 * Every control operation runs under a->ctl_lock. A reload (SIGHUP, POST
 * /ingress/rules) under churn stops the updater, installs the new ruleset,
 * makes it the A of the pair the updater alternates, and starts the
 * updater again: the churn goes on with what the user asked for, and
 * nothing built from the old A can be installed after the reload returns.
 * While --compare runs, flips and reloads from outside (SIGUSR1, SIGHUP,
 * HTTP) are refused: a phase must be measured in its own mode and rules.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "app.h"
#include "export_control.h"
#include "ingress_bpf.h"
#include "ingress_pcap.h"
#include "ingress_rules.h"

#define ERR_LEN 512

/* The updater alternates A and B: cheap clones sharing the compiled rules. */
static struct ingress_classifier *
make_alternate(void *arg, unsigned int seq)
{
	struct app *a = arg;

	return ingress_classifier_clone(seq & 1 ? a->rules_a : a->rules_b);
}

static struct ingress_classifier *
load_or_default(const char *file, char *err)
{
	struct ingress_classifier *c = NULL;

	if (file[0] == '\0') {
		if (ingress_rules_parse_string("default pass\n", "(no rules)", &c,
					       err, ERR_LEN) != 0)
			return NULL;
		return c;
	}
	if (ingress_rules_parse_file(file, &c, err, ERR_LEN) != 0)
		return NULL;
	return c;
}

/* The classifier the options describe (the kind's source read again, for
 * SIGHUP). NULL with the reason in err. */
static struct ingress_classifier *
load_primary(const struct app_options *o, char *err)
{
	struct ingress_classifier *c = NULL;
	struct pktbpf_conf bc = o->bpf;

	bc.cancel = &app_quit;		/* SIGINT/SIGTERM stop a long load */
	switch (o->ingress_kind) {
	case APP_KIND_PCAP_FILTER:
		if (ingress_pcap_filter_create(o->filter, &o->filter_verdict,
					       &bc, &c, err, ERR_LEN) != 0)
			return NULL;
		return c;
	case APP_KIND_BPF:
		if (ingress_bpf_create(o->bpf_obj, o->bpf_sec, &bc, &c, err,
				       ERR_LEN) != 0)
			return NULL;
		return c;
	default:
		return load_or_default(o->rules, err);
	}
}

static const char *
primary_option(const struct app_options *o)
{
	return o->ingress_kind == APP_KIND_PCAP_FILTER ? "--filter" :
	       o->ingress_kind == APP_KIND_BPF ? "--bpf-obj" : "--rules";
}

int
app_ingress_setup(struct app *a)
{
	const struct app_options *o = &a->opt;
	struct ingress_classifier *first;
	char err[ERR_LEN];
	unsigned int i;

	pthread_mutex_init(&a->ctl_lock, NULL);
	if (!app_options_want_ingress(o))
		return 0;
	a->rules_a = load_primary(o, err);
	if (a->rules_a == NULL) {
		fprintf(stderr, "pktpath: %s %s\n", primary_option(o), err);
		if (app_quit) {		/* a signal stopped the load: as its default */
			rte_eal_cleanup();
			exit(128 + app_quit);
		}
		return -1;
	}
	a->rules_b = load_or_default(o->rules_alt, err);
	if (a->rules_b == NULL) {
		fprintf(stderr, "pktpath: --rules-alt %s\n", err);
		return -1;
	}
	first = ingress_classifier_clone(a->rules_a);
	if (first == NULL) {
		fprintf(stderr, "pktpath: ingress_classifier_clone: out of memory\n");
		return -1;
	}
	a->ig = ingress_create(a->n_workers, o->ingress_mode, o->lock_scope, first,
			       a->ctl_mib, (int)rte_socket_id());
	if (a->ig == NULL) {
		ingress_classifier_free(first);
		fprintf(stderr, "pktpath: ingress_create: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	ingress_set_gp_log_us(a->ig, o->gp_log_us);
	for (i = 0; i < a->n_workers; i++)
		a->workers[i].ig = a->ig;
	return 0;
}

/* Called once the workers run (the updater's grace periods need them).
 * Under ctl_lock. */
static int
__updater_start(struct app *a)
{
	int rc;

	if (a->ig == NULL || a->opt.update_rate <= 0)
		return 0;
	rc = ingress_updater_start(a->ig, a->opt.update_rate, make_alternate, a);
	if (rc != 0 && rc != -EBUSY)
		APP_LOG(ERR, "rule updater: %s", strerror(-rc));
	return rc;
}

static bool
__compare_running(struct app *a)
{
	return __atomic_load_n(&a->compare_running, __ATOMIC_ACQUIRE);
}

/* Seconds since the stats started (the intervals' clock). */
static double
__uptime(const struct app *a)
{
	return (double)(rte_rdtsc() - a->perf_start_tsc) / (double)rte_get_tsc_hz();
}

/* Under ctl_lock. */
static int
__set_mode(struct app *a, enum ingress_mode m, const char *source, char *err,
	   size_t len)
{
	bool churn = a->opt.update_rate > 0;
	enum ingress_mode from = ingress_get_mode(a->ig);
	double t;
	int rc;

	/* none cannot coexist with updates: pause the churn while in none. */
	if (m == INGRESS_NONE && churn)
		ingress_updater_stop(a->ig);
	rc = ingress_set_mode(a->ig, m);
	if (rc != 0) {
		snprintf(err, len, "ingress_set_mode(%s): %s", ingress_mode_name(m),
			 strerror(-rc));
		if (m == INGRESS_NONE && churn)
			__updater_start(a);
		return rc;
	}
	if (m != INGRESS_NONE && churn)
		__updater_start(a);
	t = __uptime(a);
	if (m == from) {
		APP_LOG(INFO, "ingress mode %s kept at %.3f s (%s): already in force",
			ingress_mode_name(m), t, source);
		return 0;
	}
	APP_LOG(INFO, "ingress mode %s -> %s at %.3f s (%s)", ingress_mode_name(from),
		ingress_mode_name(m), t, source);
	if (a->flips == NULL)
		a->flips = json_array();
	json_array_append_new(a->flips, json_pack("{s:s, s:f, s:s, s:s, s:s}",
		"kind", "mode-flip", "t_s", t, "from", ingress_mode_name(from),
		"mode", ingress_mode_name(m), "source", source));
	return 0;
}

static int
__no_hook(char *err, size_t len)
{
	snprintf(err, len, "no ingress hook (start with --ingress, --rules or --compare)");
	return -ENOTSUP;
}

static int
__closed(char *err, size_t len)
{
	snprintf(err, len, "the run has ended (--duration): no more control");
	return -EBUSY;
}

static int
__busy_compare(char *err, size_t len)
{
	snprintf(err, len, "--compare is running: its phases own the mode and the "
		 "rules until the table is printed");
	return -EBUSY;
}

int
app_ingress_set_mode(struct app *a, enum ingress_mode m, const char *source,
		     char *err, size_t len)
{
	int rc;

	if (a->ig == NULL)
		return __no_hook(err, len);
	pthread_mutex_lock(&a->ctl_lock);
	rc = a->ctl_closed ? __closed(err, len) :
	     __compare_running(a) ? __busy_compare(err, len) :
	     __set_mode(a, m, source, err, len);
	pthread_mutex_unlock(&a->ctl_lock);
	return rc;
}

int
app_ingress_compare_mode(struct app *a, enum ingress_mode m, char *err, size_t len)
{
	int rc;

	if (a->ig == NULL)
		return __no_hook(err, len);
	pthread_mutex_lock(&a->ctl_lock);
	rc = a->ctl_closed ? __closed(err, len) : __set_mode(a, m, "--compare", err, len);
	pthread_mutex_unlock(&a->ctl_lock);
	return rc;
}

int
app_ingress_compare_scope(struct app *a, enum ingress_scope sc, char *err, size_t len)
{
	int rc;

	if (a->ig == NULL)
		return __no_hook(err, len);
	pthread_mutex_lock(&a->ctl_lock);
	rc = a->ctl_closed ? __closed(err, len) : ingress_set_scope(a->ig, sc);
	if (rc < 0 && !a->ctl_closed)
		snprintf(err, len, "ingress_set_scope(%s): %s", ingress_scope_name(sc),
			 strerror(-rc));
	pthread_mutex_unlock(&a->ctl_lock);
	return rc;
}

/*
 * Install c (owned by us) as the new A: stop the churn, replace, restart.
 * name is for messages. Under ctl_lock. 0, or -errno with err filled (c
 * freed, the running classifier and A unchanged).
 */
static int
__reload(struct app *a, struct ingress_classifier *c, const char *name,
	 char *err, size_t errlen)
{
	bool churn = a->opt.update_rate > 0 &&
		     ingress_get_mode(a->ig) != INGRESS_NONE;
	struct ingress_classifier *inst;
	int rc;

	if (a->ctl_closed || __compare_running(a)) {
		ingress_classifier_free(c);
		return a->ctl_closed ? __closed(err, errlen) :
		       __busy_compare(err, errlen);
	}
	inst = ingress_classifier_clone(c);
	if (inst == NULL) {
		ingress_classifier_free(c);
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	/* After the stop returns, nothing built from the old A is installed
	 * later: the updater's last replace has completed. */
	if (churn)
		ingress_updater_stop(a->ig);
	rc = ingress_replace(a->ig, inst);
	if (rc != 0) {
		ingress_classifier_free(inst);
		ingress_classifier_free(c);
		snprintf(err, errlen, "ingress_replace: %s%s", strerror(-rc),
			 rc == -EPERM ? " (mode none refuses updates)" : "");
	} else {
		ingress_classifier_free(a->rules_a);
		a->rules_a = c;
	}
	if (churn)
		__updater_start(a);
	return rc;
}

int
app_ingress_load_rules(struct app *a, const char *text, size_t len,
		       const char *name, char *err, size_t errlen)
{
	struct ingress_classifier *c = NULL;
	char *buf;
	int rc;

	if (a->ig == NULL)
		return __no_hook(err, errlen);
	if (__compare_running(a))	/* before the work of a parse */
		return __busy_compare(err, errlen);
	buf = malloc(len + 1);
	if (buf == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		snprintf(err, errlen, "%s: NUL byte in the rules", name);
		return -EINVAL;
	}
	rc = ingress_rules_parse_string(buf, name, &c, err, errlen);
	free(buf);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&a->ctl_lock);
	rc = __reload(a, c, name, err, errlen);
	pthread_mutex_unlock(&a->ctl_lock);
	if (rc == 0)
		APP_LOG(INFO, "%s: rules installed%s", name, a->opt.update_rate > 0 ?
			" (the updater now alternates them with --rules-alt)" : "");
	return rc;
}

/* SIGHUP, POST /ingress/reload: reload --rules, --filter or --bpf-obj
 * from its file. The result or the reason in err. */
static int
hook_reload(void *arg, const char *source, char *err, size_t errlen)
{
	struct app *a = arg;
	struct ingress_classifier *c;
	char why[ERR_LEN];
	int rc;

	if (a->ig == NULL ||
	    (a->opt.ingress_kind == APP_KIND_RULES && a->opt.rules[0] == '\0')) {
		snprintf(err, errlen, "no --rules, --filter or --bpf-obj to reload");
		return -ENOTSUP;
	}
	if (__compare_running(a))
		return __busy_compare(err, errlen);
	/* a file is read as every input is (base.h "Files"): a FIFO is
	 * refused at once, never waited on */
	c = load_primary(&a->opt, why);
	if (c == NULL) {
		snprintf(err, errlen, "%s %s (the running classifier stays)",
			 primary_option(&a->opt), why);
		return -EINVAL;
	}
	pthread_mutex_lock(&a->ctl_lock);
	rc = __reload(a, c, source, why, sizeof(why));
	pthread_mutex_unlock(&a->ctl_lock);
	if (rc != 0)
		snprintf(err, errlen, "%s (the running classifier stays)", why);
	else
		snprintf(err, errlen, "%s reloaded%s", primary_option(&a->opt),
			 a->opt.update_rate > 0 ? " (the updater now alternates it "
						  "with --rules-alt)"
						: "");
	return rc;
}

/* SIGHUP and SIGUSR1: the control table's (lib/export control.c), from the
 * control loop. */
void
app_ingress_signals(struct app *a)
{
	struct export_hooks h;

	app_ingress_hooks(a, &h);
	export_control_signals_run(a->stats, &h);
}

void
app_ingress_start(struct app *a)
{
	if (a->ig == NULL)
		return;
	pthread_mutex_lock(&a->ctl_lock);
	if (ingress_get_mode(a->ig) != INGRESS_NONE)
		__updater_start(a);
	pthread_mutex_unlock(&a->ctl_lock);
}

void
app_ingress_stop(struct app *a)
{
	if (a->ig == NULL)
		return;
	pthread_mutex_lock(&a->ctl_lock);
	a->ctl_closed = true;
	ingress_updater_stop(a->ig);
	pthread_mutex_unlock(&a->ctl_lock);
}

void
app_ingress_teardown(struct app *a)
{
	if (a->ig != NULL)
		ingress_updater_stop(a->ig);
	ingress_free(a->ig);
	a->ig = NULL;
	ingress_classifier_free(a->rules_a);
	ingress_classifier_free(a->rules_b);
	a->rules_a = a->rules_b = NULL;
}

/*
 * Rule replacements a second over the run (--update-rate), -1 before the
 * report computed it. Written once by the main thread at the report, read
 * by HTTP and telemetry threads: relaxed atomics, no ordering needed (a
 * reader sees -1 or the rate).
 */
static double upd_achieved = -1;

void
app_ingress_report_rate(struct app *a, double seconds, FILE *out)
{
	uint64_t n;
	double r;

	/* --compare pauses the churn in its none phases: its own table. */
	if (a->ig == NULL || a->opt.update_rate <= 0 || seconds <= 0 || a->opt.cmp.n > 0)
		return;
	/* Cumulative over every updater run (reloads restart it). */
	n = ingress_updater_count(a->ig);
	r = (double)n / seconds;
	__atomic_store(&upd_achieved, &r, __ATOMIC_RELAXED);
	/* The updater skips the replaces it is too late for (it does not
	 * burst to catch up): say so when it fell behind. */
	if (r < 0.95 * a->opt.update_rate && a->opt.update_rate - r >= 1.0)
		fprintf(out, "update rate %g/s requested, %.1f/s achieved (%" PRIu64
			" replaces in %.2f s)\n", a->opt.update_rate, r, n, seconds);
}

/* Never waits for a writer: safe from any thread at any time. */
json_t *
app_ingress_info(struct app *a)
{
	struct ingress_info in;
	json_t *modes = json_array(), *o;
	unsigned int m;
	double r;

	if (a->ig == NULL) {
		json_array_append_new(modes, json_string("off"));
		return json_pack("{s:s, s:b, s:o}", "mode", "off", "hook", 0,
				 "modes", modes);
	}
	for (m = 0; m < INGRESS_MODE_MAX; m++)
		json_array_append_new(modes, json_string(
			ingress_mode_name((enum ingress_mode)m)));
	ingress_info(a->ig, &in);
	o = json_pack("{s:s, s:b, s:o, s:s, s:s, s:s, s:o, s:f, s:I, s:I, s:b}",
		"mode", ingress_mode_name(ingress_get_mode(a->ig)),
		"hook", 1,
		"modes", modes,
		"scope", ingress_scope_name(ingress_get_scope(a->ig)),
		"kind", in.kind,
		"classifier", in.desc,
		"rules", in.rules >= 0 ? json_integer(in.rules) : json_null(),
		"update_rate", a->opt.update_rate,
		"updates", (json_int_t)ingress_updater_count(a->ig),
		"updater_runs", (json_int_t)ingress_updater_runs(a->ig),
		"compare_running", __compare_running(a));
	__atomic_load(&upd_achieved, &r, __ATOMIC_RELAXED);
	if (o != NULL && r >= 0)
		json_object_set_new(o, "achieved_rate", json_real(r));
	return o;
}

/* ---- hooks for the HTTP endpoint and DPDK telemetry (their threads) ---- */

static int
hook_set_mode(void *arg, const char *mode, const char *source, char *err,
	      size_t len)
{
	struct app *a = arg;
	enum ingress_mode m;

	if (mode == NULL) {
		/* the next: off -> none -> lock -> rwlock -> rcu -> off,
		 * skipping none while rules churn */
		if (a->ig == NULL)
			return app_ingress_set_mode(a, INGRESS_OFF, source, err, len);
		m = ingress_get_mode(a->ig);
		do {
			m = (enum ingress_mode)((m + 1) % INGRESS_MODE_MAX);
		} while (m == INGRESS_NONE && a->opt.update_rate > 0);
	} else if (ingress_mode_parse(mode, &m) != 0) {
		snprintf(err, len, "unknown mode '%s' (off|none|lock|rwlock|rcu)", mode);
		return -EINVAL;
	}
	return app_ingress_set_mode(a, m, source, err, len);
}

static int
hook_load_rules(void *arg, const char *body, size_t len, char *err, size_t errlen)
{
	return app_ingress_load_rules(arg, body, len, "POST /ingress/rules", err,
				      errlen);
}

static json_t *
hook_ingress_state(void *arg)
{
	return app_ingress_info(arg);
}

/* The mode flips so far, a copy taken under ctl_lock (__set_mode()
 * appends under it), for GET /history's events. */
static json_t *
hook_flips(void *arg)
{
	struct app *a = arg;
	json_t *copy;

	pthread_mutex_lock(&a->ctl_lock);
	copy = a->flips != NULL ? json_deep_copy(a->flips) : NULL;
	pthread_mutex_unlock(&a->ctl_lock);
	return copy;
}

void
app_ingress_hooks(struct app *a, struct export_hooks *h)
{
	memset(h, 0, sizeof(*h));
	h->set_mode = hook_set_mode;
	h->load_rules = hook_load_rules;
	h->ingress_state = hook_ingress_state;
	h->reload = hook_reload;
	h->flips = hook_flips;
	h->arg = a;
}
