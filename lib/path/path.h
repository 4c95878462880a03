/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PATH_H
#define PKTPATH_PATH_H

/**
 * @file
 * The IPv4 receive path, stage by stage, with Linux's semantics and counters.
 *
 *   path_l2()   netif_receive_skb_core / eth_type_trans: ethertype, packet
 *               type by destination MAC, 802.1Q and 802.1ad tags received
 *               by the VLAN devices of the configuration (path_conf.vlan)
 *               or making the frame PACKET_OTHERHOST. Informational
 *               counters only (RxVlan, RxVlanNoDevice, RxRunts,
 *               RxBroadcast, RxMulticast).
 *   (the ingress hook sees the raw frame here, in the app)
 *   path_rcv()  dispatch, then ip_rcv_core -> ip_rcv_finish_core (route) ->
 *               ip_local_deliver -> udp_rcv / udplite_rcv / tcp_v4_rcv /
 *               icmp_rcv / igmp_rcv / pim_rcv.
 *               Moves exactly one terminal counter per frame and returns its
 *               flat MIB index (the "outcome").
 *
 * The stages are pure: an mbuf and a MIB block in, an outcome out. They never
 * modify the mbuf (Linux's trim of padding beyond tot_len is done logically:
 * L4 sees tot_len bytes) and never allocate, so the same frame can be
 * processed again (the generator's reuse mode) and they can be unit-tested
 * with hand-built mbufs, without EAL.
 *
 * Thread-safety: a path_conf is read-only once built and may be shared by
 * all workers; each worker passes its own MIB block.
 *
 * The semantics are those of Linux 6.18 with the common distribution
 * configuration (CONFIG_NETLABEL=y, CONFIG_IP_PIMSM_V2=y, no module loaded
 * that registers another IP protocol) and default sysctls (forwarding,
 * rp_filter, accept_source_route, accept_local, route_localnet off;
 * icmp_echo_ignore_broadcasts and icmp_ignore_bogus_error_responses on;
 * lo up with 127.0.0.1). path_conf's netlabel and pim follow the kernel
 * configuration where a user's kernel differs.
 *
 * Fragments for this host are reassembled as ip_defrag and ipv6_frag_rcv
 * do, in a worker's struct path_frag (path_rcv_frag(), path_frag.c,
 * path6_frag.c); path_rcv() has none and behaves as a kernel with
 * ipfrag_high_thresh and ip6frag_high_thresh 0.
 *
 * Where pktpath differs from Linux (documented in lib/path/README.md):
 *  - Reassembly charges a fragment its 2 KiB blocks (the kernel its skb's
 *    truesize) against --frag-high, and does not model ipfrag_max_dist
 *    (inetpeer's per-source fragment count).
 *  - Udp/UdpLite InDatagrams is counted at delivery (Linux counts it at
 *    recvmsg); a listener's bad checksum is counted at delivery too.
 *  - Nothing is transmitted: IPv6's Out* counters count what Linux would
 *    send (ICMPv6 errors under its rate limits, kept per worker where the
 *    kernel's global bucket is the namespace's: path_rlim), IPv4's stay 0.
 *  - VLAN devices are configuration (path_conf.vlan): a tag is received
 *    by a device declared for its TPID and VID, as vlan_do_receive does,
 *    and makes the frame PACKET_OTHERHOST otherwise; a declared device has
 *    the port's MAC address, is up and has no ingress hook of its own (the
 *    hook is the port's: tc ingress on the real device).
 *  - No TCP socket exists: ICMP errors quoting TCP always count Icmp InErrors.
 *  - A CIPSO option with NetLabel is refused as on a host with no DOI
 *    configured; DOI definitions are not modelled.
 *  - IGMP and PIM are consumed and counted in Path IgmpDelivered and
 *    PimDelivered (Linux has no MIB for them).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "mib.h"
#include "peer.h"
#include "pkt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PATH_MAX_LOCAL 64	/**< local addresses (--local) */
#define PATH_MAX_MCAST 64	/**< joined multicast groups (--mcast) */
#define PATH_MAX_LOCAL6 16	 /**< local IPv6 addresses (--local6) */
#define PATH_MAX_MCAST6 16	 /**< joined IPv6 groups (--mcast6) */

