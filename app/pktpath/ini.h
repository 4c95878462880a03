/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_INI_H
#define PKTPATH_INI_H

/*
 * The INI files of --config. One section (its name given by the caller), one
 * "key = value" a line; leading and trailing blanks of lines, keys and values
 * are dropped; lines starting with ';' or '#' are comments; there are no
 * inline comments (a value is everything after the '=', ';' and '#'
 * included) and no length limit other than the file's (1 MiB) and the
 * option's own. Every mistake stops the load with one "FILE:LINE: reason":
 * a line that is neither, a section other than the caller's, the section a
 * second time (naming both lines), a key before the section, a NUL byte,
 * what the callback refuses (a key given twice: pktpath's options refuse it
 * there, as on the command line); "FILE: no [SECTION] section". The file's
 * name and its words are quoted (base_quote()).
 * Not thread-safe (the caller's callback decides what it touches).
 */

#include <stdbool.h>
#include <stddef.h>

#define APP_INI_MAX_SIZE (1 << 20)
#define APP_INI_ERR_LEN 512

/*
 * Called for each key of the section, in file order, with its line number.
 * Returns 0, or -1 with a reason in err (without FILE:LINE, which
 * app_ini_load() adds).
 */
typedef int (*app_ini_entry_fn)(void *arg, unsigned int line, const char *key,
				const char *value, char *err, size_t errlen);

/*
 * Read file and call fn for every key of [section].
 * @return 0, or -1 with one line in err: "FILE:LINE: reason", "FILE: reason"
 * or "--config FILE: reason" (missing, unreadable, not a regular file of at
 * most APP_INI_MAX_SIZE bytes).
 */
int app_ini_load(const char *file, const char *section, app_ini_entry_fn fn,
		 void *arg, char *err, size_t errlen);

#endif
