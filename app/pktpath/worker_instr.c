/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The instrumented variants of the receive loop (--stage-cycles,
 * --perf-detail): worker.c compiled with WORKER_INSTR 1, in a unit of its
 * own (see worker.c).
 */
#define WORKER_INSTR 1
#include "worker.c"
