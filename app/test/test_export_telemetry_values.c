/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generated values through the run's configuration (/pktpath/config and
 * its HTTP twin GET /config) against the document they come from: the
 * twin serves every value whole; telemetry, within DPDK 22.11's limits
 * (a 127-byte string, a 32-bit int, 512 a list, a 16 KiB reply), serves
 * each value whole or in the documented form (telemetry.c): a long
 * string as its pieces, a long list element visibly cut, a large
 * negative integer as its decimal, what does not fit counted in
 * "left_out". Never a value that is not the value: the library cuts and
 * drops silently, which this test would catch for every length around
 * each limit, UTF-8 characters of 1-4 bytes across each cut, and
 * characters JSON escapes.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <inttypes.h>
#include <unistd.h>

#include <rte_common.h>

#include "fixture_http.h"

/* A string of about len bytes (never more), from seed: ASCII, 2-, 3- and
 * 4-byte UTF-8 characters, and what JSON escapes. */
static char *
gen_str(size_t len, unsigned int seed)
{
	static const char *const ch[] = {
		"a", "Z", "7", " ", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e", "\"", "\\",
		"\n", "\t", "/", "\x01", "\x7f", "\xff", "\x80", "\xe2\x82", "\xed\xa0\x80"
	};
	char *s = malloc(len + 1);
	size_t n = 0, k;

	assert_non_null(s);
	for (;;) {
		seed = seed * 1103515245u + 12345u;
		k = strlen(ch[(seed >> 16) % RTE_DIM(ch)]);
		if (n + k > len)
			break;
		memcpy(s + n, ch[(seed >> 16) % RTE_DIM(ch)], k);
		n += k;
	}
	while (n < len) /* fill to exactly len with ASCII */
		s[n++] = 'x';
	s[n] = '\0';
	return s;
}

static const size_t lens[] = { 0,   1,	 2,   60,  124, 125, 126, 127,  128,
			       129, 130, 200, 253, 254, 255, 256, 257,	381,
			       382, 383, 384, 500, 1000, 3000 };
static const int64_t ints[] = { (int64_t)INT_MIN - 1, INT_MIN, -1, 0, 1, INT_MAX,
				(int64_t)INT_MAX + 1, INT64_MAX, INT64_MIN };

/* The generated strings as they were, by key ("l_str#I": element I):
 * the document holds them as export_json_text() makes them. */
static struct {
	char key[32];
	char *raw;
} raws[128];
static unsigned int n_raws;

static void
raws_clear(void)
{
	while (n_raws > 0)
		free(raws[--n_raws].raw);
}

/* s (taken) as the JSON string pktpath makes of it, remembered by key. */
static json_t *
raw_text(const char *key, char *s)
{
	assert_true(n_raws < RTE_DIM(raws));
	snprintf(raws[n_raws].key, sizeof(raws[n_raws].key), "%s", key);
	raws[n_raws++].raw = s;
	return export_json_text(s);
}

static const char *
raw_of(const char *key)
{
	unsigned int i;

	for (i = 0; i < n_raws; i++)
		if (strcmp(raws[i].key, key) == 0)
			return raws[i].raw;
	return NULL;
}

/* The configuration: s_I strings of lens[I] (seed I), i_I integers, lists. */
static json_t *
gen_info(unsigned int seed)
{
	json_t *cfg = json_object(), *l, *big;
	char name[32], *s;
	unsigned int i;

	raws_clear();
	for (i = 0; i < RTE_DIM(lens); i++) {
		s = gen_str(lens[i], seed + i);
		snprintf(name, sizeof(name), "s_%u", i);
		json_object_set_new(cfg, name, raw_text(name, s));
	}
	for (i = 0; i < RTE_DIM(ints); i++) {
		snprintf(name, sizeof(name), "i_%u", i);
		json_object_set_new(cfg, name, json_integer(ints[i]));
	}
	l = json_array();
	for (i = 0; i < RTE_DIM(lens); i += 3) {
		s = gen_str(lens[i], seed + 100 + i);
		snprintf(name, sizeof(name), "l_str#%zu", json_array_size(l));
		json_array_append_new(l, raw_text(name, s));
	}
	json_object_set_new(cfg, "l_str", l);
	json_object_set_new(cfg, "l_neg", json_pack("[i,i,i]", 1, -2, 3));
	json_object_set_new(cfg, "l_mixed", json_pack("[i,s,b,f]", 1, "a", 1, 1.5));
	big = json_array();
	for (i = 0; i < 600; i++)
		json_array_append_new(big, json_integer((json_int_t)i * 1000003));
	json_object_set_new(cfg, "l_big", big);
	json_object_set_new(cfg, "b", json_true());
	return json_pack("{s:s, s:o}", "version", "0.1.0", "config", cfg);
}

