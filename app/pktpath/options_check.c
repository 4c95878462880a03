/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checks across options: what each option is refused with (one line each,
 * naming the option), once the INI file and the command line are both read.
 */
#include <stdio.h>

#include "options_pvt.h"

bool
app_options_want_ingress(const struct app_options *o)
{
	return o->ingress_mode != INGRESS_OFF || o->rules[0] != '\0' ||
	       o->ingress_kind != APP_KIND_RULES ||
	       o->rules_alt[0] != '\0' || o->update_rate > 0 || o->n_compare > 0;
}

/* The first ingress option given (for messages), or NULL. */
static const char *
__opt_ingress_first(const struct app_options *o)
{
	return o->ingress_mode != INGRESS_OFF ? "--ingress" :
	       o->ingress_kind != APP_KIND_RULES ? "--ingress-kind" :
	       o->rules[0] != '\0' ? "--rules" :
	       o->rules_alt[0] != '\0' ? "--rules-alt" :
	       o->filter[0] != '\0' ? "--filter" :
	       o->bpf_obj[0] != '\0' ? "--bpf-obj" :
	       o->update_rate > 0 ? "--update-rate" : NULL;
}

int
__opt_check(const struct app_options *o)
{
	if (o->n_compare > 0 && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --compare: needs --path full\n");
		return -1;
	}
	if (o->path != APP_PATH_FULL && __opt_ingress_first(o) != NULL) {
		fprintf(stderr, "pktpath: %s: needs --path full (rx-only frees every "
			"frame untouched: nothing would be classified)\n",
			__opt_ingress_first(o));
		return -1;
	}
	if (o->n_rxq > 0 && o->source != APP_SRC_PORT) {
		fprintf(stderr, "pktpath: --rxq: only with --source port\n");
		return -1;
	}
	if ((o->mtu != 0 || o->mbuf_size != 0) && o->source != APP_SRC_PORT) {
		fprintf(stderr, "pktpath: --%s: only with --source port\n",
			o->mtu != 0 ? "mtu" : "mbuf-size");
		return -1;
	}
	if (o->template_file[0] != '\0' && o->source != APP_SRC_GEN) {
		fprintf(stderr, "pktpath: --template: only with --source gen\n");
		return -1;
	}
	if (o->update_rate > 0 && o->ingress_mode == INGRESS_NONE) {
		fprintf(stderr, "pktpath: --update-rate: refused with --ingress none "
			"(unguarded readers cannot survive rule updates)\n");
		return -1;
	}
	if (o->ingress_kind == APP_KIND_PCAP_FILTER && o->filter[0] == '\0') {
		fprintf(stderr, "pktpath: --ingress-kind pcap-filter: needs --filter EXPR\n");
		return -1;
	}
	if (o->ingress_kind == APP_KIND_BPF && o->bpf_obj[0] == '\0') {
		fprintf(stderr, "pktpath: --ingress-kind bpf: needs --bpf-obj FILE\n");
		return -1;
	}
	if (o->filter[0] != '\0' && o->ingress_kind != APP_KIND_PCAP_FILTER) {
		fprintf(stderr, "pktpath: --filter: only with --ingress-kind pcap-filter\n");
		return -1;
	}
	if (o->bpf_obj[0] != '\0' && o->ingress_kind != APP_KIND_BPF) {
		fprintf(stderr, "pktpath: --bpf-obj: only with --ingress-kind bpf\n");
		return -1;
	}
	if (o->rules[0] != '\0' && o->ingress_kind != APP_KIND_RULES) {
		fprintf(stderr, "pktpath: --rules: only with --ingress-kind rules\n");
		return -1;
	}
	if (o->peer && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --peer: needs --path full\n");
		return -1;
	}
	if (o->capture[0] != '\0' && o->path != APP_PATH_FULL) {
		fprintf(stderr, "pktpath: --capture: needs --path full (rx-only touches no packet)\n");
		return -1;
	}
	if (o->suspicious_us != APP_SUSPICIOUS_US_DEFAULT && !o->perf_detail) {
		fprintf(stderr, "pktpath: --suspicious-us: only with --perf-detail\n");
		return -1;
	}
	if (o->n_compare > 0 && o->duration_s <= 0) {
		fprintf(stderr, "pktpath: --compare: needs --duration > 0 (the length of a phase)\n");
		return -1;
	}
	if (o->flow.n_tags > 0 && o->source != APP_SRC_GEN) {
		fprintf(stderr, "pktpath: --vlan-tags: only with --source gen\n");
		return -1;
	}
	if (o->flow.n_tags > 0 && o->template_file[0] != '\0') {
		fprintf(stderr, "pktpath: --vlan-tags: not with --template (its "
			"frames are generated as they are in the file)\n");
		return -1;
	}
	if (o->flow.pkt_size < PKT_MIN_SIZE + 4 * o->flow.n_tags) {
		fprintf(stderr, "pktpath: --pkt-size: %u bytes leave no room for "
			"--vlan-tags' %u tags: at least %u\n", o->flow.pkt_size,
			o->flow.n_tags, PKT_MIN_SIZE + 4 * o->flow.n_tags);
		return -1;
	}
	if ((uint64_t)o->flow.dst_hi - o->flow.dst_lo >= PATH_MAX_LOCAL &&
	    o->n_local == 0) {
		fprintf(stderr, "pktpath: --dst: more than %d destinations; give --local\n",
			PATH_MAX_LOCAL);
		return -1;
	}
	return 0;
}
