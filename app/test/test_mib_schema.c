/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/mib's field table (mib_schema.c). Nothing here names a
 * field by hand: every test walks the table, so that a row added, moved or
 * changed is checked without touching this file.
 *
 *  - every row: name, help, kind, role and laws well formed and coherent;
 *    names unique within their group;
 *  - the outcomes: the terminal and drop lists are exactly the rows with
 *    those roles; every terminal is in exactly one outcome law; every drop
 *    is a terminal or a late (non-terminal) drop; the outcome laws form a
 *    tree from RxPackets, so that the terminals add up to RxPackets;
 *  - the laws: consistent totals built from the table satisfy every law,
 *    and moving any field breaks exactly the laws it is in, by exactly its
 *    amount, with mib_check_conservation()'s message for the first one;
 *  - both folds agree with each other and with the expected totals on
 *    blocks whose kinds are drawn at random (several high-water marks and
 *    constants among counters), so that a fold that special-cases a field
 *    fails;
 *  - Linux groups are spelt as Linux 6.18 prints them (its header lines
 *    below, and this host's /proc/net/snmp and /proc/net/netstat when it
 *    runs 6.18);
 *  - lib/mib/README.md's generated part is what the table says
 *    (MIB_README_WRITE=1 rewrites it).
 * No EAL needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <cmocka.h>

#include <rte_common.h>

#include "mib.h"
#include "mib_pvt.h"
#include "test_rand.h"

#ifndef PKTPATH_SOURCE_ROOT
#error "PKTPATH_SOURCE_ROOT: the source tree (app/test/meson.build sets it)"
#endif

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static const char *
__schema_fname(unsigned int f)
{
	static char s[4][64];
	static unsigned int k;

	k = (k + 1) % 4;
	snprintf(s[k], sizeof(s[k]), "%s.%s", mib_group_name(mib_field_group(f)),
		 mib_field_name(f));
	return s[k];
}

