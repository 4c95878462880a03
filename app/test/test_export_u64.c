/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters above 2^63 print as the same unsigned decimal in every output
 * that carries them: --json's document (export_json() printed by
 * export_json_dumps(), as app_json_write() does), GET /stats.json, the
 * named values of GET /mib/GROUP (HTTP JSON through the writer), the
 * telemetry dict of /pktpath/mib,GROUP, /metrics, /snmp, /netstat and
 * /snmp6, and the per-device ones (GET /links, GET /dev_snmp6/DEV,
 * /pktpath/dev_snmp6,DEV). Every counter of the field table (the sparse
 * groups' every fourth, so that a telemetry dict holds them) gets a value
 * of its own at or above 2^63, then at 2^64-1 less its index.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "fixture_export.h"
#include "fixture_http.h"
#include "mib_dev.h"

/* The fields that get a value: the counters and high-water marks, the
 * sparse groups' every fourth. */
static bool
__u64_field(unsigned int f)
{
	enum mib_group g = mib_field_group(f);

	if (mib_field_kind(f) == MIB_KIND_CONST)
		return false;
	return !mib_group_sparse(g) || (f - mib_group_first(g)) % 4 == 0;
}

/* Field f's value in round r: 2^63 + f, then 2^64 - 1 - f. */
static uint64_t
__u64_want(unsigned int r, unsigned int f)
{
	return r == 0 ? (UINT64_C(1) << 63) + f : UINT64_MAX - f;
}

/* text holds "name": v (or name: v, name=v...: sep between them, spaces
 * around it ignored), v whole. */
static bool
__u64_has(const char *text, const char *name, const char *sep, uint64_t v)
{
	char want[160];
	const char *p;
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), "%s%s%" PRIu64, name, sep, v);
	for (p = strstr(text, want); p != NULL; p = strstr(p + 1, want))
		if (p[n] < '0' || p[n] > '9')
			return true;
	return false;
}

/* Every field of the round in text: "NAME"SEP VALUE; fields whose group is
 * g only, unless g is MIB_GRP_MAX. */
static void
__u64_check(const char *what, const char *text, const char *sep, unsigned int r,
	    unsigned int g)
{
	char *flat = strdup(text), *w = flat, name[MIB_NAME_MAX + 8];
	const char *c;
	unsigned int f, n = 0;

	assert_non_null(flat);
	for (c = text; *c != '\0'; c++) /* the spaces and newlines out */
		if (*c != ' ' && *c != '\n')
			*w++ = *c;
	*w = '\0';
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		if (!__u64_field(f) || (g != MIB_GRP_MAX && mib_field_group(f) != g))
			continue;
		snprintf(name, sizeof(name), "\"%s\"", mib_field_name(f));
		if (!__u64_has(flat, name, sep, __u64_want(r, f)))
			fail_msg("%s: %s.%s is not %" PRIu64, what,
				 mib_group_name(mib_field_group(f)), mib_field_name(f),
				 __u64_want(r, f));
		n++;
	}
	assert_true(n > 0);
	free(flat);
}

/* The line "name<spaces>VALUE" of a /proc-like text: 1 if its value is
 * v, 0 if not, -1 if there is no such line. */
static int
__u64_line(const char *text, const char *name, uint64_t v)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(text, name); p != NULL; p = strstr(p + 1, name))
		if ((p == text || p[-1] == '\n') && (p[n] == ' ' || p[n] == '\t'))
			return strtoull(p + n, NULL, 10) == v;
	return -1;
}

/* The device's counters: Ip6 and Icmp6 (the link dump's), as the round's. */
static void
__u64_devices(struct mib_devset *ds, unsigned int r)
{
	uint64_t *blk = mib_dev_ip6_block(ds, 0, 0), v[MIB_DEV_FIELDS];
	unsigned int i;

	assert_non_null(blk);
	assert_int_equal(mib_dev_fold(ds, 0, MIB_FOLD_LCORE, v), 0);
	for (i = 0; i < MIB_DEV_LINK_FIELDS; i++) {
		uint64_t d = __u64_want(r, MIB_BASE_IP6 + i) - v[i];

		if (i < MIB_DEV_IP6)
			mib_dev_ip6_add(blk, i, d);
		else
			assert_int_equal(mib_dev_icmp6_add(ds, 0, MIB_BASE_IP6 + i, d),
					 0);
	}
}