/** A local address with the prefix of its subnet, host byte order. */
struct path_local {
	uint32_t addr;
	uint8_t prefix_len;	/**< 0..32 */
};

/** A local IPv6 address with the prefix of its subnet (an on-link route),
 *  network byte order. */
struct path_local6 {
	uint8_t addr[16];
	uint8_t prefix_len; /**< 1..128 */
};

#define PATH_VLAN_DEPTH PKT_VLAN_DEPTH	/**< VLAN devices on VLAN devices: QinQ */
#define PATH_MAX_VLAN_QINQ 4096	/**< VLAN devices on a VLAN device */

/**
 * The VLAN devices of a port, as `ip link add link PORT name PORT.A type vlan
 * [protocol 802.1ad] id A` and `ip link add link PORT.A name PORT.A.B type
 * vlan id B` make them: each keyed, as vlan_find_dev() keys it, by its TPID
 * (802.1Q or 802.1ad) and VID (1..4094), on the port or on one of the
 * port's VLAN devices (QinQ); none after path_conf_init(), as on a host
 * without any. Every device is up and has the port's MAC address.
 */
struct path_vlans {
	/** On the port: bit VID of port[0] (802.1Q) or port[1] (802.1ad). */
	uint64_t port[2][4096 / 64];
	unsigned int n_qinq;
	/** On a VLAN device of the port: sorted keys, the outer device's
	 *  (TPID bit << 12 | VID) << 13 | the inner one's. */
	uint32_t qinq[PATH_MAX_VLAN_QINQ];
};

/** Read-only configuration of the path, shared by all workers. */
struct path_conf {
	struct rte_ether_addr mac;	/**< the receiving port's MAC */
	unsigned int n_local;
	struct path_local local[PATH_MAX_LOCAL];
	unsigned int n_mcast;
	uint32_t mcast[PATH_MAX_MCAST];	/**< joined groups, host order;
					   224.0.0.1 is always joined */
	uint64_t udp_ports[65536 / 64];	/**< bitmap: UDP ports with a listener */
	uint64_t udplite_ports[65536 / 64];	/**< bitmap: UDP-Lite ports with a listener */
	bool netlabel; /**< CONFIG_NETLABEL: a CIPSO (and CALIPSO) option
			     needs a DOI (default true) */
	bool pim;      /**< CONFIG_IP_PIMSM_V2 and CONFIG_IPV6_PIMSM_V2: protocol
			     103 has pim_rcv and pim6_rcv (default true) */
	/** IPv6: the global addresses of the port (its link-local address,
	 *  fe80::/64 from its MAC as EUI-64, is always there). */
	unsigned int n_local6;
	struct path_local6 local6[PATH_MAX_LOCAL6];
	/** IPv6 groups joined besides those the kernel joins (ff02::1, ff01::1
	 *  and the solicited-node group of every address). */
	unsigned int n_mcast6;
	uint8_t mcast6[PATH_MAX_MCAST6][16];
	/** Checksums (path_csum.h): 1 to honour the mbuf's RX checksum flags
	 *  (--rx-csum hw; 0: verify everything in software). */
	uint8_t csum_hw;
	/** 1: an L4 checksum field that holds the pseudo-header sum is a
	 *  partial checksum (CHECKSUM_PARTIAL) that the kernel left to the
	 *  device; for PMDs that lose the kernel's checksum state. */
	uint8_t csum_partial;
	/** The port's VLAN devices (path_vlans_add), last: only tagged
	 *  frames read it. */
	struct path_vlans vlan;
};

/** Linux skb->pkt_type. */
enum path_pkt_type {
	PATH_PKT_HOST,
	PATH_PKT_BROADCAST,
	PATH_PKT_MULTICAST,
	PATH_PKT_OTHERHOST,
	PATH_PKT_MAX
};

