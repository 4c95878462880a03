/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-device IPv6 MIBs of a run (--mib-devices, lib/mib/mib_dev.h) as
 * Linux shows them: a device's /proc/net/dev_snmp6/DEV (GET
 * /dev_snmp6/DEV, telemetry /pktpath/dev_snmp6,DEV) and a link dump that
 * folds every device's Ip6 and Icmp6 counters as rtnl_fill_ifinfo does for
 * each link of an RTM_GETLINK dump (GET /links, telemetry /pktpath/links).
 *
 * Both read the devices' blocks at request time (relaxed loads, as procfs
 * and rtnetlink read per-CPU MIBs), with the stats object's fold strategy
 * of the moment (--fold, or --compare fold=...'s phase). They are not the
 * snapshot sections of export_section.h: a section writes what a snapshot
 * holds into an output every writer produces, while these take a device
 * from the request and read the device set itself. Like /proc, they are
 * never cleared. They are rows of the control table (control.c): the pages
 * dev_snmp6 and links (HTTP's), and their telemetry twins
 * dev_snmp6/values and links/values, which write named values; the
 * handlers are here, beside the device set they read.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "base.h"
#include "control_pvt.h"
#include "mib_dev.h"

/*
 * The run's devices (export_devices_register()) and devs_lock, a
 * readers-writer lock over them. A reader (a link dump, a device's read,
 * the pages and their telemetry twins, --reader-links' threads) holds the
 * read side across its read of devs and of the devices' blocks: readers
 * share it, so dumps overlap and no reader queues behind another. The
 * blocks need no lock of their own: workers write them with relaxed
 * stores, readers fold them with relaxed loads (mib_dev.h). The write
 * side is registration and unregistration's: it orders the replacement
 * of devs (and so the end of what it points to, which the application
 * frees after export_devices_unregister()) after every read of the old
 * set, and every read of the new set after its registration. glibc's
 * writer-preferring kind: a stream of readers does not starve a teardown
 * (so no reader takes the read side twice). devs_gen counts
 * registrations: a reader that sized its buffer outside the lock tells
 * whether the set it sized for is still the registered one.
 * Registration happens at start-up, unregistration at teardown.
 */
static pthread_rwlock_t devs_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static struct export_devices devs;
static uint64_t devs_gen;

/* snmp6_dev_seq_show leaves Icmp6OutRateLimitHost out (the kernel counts
 * it per namespace only since Linux 6.17: "Per idev icmp stats do not
 * have ICMP6_MIB_RATELIMITHOST"); it must be the group's last. */
static_assert(MIB_ICMP6_OUTRATELIMITHOST == MIB_ICMP6_MAX - 1,
	      "OutRateLimitHost is not Icmp6's last counter");
#define DEV_ICMP6_SHOWN ((unsigned int)MIB_ICMP6_MAX - 1)

/* Device named name, or -1. Under devs_lock's read side. */
static int
__dev_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; devs.ds != NULL && i < mib_devset_devs(devs.ds); i++)
		if (strcmp(devs.names[i], name) == 0)
			return (int)i;
	return -1;
}

static void
__dev_line(FILE *out, const char *name, uint64_t v)
{
	fprintf(out, "%-32s\t%" PRIu64 "\n", name, v);
}

/* /proc/net/dev_snmp6/DEV's text (snmp6_dev_seq_show): ifIndex, the Ip6
 * group, Icmp6 without OutRateLimitHost, the messages by type; v holds
 * the device's MIB_DEV_FIELDS values (mib_dev_fold()). */
static int
__dev_snmp6(FILE *out, int ifindex, const uint64_t *v)
{
	char name[MIB_NAME_MAX + 16];
	unsigned int i;

	fprintf(out, "%-32s\t%d\n", "ifIndex", ifindex);
	for (i = 0; i < MIB_DEV_IP6 + DEV_ICMP6_SHOWN; i++)
		__dev_line(out,
			   mib_field_linux_name(MIB_BASE_IP6 + i, name, sizeof(name)),
			   v[i]);
	__export_snmp6_icmp6msg(out, v + MIB_BASE_ICMP6MSG - MIB_BASE_IP6);
	return ferror(out) ? -EIO : 0;
}