static unsigned int
__popcount(unsigned int x)
{
	unsigned int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

/* ---- rows ---- */

static void
test_rows(void **state)
{
	unsigned int g, f, i;

	(void)state;
	for (g = 0; g < MIB_GRP_MAX; g++) {
		unsigned int first = mib_group_first((enum mib_group)g);
		unsigned int end = first + mib_group_count((enum mib_group)g);

		assert_non_null(mib_group_help((enum mib_group)g));
		for (f = first; f < end; f++) {
			const struct mib_field *r = &mib_fields[f];
			size_t nl, hl;

			assert_int_equal(r->group, g);
			assert_int_equal(mib_field_group(f), g);
			/* names: telemetry dict keys and Prometheus label values */
			assert_non_null(r->name);
			nl = strlen(r->name);
			if (nl == 0 || nl >= MIB_NAME_MAX)
				fail_msg("field %u: name length %zu", f, nl);
			for (i = 0; i < nl; i++)
				if (!isalnum((unsigned char)r->name[i]))
					fail_msg("%s: '%c' in the name", __schema_fname(f), r->name[i]);
			for (i = first; i < f; i++)
				if (strcmp(mib_fields[i].name, r->name) == 0)
					fail_msg("%s twice in its group (%u, %u)", __schema_fname(f), i, f);
			assert_int_equal(mib_field_lookup(mib_group_name((enum mib_group)g),
							  r->name), (int)f);
			/* help: one printable line that every exporter can print as
			 * it is (a Prometheus HELP, a telemetry string, a Markdown
			 * table cell) */
			assert_non_null(r->help);
			hl = strlen(r->help);
			if (hl == 0 || hl >= MIB_HELP_MAX)
				fail_msg("%s: help length %zu", __schema_fname(f), hl);
			for (i = 0; i < hl; i++)
				if (r->help[i] < 0x20 || r->help[i] > 0x7e ||
				    strchr("\"\\|`", r->help[i]) != NULL)
					fail_msg("%s: character %#x in the help", __schema_fname(f),
						 (unsigned char)r->help[i]);
			if (r->help[0] == ' ' || r->help[hl - 1] == ' ' ||
			    r->help[hl - 1] == '.')
				fail_msg("%s: help \"%s\" is not trimmed", __schema_fname(f), r->help);
			assert_string_equal(mib_field_help(f), r->help);
			assert_string_equal(mib_field_name(f), r->name);
			/* kind, role, laws */
			assert_true(r->kind < MIB_KIND_MAX);
			assert_true(r->role < MIB_ROLE_MAX);
			assert_true(r->laws < MIB_LAW_BIT(MIB_LAW_MAX));
			assert_int_equal(mib_field_kind(f), r->kind);
			assert_int_equal(mib_field_role(f), r->role);
			assert_int_equal(mib_field_laws(f), r->laws);
			assert_int_equal(__mib_kinds[f], r->kind);
			if (r->kind != MIB_KIND_SUM &&
			    (r->role != MIB_ROLE_INFO || r->laws != 0))
				fail_msg("%s: a %s is an outcome or in a law", __schema_fname(f),
					 mib_kind_name(r->kind));
			if (r->kind != MIB_KIND_CONST && r->value != 0)
				fail_msg("%s: a value without being a constant", __schema_fname(f));
			assert_int_equal(mib_field_const(f), r->value);
			assert_int_equal(mib_field_terminal(f), r->role == MIB_ROLE_DELIVER ||
					 r->role == MIB_ROLE_DROP || r->role == MIB_ROLE_SINK);
		}
	}
	/* out of range */
	assert_int_equal(mib_field_kind(MIB_FIELD_MAX), MIB_KIND_SUM);
	assert_int_equal(mib_field_role(MIB_FIELD_MAX), MIB_ROLE_INFO);
	assert_int_equal(mib_field_laws(~0u), 0);
	assert_false(mib_field_terminal(MIB_FIELD_MAX));
	assert_int_equal(mib_field_const(MIB_FIELD_MAX), 0);
	assert_null(mib_group_help(MIB_GRP_MAX));
	assert_null(mib_group_linux(MIB_GRP_MAX));
	for (i = 0; i < MIB_KIND_MAX; i++)
		assert_non_null(mib_kind_name((enum mib_kind)i));
	for (i = 0; i < MIB_ROLE_MAX; i++)
		assert_non_null(mib_role_name((enum mib_role)i));
	assert_string_equal(mib_kind_name(MIB_KIND_MAX), "?");
	assert_string_equal(mib_role_name(MIB_ROLE_MAX), "?");
	assert_string_equal(mib_law_name(MIB_LAW_MAX), "?");
	assert_null(mib_law_rhs_name(MIB_LAW_MAX));
	assert_int_equal(mib_law_lhs(MIB_LAW_MAX), MIB_FIELD_MAX);
}

/* ---- outcomes ---- */

/* f is a field of law l's left-hand side. */
static bool
__in_lhs(unsigned int l, unsigned int f)
{
	unsigned int lhs[MIB_LAW_LHS_MAX], n = mib_law_lhs_fields(l, lhs), k;

	for (k = 0; k < n; k++)
		if (lhs[k] == f)
			return true;
	return false;
}

/* The outcome law whose left-hand side has f, or MIB_LAW_MAX. */
static unsigned int
__outcome_law_of_lhs(unsigned int f)
{
	unsigned int l;

	for (l = 0; l < MIB_LAW_MAX; l++)
		if ((MIB_LAWS_OUTCOME & MIB_LAW_BIT(l)) && __in_lhs(l, f))
			return l;
	return MIB_LAW_MAX;
}

static void
test_outcomes(void **state)
{
	uint64_t v[MIB_FIELD_MAX], want = 0;
	unsigned int f, l, k, nt = 0, nd = 0, roots = 0;

	(void)state;
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		enum mib_role r = mib_field_role(f);
		unsigned int out = mib_field_laws(f) & MIB_LAWS_OUTCOME;

		/* the lists are exactly the rows with their roles, in order */
		if (mib_field_terminal(f)) {
			assert_true(nt < mib_n_terminals);
			if (mib_terminals[nt] != f)
				fail_msg("terminal %s not in mib_terminals[%u]", __schema_fname(f), nt);
			nt++;
			/* in exactly one outcome law */
			if (__popcount(out) != 1)
				fail_msg("terminal %s is in %u outcome laws", __schema_fname(f),
					 __popcount(out));
			/* a terminal ends the frame: it is no law's left side */
			for (l = 0; l < MIB_LAW_MAX; l++)
				if (__in_lhs(l, f))
					fail_msg("terminal %s is the left side of law %s",
						 __schema_fname(f), mib_law_name(l));
		} else if (out != 0) {
			/* a non-terminal term of an outcome law is a sub-total:
			 * the left side of another outcome law */
			l = __outcome_law_of_lhs(f);
			if (l == MIB_LAW_MAX || (out & MIB_LAW_BIT(l)))
				fail_msg("%s is in an outcome law, neither a terminal nor "
					 "the left side of another", __schema_fname(f));
			if (__popcount(out) != 1)
				fail_msg("sub-total %s is in %u outcome laws", __schema_fname(f),
					 __popcount(out));
		}
		if (r == MIB_ROLE_DROP || r == MIB_ROLE_DROP_LATE) {
			assert_true(nd < mib_n_drop_fields);
			if (mib_drop_fields[nd] != f)
				fail_msg("drop %s not in mib_drop_fields[%u]", __schema_fname(f), nd);
			nd++;
		}
		/* every drop is a terminal, or explicitly not: a late drop is in
		 * no law, and follows a delivery of its own group (Tcp InErrs
		 * after InSegs), which is the frame's terminal */
		if (r == MIB_ROLE_DROP)
			assert_true(mib_field_terminal(f));
		if (r == MIB_ROLE_DROP_LATE) {
			enum mib_group g = mib_field_group(f);
			unsigned int i, end = mib_group_first(g) + mib_group_count(g);
			bool delivery = false;

			assert_false(mib_field_terminal(f));
			assert_int_equal(mib_field_laws(f), 0);
			for (i = mib_group_first(g); i < end; i++)
				delivery |= mib_field_role(i) == MIB_ROLE_DELIVER;
			if (!delivery)
				fail_msg("late drop %s: no delivery in its group", __schema_fname(f));
		}
	}
	assert_int_equal(nt, mib_n_terminals);
	assert_int_equal(nd, mib_n_drop_fields);
	assert_true(nt > 0 && nd > 0);

	/* The outcome laws are a tree, but for the branches that join again
	 * (L4's left side, both families' deliveries): one root, no law's left
	 * side in two outcome laws. With the checks above, every frame's
	 * terminal rolls up to the root (test_laws checks the sums). */
	for (l = 0; l < MIB_LAW_MAX; l++) {
		unsigned int lhs[MIB_LAW_LHS_MAX], nl = mib_law_lhs_fields(l, lhs), n = 0;
		bool root = true;

		assert_true(nl >= 1 && nl <= MIB_LAW_LHS_MAX);
		assert_int_equal(lhs[0], mib_law_lhs(l));
		for (k = 0; k < nl; k++) {
			assert_true(lhs[k] < MIB_FIELD_MAX);
			assert_int_equal(mib_field_kind(lhs[k]), MIB_KIND_SUM);
			assert_false(mib_field_laws(lhs[k]) & MIB_LAW_BIT(l));
			root &= (mib_field_laws(lhs[k]) & MIB_LAWS_OUTCOME) == 0;
		}
		assert_non_null(mib_law_name(l));
		assert_non_null(mib_law_lhs_name(l));
		for (f = 0; f < MIB_FIELD_MAX; f++)
			n += (mib_field_laws(f) & MIB_LAW_BIT(l)) != 0;
		if (n == 0)
			fail_msg("law %s has no terms", mib_law_name(l));
		if ((MIB_LAWS_OUTCOME & MIB_LAW_BIT(l)) && root)
			roots++;
	}
	assert_int_equal(roots, 1);
	assert_int_equal(__outcome_law_of_lhs(MIB_F(RX, PACKETS)), MIB_LAW_RX);

	/* mib_drops_total: every drop once */
	for (f = 0; f < MIB_FIELD_MAX; f++)
		v[f] = test_rand(&rng) >> 20;
	for (k = 0; k < mib_n_drop_fields; k++)
		want += v[mib_drop_fields[k]];
	assert_int_equal(mib_drops_total(v), want);
}