/** What path_l2() learnt of a frame. */
struct path_l2 {
	uint16_t ethertype;	/**< inner ethertype, host order; 0 for a runt */
	uint16_t l3_off;	/**< offset of the L3 header */
	uint16_t tags;		/**< 802.1Q/802.1ad tags skipped (VID 0 included;
				   a frame has room for fewer than 2^16) */
	uint16_t vlan_tci;	/**< the TCI of the tag the innermost of the
				   vlan devices took, host order, if vlan */
	uint8_t pkt_type;	/**< enum path_pkt_type */
	uint8_t vlan;		/**< VLAN devices the frame went through
				   (0: received by the port itself) */
	uint8_t runt;		/**< 1 if shorter than its L2 header */
};

/** Initialise a conf: no local address, no group but 224.0.0.1, no port,
 * netlabel and pim on. */
void path_conf_init(struct path_conf *c);
/** Add a local address/prefix; -ENOSPC when full, -EINVAL if prefix > 32. */
int path_conf_add_local(struct path_conf *c, uint32_t addr, uint8_t prefix_len);
/** Join a multicast group; -EINVAL if not in 224/4, -ENOSPC when full. */
int path_conf_add_mcast(struct path_conf *c, uint32_t group);
/**
 * Add a local IPv6 address (network order) and the prefix of its subnet,
 * as `ip -6 addr add A/L dev PORT nodad` does: the address, an on-link
 * route to its prefix and its solicited-node group.
 * @return 0; -EINVAL for a prefix length outside 1..128, or an address
 *         that is unspecified, loopback, multicast or link-local (the
 *         link-local one is the port's, from its MAC); -ENOSPC when full.
 */
int path_conf_add_local6(struct path_conf *c, const uint8_t addr[16], uint8_t prefix_len);
/** Join IPv6 group g (network order); -EINVAL if not multicast or of
 *  interface-local or reserved scope (Linux drops those on receive),
 *  -ENOSPC when full. A group joined twice is one. */
int path_conf_add_mcast6(struct path_conf *c, const uint8_t g[16]);
/** Open (listen on) UDP ports lo..hi inclusive. */
void path_conf_add_udp_ports(struct path_conf *c, uint16_t lo, uint16_t hi);
/** Open (listen on) UDP-Lite ports lo..hi inclusive. */
void path_conf_add_udplite_ports(struct path_conf *c, uint16_t lo, uint16_t hi);
/**
 * Declare the VLAN devices stack s names: for a one-tag stack a device on
 * the port per VID of its range; for A.B, the devices A on the port and B
 * on each of them (ranges: every pair). A device declared twice is one.
 * @return 0; -EINVAL if s has no tag or more than PATH_VLAN_DEPTH, a TPID
 *         other than 802.1Q/802.1ad or a VID outside 1..4094; -ENOSPC past
 *         PATH_MAX_VLAN_QINQ devices on VLAN devices (v then holds part of
 *         s). Not thread-safe (configuration).
 */
int path_vlans_add(struct path_vlans *v, const struct pkt_vlan_stack *s);

/**
 * Per-burst tallies of the counters that every frame of a burst of common
 * traffic moves: Ip InReceives and InDelivers, IpExt InOctets and the ECN
 * split (InNoECTPkts, InECT1Pkts, InECT0Pkts, InCEPkts), Udp and UdpLite
 * InDatagrams, the Peer counters, and their IPv6 twins (Ip6 InReceives,
 * InDelivers, InOctets, the ECN split, Udp6 and UdpLite6 InDatagrams).
 *
 * The choice: these are counted per burst, as OVS's dpif-netdev counts per
 * batch (pmd_perf_update_counter) and VPP per frame of vectors
 * (vlib_node_increment_counter), not per packet as Linux's ip_rcv_core
 * does per skb (__IP_UPD_PO_STATS). A worker adds each frame to a tally on
 * its stack (plain increments, kept in registers or L1) and
 * path_tally_flush() moves the tally into its MIB block once per burst: one
 * relaxed load+store per counter per burst instead of one per counter per
 * frame. Every other counter (the terminal drops, the informational
 * subsets) still moves per frame, where it happens. A tally is meant to
 * hold one burst (its packet counts are 32-bit).
 *
 * What it changes for readers: between two flushes the tallied counters lag
 * the per-frame ones by at most the frames of one burst (a fold mid-burst
 * already could see a burst half counted); they stay monotonic, and once
 * the burst is flushed every counter is exact and every conservation law
 * holds, as before. path_rcv() and path_peer() flush their own tally, so
 * per-frame callers (tests, kdiffpath) see every counter at once.
 */