/* The JSON text of an element as __json_entry() writes it into a list of
 * strings (control_read.c). */
static void
elem_text(const json_t *e, char *buf, size_t len)
{
	if (json_is_string(e))
		snprintf(buf, len, "%s", json_string_value(e));
	else if (json_is_integer(e))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(e));
	else if (json_is_real(e))
		snprintf(buf, len, "%.17g", json_real_value(e));
	else
		snprintf(buf, len, "%s", json_is_true(e) ? "true" : "false");
}

/* Telemetry's text t (n bytes) decoded into out (NUL-terminated): \u{X}
 * the character X in UTF-8, \x{XX} the byte (telemetry.c). The strings
 * generated here hold no 'u', 'x' or '{' of their own. The decoded
 * length, or -1 if an escape is cut or malformed. */
static long
decode_as(const char *t, size_t n, char *out, bool bytes)
{
	size_t i = 0, o = 0;
	unsigned long c;
	char *end;

	while (i < n) {
		if (t[i] != '\\' || i + 2 >= n ||
		    (t[i + 1] != 'u' && (t[i + 1] != 'x' || !bytes)) || t[i + 2] != '{') {
			out[o++] = t[i++];
			continue;
		}
		c = strtoul(t + i + 3, &end, 16);
		if ((size_t)(end - t) >= n || *end != '}')
			return -1;
		if (t[i + 1] == 'x' || c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xf0 | c >> 18);
			out[o++] = (char)(0x80 | (c >> 12 & 0x3f));
			out[o++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
		i = (size_t)(end - t) + 1;
	}
	out[o] = '\0';
	return (long)o;
}

/* Telemetry's text back into the document's string (\u{X} only: the
 * document's own \x{XX}, export_json_text()'s, stay text). */
static long
decode(const char *t, size_t n, char *out)
{
	return decode_as(t, n, out, false);
}

/* Whether t is all telemetry may carry: printable ASCII, \t \n \r. */
static bool
carried(const char *t)
{
	for (; *t != '\0'; t++)
		if ((*t < 0x20 && *t != '\t' && *t != '\n' && *t != '\r') || *t >= 0x7f)
			return false;
	return true;
}

/* A list element of telemetry: want whole, or cut visibly (its
 * beginning, at a character's start, and "[+N bytes]", N what was cut). */
static void
check_elem(const char *key, const char *got, const char *want)
{
	size_t wl = strlen(want), n;
	char dec[16384];
	unsigned long cut;
	const char *m;
	long dl;

	assert_true(carried(got) && strlen(got) <= 127);
	m = strrchr(got, '[');
	if (m != NULL && sscanf(m, "[+%lu bytes]", &cut) == 1 && strchr(m, '}') == NULL) {
		/* cut: its beginning, whole escapes, then what was cut */
		n = (size_t)(m - got);
		dl = decode(got, n, dec);
		if (dl < 0 || strncmp(dec, want, (size_t)dl) != 0 || (size_t)dl >= wl ||
		    n + cut < 128 || n < 100)
			fail_msg("%s: '%s' is not the beginning of a %zu-byte element "
				 "(%ld decoded, %zu cut at, %lu said cut)",
				 key, got, wl, dl, n, cut);
		return;
	}
	dl = decode(got, strlen(got), dec);
	if (dl < 0 || strcmp(dec, want) != 0)
		fail_msg("%s: element '%s' is not its value", key, got);
}

/* Telemetry's value of key against the document's: whole or in its
 * documented form. *elems_out: list elements left out. */
static void
check_value(const char *key, const json_t *got, const json_t *want,
	    unsigned int *elems_out)
{
	char buf[16384], eb[64];
	size_t i, n;

	if (json_is_string(want)) {
		const char *w = json_string_value(want);
		char dec[16384];
		long dl;

		if (json_is_string(got)) { /* whole: at most 127 bytes */
			const char *t = json_string_value(got);

			assert_true(carried(t) && strlen(t) <= 127);
			dl = decode(t, strlen(t), dec);
			if (dl < 0 || strcmp(dec, w) != 0)
				fail_msg("%s: '%s' is not its value", key, t);
			return;
		}
		/* its pieces: each within the limit, joined the value (once
		 * decoded); only where one string would not do */
		if (!json_is_array(got))
			fail_msg("%s: a %zu-byte string neither whole nor in pieces", key,
				 strlen(w));
		n = 0;
		for (i = 0; i < json_array_size(got); i++) {
			const char *p = json_string_value(json_array_get(got, i));

			assert_non_null(p);
			assert_true(carried(p) && strlen(p) > 0 && strlen(p) <= 127);
			assert_true(n + strlen(p) < sizeof(buf));
			memcpy(buf + n, p, strlen(p) + 1);
			n += strlen(p);
		}
		assert_true(n > 127 && json_array_size(got) >= 2);
		dl = decode(buf, n, dec);
		if (dl < 0 || strcmp(dec, w) != 0)
			fail_msg("%s: the pieces are not the value", key);
	} else if (json_is_integer(want)) {
		json_int_t w = json_integer_value(want);

		if (w < INT_MIN) {
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, w);
			assert_true(json_is_string(got));
			assert_string_equal(json_string_value(got), buf);
		} else {
			assert_true(json_is_integer(got));
			assert_int_equal(json_integer_value(got), w);
		}
	} else if (json_is_boolean(want)) {
		assert_string_equal(json_string_value(got), json_is_true(want) ? "true" : "false");
	} else if (json_is_array(want)) {
		bool uints = true;

		for (i = 0; i < json_array_size(want); i++)
			uints = uints && json_is_integer(json_array_get(want, i)) &&
				json_integer_value(json_array_get(want, i)) >= 0;
		assert_true(json_is_array(got));
		assert_true(json_array_size(got) <= json_array_size(want));
		*elems_out += (unsigned int)(json_array_size(want) - json_array_size(got));
		for (i = 0; i < json_array_size(got); i++) {
			const json_t *g = json_array_get(got, i), *e = json_array_get(want, i);

			if (uints) {
				assert_int_equal(json_integer_value(g), json_integer_value(e));
				continue;
			}
			elem_text(e, eb, sizeof(eb));
			check_elem(key, json_string_value(g),
				   json_is_string(e) ? json_string_value(e) : eb);
		}
	} else {
		fail_msg("%s: a value of an unexpected kind", key);
	}
}