/* ---- laws ---- */

/* Laws whose left-hand side is f. */
static unsigned int
__lhs_laws(unsigned int f)
{
	unsigned int l, n = 0;

	for (l = 0; l < MIB_LAW_MAX; l++)
		n += __in_lhs(l, f);
	return n;
}

/*
 * Totals that satisfy every law, from the table alone: noise everywhere,
 * random terminals, then, until every law is resolved: a law whose terms
 * are known gets its left side as their sum; one whose left side is known
 * has its unknown terms split what is left; failing both, a law whose left
 * side no other law decides and whose unknown terms are free (no law's
 * left side) gets those terms at random.
 */
static void
__schema_consistent(uint64_t *t)
{
	bool known[MIB_FIELD_MAX];
	unsigned int f, l, rounds, progress = 1;

	for (f = 0; f < MIB_FIELD_MAX; f++) {
		t[f] = test_rand(&rng);
		known[f] = mib_field_terminal(f);
		if (known[f])
			t[f] = test_rand(&rng) % 1000;
	}
	for (rounds = 0; progress && rounds < 64; rounds++) {
		progress = 0;
		for (l = 0; l < MIB_LAW_MAX; l++) {
			unsigned int lhs[MIB_LAW_LHS_MAX],
				nl = mib_law_lhs_fields(l, lhs);
			unsigned int unknown = 0, last = 0, lhs_unknown = 0, k;
			uint64_t sum = 0, lsum = 0, left;

			for (k = 0; k < nl; k++) {
				if (known[lhs[k]])
					lsum += t[lhs[k]];
				else
					lhs_unknown++;
			}
			for (f = 0; f < MIB_FIELD_MAX; f++) {
				if (!(mib_field_laws(f) & MIB_LAW_BIT(l)))
					continue;
				if (known[f]) {
					sum += t[f];
				} else {
					unknown++;
					last = f;
				}
			}
			if (unknown == 0 && lhs_unknown > 0) {
				/* the left side is the terms' sum, split at random
				 * among its unknown fields */
				assert_true(sum >= lsum);
				left = sum - lsum;
				for (k = 0; k < nl; k++) {
					if (known[lhs[k]])
						continue;
					t[lhs[k]] =
						--lhs_unknown == 0
							? left
							: test_rand(&rng) % (left + 1);
					left -= t[lhs[k]];
					known[lhs[k]] = true;
				}
				progress = 1;
			} else if (unknown > 0 && lhs_unknown == 0) {
				assert_true(lsum >= sum);
				left = lsum - sum;
				for (f = 0; f < MIB_FIELD_MAX; f++) {
					if (!(mib_field_laws(f) & MIB_LAW_BIT(l)) || known[f])
						continue;
					t[f] = f == last ? left : test_rand(&rng) % (left + 1);
					left -= t[f];
					known[f] = true;
				}
				progress = 1;
			}
		}
		for (l = 0; !progress && l < MIB_LAW_MAX; l++) {
			unsigned int lhs[MIB_LAW_LHS_MAX],
				nl = mib_law_lhs_fields(l, lhs), k;
			bool free_terms = true, decided = false;

			for (k = 0; k < nl; k++)
				decided |= known[lhs[k]] || __lhs_laws(lhs[k]) != 1;
			if (decided)
				continue;
			for (f = 0; f < MIB_FIELD_MAX; f++)
				if ((mib_field_laws(f) & MIB_LAW_BIT(l)) && !known[f] &&
				    __lhs_laws(f) != 0)
					free_terms = false;
			if (!free_terms)
				continue;
			for (f = 0; f < MIB_FIELD_MAX; f++)
				if ((mib_field_laws(f) & MIB_LAW_BIT(l)) && !known[f]) {
					t[f] = test_rand(&rng) % 1000;
					known[f] = true;
				}
			progress = 1;
		}
	}
	for (l = 0; l < MIB_LAW_MAX; l++)
		if (!known[mib_law_lhs(l)])
			fail_msg("law %s cannot be resolved from the table", mib_law_name(l));
}

