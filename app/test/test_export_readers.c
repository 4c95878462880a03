/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Readers of lib/export do not queue behind each other: while one reader
 * is held inside its read (its writer, or the ingress-state hook it calls,
 * waits for the test), every other reading command of the control table
 * runs to its end — the per-device dumps (devices.c's lock) and every
 * telemetry command from a second client (telemetry.c's lock). A lock
 * that serialised readers would make the held reader wait for a release
 * that never comes: it gives up after a minute (a deadlock bound, not a
 * timing figure) and the test fails on that count.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "export_control.h"
#include "fixture_export.h"
#include "mib_dev.h"

/* How long a held reader waits for the test before it counts a deadlock. */
#define HOLD_BOUND_S 60

static struct {
	pthread_mutex_t m;
	pthread_cond_t cv;
	unsigned int entered; /* readers that reached hold() */
	bool released;	      /* the test ran the others */
	unsigned int deadlocks;
} H = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false, 0 };

static void
__hold_reset(void)
{
	pthread_mutex_lock(&H.m);
	H.entered = 0;
	H.released = false;
	H.deadlocks = 0;
	pthread_mutex_unlock(&H.m);
}

/* Wait while cond is false, HOLD_BOUND_S at most: false on timeout. */
static bool
__wait(bool (*cond)(void))
{
	struct timespec until;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HOLD_BOUND_S;
	while (!cond() && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&H.cv, &H.m, &until);
	return cond();
}

static bool
__released(void)
{
	return H.released;
}

static bool
__entered(void)
{
	return H.entered > 0;
}

/* Called inside a read: the first caller stays until __release(). */
static void
hold(void)
{
	pthread_mutex_lock(&H.m);
	if (H.entered++ == 0) {
		pthread_cond_broadcast(&H.cv);
		if (!__wait(__released))
			H.deadlocks++;
	}
	pthread_mutex_unlock(&H.m);
}

static void
__wait_entered(void)
{
	bool in;

	pthread_mutex_lock(&H.m);
	in = __wait(__entered);
	pthread_mutex_unlock(&H.m);
	assert_true(in);
}

static void
__release(void)
{
	pthread_mutex_lock(&H.m);
	H.released = true;
	pthread_cond_broadcast(&H.cv);
	pthread_mutex_unlock(&H.m);
}

/* ---- the control table's reading rows, run directly ---- */

/* A writer whose every value calls hold() when arg is non-NULL. */
static void
w_str(void *arg, const char *key, const char *v)
{
	(void)key, (void)v;
	if (arg != NULL)
		hold();
}

static void
w_u64(void *arg, const char *key, uint64_t v)
{
	(void)key, (void)v;
	if (arg != NULL)
		hold();
}

static void
w_i64(void *arg, const char *key, int64_t v)
{
	(void)key, (void)v;
	if (arg != NULL)
		hold();
}

static int
w_list(void *arg, const char *key, enum export_ctl_type t)
{
	(void)arg, (void)key, (void)t;
	return 0;
}

static int
w_end(void *arg)
{
	(void)arg;
	return 0;
}

/* Run reading row t with parameter param (NULL: none), holding inside its
 * first value if hold_it; the rc. */
static int
run_row(const struct export_ctl_cmd *t, const char *param, bool hold_it)
{
	char *page = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);
	struct export_ctl_writer w = { .str = w_str,
				       .u64 = w_u64,
				       .i64 = w_i64,
				       .list = w_list,
				       .end = w_end,
				       .arg = hold_it ? &H : NULL,
				       .text = f };
	struct export_ctl_ctx c = { .s = st,
				    .hooks = &hooks,
				    .source = "test",
				    .request = t->name,
				    .argword = "parameter",
				    .out = &w,
				    .info = info };
	int rc;

	assert_non_null(f);
	rc = export_control_run(t, param, param != NULL ? strlen(param) : 0, false, &c);
	fclose(f);
	free(page);
	return rc;
}