/* What /pktpath/config adds to the document's values (the ingress
 * state, from the hooks), as the fixture's small document shows it:
 * counted too when left out. */
static json_t *extra;

static void
learn_extra(int fd)
{
	json_t *v, *x;
	const char *key;

	assert_int_equal(export_telemetry_register(st, info, &hooks), 0);
	v = tel_query(fd, "/pktpath/config");
	extra = json_object();
	json_object_foreach(v, key, x)
	{
		if (json_object_get(info, key) == NULL &&
		    json_object_get(json_object_get(info, "config"), key) == NULL &&
		    strncmp(key, "conditions_", 11) != 0)
			json_object_set(extra, key, x);
	}
	json_decref(v);
	assert_true(json_object_size(extra) > 0 && json_object_get(extra, "left_out") == NULL);
}

/* /pktpath/config of info (registered) against its "config": every value
 * whole or in its form, and what is missing counted in "left_out". The
 * number of values left out. */
static unsigned int
check_config(int fd, const json_t *info)
{
	const json_t *cfg = json_object_get(info, "config");
	json_t *v = tel_query(fd, "/pktpath/config"), *g;
	unsigned int missing = 0, said = 0;
	const char *key;
	json_t *w;

	assert_true(json_is_object(v));
	json_object_foreach((json_t *)(uintptr_t)cfg, key, w)
	{
		g = json_object_get(v, key);
		if (g == NULL)
			missing++;
		else
			check_value(key, g, w, &missing);
	}
	json_object_foreach(extra, key, w)
	{
		g = json_object_get(v, key);
		if (g == NULL)
			missing += json_is_array(w) ? (unsigned int)json_array_size(w) : 1;
		else if (json_is_array(w))
			missing += (unsigned int)(json_array_size(w) - json_array_size(g));
	}
	g = json_object_get(v, "left_out");
	if (g != NULL)
		assert_int_equal(sscanf(json_string_value(g), "%u values over", &said), 1);
	if (said != missing)
		fail_msg("%u values missing, left_out says %u", missing, said);
	assert_string_equal(json_string_value(json_object_get(v, "version")), "0.1.0");
	json_decref(v);
	return missing;
}