static void
test_laws(void **state)
{
	struct mib_law laws[MIB_N_LAWS], base[MIB_N_LAWS];
	uint64_t t[MIB_FIELD_MAX], u[MIB_FIELD_MAX], sum = 0;
	char why[512], want[512];
	unsigned int f, l, k, iter;

	(void)state;
	for (iter = 0; iter < 20; iter++) {
		__schema_consistent(t);
		mib_conservation_eval(t, laws);
		for (l = 0; l < MIB_LAW_MAX; l++) {
			if (laws[l].lhs != laws[l].rhs)
				fail_msg("law %s: %s %" PRIu64 " != %s %" PRIu64,
					 mib_law_name(l), laws[l].lhs_name, laws[l].lhs,
					 laws[l].rhs_name, laws[l].rhs);
			assert_ptr_equal(laws[l].lhs_name, mib_law_lhs_name(l));
			assert_ptr_equal(laws[l].rhs_name, mib_law_rhs_name(l));
		}
		memset(why, 'x', sizeof(why));
		assert_int_equal(mib_check_conservation(t, why, sizeof(why)), 0);
		assert_string_equal(why, "");
		/* the outcome tree: every frame in exactly one terminal */
		sum = 0;
		for (k = 0; k < mib_n_terminals; k++)
			sum += t[mib_terminals[k]];
		assert_int_equal(sum, t[MIB_F(RX, PACKETS)]);
	}

	/* Moving any field by +1 breaks exactly the laws it is a term or the
	 * left side of, each by exactly 1; the check names the first path law
	 * broken, in law order, in its one-line format. */
	__schema_consistent(t);
	mib_conservation_eval(t, base);
	for (f = 0; f < MIB_FIELD_MAX; f++) {
		int first = -1;

		memcpy(u, t, sizeof(u));
		u[f]++;
		mib_conservation_eval(u, laws);
		for (l = 0; l < MIB_LAW_MAX; l++) {
			bool in = (mib_field_laws(f) & MIB_LAW_BIT(l)) || __in_lhs(l, f);
			int64_t d = (int64_t)((laws[l].lhs - laws[l].rhs) -
					      (base[l].lhs - base[l].rhs));

			if (in ? (d != 1 && d != -1) : d != 0)
				fail_msg("%s + 1: law %s moved by %" PRId64, __schema_fname(f),
					 mib_law_name(l), d);
			if (in && first < 0 && (MIB_LAWS_PATH & MIB_LAW_BIT(l)))
				first = (int)l;
		}
		why[0] = '\0';
		if (first < 0) {
			assert_int_equal(mib_check_conservation(u, why, sizeof(why)), 0);
			continue;
		}
		assert_int_equal(mib_check_conservation(u, why, sizeof(why)), -1);
		snprintf(want, sizeof(want), "%s %" PRIu64 " != %s %" PRIu64,
			 laws[first].lhs_name, laws[first].lhs, laws[first].rhs_name,
			 laws[first].rhs);
		assert_string_equal(why, want);
	}
}

/* A law's text, when it lists fields ("A + B + C", or "summary (A + ... +
 * Z)"), names exactly its terms (as Linux prints them: Ip6InReceives): it
 * cannot go stale as rows are added. Its left side names its fields. */
static void
test_law_texts(void **state)
{
	unsigned int l, f, k;

	(void)state;
	for (l = 0; l < MIB_LAW_MAX; l++) {
		const char *txt = mib_law_rhs_name(l), *p;
		char buf[512], a[64], z[64];
		unsigned int terms[MIB_FIELD_MAX], lhs[MIB_LAW_LHS_MAX], n = 0,
									 listed = 0;
		unsigned int nl = mib_law_lhs_fields(l, lhs);
		size_t off = 0;
		bool list = true;

		buf[0] = '\0';
		for (k = 0; k < nl; k++)
			off += (size_t)snprintf(
				buf + off, sizeof(buf) - off, "%s%s", k ? " + " : "",
				mib_field_linux_name(lhs[k], a, sizeof(a)));
		assert_string_equal(mib_law_lhs_name(l), buf);
		assert_non_null(txt);
		assert_true(strlen(txt) > 0 && strlen(txt) < 256);
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_field_laws(f) & MIB_LAW_BIT(l))
				terms[n++] = f;
		p = strchr(txt, '(');
		if (p != NULL) {
			/* "summary (First + ... + Last)" */
			snprintf(buf, sizeof(buf), "(%s + ... + %s)",
				 mib_field_linux_name(terms[0], a, sizeof(a)),
				 mib_field_linux_name(terms[n - 1], z, sizeof(z)));
			assert_string_equal(p, buf);
			continue;
		}
		/* "A + B + C": a list if every part is one of the law's terms */
		for (p = txt; p != NULL; p = strstr(p, " + ")) {
			size_t k2;

			p += p == txt ? 0 : 3;
			k2 = strcspn(p, " ");
			for (f = 0; f < n; f++) {
				const char *nm =
					mib_field_linux_name(terms[f], a, sizeof(a));

				if (strlen(nm) == k2 && strncmp(nm, p, k2) == 0 &&
				    (p[k2] == '\0' || strncmp(p + k2, " + ", 3) == 0))
					break;
			}
			if (f == n) {
				list = false;	/* a summary: "L4 outcomes" */
				break;
			}
			listed++;
		}
		if (list && listed != n)
			fail_msg("law %s: \"%s\" names %u of its %u terms", mib_law_name(l),
				 txt, listed, n);
	}
	/* the two generated lists, as the JSON and the messages print them */
	assert_string_equal(
		mib_law_rhs_name(MIB_LAW_RX),
		"RxNotIp + RxOtherHost + RxNoPath + IngressDropped + InReceives + "
		"Ip6InReceives");
	assert_string_equal(mib_law_rhs_name(MIB_LAW_INGRESS),
			    "IngressPassed + IngressDropped");
	assert_string_equal(mib_law_lhs_name(MIB_LAW_L4), "InDelivers + Ip6InDelivers");
	assert_null(mib_law_lhs_name(MIB_LAW_MAX));
}