struct path_tally {
	uint64_t in_octets;		/**< IpExt InOctets */
	uint32_t in_receives;		/**< Ip InReceives */
	uint32_t in_delivers;		/**< Ip InDelivers */
	uint32_t ecn[4];		/**< IpExt InNoECTPkts + (tos & 3) */
	uint32_t udp_delivered[2];	/**< Udp, UdpLite InDatagrams */
	uint32_t peer_hits;		/**< Peer Hits (Lookups, Gets, Puts) */
	uint32_t peer_misses;		/**< Peer Misses (Lookups) */
	/* IPv6: flushed behind one test of in6_receives, so that a burst
	 * without IPv6 pays one compare for them. */
	uint32_t in6_receives;	    /**< Ip6 InReceives */
	uint32_t in6_delivers;	    /**< Ip6 InDelivers */
	uint64_t in6_octets;	    /**< Ip6 InOctets */
	uint32_t ecn6[4];	    /**< Ip6 InNoECTPkts + (traffic class & 3) */
	uint32_t udp6_delivered[2]; /**< Udp6, UdpLite6 InDatagrams */
};

/** An empty tally. */
static inline void path_tally_init(struct path_tally *t);

/** Add tally t to mib and empty it. Single writer (mib's owner). */
static inline void path_tally_flush(struct path_tally *t,
				    struct mib_block *mib);

/**
 * L2: classify the destination MAC against c->mac (eth_type_trans), then
 * take the 802.1Q / 802.1ad tags as __netif_receive_skb_core does with the
 * VLAN devices of c->vlan: a tag whose TPID and VID have a device on the
 * device that has the frame is received by it (vlan_do_receive) and the
 * next header looked at; a VID-0 (priority) tag with no device is stripped
 * and the next header looked at; any other tag makes the frame
 * PACKET_OTHERHOST (check_vlan_id), and what follows it is its ethertype.
 * Counts RxRunts, RxVlan (frames with any tag), RxVlanNoDevice (frames a
 * tag made PACKET_OTHERHOST), RxBroadcast and RxMulticast (informational,
 * not terminal). Inline (path_inline.h).
 */
static inline void path_l2(const struct path_conf *c, const struct rte_mbuf *m,
			   struct path_l2 *l2, struct mib_block *mib);

/* ---- ICMP rate limits (path_rlim.c) ---- */

#define PATH_RLIM_HZ \
	250 /**< the jiffies the limits count in: CONFIG_HZ of
			  *   Debian's kernels (and this project's machines) */
#define PATH_RLIM_MSGS_PER_SEC_DEFAULT 1000u /**< net.ipv4.icmp_msgs_per_sec */
#define PATH_RLIM_MSGS_BURST_DEFAULT   50u   /**< net.ipv4.icmp_msgs_burst */
#define PATH_RLIM_RATELIMIT6_DEFAULT \
	100u /**< net.ipv6.icmp.ratelimit, ms
					      *   (Linux 6.18.y since 0201eedb69b2;
					      *   1000 before) */
#define PATH_RLIM_SEED \
	UINT64_C(0x706b747061746821) /**< the random credit's
						     *   fixed seed */
#define PATH_RLIM_WAYS 4u	     /**< peers per set of the peer table */
#define PATH_RLIM_SETS 16u	     /**< sets of the peer table */

/** The limits icmp6_send applies (net/ipv4/icmp.c, net/ipv6/icmp.c). */
struct path_rlim_conf {
	/** false: no limit at all (every error is sent: what a conf that
	 *  does not name the limits gets, and path_rcv() without queues). */
	bool on;
	uint32_t msgs_per_sec;	/**< icmp_msgs_per_sec: the global bucket's refill */
	uint32_t msgs_burst;	/**< icmp_msgs_burst: its size */
	uint32_t ratelimit6_ms; /**< net.ipv6.icmp.ratelimit: ms between two
				 *   errors to one peer; 0: no per-peer limit */
	uint64_t hz;		/**< the clock's units per second (path_frag's:
				 *   the TSC's in pktpath) */
	uint64_t seed;		/**< the random credit's generator (PATH_RLIM_SEED) */
};