static void
test_config_values(void **state)
{
	unsigned int seed, i, out;
	json_t *info_g;
	int fd;

	(void)state;
	fd = tel_connect();
	learn_extra(fd);
	for (seed = 1; seed <= 40; seed++) {
		info_g = gen_info(seed * 7919);
		assert_int_equal(export_telemetry_register(st, info_g, &hooks), 0);
		out = check_config(fd, info_g);
		/* l_big's 600 values: 512 at most in a list */
		assert_true(out >= 600 - 512);
		json_decref(info_g);
	}
	/* a reply over 16 KiB: long strings that cannot all fit; each there
	 * whole, the others counted */
	info_g = json_pack("{s:s, s:{}}", "version", "0.1.0", "config");
	raws_clear();
	for (i = 0; i < 60; i++) {
		char name[16];

		snprintf(name, sizeof(name), "long_%u", i);
		json_object_set_new(json_object_get(info_g, "config"), name,
				    raw_text(name, gen_str(500, i)));
	}
	assert_int_equal(export_telemetry_register(st, info_g, &hooks), 0);
	out = check_config(fd, info_g);
	if (!(out > 0 && out < 60))
		fail_msg("%u of 60 long strings left out", out);
	json_decref(info_g);
	raws_clear();
	json_decref(extra);
	close(fd);
	export_telemetry_unregister();
}

/* The HTTP twin serves every value whole: strings of any length, every
 * element of a list, negative integers. */
static void
test_config_http(void **state)
{
	struct export_http_conf c;
	struct export_http *h;
	json_t *info_g = gen_info(4242), *got, *w;
	const char *key;
	char *body;

	(void)state;
	conf_for(&c, false, NULL, 8, 5);
	c.info = info_g;
	h = start_conf(&c);
	body = get_body(export_http_port(h), "/config", "application/json");
	got = json_loads(body, 0, NULL);
	assert_non_null(got);
	json_object_foreach(json_object_get(info_g, "config"), key, w)
	{
		json_t *g = json_object_get(got, key);
		char dec[16384], name[32];
		size_t i;

		if (json_is_string(w)) { /* the whole string: bytes not UTF-8 as \x{XX} */
			assert_true(json_is_string(g));
			assert_true(decode_as(json_string_value(g), json_string_length(g), dec,
					      true) >= 0);
			if (strcmp(dec, raw_of(key)) != 0)
				fail_msg("GET /config %s: not the value", key);
		} else if (json_is_boolean(w)) {
			assert_string_equal(json_string_value(g),
					    json_is_true(w) ? "true" : "false");
		} else if (strcmp(key, "l_str") == 0) {
			assert_int_equal(json_array_size(g), json_array_size(w));
			for (i = 0; i < json_array_size(g); i++) {
				const json_t *e = json_array_get(g, i);

				snprintf(name, sizeof(name), "l_str#%zu", i);
				decode_as(json_string_value(e), json_string_length(e), dec, true);
				assert_string_equal(dec, raw_of(name));
			}
		} else if (strcmp(key, "l_neg") == 0 || strcmp(key, "l_mixed") == 0) {
			/* a list of strings: each element as JSON writes it */
			assert_int_equal(json_array_size(g), json_array_size(w));
			assert_string_equal(json_string_value(json_array_get(g, 1)),
					    strcmp(key, "l_neg") == 0 ? "-2" : "a");
		} else if (!json_equal(g, w)) {
			fail_msg("GET /config %s: not the value", key);
		}
	}
	json_decref(got);
	free(body);
	export_http_stop(h);
	json_decref(info_g);
	raws_clear();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_values),
		cmocka_unit_test(test_config_http),
	};

	return cmocka_run_group_tests(tests, fixture_export_setup,
				      fixture_export_teardown);
}
