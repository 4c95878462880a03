/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_PKT_PVT_H
#define PKTPATH_PKT_PVT_H

/*
 * What the files of lib/pkt share and nobody else uses: the pcap writer
 * (pcap_out.c) behind --capture and pkt_templates_to_pcap().
 *
 * Why not libpcap's pcap_dump: it writes through stdio and returns
 * nothing, so a full file system shows only later, as a flush that failed
 * somewhere in a buffer of records, and the frames in the file can no
 * longer be counted. This writer buffers whole records itself, writes them
 * with write(2) (base_file_write_all()), and knows after every write how
 * many whole records the file holds: after a failed write it cuts a
 * regular file back to its last whole record, so that what libpcap and
 * tcpdump read is exactly what it counted. The format is libpcap's own:
 * the 24-byte file header (magic 0xa1b2c3d4 in host order, version 2.4,
 * the snaplen, LINKTYPE_ETHERNET), then per frame a 16-byte record header
 * (seconds, microseconds, captured and original length) and the bytes.
 *
 * Not thread-safe: one writer per file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pkt_pcap_out {
	int fd;
	uint8_t *buf;		/* whole records not written yet */
	size_t len, cap;	/* bytes in buf; its size */
	uint32_t n_buf;		/* records in buf */
	uint64_t bytes;		/* the file: its header and whole records */
	uint64_t frames;	/* whole records in the file */
	int err;		/* the first failed write or cut (-errno); 0 */
	int cut_err;		/* cutting the partial record back failed (-errno) */
	bool regular;		/* a regular file (it can be cut back) */
};

/**
 * Open file as every output is (base.h, "Files") and write the file
 * header. o is left closed on failure.
 * @return 0, or -errno with one line naming file in err (the open's
 *         refusal, or "FILE: write: No space left on device (0 of 24 bytes
 *         written)").
 */
int pkt_pcap_out_open(struct pkt_pcap_out *o, const char *file, uint32_t snaplen,
		      char *err, size_t errlen);

/**
 * Queue one frame (caplen bytes of data, len on the wire, its time in
 * microseconds since the epoch), writing the queue first when the frame
 * does not fit. Once a write has failed every frame is refused.
 * @return 0, or o->err (the frame is not in the file; neither are those
 *         the failed write lost: o->frames says how many are).
 */
int pkt_pcap_out_add(struct pkt_pcap_out *o, uint64_t usec, uint32_t caplen,
		     uint32_t len, const void *data);

/**
 * Write what is queued. After a failed write the records it carried whole
 * are counted in o->frames, the rest dropped, and a regular file is cut
 * back to o->bytes.
 * @return 0, or o->err.
 */
int pkt_pcap_out_flush(struct pkt_pcap_out *o);

/**
 * Flush, then finish the file (fsync() of a regular file, close()).
 * @return 0, or the first error (o->err is set to it). NULL-safe on a
 *         closed o (fd < 0): 0.
 */
int pkt_pcap_out_close(struct pkt_pcap_out *o);

#endif /* PKTPATH_PKT_PVT_H */