/* ---- folds ---- */

static void
__fold_round(const uint8_t *kinds, unsigned int n, enum mib_layout lay)
{
	uint64_t *want = calloc((size_t)n * MIB_FIELD_MAX, sizeof(uint64_t));
	uint64_t *pb_f = calloc((size_t)n * MIB_FIELD_MAX, sizeof(uint64_t));
	uint64_t *pb_l = calloc((size_t)n * MIB_FIELD_MAX, sizeof(uint64_t));
	uint64_t exp[MIB_FIELD_MAX], tf[MIB_FIELD_MAX], tl[MIB_FIELD_MAX];
	struct mib_set *s = mib_set_create(n, lay, NULL);
	unsigned int f, l;

	assert_non_null(want);
	assert_non_null(pb_f);
	assert_non_null(pb_l);
	assert_non_null(s);
	memset(exp, 0, sizeof(exp));
	for (l = 0; l < n; l++) {
		struct mib_block b = mib_set_block(s, l);

		for (f = 0; f < MIB_FIELD_MAX; f++) {
			uint64_t v = test_rand(&rng) & 1 ? test_rand(&rng) : test_rand(&rng) % 100000;

			if (kinds[f] == MIB_KIND_HWM) {
				mib_max(&b, f, v);
				exp[f] = RTE_MAX(exp[f], v);
			} else {
				mib_add(&b, f, v);
				exp[f] += v;
			}
			want[(size_t)l * MIB_FIELD_MAX + f] = v;
		}
	}
	for (f = 0; f < MIB_FIELD_MAX; f++)
		if (kinds[f] == MIB_KIND_CONST)
			exp[f] = (uint64_t)mib_fields[f].value;
	__mib_fold_kinds(s, MIB_FOLD_FIELD, kinds, tf, pb_f);
	__mib_fold_kinds(s, MIB_FOLD_LCORE, kinds, tl, pb_l);
	for (f = 0; f < MIB_FIELD_MAX; f++)
		if (tf[f] != exp[f] || tl[f] != exp[f])
			fail_msg("%s n=%u %s (%s): field fold %" PRIu64 ", lcore fold %"
				 PRIu64 ", expected %" PRIu64, mib_layout_name(lay), n,
				 __schema_fname(f), mib_kind_name(kinds[f]), tf[f], tl[f], exp[f]);
	assert_memory_equal(pb_f, want, (size_t)n * MIB_FIELD_MAX * sizeof(uint64_t));
	assert_memory_equal(pb_l, want, (size_t)n * MIB_FIELD_MAX * sizeof(uint64_t));
	/* mib_fold is the same fold with the table's kinds */
	for (l = 0; l < MIB_FOLD_MAX; l++) {
		__mib_fold_kinds(s, (enum mib_fold)l, __mib_kinds, tf, NULL);
		mib_fold(s, (enum mib_fold)l, tl, NULL);
		assert_memory_equal(tf, tl, sizeof(tf));
	}
	mib_set_free(s);
	free(want);
	free(pb_f);
	free(pb_l);
}

static void
test_folds_agree(void **state)
{
	static const unsigned int ns[] = { 1, 2, 3, 7, 16, 64 };
	uint8_t kinds[MIB_FIELD_MAX];
	unsigned int round, f, i, lay, count[MIB_KIND_MAX];

	(void)state;
	for (round = 0; round < 6; round++) {
		memset(count, 0, sizeof(count));
		for (f = 0; f < MIB_FIELD_MAX; f++) {
			unsigned int r = (unsigned int)(test_rand(&rng) % 8);

			kinds[f] = r < 5 ? MIB_KIND_SUM : r < 7 ? MIB_KIND_HWM :
				   MIB_KIND_CONST;
		}
		/* the table's own high-water marks summed, then maxed: a fold
		 * that knows a field by its index fails one of the two */
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_field_kind(f) == MIB_KIND_HWM)
				kinds[f] = round & 1 ? MIB_KIND_HWM : MIB_KIND_SUM;
		for (f = 0; f < MIB_FIELD_MAX; f++)
			count[kinds[f]]++;
		for (i = 0; i < MIB_KIND_MAX; i++)
			assert_true(count[i] >= 3);	/* every kind, several times */
		for (lay = 0; lay < MIB_LAYOUT_MAX; lay++)
			for (i = 0; i < RTE_DIM(ns); i++)
				__fold_round(kinds, ns[i], (enum mib_layout)lay);
	}
	/* the table's own list of high-water marks is its kinds' */
	for (f = 0, i = 0; f < MIB_FIELD_MAX; f++)
		if (mib_field_kind(f) == MIB_KIND_HWM)
			assert_int_equal(__mib_hwm[i++], f);
	assert_int_equal(__mib_hwm[i], MIB_FIELD_MAX);
	/* and the table itself: both folds, both layouts */
	for (lay = 0; lay < MIB_LAYOUT_MAX; lay++)
		__fold_round(__mib_kinds, 5, (enum mib_layout)lay);
}

/* ---- Linux's spelling ---- */

/* Linux 6.18's /proc/net/snmp and /proc/net/netstat header lines for the
 * groups pktpath mirrors (read on a 6.18 host; IcmpMsg prints only the
 * types counted, "In" then "Out", as icmpmsg_put_line does). */
