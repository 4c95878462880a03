/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethdev ports for --source port: configure, one RX queue per mapped worker
 * (RSS across queues when several), start; stop and close at the end.
 */
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "app.h"

#define MBUF_CACHE 256

static int
__port_setup(struct app *a, struct app_port *p)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	uint16_t rxd = a->opt.rxd, txd = 512, q;
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int nb_mbufs;
	int socket = rte_eth_dev_socket_id(p->id);
	int rc;

	if (socket < 0)
		socket = (int)rte_socket_id();
	rc = rte_eth_dev_info_get(p->id, &info);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_dev_info_get: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	if (p->nb_rxq > info.max_rx_queues) {
		fprintf(stderr, "pktpath: --rxq: port %u (%s) has %u RX queues, %u mapped\n",
			p->id, info.driver_name, info.max_rx_queues, p->nb_rxq);
		return -1;
	}
	memset(&conf, 0, sizeof(conf));
	if (p->nb_rxq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf =
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP) &
			info.flow_type_rss_offloads;
		if (conf.rx_adv_conf.rss_conf.rss_hf == 0)
			conf.rxmode.mq_mode = RTE_ETH_MQ_RX_NONE;
	}
	rc = rte_eth_dev_configure(p->id, p->nb_rxq, 1, &conf);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_dev_configure: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->id, &rxd, &txd);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_dev_adjust_nb_rx_tx_desc: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	nb_mbufs = RTE_MAX(p->nb_rxq * (rxd + a->opt.burst + MBUF_CACHE) + 1024u,
			   a->opt.mbufs);
	snprintf(name, sizeof(name), "port%u_pool", p->id);
	p->mp = pkt_pool_create(name, nb_mbufs, MBUF_CACHE,
				RTE_MBUF_DEFAULT_BUF_SIZE, socket,
				app_pool_flags(&a->opt));
	if (p->mp == NULL) {
		fprintf(stderr, "pktpath: port %u: mbuf pool (%u mbufs): %s\n",
			p->id, nb_mbufs, rte_strerror(rte_errno));
		return -1;
	}
	for (q = 0; q < p->nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(p->id, q, rxd, (unsigned int)socket,
					    NULL, p->mp);
		if (rc != 0) {
			fprintf(stderr, "pktpath: port %u: rte_eth_rx_queue_setup(%u): %s\n",
				p->id, q, rte_strerror(-rc));
			return -1;
		}
	}
	rc = rte_eth_tx_queue_setup(p->id, 0, txd, (unsigned int)socket, NULL);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_tx_queue_setup: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	rc = rte_eth_dev_start(p->id);
	if (rc != 0) {
		fprintf(stderr, "pktpath: port %u: rte_eth_dev_start: %s\n",
			p->id, rte_strerror(-rc));
		return -1;
	}
	p->started = true;
	if (a->opt.promisc) {
		rc = rte_eth_promiscuous_enable(p->id);
		if (rc != 0)
			APP_LOG(WARNING, "port %u: promiscuous mode: %s", p->id,
				rte_strerror(-rc));
	}
	if (rte_eth_macaddr_get(p->id, &mac) == 0)
		p->pc.mac = mac;
	APP_LOG(INFO, "port %u (%s): %u RX queue%s, %u descriptors, MAC "
		RTE_ETHER_ADDR_PRT_FMT, p->id, info.driver_name, p->nb_rxq,
		p->nb_rxq > 1 ? "s (RSS)" : "", rxd, RTE_ETHER_ADDR_BYTES(&mac));
	return 0;
}

int
app_ports_setup(struct app *a)
{
	unsigned int i, j;

	for (i = 0; i < a->n_ports; i++) {
		struct app_port *p = &a->ports[i];

		/* Every queue 0..max must be polled by someone, or RSS would
		 * drop traffic into an unpolled queue. */
		for (j = 0; j < p->nb_rxq; j++) {
			unsigned int k;
			bool found = false;

			for (k = 0; k < a->n_workers && !found; k++)
				found = a->workers[k].port == p->id &&
					a->workers[k].queue == j;
			if (!found) {
				fprintf(stderr, "pktpath: --rxq: port %u queue %u is "
					"not polled by any lcore\n", p->id, j);
				return -1;
			}
		}
		if (__port_setup(a, p) != 0)
			return -1;
	}
	return 0;
}

void
app_ports_close(struct app *a)
{
	unsigned int i;

	for (i = 0; i < a->n_ports; i++) {
		struct app_port *p = &a->ports[i];

		if (p->started) {
			rte_eth_dev_stop(p->id);
			p->started = false;
		}
		rte_eth_dev_close(p->id);
	}
}