static const struct export_ctl_cmd *
row(const char *name)
{
	const struct export_ctl_cmd *t;
	unsigned int i, n;

	t = export_control_table(&n);
	for (i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	fail_msg("no row %s", name);
	return NULL;
}

struct holder {
	const struct export_ctl_cmd *t;
	const char *param;
	int rc;
};

static void *
holder_run(void *arg)
{
	struct holder *x = arg;

	x->rc = run_row(x->t, x->param, true);
	return NULL;
}

/* While a devices reader is held inside its read: every reading row of
 * the table (with and without a device), the dump --reader-links times
 * and the run's JSON "links" run to their end. */
static void
test_devices_readers_share(void **state)
{
	static const char *const names[] = { "gen0", "veth0" };
	static const char *const held[][2] = { { "links/values", NULL },
					       { "dev_snmp6/values", "veth0" },
					       { "dev_snmp6/values", NULL } };
	struct mib_devset *ds = mib_devset_create(2, NW, NULL);
	struct export_devices dv = { .ds = ds, .names = names, .s = st };
	const struct export_ctl_cmd *t;
	unsigned int i, k, n, ran;
	pthread_t th;

	(void)state;
	assert_non_null(ds);
	assert_int_equal(export_devices_register(&dv), 0);
	stats_fold_now(st);
	t = export_control_table(&n);
	for (k = 0; k < RTE_DIM(held); k++) {
		struct holder x = { row(held[k][0]), held[k][1], -1 };
		double ns = -1;
		json_t *j;

		__hold_reset();
		assert_int_equal(pthread_create(&th, NULL, holder_run, &x), 0);
		__wait_entered();
		ran = 0;
		for (i = 0; i < n; i++) {
			if (t[i].change)
				continue;
			run_row(&t[i], NULL, false);
			if (t[i].arg == EXPORT_CTL_ARG_WORDS &&
			    strncmp(t[i].name, "dev_snmp6", 9) == 0)
				assert_int_equal(run_row(&t[i], "gen0", false), 0);
			ran++;
		}
		assert_int_equal(export_devices_dump(&ns), 0);
		assert_true(ns >= 0);
		j = export_devices_json();
		assert_non_null(j);
		assert_int_equal(json_array_size(json_object_get(j, "links")), 2);
		json_decref(j);
		__release();
		assert_int_equal(pthread_join(th, NULL), 0);
		assert_int_equal(x.rc, 0);
		if (H.deadlocks != 0)
			fail_msg("%s%s%s: the other readers waited for it", held[k][0],
				 held[k][1] ? "," : "", held[k][1] ? held[k][1] : "");
		assert_true(ran >= 17);
	}
	export_devices_unregister();
	mib_devset_free(ds);
}

/* ---- telemetry, over its socket ---- */

/* The ingress state, held on its first call. */
static json_t *
held_state(void *arg)
{
	hold();
	return hk_state(arg);
}

static void *
tel_holder(void *arg)
{
	int fd = tel_connect();

	json_decref(tel_query(fd, arg));
	close(fd);
	return NULL;
}

/* While one telemetry client is held inside /pktpath/ingress (its hook),
 * a second client runs every command of the table that telemetry serves:
 * each answers. */
static void
test_telemetry_clients_share(void **state)
{
	static const char *const names[] = { "gen0", "veth0" };
	struct mib_devset *ds = mib_devset_create(2, NW, NULL);
	struct export_devices dv = { .ds = ds, .names = names, .s = st };
	struct export_hooks hk = hooks;
	const struct export_ctl_cmd *t;
	unsigned int i, n, ran = 0;
	pthread_t th;
	int fd;

	(void)state;
	hk.ingress_state = held_state;
	assert_non_null(ds);
	assert_int_equal(export_devices_register(&dv), 0);
	assert_int_equal(export_telemetry_register(st, info, &hk), 0);
	stats_fold_now(st);
	fd = tel_connect();
	__hold_reset();
	assert_int_equal(
		pthread_create(&th, NULL, tel_holder, (void *)"/pktpath/ingress"), 0);
	__wait_entered();
	t = export_control_table(&n);
	for (i = 0; i < n; i++) {
		json_t *v;

		if (t[i].telemetry == NULL)
			continue;
		v = tel_query(fd, t[i].telemetry); /* an answer, whatever it is */
		json_decref(v);
		ran++;
	}
	__release();
	assert_int_equal(pthread_join(th, NULL), 0);
	close(fd);
	if (H.deadlocks != 0)
		fail_msg("the second telemetry client waited for the first");
	assert_true(ran >= 14);
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0);
	export_devices_unregister();
	mib_devset_free(ds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices_readers_share),
		cmocka_unit_test(test_telemetry_clients_share),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