static const char *const linux_6_18[] = {
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams "
	"InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes "
	"ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates "
	"OutTransmits",
	"Icmp: InMsgs InErrors InCsumErrors InDestUnreachs InTimeExcds InParmProbs "
	"InSrcQuenchs InRedirects InEchos InEchoReps InTimestamps InTimestampReps "
	"InAddrMasks InAddrMaskReps OutMsgs OutErrors OutRateLimitGlobal "
	"OutRateLimitHost OutDestUnreachs OutTimeExcds OutParmProbs OutSrcQuenchs "
	"OutRedirects OutEchos OutEchoReps OutTimestamps OutTimestampReps "
	"OutAddrMasks OutAddrMaskReps",
	"IcmpMsg: InType0 InType3 InType8 InType255 OutType0 OutType3",
	"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails "
	"EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors",
	"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors "
	"InCsumErrors IgnoredMulti MemErrors",
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors "
	"InCsumErrors IgnoredMulti MemErrors",
	"IpExt: InNoRoutes InTruncatedPkts InMcastPkts OutMcastPkts InBcastPkts "
	"OutBcastPkts InOctets OutOctets InMcastOctets OutMcastOctets InBcastOctets "
	"OutBcastOctets InCsumErrors InNoECTPkts InECT1Pkts InECT0Pkts InCEPkts "
	"ReasmOverlaps",
};

/* Linux 6.18's /proc/net/snmp6 names (read on a 6.18 host), without the
 * IcmpN{In,Out}TypeN lines, which it prints only for the types counted. */
static const char linux_6_18_snmp6[] =
	"Ip6InReceives Ip6InHdrErrors Ip6InTooBigErrors Ip6InNoRoutes "
	"Ip6InAddrErrors Ip6InUnknownProtos Ip6InTruncatedPkts Ip6InDiscards "
	"Ip6InDelivers Ip6OutForwDatagrams Ip6OutRequests Ip6OutDiscards "
	"Ip6OutNoRoutes Ip6ReasmTimeout Ip6ReasmReqds Ip6ReasmOKs "
	"Ip6ReasmFails Ip6FragOKs Ip6FragFails Ip6FragCreates Ip6InMcastPkts "
	"Ip6OutMcastPkts Ip6InOctets Ip6OutOctets Ip6InMcastOctets "
	"Ip6OutMcastOctets Ip6InBcastOctets Ip6OutBcastOctets Ip6InNoECTPkts "
	"Ip6InECT1Pkts Ip6InECT0Pkts Ip6InCEPkts Ip6OutTransmits Icmp6InMsgs "
	"Icmp6InErrors Icmp6OutMsgs Icmp6OutErrors Icmp6InCsumErrors "
	"Icmp6OutRateLimitHost Icmp6InDestUnreachs Icmp6InPktTooBigs "
	"Icmp6InTimeExcds Icmp6InParmProblems Icmp6InEchos Icmp6InEchoReplies "
	"Icmp6InGroupMembQueries Icmp6InGroupMembResponses "
	"Icmp6InGroupMembReductions Icmp6InRouterSolicits "
	"Icmp6InRouterAdvertisements Icmp6InNeighborSolicits "
	"Icmp6InNeighborAdvertisements Icmp6InRedirects Icmp6InMLDv2Reports "
	"Icmp6OutDestUnreachs Icmp6OutPktTooBigs Icmp6OutTimeExcds "
	"Icmp6OutParmProblems Icmp6OutEchos Icmp6OutEchoReplies "
	"Icmp6OutGroupMembQueries Icmp6OutGroupMembResponses "
	"Icmp6OutGroupMembReductions Icmp6OutRouterSolicits "
	"Icmp6OutRouterAdvertisements Icmp6OutNeighborSolicits "
	"Icmp6OutNeighborAdvertisements Icmp6OutRedirects Icmp6OutMLDv2Reports "
	"Udp6InDatagrams Udp6NoPorts Udp6InErrors Udp6OutDatagrams "
	"Udp6RcvbufErrors Udp6SndbufErrors Udp6InCsumErrors Udp6IgnoredMulti "
	"Udp6MemErrors UdpLite6InDatagrams UdpLite6NoPorts UdpLite6InErrors "
	"UdpLite6OutDatagrams UdpLite6RcvbufErrors UdpLite6SndbufErrors "
	"UdpLite6InCsumErrors UdpLite6MemErrors";

/*
 * The names the /proc/net/snmp6 groups make, in snmp6's order, from the
 * table (but the by-number ICMPv6 lines): each field of Ip6 and Icmp6 under
 * its snmp6 name, the named ICMPv6 types In then Out, Udp6, and UdpLite6
 * but its IgnoredMulti. Marks the groups seen.
 */
static void
__snmp6_names(char *buf, size_t len, bool *seen)
{
	static const enum mib_group order[] = { MIB_GRP_IP6, MIB_GRP_ICMP6,
						MIB_GRP_ICMP6MSG, MIB_GRP_UDP6,
						MIB_GRP_UDPLITE6 };
	size_t off = 0;
	unsigned int i, f;
	char n[64];

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(order); i++) {
		unsigned int first = mib_group_first(order[i]);
		unsigned int end = first + mib_group_count(order[i]);

		seen[order[i]] = true;
		for (f = first; f < end; f++) {
			const char *tn = NULL;

			if (order[i] == MIB_GRP_ICMP6MSG) {
				tn = mib_icmp6_type_name((f - first) & 0xff);
				if (tn == NULL)
					continue;
				snprintf(n, sizeof(n), "Icmp6%s%s",
					 f - first >= 256 ? "Out" : "In", tn);
			} else if (f == MIB_F(UDPLITE6, IGNOREDMULTI)) {
				continue;
			} else {
				mib_field_linux_name(f, n, sizeof(n));
			}
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? " " : "", n);
		}
	}
}