/** One destination's bucket (struct inet_peer: rate_tokens, rate_last). */
struct path_rlim_peer {
	uint8_t addr[16];
	uint64_t last;	 /**< rate_last, jiffies; 0: a free slot */
	uint64_t tokens; /**< rate_tokens, jiffies */
};

/**
 * One worker's ICMP rate limits: the global token bucket
 * (icmp_global_allow, icmp_global_consume: credit, stamp) and the
 * per-destination buckets (inet_peer_xrlim_allow) in a table of
 * PATH_RLIM_SETS x PATH_RLIM_WAYS peers. The kernel has one global bucket
 * per network namespace, shared by every CPU and by both families, and
 * one peer per address in its tree; pktpath has both per worker (no
 * lock, no atomic): N workers send up to N times the kernel's global
 * rate. Inside struct path_frag (the worker's mutable path state, with
 * its clock). Not thread-safe: its worker's only.
 */
struct path_rlim {
	struct path_rlim_conf conf;
	uint64_t tmo;	/**< ratelimit6_ms in jiffies (msecs_to_jiffies) */
	int64_t credit; /**< icmp_global_credit (may go below 0) */
	uint64_t stamp; /**< icmp_global_stamp, jiffies */
	uint64_t rng;	/**< the random credit's generator state */
	uint64_t now, j; /**< the last clock reading converted, its jiffies */
	struct path_rlim_peer peer[PATH_RLIM_SETS * PATH_RLIM_WAYS];
};

/** Make r's limits those of c (r's buckets as a new namespace has them:
 *  the global one refilled at its first use, no peer).
 *  @return 0, or -EINVAL for c->on with c->hz 0 or a value beyond
 *  INT32_MAX (the kernel's sysctls are ints). Not thread-safe. */
int path_rlim_init(struct path_rlim *r, const struct path_rlim_conf *c);

/** The jiffies of clock reading now (units of c->hz; the last one kept), plus 60 s and one
 *  so that a new peer's rate_last (jiffies - 60 * HZ) is never 0. */
uint64_t path_rlim_jiffies(struct path_rlim *r, uint64_t now);

/** get_random_u32_below(3) of icmp_global_consume, from the fixed-seed
 *  generator at *state (splitmix64; the kernel's is not reproducible):
 *  0, 1 or 2. Thread-safe for distinct states. */
static inline unsigned int
path_rlim_rand3(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return (unsigned int)(((z >> 32) * 3) >> 32);
}

/** icmp_global_allow at jiffies j: true if the global bucket lets one
 *  more message of a limited type go (refilling it). */
bool path_rlim_global_allow(struct path_rlim *r, uint64_t j);
/** icmp_global_consume: take 0, 1 or 2 credits (path_rlim_rand3). */
void path_rlim_global_consume(struct path_rlim *r);
/** inet_getpeer_v6 and inet_peer_xrlim_allow(peer, tmo) for destination
 *  addr at jiffies j: true if its bucket lets one more message go. */
bool path_rlim_peer_allow(struct path_rlim *r, uint64_t j, const uint8_t addr[16]);

/* ---- reassembly, both families (path_frag.c, path6_frag.c) ---- */

#define PATH_FRAG_HIGH_DEFAULT 4194304u /**< ipfrag_high_thresh's default, bytes */
#define PATH_FRAG_TIME_DEFAULT 30u	/**< ipfrag_time's default, seconds */
#define PATH_FRAG6_TIME_DEFAULT 60u	 /**< ip6frag_time's default, seconds */
#define PATH_FRAG_BLOCK	       2048u /**< a fragment's data is held in blocks of this */

/** What a reassembly context is made with. */
struct path_frag_conf {
	/** ipfrag_high_thresh: bytes of queued fragments (their blocks) and
	 *  queues beyond which a fragment is refused (ReasmFails); 0 refuses
	 *  every fragment. */
	uint64_t high_thresh;
	/** ipfrag_time in TSC cycles: a queue is freed (ReasmTimeout) this
	 *  long after its first fragment arrived. */
	uint64_t timeout;
	/** ip6frag_high_thresh: the same for IPv6 fragments, accounted
	 *  apart as the kernel's per-family fqdir is; 0 (the default of a
	 *  conf that does not name it) refuses every IPv6 fragment. */
	uint64_t high_thresh6;
	/** ip6frag_time in TSC cycles (needed when high_thresh6 is not 0). */
	uint64_t timeout6;
	/** The ICMP rate limits of the context (struct path_rlim); zero: none. */
	struct path_rlim_conf rlim;
};

