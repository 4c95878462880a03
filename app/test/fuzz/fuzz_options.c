/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: any bytes as an INI file given to --config, and the same bytes
 * split on NUL/newline as command-line options. Either parsed options or one
 * error line; never a crash or a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct app_options o;
	char path[] = "/tmp/fuzz_ini_XXXXXX";
	char *argv[66], *copy;
	int fd, argc = 0;
	size_t i, start = 0;

	fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		char *a[] = { "pktpath", "--config", path, NULL };

		app_options_parse(3, a, &o);
	}
	close(fd);
	unlink(path);

	copy = malloc(size + 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = "pktpath";
	for (i = 0; i <= size && argc < 64; i++) {
		if (i == size || copy[i] == '\0' || copy[i] == '\n') {
			copy[i] = '\0';
			/* Not --config (nor its abbreviations --con...): the
			 * harness must not read files named by the input. */
			if (i > start && strncmp(copy + start, "--con", 5) != 0)
				argv[argc++] = copy + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	app_options_parse(argc, argv, &o);
	free(copy);
	return 0;
}
