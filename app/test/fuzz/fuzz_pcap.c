/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: any bytes as a pcap template file. Either a clear error or
 * templates whose every frame fits the limit; never a crash or a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_pcap_XXXXXX";
	char err[512];
	struct pkt_templates *t;
	int fd = mkstemp(path);
	uint32_t i;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	err[0] = '\0';
	t = pkt_templates_from_pcap(path, 2048, NULL, err, sizeof(err));
	unlink(path);
	if (t == NULL) {
		if (err[0] == '\0' || strchr(err, '\n') != NULL)
			abort();	/* one clear line, always */
		return 0;
	}
	for (i = 0; i < t->n; i++)
		if (t->len[i] == 0 || t->len[i] > 2048)
			abort();
	pkt_templates_free(t);
	return 0;
}