/* A link dump (mib_dev_dump()) of the registered set, timed. */
struct links_dump {
	enum mib_fold fold;
	unsigned int devs, lcores;
	double dump_us; /* the fold of every device, not the allocation */
	uint64_t *v;	/* devs x MIB_DEV_LINK_FIELDS, device major (malloc) */
};

/* Take devs_lock's read side with x->v sized for the set registered then,
 * allocated outside the lock (a set registered meanwhile: again). 0 with
 * the read side held; -ENODEV (no devices) or -ENOMEM, not held. */
static int
__links_rdlock(struct links_dump *x)
{
	uint64_t gen = 0;
	unsigned int n;

	x->v = NULL;
	for (;;) {
		pthread_rwlock_rdlock(&devs_lock);
		if (devs.ds == NULL) {
			pthread_rwlock_unlock(&devs_lock);
			free(x->v);
			return -ENODEV;
		}
		if (x->v != NULL && devs_gen == gen)
			return 0;
		n = mib_devset_devs(devs.ds);
		gen = devs_gen;
		pthread_rwlock_unlock(&devs_lock);
		free(x->v);
		x->v = malloc((size_t)n * MIB_DEV_LINK_FIELDS * sizeof(*x->v));
		if (x->v == NULL)
			return -ENOMEM;
	}
}

/* Under devs_lock's read side, x->v from __links_rdlock(). */
static void
__links_dump(struct links_dump *x)
{
	uint64_t t0, t1;

	x->fold = stats_get_fold(devs.s);
	x->devs = mib_devset_devs(devs.ds);
	x->lcores = mib_devset_lcores(devs.ds);
	t0 = rte_rdtsc_precise();
	mib_dev_dump(devs.ds, x->fold, x->v);
	t1 = rte_rdtsc_precise();
	x->dump_us = (double)(t1 - t0) * 1e6 / (double)rte_get_tsc_hz();
}

/* A link dump as JSON (GET /links, export_devices_json()): the dump's
 * values per device, its time and its fold. *rc 0, or -ENODEV (no
 * devices) or -ENOMEM with NULL. Takes devs_lock's read side, which the
 * document is built under (it names the devices): other readers go on. */
static json_t *
__links_json(int *rc)
{
	char name[MIB_NAME_MAX + 16];
	struct links_dump x;
	json_t *root, *links;
	unsigned int d, i;

	*rc = __links_rdlock(&x);
	if (*rc != 0)
		return NULL;
	__links_dump(&x);
	links = json_array();
	root = json_pack("{s:s, s:I, s:I, s:I, s:f, s:f, s:o}", "fold",
			 mib_fold_name(x.fold), "devices", (json_int_t)x.devs, "lcores",
			 (json_int_t)x.lcores, "fields", (json_int_t)MIB_DEV_LINK_FIELDS,
			 "dump_us", x.dump_us, "per_device_us", x.dump_us / x.devs,
			 "links", links);
	for (d = 0; root != NULL && d < x.devs; d++) {
		json_t *st = json_object();
		const uint64_t *v = x.v + (size_t)d * MIB_DEV_LINK_FIELDS;

		for (i = 0; st != NULL && i < MIB_DEV_LINK_FIELDS; i++)
			json_object_set_new(st,
					    mib_field_linux_name(MIB_BASE_IP6 + i, name,
								 sizeof(name)),
					    export_json_u64(v[i]));
		json_array_append_new(links,
				      json_pack("{s:i, s:s, s:o*}", "ifindex", (int)d + 1,
						"name", devs.names[d], "stats6", st));
	}
	pthread_rwlock_unlock(&devs_lock);
	free(x.v);
	if (root == NULL)
		*rc = -ENOMEM;
	return root;
}