/* The device's Ip6 and Icmp6 lines in text (Linux's names), but
 * Icmp6OutRateLimitHost, which /proc/net/dev_snmp6 leaves out. */
static void
__u64_dev_check(const char *what, const char *text, const char *quote, const char *sep,
		unsigned int r, unsigned int fields)
{
	char name[MIB_NAME_MAX + 16], q[MIB_NAME_MAX + 24];
	unsigned int i;

	for (i = 0; i < fields; i++) {
		mib_field_linux_name(MIB_BASE_IP6 + i, name, sizeof(name));
		snprintf(q, sizeof(q), "%s%s%s", quote, name, quote);
		if (!__u64_has(text, q, sep, __u64_want(r, MIB_BASE_IP6 + i)))
			fail_msg("%s: %s is not %" PRIu64, what, name,
				 __u64_want(r, MIB_BASE_IP6 + i));
	}
}

static void
test_u64_every_output(void **state)
{
	static const char *const dev_names[] = { "gen0" };
	struct mib_devset *ds = mib_devset_create(1, 1, NULL);
	struct export_devices dv = { .ds = ds, .names = dev_names };
	struct export_http_conf hc;
	struct stats_snapshot *snap;
	struct export_http *h;
	struct mib_set *ms;
	struct mib_block b;
	struct stats *s;
	char path[96], *text;
	unsigned int r, f, g;
	uint16_t port;
	json_t *j;
	int fd;

	(void)state;
	assert_non_null(ds);
	s = own_stats(&ms, 3600, 0, 0);
	dv.s = s;
	assert_int_equal(export_devices_register(&dv), 0);
	assert_int_equal(export_telemetry_register(s, info, &hooks), 0);
	conf_for(&hc, false, &hooks, 8, 10);
	hc.lcore_mib = true;
	h = start_stats(s, &hc);
	port = export_http_port(h);
	fd = tel_connect();
	b = mib_set_block(ms, 0);
	for (r = 0; r < 2; r++) {
		for (f = 0; f < MIB_FIELD_MAX; f++) {
			if (!__u64_field(f))
				continue;
			if (mib_field_kind(f) == MIB_KIND_HWM)
				mib_max(&b, f, __u64_want(r, f));
			else
				mib_add(&b, f,
					__u64_want(r, f) - (r ? __u64_want(0, f) : 0));
		}
		__u64_devices(ds, r);
		stats_fold_now(s);
		snap = stats_get(s);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (__u64_field(f))
				assert_true(snap->totals[f] == __u64_want(r, f));
		/* --json: the document app_json_write() prints */
		j = export_json(snap, NULL, NULL, true);
		text = export_json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
		assert_non_null(text);
		__u64_check("--json", text, ":", r, MIB_GRP_MAX);
		free(text);
		json_decref(j);
		text = get_body(port, "/stats.json", "application/json");
		__u64_check("GET /stats.json", text, ":", r, MIB_GRP_MAX);
		free(text);
		text = get_body(port, "/metrics", "text/plain");
		for (f = 0; f < MIB_FIELD_MAX; f++) {
			char sample[160];

			if (!__u64_field(f))
				continue;
			snprintf(sample, sizeof(sample), "%s{group=\"%s\",field=\"%s\"}",
				 mib_field_kind(f) == MIB_KIND_HWM ? "pktpath_mib_value"
								   : "pktpath_mib_total",
				 mib_group_name(mib_field_group(f)), mib_field_name(f));
			if (!__u64_has(text, sample, " ", __u64_want(r, f)))
				fail_msg("/metrics: %s is not %" PRIu64, sample,
					 __u64_want(r, f));
		}
		free(text);
		text = get_body(port, "/snmp", "text/plain");
		assert_true(snmp_check(text, snap->totals) > 0);
		free(text);
		text = get_body(port, "/netstat", "text/plain");
		assert_true(snmp_check(text, snap->totals) > 0);
		free(text);
		text = get_body(port, "/snmp6", "text/plain");
		for (f = 0, g = 0; f < MIB_FIELD_MAX; f++) {
			char name[MIB_NAME_MAX + 16];
			int rc;

			mib_field_linux_name(f, name, sizeof(name));
			rc = __u64_line(text, name, __u64_want(r, f));
			if (__u64_field(f) && rc == 0)
				fail_msg("/snmp6: %s is not %" PRIu64, name,
					 __u64_want(r, f));
			g += __u64_field(f) && rc > 0;
		}
		assert_true(g >= mib_group_count(MIB_GRP_IP6) +
					 mib_group_count(MIB_GRP_ICMP6));
		free(text);
		for (g = 0; g < MIB_GRP_MAX; g++) {
			snprintf(path, sizeof(path), "/mib/%s",
				 mib_group_name((enum mib_group)g));
			text = get_body(port, path, "application/json");
			__u64_check(path, text, ":", r, g);
			free(text);
			snprintf(path, sizeof(path), "/pktpath/mib,%s",
				 mib_group_name((enum mib_group)g));
			text = tel_text(fd, path);
			__u64_check(path, text, ":", r, g);
			free(text);
		}
		stats_put(s, snap);
		/* the device's */
		text = get_body(port, "/links", "application/json");
		__u64_dev_check("GET /links", text, "\"", ": ", r, MIB_DEV_LINK_FIELDS);
		free(text);
		text = get_body(port, "/dev_snmp6/gen0", "text/plain");
		for (f = 0; f < MIB_DEV_LINK_FIELDS - 1; f++) {
			char name[MIB_NAME_MAX + 16];

			mib_field_linux_name(MIB_BASE_IP6 + f, name, sizeof(name));
			if (__u64_line(text, name, __u64_want(r, MIB_BASE_IP6 + f)) != 1)
				fail_msg("GET /dev_snmp6/gen0: %s is not %" PRIu64, name,
					 __u64_want(r, MIB_BASE_IP6 + f));
		}
		free(text);
		text = tel_text(fd, "/pktpath/dev_snmp6,gen0");
		__u64_dev_check("/pktpath/dev_snmp6,gen0", text, "\"", ":", r,
				MIB_DEV_LINK_FIELDS - 1);
		free(text);
	}
	close(fd);
	export_http_stop(h);
	export_devices_unregister();
	assert_int_equal(export_telemetry_register(st, info, &hooks), 0);
	stats_stop(s);
	own_stats_free(s, ms);
	mib_devset_free(ds);
}

