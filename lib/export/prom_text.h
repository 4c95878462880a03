/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_EXPORT_PROM_TEXT_H
#define PKTPATH_EXPORT_PROM_TEXT_H

/*
 * The Prometheus text exposition format's pieces (format 0.0.4), below
 * every writer of /metrics in lib/export: the core families (prom.c), the
 * sections (*_export.c) and the HTTP endpoint's own counters
 * (http_conn.c). This file uses nothing else of lib/export.
 *
 * Thread-safe: they only write to the stream they are given.
 */

#include <stdio.h>

/* "# HELP pktpath_NAME HELP" and "# TYPE pktpath_NAME TYPE" of one family. */
void __export_prom_family(FILE *out, const char *name, const char *type,
			  const char *help);

/* A label value with backslash, double quote and newline escaped, as the
 * format requires (NULL: nothing). */
void __export_prom_escape(FILE *out, const char *s);

#endif /* PKTPATH_EXPORT_PROM_TEXT_H */
