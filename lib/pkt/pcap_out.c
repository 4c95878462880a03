/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcap writer of --capture and pkt_templates_to_pcap(): whole records,
 * every write checked, the file cut back to its last whole record when a
 * write fails (pkt_pvt.h says why not pcap_dump).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "pkt_pvt.h"

#define PCAP_OUT_BUF (256u << 10)	/* a record of 65535 bytes fits */
#define PCAP_HDR 24u
#define PCAP_REC_HDR 16u

struct __pcap_file_hdr {
	uint32_t magic;
	uint16_t major, minor;
	int32_t thiszone;
	uint32_t sigfigs;
	uint32_t snaplen;
	uint32_t linktype;
};

struct __pcap_rec_hdr {
	uint32_t sec, usec;
	uint32_t caplen, len;
};

_Static_assert(sizeof(struct __pcap_file_hdr) == PCAP_HDR, "pcap file header");
_Static_assert(sizeof(struct __pcap_rec_hdr) == PCAP_REC_HDR, "pcap record header");

int
pkt_pcap_out_open(struct pkt_pcap_out *o, const char *file, uint32_t snaplen,
		  char *err, size_t errlen)
{
	struct __pcap_file_hdr h = {
		.magic = 0xa1b2c3d4, .major = 2, .minor = 4,
		.snaplen = snaplen, .linktype = 1,	/* LINKTYPE_ETHERNET */
	};
	char qf[2 * BASE_QUOTE_LEN];
	struct stat st;
	size_t done = 0;
	int fd, rc;

	base_quote(qf, sizeof(qf), file);	/* as every message names it */
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->buf = malloc(PCAP_OUT_BUF);
	if (o->buf == NULL) {
		snprintf(err, errlen, "%s: out of memory", qf);
		return -ENOMEM;
	}
	fd = base_file_open_out(file, err, errlen);
	if (fd < 0) {
		free(o->buf);
		o->buf = NULL;
		return fd;
	}
	/* the header now: a capture of no frame is still a pcap file */
	rc = base_file_write_all(fd, &h, sizeof(h), &done);
	if (rc != 0)
		snprintf(err, errlen, "%s: write: %s (%zu of %zu bytes written)",
			 qf, strerror(-rc), done, sizeof(h));
	else if (fstat(fd, &st) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: stat: %s", qf, strerror(-rc));
	}
	if (rc != 0) {
		close(fd);
		free(o->buf);
		o->buf = NULL;
		return rc;
	}
	o->fd = fd;
	o->cap = PCAP_OUT_BUF;
	o->bytes = PCAP_HDR;
	o->regular = S_ISREG(st.st_mode);
	return 0;
}

/* The whole records among the first n bytes of the queue. */
static void
__whole(const struct pkt_pcap_out *o, size_t n, uint32_t *recs, size_t *bytes)
{
	size_t off = 0;
	uint32_t k = 0;

	while (off + PCAP_REC_HDR <= n) {
		struct __pcap_rec_hdr r;

		memcpy(&r, o->buf + off, sizeof(r));
		if (off + PCAP_REC_HDR + r.caplen > n)
			break;
		off += PCAP_REC_HDR + r.caplen;
		k++;
	}
	*recs = k;
	*bytes = off;
}

int
pkt_pcap_out_flush(struct pkt_pcap_out *o)
{
	size_t done = 0, whole;
	uint32_t recs;
	int rc;

	if (o->err != 0 || o->len == 0)
		return o->err;
	rc = base_file_write_all(o->fd, o->buf, o->len, &done);
	if (rc == 0) {
		o->frames += o->n_buf;
		o->bytes += o->len;
	} else {
		__whole(o, done, &recs, &whole);
		o->frames += recs;
		o->bytes += whole;
		o->err = rc;
		/* tcpdump then reads every frame counted, and no "truncated
		 * dump file" */
		if (o->regular && done > whole && ftruncate(o->fd, (off_t)o->bytes) != 0)
			o->cut_err = -errno;
	}
	o->len = 0;
	o->n_buf = 0;
	return o->err;
}

int
pkt_pcap_out_add(struct pkt_pcap_out *o, uint64_t usec, uint32_t caplen,
		 uint32_t len, const void *data)
{
	struct __pcap_rec_hdr r = {
		.sec = (uint32_t)(usec / 1000000u),
		.usec = (uint32_t)(usec % 1000000u),
		.caplen = caplen, .len = len,
	};

	if (o->err != 0)
		return o->err;
	if (PCAP_REC_HDR + (size_t)caplen > o->cap)
		return -EINVAL;
	if (o->len + PCAP_REC_HDR + caplen > o->cap && pkt_pcap_out_flush(o) != 0)
		return o->err;
	memcpy(o->buf + o->len, &r, sizeof(r));
	memcpy(o->buf + o->len + PCAP_REC_HDR, data, caplen);
	o->len += PCAP_REC_HDR + caplen;
	o->n_buf++;
	return 0;
}

int
pkt_pcap_out_close(struct pkt_pcap_out *o)
{
	int rc;

	if (o->fd < 0)
		return 0;
	pkt_pcap_out_flush(o);
	rc = base_file_close_out(o->fd);
	o->fd = -1;
	if (o->err == 0)
		o->err = rc;
	free(o->buf);
	o->buf = NULL;
	return o->err;
}