/* The placeholder is the printers' only: a string of the same digits
 * without the NUL, a negative integer and INT64_MAX print as they are. */
static void
test_u64_placeholder(void **state)
{
	json_t *j =
		json_pack("{s:o, s:o, s:o, s:s, s:I}", "a", export_json_u64(UINT64_MAX),
			  "b", export_json_u64((uint64_t)INT64_MAX), "c",
			  export_json_u64(UINT64_C(1) << 63), "d", "18446744073709551615",
			  "e", (json_int_t)-1);
	char *text;

	(void)state;
	assert_non_null(j);
	assert_true(json_is_integer(json_object_get(j, "b")));
	text = export_json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	assert_non_null(text);
	assert_string_equal(text,
			    "{\"a\":18446744073709551615,\"b\":9223372036854775807,"
			    "\"c\":9223372036854775808,\"d\":\"18446744073709551615\","
			    "\"e\":-1}");
	free(text);
	json_decref(j);
}

/* export_json_u64_value() reads back what export_json_u64() made, at
 * every width, and nothing else: a string of digits without the NUL, a
 * negative integer, a NUL alone or followed by other text, a real. */
static void
test_u64_value(void **state)
{
	const uint64_t vals[] = {
		0, 1, (uint64_t)INT64_MAX, UINT64_C(1) << 63, UINT64_MAX - 1, UINT64_MAX
	};
	const char nul_only[] = "", nul_x[] = { '\0', '1', '2', 'x' };
	json_t *j;
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		j = export_json_u64(vals[i]);
		v = 0;
		assert_true(export_json_u64_value(j, &v));
		assert_true(v == vals[i]);
		json_decref(j);
	}
	j = json_pack("[s, I, s#, s#, f, n]", "18446744073709551615", (json_int_t)-1,
		      nul_only, (size_t)1, nul_x, sizeof(nul_x), 1.5);
	assert_non_null(j);
	for (i = 0; i < json_array_size(j); i++)
		assert_false(export_json_u64_value(json_array_get(j, i), &v));
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_placeholder),
		cmocka_unit_test(test_u64_value),
		cmocka_unit_test(test_u64_every_output),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