int
export_devices_dump(double *ns)
{
	struct links_dump x;
	int rc;

	rc = __links_rdlock(&x);
	if (rc != 0)
		return rc;
	__links_dump(&x);
	pthread_rwlock_unlock(&devs_lock);
	*ns = x.dump_us * 1e3;
	free(x.v);
	return 0;
}

json_t *
export_devices_json(void)
{
	int rc;

	return __links_json(&rc);
}

/* ---- the control table's rows (control.c) ---- */

/* A link dump's refusal (rc from __links_rdlock()): -ENOENT for no
 * devices, -ENOMEM, the line in c->msg. */
static int
__links_refused(struct export_ctl_ctx *c, int rc)
{
	if (rc == -ENODEV) {
		snprintf(c->msg, sizeof(c->msg),
			 "no per-device MIBs in this run (--mib-devices N adds them)");
		return -ENOENT;
	}
	snprintf(c->msg, sizeof(c->msg), "out of memory");
	return rc;
}

/* A device's refusal: -errno, the line in c->msg. Under devs_lock's read
 * side. */
static int
__dev_refused(struct export_ctl_ctx *c)
{
	char q[BASE_QUOTE_LEN];

	if (devs.ds == NULL)
		return __links_refused(c, -ENODEV);
	snprintf(c->msg, sizeof(c->msg), "no device '%s' (GET /links lists them)",
		 base_quote(q, sizeof(q), c->text != NULL ? c->text : ""));
	return -ENOENT;
}

/* The device c->text names folded into v (MIB_DEV_FIELDS values), its
 * index in *dev, or -errno with the line in c->msg. Under devs_lock's
 * read side. */
static int
__dev_read(struct export_ctl_ctx *c, int *dev, uint64_t *v)
{
	if (devs.ds == NULL || c->text == NULL || (*dev = __dev_lookup(c->text)) < 0)
		return __dev_refused(c);
	mib_dev_fold(devs.ds, (unsigned int)*dev, stats_get_fold(devs.s), v);
	return 0;
}

/* Room for a device's values, allocated before devs_lock is taken; NULL
 * with the line in c->msg. */
static uint64_t *
__dev_values(struct export_ctl_ctx *c)
{
	uint64_t *v = malloc(MIB_DEV_FIELDS * sizeof(*v));

	if (v == NULL)
		snprintf(c->msg, sizeof(c->msg), "out of memory");
	return v;
}

int
__ctl_page_dev_snmp6(struct export_ctl_ctx *c)
{
	uint64_t *v = NULL;
	int d, rc = 0;
	FILE *f = __ctl_page(c, &rc);

	if (f == NULL)
		return rc;
	v = __dev_values(c);
	if (v == NULL)
		return -ENOMEM;
	pthread_rwlock_rdlock(&devs_lock);
	rc = __dev_read(c, &d, v);
	pthread_rwlock_unlock(&devs_lock);
	if (rc == 0)
		rc = __dev_snmp6(f, d + 1, v);
	free(v);
	if (rc == -EIO)
		snprintf(c->msg, sizeof(c->msg), "cannot write the page");
	return rc;
}

int
__ctl_page_links(struct export_ctl_ctx *c)
{
	int rc = 0;
	FILE *f = __ctl_page(c, &rc);
	json_t *j;

	if (f == NULL)
		return rc;
	j = __links_json(&rc);
	if (rc != 0)
		return __links_refused(c, rc);
	if (export_json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
	    fputc('\n', f) == EOF) {
		snprintf(c->msg, sizeof(c->msg), "cannot write the page");
		rc = -EIO;
	}
	json_decref(j);
	return rc;
}

