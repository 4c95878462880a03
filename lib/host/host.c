/* SPDX-License-Identifier: BSD-3-Clause */
/* Hugepage files and the EAL's runtime directory. See host.h. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "host.h"

/* An EAL argument, before "--": the options that keep hugepage files from
 * being unlinked at mapping, or say how themselves. */
char **
host_eal_args(int *argc, char **argv)
{
	static const char *const keep[] = { "--no-huge", "--in-memory",
		"--huge-unlink", "--single-file-segments", "--proc-type" };
	static char unlink_opt[] = "--huge-unlink";
	char **out;
	int i, j;
	unsigned int k;

	for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++)
		for (k = 0; k < RTE_DIM(keep); k++)
			if (strncmp(argv[i], keep[k], strlen(keep[k])) == 0)
				return argv;
	/* Hugepage files unlinked as soon as they are mapped: none is left
	 * in /dev/hugepages however the process ends (SIGKILL included). */
	out = calloc((size_t)*argc + 2, sizeof(*out));
	if (out == NULL)
		return argv;
	out[0] = argv[0];
	out[1] = unlink_opt;
	for (i = 1, j = 2; i < *argc; i++, j++)
		out[j] = argv[i];
	out[j] = NULL;
	(*argc)++;
	return out;
}

/* What host_leave_as_found() noted before rte_eal_init(). */
static struct {
	char dir[PATH_MAX];	/* the runtime directory the EAL will use */
	char parent[PATH_MAX];	/* its dpdk/ */
	bool dir_made;		/* absent before: this process makes it */
	bool parent_made;
	pid_t owner;		/* a forked child's exit() removes nothing */
} rundir;

/*
 * The --file-prefix of the EAL arguments (the last one, as getopt_long
 * takes it: --file-prefix P, --file-prefix=P, or an abbreviation of it from
 * "--fi" on, which no other EAL option starts with); "rte" without one.
 */
static const char *
__host_prefix(int argc, char **argv)
{
	static const char name[] = "file-prefix";
	const char *p = "rte";
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i], *eq;
		size_t n;

		if (strncmp(a, "--", 2) != 0)
			continue;
		eq = strchr(a, '=');
		n = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (n < 2 || n >= sizeof(name) || strncmp(a + 2, name, n) != 0)
			continue;
		if (eq != NULL)
			p = eq + 1;
		else if (i + 1 < argc)
			p = argv[++i];
	}
	return p;
}

static bool
__host_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A file the EAL of a primary process makes in its runtime directory. */
static bool
__host_eal_file(const char *name)
{
	return strcmp(name, "config") == 0 || strcmp(name, "hugepage_info") == 0 ||
	       strcmp(name, "mp_socket") == 0 || strncmp(name, "fbarray_", 8) == 0;
}

/* At exit, after the EAL's own exit handlers (registered during
 * rte_eal_init(), after this one: they run first): remove what this
 * process made of its runtime directory. */
static void
__host_rundir_exit(void)
{
	struct dirent *e;
	bool only_ours = true;
	DIR *d;

	if (!rundir.dir_made || rundir.owner != getpid() ||
	    strcmp(rte_eal_get_runtime_dir(), rundir.dir) != 0)
		return;		/* not made here, or not the one foreseen */
	d = opendir(rundir.dir);
	if (d == NULL)
		return;
	while (only_ours && (e = readdir(d)) != NULL)
		only_ours = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
			    __host_eal_file(e->d_name);
	if (only_ours) {
		rewinddir(d);
		while ((e = readdir(d)) != NULL)
			if (__host_eal_file(e->d_name))
				unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	/* Each fails, harmlessly, while something else is in it. */
	if (only_ours && rmdir(rundir.dir) == 0 && rundir.parent_made)
		rmdir(rundir.parent);
}

void
host_leave_as_found(int argc, char **argv)
{
	const char *base = getenv("RUNTIME_DIRECTORY");	/* as the EAL picks it */
	int n;

	if (base == NULL)
		base = getuid() == 0 ? "/var/run" :
		       getenv("XDG_RUNTIME_DIR") != NULL ? getenv("XDG_RUNTIME_DIR") : "/tmp";
	n = snprintf(rundir.parent, sizeof(rundir.parent), "%s/dpdk", base);
	if (n < 0 || (size_t)n >= sizeof(rundir.parent))
		return;
	n = snprintf(rundir.dir, sizeof(rundir.dir), "%s/%s", rundir.parent,
		     __host_prefix(argc, argv));
	if (n < 0 || (size_t)n >= sizeof(rundir.dir))
		return;
	rundir.parent_made = !__host_is_dir(rundir.parent);
	rundir.dir_made = !__host_is_dir(rundir.dir);
	rundir.owner = getpid();
	atexit(__host_rundir_exit);
}
