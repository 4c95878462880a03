/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_INGRESS_PCAP_H
#define PKTPATH_INGRESS_PCAP_H

/**
 * @file
 * The "pcap-filter" classifier kind (kind_pcap.c): a tcpdump expression,
 * made a program by lib/bpf (pktbpf_filter_load(): libpcap compiles it,
 * pktpath converts it to eBPF and loads it under limits, or libpcap runs
 * it), whose match applies one verdict. The classifier objects and the hook
 * that runs them are in ingress.h; engines, limits and DPDK's faults in
 * pktbpf.h and lib/bpf/README.md.
 */

#include <stddef.h>
#include <stdint.h>

#include "ingress.h"
#include "pktbpf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a kind without its own actions does with a packet it matches. */
struct ingress_verdict_conf {
	uint8_t action;		/**< INGRESS_ACT_PASS or INGRESS_ACT_DROP */
	uint8_t marked;		/**< pass with mark */
	uint32_t mark;
};

/**
 * A tcpdump expression as a classifier: the program pktbpf_filter_load()
 * makes of it, whose match (a non-zero return) applies v; no match passes,
 * unmatched. Its description names the expression (quoted: base_quote()),
 * the engine that runs it and the verdict ("pcap-filter 'udp' jit ->
 * drop").
 *
 * @param bc  NULL for the defaults (pktbpf_conf_init())
 * @return 0 and *out; or -EINVAL (no expression or verdict; libpcap refused
 *         the expression: its message), -EINTR (bc->cancel was set during
 *         the load), -ENOMEM; one line in err naming the expression (it and
 *         libpcap's reason quoted: base_quote()).
 * Needs EAL. Thread-safe (no shared state). May block for a load (bounded
 * by bc->load_timeout_s).
 */
int ingress_pcap_filter_create(const char *expr,
			       const struct ingress_verdict_conf *v,
			       const struct pktbpf_conf *bc,
			       struct ingress_classifier **out, char *err,
			       size_t errlen);

/**
 * The program a "pcap-filter" classifier runs (what pktbpf_run() returns on
 * a frame is the value its verdict comes from), or NULL if c is of another
 * kind. Valid while c is. Thread-safe (c owned by the caller).
 */
const struct pktbpf_prog *
ingress_pcap_filter_prog(const struct ingress_classifier *c);

#ifdef __cplusplus
}
#endif

#endif /* PKTPATH_INGRESS_PCAP_H */