/* snmp6_seq_show_icmpv6msg's lines of msg as named values, as long as a
 * telemetry dict has room (RTE_TEL_MAX_DICT_ENTRIES, used of it already):
 * the named types, then the non-zero ones by number. */
static void
__rd_icmp6msg(struct export_ctl_ctx *c, const uint64_t *msg, unsigned int used)
{
	unsigned int i, pass;
	char name[48];

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < MIB_ICMP6MSG_MAX; i++) {
			const char *p = mib_icmp6_type_name(i & 0xff);

			if (used == RTE_TEL_MAX_DICT_ENTRIES)
				return;
			if (pass == 0 && p != NULL)
				snprintf(name, sizeof(name), "Icmp6%s%s",
					 i & 0x100 ? "Out" : "In", p);
			else if (pass == 1 && msg[i] != 0)
				snprintf(name, sizeof(name), "Icmp6%sType%u",
					 i & 0x100 ? "Out" : "In", i & 0xff);
			else
				continue;
			__ctl_u64(c, name, msg[i]);
			used++;
		}
}

int
__ctl_read_dev_snmp6(struct export_ctl_ctx *c)
{
	char name[MIB_NAME_MAX + 16];
	uint64_t *v = NULL;
	unsigned int i, n;
	int d, rc = 0;

	if (c->text != NULL && (v = __dev_values(c)) == NULL)
		return -ENOMEM;
	pthread_rwlock_rdlock(&devs_lock);
	if (devs.ds != NULL && c->text == NULL) {
		/* no parameter: the devices */
		n = mib_devset_devs(devs.ds);
		__ctl_u64(c, "devices", n);
		__ctl_str(c, "first", devs.names[0]);
		__ctl_str(c, "last", devs.names[n - 1]);
		goto out;
	}
	rc = __dev_read(c, &d, v);
	if (rc != 0)
		goto out;
	__ctl_i64(c, "ifIndex", d + 1);
	for (i = 0; i < MIB_DEV_IP6 + DEV_ICMP6_SHOWN; i++)
		__ctl_u64(c, mib_field_linux_name(MIB_BASE_IP6 + i, name, sizeof(name)),
			  v[i]);
	__rd_icmp6msg(c, v + MIB_BASE_ICMP6MSG - MIB_BASE_IP6,
		      1 + MIB_DEV_IP6 + DEV_ICMP6_SHOWN);
out:
	pthread_rwlock_unlock(&devs_lock);
	free(v);
	return rc;
}

int
__ctl_read_links(struct export_ctl_ctx *c)
{
	struct links_dump dump;
	char buf[32];
	int rc;

	rc = __links_rdlock(&dump);
	if (rc != 0)
		return __links_refused(c, rc);
	__links_dump(&dump);
	__ctl_str(c, "fold", mib_fold_name(dump.fold));
	__ctl_u64(c, "devices", dump.devs);
	__ctl_u64(c, "lcores", dump.lcores);
	__ctl_u64(c, "fields", MIB_DEV_LINK_FIELDS);
	snprintf(buf, sizeof(buf), "%.3f", dump.dump_us);
	__ctl_str(c, "dump_us", buf);
	snprintf(buf, sizeof(buf), "%.4f", dump.dump_us / dump.devs);
	__ctl_str(c, "per_device_us", buf);
	pthread_rwlock_unlock(&devs_lock);
	free(dump.v);
	return 0;
}

int
export_devices_register(const struct export_devices *d)
{
	if (d == NULL || d->ds == NULL || d->names == NULL || d->s == NULL)
		return -EINVAL;
	pthread_rwlock_wrlock(&devs_lock);
	devs = *d;
	devs_gen++;
	pthread_rwlock_unlock(&devs_lock);
	return 0;
}

void
export_devices_unregister(void)
{
	pthread_rwlock_wrlock(&devs_lock);
	memset(&devs, 0, sizeof(devs));
	devs_gen++;
	pthread_rwlock_unlock(&devs_lock);
}
