/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Prometheus text format's pieces shared by every /metrics writer
 * (prom_text.h).
 */
#include <stdio.h>

#include "prom_text.h"

void
__export_prom_escape(FILE *out, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\\\", out);
		else if (*s == '"')
			fputs("\\\"", out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

void
__export_prom_family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP pktpath_%s %s\n# TYPE pktpath_%s %s\n", name, help, name,
		type);
}