/*
 * One header line against the table: a group pktpath mirrors has exactly
 * its fields, in its order; a sparse one (IcmpMsg) names a subset, each
 * InTypeN being field N (pktpath keeps no OutTypeN: it sends nothing).
 * Returns the group, or -1 for a group pktpath does not mirror.
 */
static int
__check_header(const char *line, const char *from)
{
	char buf[4096], *tok, *save = NULL, *grp;
	unsigned int i = 0, first, n;
	int g;

	snprintf(buf, sizeof(buf), "%s", line);
	grp = strtok_r(buf, " \n", &save);
	if (grp == NULL || grp[strlen(grp) - 1] != ':')
		fail_msg("%s: not a header line: \"%s\"", from, line);
	grp[strlen(grp) - 1] = '\0';
	g = mib_group_lookup(grp);
	if (g < 0 || mib_group_linux((enum mib_group)g) == NULL)
		return -1;
	first = mib_group_first((enum mib_group)g);
	n = mib_group_count((enum mib_group)g);
	while ((tok = strtok_r(NULL, " \n", &save)) != NULL) {
		if (mib_group_sparse((enum mib_group)g)) {
			unsigned int type;
			char tail;

			if (strncmp(tok, "OutType", 7) == 0)
				continue;
			if (sscanf(tok, "InType%u%c", &type, &tail) != 1 || type >= n)
				fail_msg("%s: %s %s", from, grp, tok);
			assert_string_equal(mib_field_name(first + type), tok);
			continue;
		}
		if (i >= n)
			fail_msg("%s: %s has %s, pktpath's group has %u fields", from,
				 grp, tok, n);
		if (strcmp(mib_field_name(first + i), tok) != 0)
			fail_msg("%s: %s field %u is %s, pktpath's %s", from, grp, i, tok,
				 mib_field_name(first + i));
		i++;
	}
	if (!mib_group_sparse((enum mib_group)g) && i != n)
		fail_msg("%s: %s has %u fields, pktpath's %u", from, grp, i, n);
	return g;
}

/* This host's header lines, if it runs the kernel the table follows. */
static unsigned int
__check_proc(const char *path, bool *seen)
{
	char line[8192];
	unsigned int n = 0, k = 0;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (k++ % 2 == 0) {	/* header, values, header, ... */
			int g = __check_header(line, path);

			if (g >= 0) {
				seen[g] = true;
				n++;
			}
		}
	fclose(fp);
	return n;
}

static void
test_linux_names(void **state)
{
	bool seen[MIB_GRP_MAX] = { false };
	struct utsname u;
	unsigned int i, g;

	(void)state;
	for (i = 0; i < RTE_DIM(linux_6_18); i++) {
		int gi = __check_header(linux_6_18[i], "Linux 6.18");

		if (gi < 0)
			fail_msg("Linux 6.18 data: %.20s is no group of pktpath's",
				 linux_6_18[i]);
		seen[gi] = true;
	}
	{
		char names[4096];

		__snmp6_names(names, sizeof(names), seen);
		assert_string_equal(names, linux_6_18_snmp6);
	}
	/* a group that says it is Linux's is in the data; one that does not
	 * is named unlike every Linux group */
	for (g = 0; g < MIB_GRP_MAX; g++)
		if ((mib_group_linux((enum mib_group)g) != NULL) != seen[g])
			fail_msg("group %s: Linux's %s, in the Linux data %s",
				 mib_group_name((enum mib_group)g),
				 mib_group_linux((enum mib_group)g) ? "yes" : "no",
				 seen[g] ? "yes" : "no");
	if (uname(&u) == 0 && strncmp(u.release, "6.18.", 5) == 0) {
		memset(seen, 0, sizeof(seen));
		i = __check_proc("/proc/net/snmp", seen) +
		    __check_proc("/proc/net/netstat", seen);
		print_message("checked against this host's Linux %s: %u groups\n",
			      u.release, i);
		{
			/* /proc/net/snmp6: its names, less the by-number lines */
			char names[4096], line[256], name[128];
			size_t off = 0;
			FILE *fp = fopen("/proc/net/snmp6", "r");

			if (fp != NULL) {
				while (fgets(line, sizeof(line), fp) != NULL)
					if (sscanf(line, "%127s", name) == 1 &&
					    strstr(name, "Type") == NULL)
						off += (size_t)snprintf(
							names + off, sizeof(names) - off,
							"%s%s", off ? " " : "", name);
				fclose(fp);
				assert_string_equal(names, linux_6_18_snmp6);
				print_message("and its /proc/net/snmp6\n");
			}
		}
		for (g = 0; g < MIB_GRP_MAX; g++)
			if (mib_group_linux((enum mib_group)g) != NULL && !seen[g] &&
			    !mib_group_sparse((enum mib_group)g) &&
			    strcmp(mib_group_linux((enum mib_group)g),
				   "/proc/net/snmp6") != 0)
				fail_msg("%s not in this host's /proc/net", mib_group_name(g));
	}
}

/* ---- lib/mib/README.md ---- */

#define README PKTPATH_SOURCE_ROOT "/lib/mib/README.md"
#define BEGIN_MARK "<!-- BEGIN generated by test_mib_schema from the field table -->\n"
#define END_MARK "<!-- END generated -->\n"