/** Reassembly state of one family (the kernel's struct fqdir). */
struct path_frag_fam {
	uint64_t high_thresh, timeout; /**< from the conf */
	uint64_t mem;		       /**< accounted bytes (frag_mem_limit) */
	uint32_t n_queues;	       /**< live queues */
	uint32_t max_queues;	       /**< its share of the queues (as many as
					*   its blocks): one family's queues
					*   never take the other's */
	uint32_t oldest, newest;       /**< queues in creation (= deadline) order */
};

/**
 * One worker's reassembly queues, IPv4 and IPv6 (the kernel's two per-netns
 * fqdirs, each with its memory, limit and timeout in a struct
 * path_frag_fam), all preallocated by path_frag_create() and shared by the
 * two families: the queues, a hash of them, the
 * fragment records and the blocks their data is copied into (the frame's
 * mbuf is freed as any other), sized so that high_thresh bytes can be
 * queued plus the fragment that crosses it, and a 64 KiB mbuf the
 * reassembled datagram is built in. Nothing is allocated per packet: a
 * flood of incomplete fragments fills the accounted memory up to
 * high_thresh and is then refused, as ip_defrag refuses it.
 *
 * The fields are path_frag.c's; the two first are read inline by
 * path_frag_tick(). Not thread-safe: one context per worker, used by its
 * lcore only.
 */
struct path_frag {
	uint64_t now;	      /**< the clock: the last path_frag_tick()'s TSC */
	uint64_t next_expiry; /**< the oldest queue's deadline; UINT64_MAX: none */
	struct path_frag_conf conf;
	uint64_t mem;	   /**< accounted bytes, both families */
	uint32_t n_queues; /**< live queues, both families */
	uint32_t max_queues, n_buckets, n_blocks;
	struct path_frag_fam fam[2]; /**< [0] IPv4, [1] IPv6 */
	uint32_t free_queue, free_ent, free_block;
	uint32_t *bucket;
	struct path_frag_queue *queue;
	struct path_frag_ent *ent;
	uint32_t *block_next;
	uint8_t *block;
	struct rte_mbuf *dgram; /**< where a reassembled datagram is built */
	struct rte_mbuf *dgram_tail; /**< its second segment, past 65535 bytes */
	bool rte;		/**< allocated with rte_malloc */
	/** The worker's ICMP rate limits (conf.rlim), on f's clock: the
	 *  path's other per-worker state, read only when an ICMPv6 error
	 *  would be sent. */
	struct path_rlim rlim;
};

/** Bytes path_frag_create(fc) allocates. Thread-safe. */
uint64_t path_frag_bytes(const struct path_frag_conf *fc);

/**
 * Make a reassembly context: on NUMA socket `socket` with rte_malloc, or
 * with the C library when socket < 0 (tests, without EAL). Its clock
 * starts at 0.
 * @return the context, or NULL with rte_errno ENOMEM (or EINVAL: a
 *         high_thresh beyond 2^40 or a zero timeout). Not thread-safe.
 */
struct path_frag *path_frag_create(const struct path_frag_conf *fc, int socket);

/** Free a context (NULL: nothing). Not thread-safe. */
void path_frag_free(struct path_frag *f);

/** Free the queues due by f->now: ReasmFails and ReasmTimeout each, Ip or
 *  Ip6 (ip_expire, ip6_frag_expire). Called by path_frag_tick(); single
 *  writer (mib's owner). */
void __path_frag_expire(struct path_frag *f, struct mib_block *mib);

/**
 * Set f's clock to now (a TSC reading, non-decreasing) and free the queues
 * whose ipfrag_time (ip6frag_time) has passed, as ip_expire does. A
 * queue's deadline is fixed when it is made and every queue of a family
 * has the same timeout, so creation order is deadline order: the check is
 * one compare of now with the earlier of the two families' oldest
 * deadlines, inline; no timer thread (pktpath's workers call it when
 * their loop starts and every APP_FLUSH_POLLS polls).
 * Single writer: f's and mib's owner.
 */
