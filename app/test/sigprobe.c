/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktpath-sigprobe.so: LD_PRELOAD it into pktpath to raise a signal at one
 * chosen point from the libraries' initialisers to the launch, so that
 * integration/signals.sh sends a signal at each of them, deterministically:
 *   PKTPATH_SIGPROBE=POINT:SIG        SIG: INT or TERM
 * The points, in the order a run reaches them:
 *   ctor       this module's constructor: before main(), with the other
 *              libraries' initialisers (the loader ran pktpath's
 *              .preinit_array before all of them)
 *   eal        rte_eal_init() entered
 *   telemetry  rte_telemetry_init(): inside EAL init, its runtime
 *              directory made
 *   eal-done   rte_eal_init() returned
 *   setup      the first rte_zmalloc() after it: set-up's first allocation
 *   pool       the first mbuf pool (rte_pktmbuf_pool_create() or
 *              rte_mempool_create_empty())
 *   port       rte_eth_dev_configure()
 *   thread     the first control thread after EAL init (the stats thread)
 *   launch     rte_eal_remote_launch() after EAL init: a worker starts
 *              (EAL init launches a function of its own on every lcore)
 * It writes "sigprobe: SIGNAME at POINT" to stderr, then raises the signal
 * in the calling thread (the handler runs before raise() returns), once.
 * Wraps those calls (DPDK shared linkage) and changes nothing else.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

static int eal_done;

/* At point p: raise the signal PKTPATH_SIGPROBE names, if it names p. */
static void
probe(const char *p)
{
	static int fired;
	const char *e = getenv("PKTPATH_SIGPROBE");
	const char *colon = e != NULL ? strchr(e, ':') : NULL;
	char line[96];
	int sig, n;

	if (fired || colon == NULL || strncmp(e, p, (size_t)(colon - e)) != 0 ||
	    p[colon - e] != '\0')
		return;
	sig = strcmp(colon + 1, "INT") == 0 ? SIGINT : SIGTERM;
	fired = 1;
	n = snprintf(line, sizeof(line), "sigprobe: SIG%s at %s\n",
		     sig == SIGINT ? "INT" : "TERM", p);
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
	raise(sig);
}

/* The next definition of name (the real one). */
static void *
real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (f == NULL) {
		fprintf(stderr, "sigprobe: %s not found\n", name);
		abort();
	}
	return f;
}

__attribute__((constructor)) static void
sigprobe_ctor(void)
{
	probe("ctor");
}

int
rte_eal_init(int argc, char **argv)
{
	int (*f)(int, char **) = (int (*)(int, char **))(uintptr_t)real("rte_eal_init");
	int rc;

	probe("eal");
	rc = f(argc, argv);
	eal_done = 1;
	probe("eal-done");
	return rc;
}

/* rte_telemetry_init() is internal and its arguments change from DPDK
 * release to release (22.11: the runtime directory, the version, a cpuset,
 * a log function and type): the wrapper hands on six integer registers as
 * they came (x86-64 System V), whatever it takes up to six. */
typedef int (*tel_init_fn)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
			   uintptr_t);
int rte_telemetry_init(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d,
		       uintptr_t e, uintptr_t f);
int
rte_telemetry_init(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e,
		   uintptr_t f)
{
	tel_init_fn next = (tel_init_fn)(uintptr_t)real("rte_telemetry_init");

	probe("telemetry");
	return next(a, b, c, d, e, f);
}

void *
rte_zmalloc(const char *type, size_t size, unsigned int align)
{
	void *(*f)(const char *, size_t, unsigned int) =
		(void *(*)(const char *, size_t, unsigned int))(uintptr_t)real("rte_zmalloc");

	if (eal_done)
		probe("setup");
	return f(type, size, align);
}

struct rte_mempool *
rte_pktmbuf_pool_create(const char *name, unsigned int n, unsigned int cache,
			uint16_t priv, uint16_t room, int socket)
{
	struct rte_mempool *(*f)(const char *, unsigned int, unsigned int, uint16_t,
				 uint16_t, int) =
		(struct rte_mempool *(*)(const char *, unsigned int, unsigned int,
					 uint16_t, uint16_t, int))(uintptr_t)
		real("rte_pktmbuf_pool_create");

	if (eal_done)
		probe("pool");
	return f(name, n, cache, priv, room, socket);
}

struct rte_mempool *
rte_mempool_create_empty(const char *name, unsigned int n, unsigned int elt_size,
			 unsigned int cache_size, unsigned int private_data_size,
			 int socket_id, unsigned int flags)
{
	struct rte_mempool *(*f)(const char *, unsigned int, unsigned int,
				 unsigned int, unsigned int, int, unsigned int) =
		(struct rte_mempool *(*)(const char *, unsigned int, unsigned int,
					 unsigned int, unsigned int, int,
					 unsigned int))(uintptr_t)
		real("rte_mempool_create_empty");

	if (eal_done)
		probe("pool");
	return f(name, n, elt_size, cache_size, private_data_size, socket_id, flags);
}

int
rte_eth_dev_configure(uint16_t port, uint16_t nb_rx, uint16_t nb_tx,
		      const struct rte_eth_conf *conf)
{
	int (*f)(uint16_t, uint16_t, uint16_t, const struct rte_eth_conf *) =
		(int (*)(uint16_t, uint16_t, uint16_t, const struct rte_eth_conf *))
		(uintptr_t)real("rte_eth_dev_configure");

	probe("port");
	return f(port, nb_rx, nb_tx, conf);
}

int
rte_ctrl_thread_create(pthread_t *thread, const char *name,
		       const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	int (*f)(pthread_t *, const char *, const pthread_attr_t *,
		 void *(*)(void *), void *) =
		(int (*)(pthread_t *, const char *, const pthread_attr_t *,
			 void *(*)(void *), void *))(uintptr_t)real("rte_ctrl_thread_create");

	if (eal_done)
		probe("thread");
	return f(thread, name, attr, start, arg);
}

int
rte_eal_remote_launch(lcore_function_t *fn, void *arg, unsigned int lcore)
{
	int (*f)(lcore_function_t *, void *, unsigned int) =
		(int (*)(lcore_function_t *, void *, unsigned int))(uintptr_t)
		real("rte_eal_remote_launch");

	if (eal_done)
		probe("launch");
	return f(fn, arg, lcore);
}