/* The laws column: the names of the laws the field is a term of. */
static void
__laws_cell(char *buf, size_t len, unsigned int laws)
{
	size_t off = 0;
	unsigned int l;

	buf[0] = '\0';
	for (l = 0; l < MIB_LAW_MAX && off < len; l++)
		if (laws & MIB_LAW_BIT(l))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "", mib_law_name(l));
}

/* A row's help with its first number replaced by N (a sparse group's rows
 * differ in that number only). */
static void
__help_n(char *buf, size_t len, const char *help)
{
	size_t i = strcspn(help, "0123456789"), j = i;

	while (isdigit((unsigned char)help[j]))
		j++;
	snprintf(buf, len, "%.*sN%s", (int)i, help, help + j);
}

static char *
__readme_block(void)
{
	char *txt = NULL, cell[128];
	size_t sz = 0;
	FILE *m = open_memstream(&txt, &sz);
	unsigned int g, f, l;

	assert_non_null(m);
	fputs(BEGIN_MARK, m);
	fputs("\n### The conservation laws\n\n"
	      "| law | left side | right side, as printed | terms |\n"
	      "| --- | --- | --- | --- |\n", m);
	for (l = 0; l < MIB_LAW_MAX; l++) {
		unsigned int n = 0;

		fprintf(m, "| %s%s | `%s` | %s | ", mib_law_name(l),
			MIB_LAWS_OUTCOME & MIB_LAW_BIT(l) ? " (outcome)" : "",
			mib_law_lhs_name(l), mib_law_rhs_name(l));
		for (f = 0; f < MIB_FIELD_MAX; f++)
			if (mib_field_laws(f) & MIB_LAW_BIT(l))
				fprintf(m, "%s`%s %s`", n++ ? ", " : "",
					mib_group_name(mib_field_group(f)), mib_field_name(f));
		fputs(" |\n", m);
	}
	for (g = 0; g < MIB_GRP_MAX; g++) {
		enum mib_group gg = (enum mib_group)g;
		unsigned int first = mib_group_first(gg), end = first + mib_group_count(gg);

		fprintf(m, "\n### %s", mib_group_name(gg));
		if (mib_group_linux(gg) != NULL)
			fprintf(m, " (`%s`)", mib_group_linux(gg));
		fprintf(m, "\n\n%s.\n\n| field | kind | role | laws | what it counts |\n"
			"| --- | --- | --- | --- | --- |\n", mib_group_help(gg));
		if (mib_group_sparse(gg)) {
			/* one row for each run of rows that differ in their
			 * number only (IcmpMsg: one; Icmp6Msg: In, then Out) */
			unsigned int r0 = first;

			for (f = first + 1; f <= end; f++) {
				char h0[128], h[128];

				__help_n(h0, sizeof(h0), mib_field_help(r0));
				if (f < end) {
					__help_n(h, sizeof(h), mib_field_help(f));
					if (strcmp(h, h0) == 0 &&
					    mib_field_kind(f) == mib_field_kind(r0) &&
					    mib_field_role(f) == mib_field_role(r0) &&
					    mib_field_laws(f) == mib_field_laws(r0))
						continue;
				}
				__laws_cell(cell, sizeof(cell), mib_field_laws(r0));
				fprintf(m,
					"| `%s` ... `%s` | %s | %s | %s | %s (Linux prints "
					"the non-zero ones only) |\n",
					mib_field_name(r0), mib_field_name(f - 1),
					mib_kind_name(mib_field_kind(r0)),
					mib_role_name(mib_field_role(r0)), cell, h0);
				r0 = f;
			}
			continue;
		}
		for (f = first; f < end; f++) {
			__laws_cell(cell, sizeof(cell), mib_field_laws(f));
			fprintf(m, "| `%s` | %s", mib_field_name(f),
				mib_kind_name(mib_field_kind(f)));
			if (mib_field_kind(f) == MIB_KIND_CONST)
				fprintf(m, " %" PRId64, mib_field_const(f));
			fprintf(m, " | %s | %s | %s |\n",
				mib_role_name(mib_field_role(f)), cell, mib_field_help(f));
		}
	}
	fputs("\n" END_MARK, m);
	fclose(m);
	return txt;
}

static char *
__schema_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (fp == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static void
test_readme(void **state)
{
	char *gen = __readme_block(), *doc, *b, *e;
	const char *w = getenv("MIB_README_WRITE");
	size_t len;

	(void)state;
	doc = __schema_slurp(README, &len);
	b = strstr(doc, BEGIN_MARK);
	e = b != NULL ? strstr(b, END_MARK) : NULL;
	if (b == NULL || e == NULL)
		fail_msg("%s: no \"%.40s\" ... \"%.20s\" block", README, BEGIN_MARK,
			 END_MARK);
	e += strlen(END_MARK);
	if (w != NULL && strcmp(w, "1") == 0) {
		FILE *fp = fopen(README, "w");

		assert_non_null(fp);
		fprintf(fp, "%.*s%s%s", (int)(b - doc), doc, gen, e);
		assert_int_equal(fclose(fp), 0);
		print_message("%s rewritten\n", README);
	} else if ((size_t)(e - b) != strlen(gen) || memcmp(b, gen, strlen(gen)) != 0) {
		fail_msg("%s is not what the field table says: run "
			 "MIB_README_WRITE=1 build/app/test/test_mib_schema", README);
	}
	free(doc);
	free(gen);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_laws),
		cmocka_unit_test(test_law_texts),
		cmocka_unit_test(test_folds_agree),
		cmocka_unit_test(test_linux_names),
		cmocka_unit_test(test_readme),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