static inline void
path_frag_tick(struct path_frag *f, uint64_t now, struct mib_block *mib)
{
	f->now = now;
	if (unlikely(now >= f->next_expiry))
		__path_frag_expire(f, mib);
}

/**
 * Everything after the ingress hook: RxNotIp, RxOtherHost, or ip_rcv and the
 * rest of the path. Moves exactly one terminal counter (plus informational
 * ones such as InReceives, InOctets, ECN, Mcast/Bcast, csum subsets).
 * Inline (path_inline.h): path_rcv_tally() and path_tally_flush().
 *
 * @return the flat MIB index of the terminal counter moved, e.g.
 *         MIB_F(UDP, INDATAGRAMS) for a delivered datagram.
 */
static inline unsigned int path_rcv(const struct path_conf *c,
				    const struct rte_mbuf *m,
				    const struct path_l2 *l2,
				    struct mib_block *mib);

/**
 * path_rcv() for a worker's burst: the tallied counters (struct path_tally)
 * are added to t, the others move in mib as in path_rcv(). The terminal it
 * returns has moved once t is flushed.
 */
static inline unsigned int path_rcv_tally(const struct path_conf *c,
					  const struct rte_mbuf *m,
					  const struct path_l2 *l2, struct mib_block *mib,
					  struct path_tally *t, struct path_frag *frag);

/**
 * path_rcv() with the reassembly queues of frag (NULL: none, as
 * ipfrag_high_thresh 0: every fragment fails). A fragment ip_defrag keeps
 * ends in Path IpFragQueued, one it frees at once in Path IpFragDropped;
 * the fragment that completes a datagram goes on as the datagram (the L4
 * outcome, InDelivers), as the kernel's ip_local_deliver does. Every
 * fragment counts ReasmReqds, so ReasmReqds = IpFragQueued + IpFragDropped
 * + ReasmOKs. IPv6 likewise (Ip6FragQueued, Ip6FragDropped), except that
 * ipv6_frag_rcv counts Ip6 ReasmReqds before its header checks, so Ip6
 * ReasmReqds = Ip6FragQueued + Ip6FragDropped + Ip6 ReasmOKs + the
 * fragments those checks end in Ip6 InHdrErrors (lib/path/README.md).
 * frag's clock is the last path_frag_tick()'s.
 */
static inline unsigned int path_rcv_frag(const struct path_conf *c,
					 const struct rte_mbuf *m,
					 const struct path_l2 *l2, struct mib_block *mib,
					 struct path_frag *frag);

/**
 * True if outcome (a path_rcv() return) is a delivery to a listener: its row
 * in the MIB field table has the role MIB_ROLE_DELIVER. Inline, one table
 * load: it runs per packet with --peer on and --capture-what drops.
 * Thread-safe.
 */
static inline bool
path_outcome_delivered(unsigned int outcome)
{
	return mib_field_role(outcome) == MIB_ROLE_DELIVER;
}

/**
 * The inetpeer-like stage (--peer on), for a packet path_rcv() delivered:
 * look up in t the peer lcore charges its source address to
 * (peer_target(): the address itself, or lcore's own peer of its block),
 * take and drop a reference, touch the last-use time with now. Moves the
 * Peer counters. Thread-safe: any number of workers on the same table, each
 * with its own lcore index (see peer.h). Inline (path_inline.h).
 */
static inline void path_peer(const struct peer_table *t, const struct rte_mbuf *m,
			     const struct path_l2 *l2, unsigned int lcore, uint64_t now,
			     struct mib_block *mib);

/** path_peer() for a worker's burst: the Peer counters go to tally t. */
static inline void path_peer_tally(const struct peer_table *pt, const struct rte_mbuf *m,
				   const struct path_l2 *l2, unsigned int lcore,
				   uint64_t now, struct path_tally *t);

#ifdef __cplusplus
}
#endif

#include "path_inline.h"

#endif /* PKTPATH_PATH_H */
