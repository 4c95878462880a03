/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Programs: the log type, the engines' names, the defaults, freeing. What
 * every other file of lib/bpf may use; it uses none of them (the loads are
 * in bpfpcap.c, libpcap's side, and bpfobj.c, libbpf's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bpf.h>
#include <rte_log.h>

#include "base.h"
#include "pktbpf_pvt.h"

RTE_LOG_REGISTER(pktbpf_logtype, pktpath.bpf, INFO);

const char *const pktbpf_engine_names[PKTBPF_ENGINE_MAX] = {
	[PKTBPF_JIT] = "jit",
	[PKTBPF_INTERP] = "interp",
	[PKTBPF_LIBPCAP] = "libpcap",
};

const char *
pktbpf_engine_name(enum pktbpf_engine e)
{
	return BASE_ENUM_NAME(pktbpf_engine_names, e);
}

int
pktbpf_engine_parse(const char *s, enum pktbpf_engine *out)
{
	int i = base_name_index(pktbpf_engine_names, PKTBPF_ENGINE_MAX, s);

	if (i < 0)
		return -EINVAL;
	*out = (enum pktbpf_engine)i;
	return 0;
}

void
pktbpf_conf_init(struct pktbpf_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->engine = PKTBPF_JIT;
	c->netmask = 0;
	c->load_timeout_s = 5.0;
	c->cancel = NULL;
}

void
pktbpf_prog_free(struct pktbpf_prog *p)
{
	if (p == NULL)
		return;
	rte_bpf_destroy(p->bpf);
	free(p->cbpf);
	memset(p, PKTBPF_POISON, sizeof(*p));
	free(p);
}
