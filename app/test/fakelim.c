/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath-fakelim.so: LD_PRELOAD it into a DPDK program to give every
 * port the limits of a NIC that the test machine's virtual devices lack,
 * so that pktpath's refusals against them can be tested:
 *   PKTPATH_FAKE_RX_DESC=MIN:MAX:ALIGN  dev_info.rx_desc_lim
 *   PKTPATH_FAKE_MIN_RX_BUF=BYTES       dev_info.min_rx_bufsize
 * It wraps rte_eth_dev_info_get() (DPDK shared linkage) and changes
 * nothing else.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_ethdev.h>

typedef int (*info_fn)(uint16_t, struct rte_eth_dev_info *);

int
rte_eth_dev_info_get(uint16_t port_id, struct rte_eth_dev_info *info)
{
	static info_fn real;
	const char *d = getenv("PKTPATH_FAKE_RX_DESC");
	const char *b = getenv("PKTPATH_FAKE_MIN_RX_BUF");
	unsigned int lo, hi, al;
	int rc;

	if (real == NULL)
		real = (info_fn)(uintptr_t)dlsym(RTLD_NEXT, "rte_eth_dev_info_get");
	if (real == NULL)
		return -ENOSYS;
	rc = real(port_id, info);
	if (rc != 0)
		return rc;
	if (d != NULL && sscanf(d, "%u:%u:%u", &lo, &hi, &al) == 3) {
		info->rx_desc_lim.nb_min = (uint16_t)lo;
		info->rx_desc_lim.nb_max = (uint16_t)hi;
		info->rx_desc_lim.nb_align = (uint16_t)al;
	}
	if (b != NULL)
		info->min_rx_bufsize = (uint32_t)strtoul(b, NULL, 0);
	return 0;
}
