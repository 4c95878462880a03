/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PORT_H
#define PKTPATH_PORT_H

/*
 * Ports (port.c) and what they need from the host (port_host.c). All of
 * it runs on the main thread, before the workers start or after they
 * stopped.
 */

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "stats.h"

struct app;
struct app_port;

/* The ports the stats thread samples, and which port each worker polls;
 * fills sc->n_ports, sc->ports, sc->worker_port (owned by a). */
int app_ports_stats_conf(struct app *a, struct stats_conf *sc);

/* The generator's path conf for --rx-csum (it vouches for the checksums
 * of the frames it synthesises); 0 or -1 (message printed). */
int app_gen_csum_setup(struct app *a);
/* Whether port p's path trusts its checksum flags under --rx-csum m (hw
 * and auto where the port offloads, never sw). Thread-safe (reads only). */
bool app_port_csum_hw(const struct app_port *p, enum app_rx_csum m);

/* Flags (IFF_*) and MTU of a kernel interface; 0 or -errno. */
int app_host_if_flags(const char *ifname, unsigned int *flags);
int app_host_if_mtu(const char *ifname, unsigned int *mtu);
int app_host_if_set_mtu(const char *ifname, unsigned int mtu);

/* A numeric devarg of the port's device ("framesz"), or dflt. */
long app_host_devarg(uint16_t port_id, const char *key, long dflt);

/* net_af_packet: framesz (devarg, default 2048), the longest frame such a
 * slot holds (longer ones are cut by the kernel), and the mbuf room the
 * PMD demands for it (without headroom). */
unsigned int app_host_afp_framesz(uint16_t port_id);
unsigned int app_host_afp_max_frame(unsigned int framesz);
unsigned int app_host_afp_room(unsigned int framesz);

/* One warning if two worker lcores share a CPU. */
void app_host_warn_shared_cpus(const struct app *a);

#endif
