/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PKTPATH_HOST_H
#define PKTPATH_HOST_H

/**
 * @file
 * What a DPDK process leaves on the host, and how pktpath and pktpath-bench
 * leave the host as they found it:
 *
 *  - hugepage files: the EAL maps each hugepage from a file in hugetlbfs
 *    and, unless told to unlink it, leaves the file there after the
 *    process; host_eal_args() adds --huge-unlink, so that none outlives the
 *    process however it ends (SIGKILL included);
 *  - the EAL's runtime directory (RUNTIME_DIRECTORY, else /var/run as root,
 *    else XDG_RUNTIME_DIR or /tmp; then dpdk/PREFIX, PREFIX the
 *    --file-prefix, "rte" by default): rte_eal_init() makes it, even with
 *    --no-shconf, and nothing removes it; host_leave_as_found() removes at
 *    exit what the process made there.
 *
 * Call both before rte_eal_init(), on the main thread; neither is
 * thread-safe (they run once, before any thread).
 *
 * What is not undone: a run ended by SIGKILL or by a second SIGINT/SIGTERM
 * (which exits at once, with _exit()) leaves its runtime directory; with
 * --single-file-segments (which --huge-unlink cannot join) or
 * --huge-unlink=never the EAL keeps its hugepage files, as asked.
 */

/**
 * The EAL arguments (argv up to "--") with --huge-unlink added, unless they
 * ask for no hugepages, in-memory, single-file segments, a secondary
 * process or say --huge-unlink=... themselves.
 *
 * @return argv, or a new array (kept for the life of the process; argv if
 *         it cannot be allocated); *argc updated.
 */
char **host_eal_args(int *argc, char **argv);

/**
 * Note whether the runtime directory the EAL arguments in argv name (its
 * --file-prefix) and its parent exist, and arrange (atexit()) that at the
 * process's exit, once the EAL's own exit handlers ran, what the process
 * made is removed: the EAL's files of a primary process in that directory
 * (config, hugepage_info, mp_socket, fbarray_*), then the directory, then
 * its parent dpdk/, each only if it did not exist before, is the one
 * rte_eal_get_runtime_dir() names, and holds nothing else (another
 * process's sockets: it is in use, and left).
 */
void host_leave_as_found(int argc, char **argv);

#endif /* PKTPATH_HOST_H */
