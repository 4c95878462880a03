/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: any bytes as a rules file. Either "NAME:LINE: reason" or a
 * classifier that classifies a frame; never a crash or a leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_mbuf.h>

#include "ingress_rules.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *eal[] = { "fuzz_rules", "--no-huge", "--no-shconf", "-m", "256",
			"--no-pci", "--file-prefix", "fuzz_rules",
			"--log-level", "*:crit", NULL };

	(void)argc;
	(void)argv;
	return rte_eal_init(RTE_DIM(eal) - 1, eal) < 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t frame[60] = {
		0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00,
		0x45, 0, 0, 46, 0, 0, 0, 0, 64, 17, 0, 0,
		198, 18, 0, 1, 198, 19, 0, 1, 0x04, 0xd2, 0, 9, 0, 26, 0, 0 };
	struct ingress_classifier *c = NULL;
	struct ingress_result res;
	struct rte_mbuf m, *pm = &m;
	char err[512];
	char *text = malloc(size + 1);

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	if (ingress_rules_parse_string(text, "fuzz", &c, err, sizeof(err)) != 0) {
		if (strncmp(err, "fuzz", 4) != 0)
			abort();	/* the error names the input */
		free(text);
		return 0;
	}
	memset(&m, 0, sizeof(m));
	m.buf_addr = frame;
	m.buf_len = sizeof(frame);
	m.data_len = sizeof(frame);
	m.pkt_len = sizeof(frame);
	m.nb_segs = 1;
	ingress_classify_burst(c, &pm, 1, &res);
	if (res.action != INGRESS_ACT_PASS && res.action != INGRESS_ACT_DROP)
		abort();
	ingress_classifier_free(c);
	free(text);
	return 0;
}
