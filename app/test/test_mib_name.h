/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_TEST_MIB_NAME_H
#define PKTPATH_TEST_MIB_NAME_H

/*
 * A MIB field's "Group.Field" for the unit tests' failure messages
 * (test_path6.c, test_path6_fast.c): field f, or "field#F" beyond the
 * table. Four static buffers in turn, so that one message may name up to
 * four fields; not thread-safe.
 */

#include <stdio.h>

#include "mib.h"

static inline const char *
test_mib_name(unsigned int f)
{
	static char s[4][64];
	static unsigned int k;

	k = (k + 1) % 4;
	if (f >= MIB_FIELD_MAX)
		snprintf(s[k], sizeof(s[k]), "field#%u", f);
	else
		snprintf(s[k], sizeof(s[k]), "%s.%s", mib_group_name(mib_field_group(f)),
			 mib_field_name(f));
	return s[k];
}

#endif /* PKTPATH_TEST_MIB_NAME_H */
