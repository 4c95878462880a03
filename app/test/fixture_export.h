/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_FIXTURE_EXPORT_H
#define PKTPATH_TEST_FIXTURE_EXPORT_H

/*
 * The test_export_*.c programs' shared fixture, on top of fixture_stats.h:
 * the run info every exporter is given, a fake ingress behind the control
 * hooks, the text writers rendered from the latest snapshot, and parsers
 * of their output.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "export.h"
#include "fixture_stats.h"

extern json_t *info;

/* Hooks of a fake ingress: modes off|lock|rcu ("slow": a 1.5 s flip that
 * changes nothing); rules must start with "rule ". */
extern char hk_mode[32];
extern int hk_mode_calls, hk_rules_calls;
extern const struct export_hooks hooks;
json_t *hk_state(void *arg);

/* cmocka group setup: fixture_stats_setup(), then info. 0, or -1. */
int fixture_export_setup(void **state);
/* cmocka group teardown: export_telemetry_unregister(),
 * fixture_stats_teardown(), info freed. */
int fixture_export_teardown(void **state);

/* "Grp: a b c\nGrp: 1 2 3\n" -> check every value against v; returns
 * the number of fields checked. */
unsigned int snmp_check(const char *text, const uint64_t *v);
/* Non-zero IcmpMsg fields of v. */
unsigned int __icmpmsg_nonzero(const uint64_t *v);
/* Value of sample "name{labels}" in a Prometheus text, or -1. */
double prom_value(const char *text, const char *sample);
/* Every counter sample of b is >= the same sample in a. */
void prom_monotonic(const char *a, const char *b);
/* promtool check metrics accepts text (skipped with a message if absent). */
void promtool_ok(const char *text);

/* A client of this process's telemetry socket, its banner read (fails the
 * test if there is none). */
int tel_connect(void);
/* Send cmd (with ",PARAM") on fd: the reply's text (malloc'd). */
char *tel_text(int fd, const char *cmd);
/* Send cmd: the value of the reply {"cmd": value} (a new reference). */
json_t *tel_query(int fd, const char *cmd);

/* fn over the latest snapshot of st into a malloc'd string. */
char *render(int (*fn)(FILE *, const struct stats_snapshot *, const void *),
	     const void *arg);
int w_prom(FILE *f, const struct stats_snapshot *s, const void *arg); /* opts */
int w_snmp(FILE *f, const struct stats_snapshot *s, const void *arg); /* which */

#endif
