# Sourced by run.sh and bench.sh: EAL memory on hugepages when the machine
# has them free (or, as root, can reserve them), else --no-huge; one line
# saying which. Sets:
#   HUGE_MEM   "hugepages" or "no-huge"
#   HUGE_DESC  the line printed ("memory: ...")
#   HUGE_EAL   EAL memory options: "--huge-unlink" (no hugepage file is
#              left behind, whatever ends the process) or
#              "--no-huge -m 512"
# huge_setup NEED_MB; huge_release (call from an EXIT trap)
# puts back what huge_setup reserved or mounted. PKTPATH_NO_HUGE=1 forces
# --no-huge; KEEP_HUGEPAGES=1 keeps a reservation made here.

HUGE_RESERVED=0
HUGE_MOUNTED=0
HUGE_MKDIR=0
HUGE_DIR=/dev/hugepages
HUGE_NR=/proc/sys/vm/nr_hugepages	# what huge_release writes 0 to

__huge_meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

__huge_mounted() { awk '$3 == "hugetlbfs" { f = 1 } END { exit !f }' /proc/mounts; }

__huge_nohuge() {
	HUGE_MEM=no-huge
	HUGE_EAL="--no-huge -m 512"
	HUGE_DESC="memory: --no-huge (4 KiB pages): $1"
}

huge_setup() {
	local need=${1:-512} pg total free free_mb
	if [ "${PKTPATH_NO_HUGE:-0}" = 1 ]; then
		__huge_nohuge "PKTPATH_NO_HUGE=1"
		echo "$HUGE_DESC"
		return 0
	fi
	pg=$(__huge_meminfo Hugepagesize)	# kB
	total=$(__huge_meminfo HugePages_Total)
	free=$(__huge_meminfo HugePages_Free)
	if [ -z "$pg" ] || [ "$pg" -eq 0 ]; then
		__huge_nohuge "the kernel has no hugepages"
		echo "$HUGE_DESC"
		return 0
	fi
	free_mb=$((free * pg / 1024))
	if [ "$free_mb" -lt "$need" ] && [ "$(id -u)" -eq 0 ] && [ "$total" -eq 0 ] &&
		command -v dpdk-hugepages.py >/dev/null 2>&1; then
		# Nobody uses hugepages here: reserve ours, give them back on exit.
		if dpdk-hugepages.py --reserve "${need}M" >/dev/null 2>&1; then
			HUGE_RESERVED=1
			free=$(__huge_meminfo HugePages_Free)
			free_mb=$((free * pg / 1024))
		fi
	fi
	if [ "$free_mb" -ge "$need" ] && ! __huge_mounted && [ "$(id -u)" -eq 0 ]; then
		if [ ! -d "$HUGE_DIR" ] && mkdir "$HUGE_DIR" 2>/dev/null; then
			HUGE_MKDIR=1
		fi
		if mount -t hugetlbfs nodev "$HUGE_DIR" 2>/dev/null; then
			HUGE_MOUNTED=1
		fi
	fi
	if [ "$free_mb" -lt "$need" ]; then
		huge_release
		if [ "$total" -gt 0 ]; then
			__huge_nohuge "$free_mb MiB of hugepages free, $need MiB needed (in use by others)"
		else
			__huge_nohuge "no hugepages reserved, and none could be (root: dpdk-hugepages.py --setup ${need}M)"
		fi
	elif ! __huge_mounted; then
		huge_release
		__huge_nohuge "no hugetlbfs mounted (root: mount -t hugetlbfs nodev $HUGE_DIR)"
	else
		HUGE_MEM=hugepages
		HUGE_EAL="--huge-unlink"
		local how=""
		[ "$HUGE_RESERVED" = 1 ] && how=", reserved for this run"
		HUGE_DESC="memory: hugepages ($((pg / 1024)) MiB pages, $free_mb MiB free$how; files unlinked: --huge-unlink)"
	fi
	echo "$HUGE_DESC"
}

huge_release() {
	if [ "$HUGE_MOUNTED" = 1 ] && [ "${KEEP_HUGEPAGES:-0}" != 1 ]; then
		umount "$HUGE_DIR" 2>/dev/null || true
		HUGE_MOUNTED=0
	fi
	if [ "$HUGE_MKDIR" = 1 ] && [ "${KEEP_HUGEPAGES:-0}" != 1 ]; then
		rmdir "$HUGE_DIR" 2>/dev/null || true
		HUGE_MKDIR=0
	fi
	if [ "$HUGE_RESERVED" = 1 ] && [ "${KEEP_HUGEPAGES:-0}" != 1 ]; then
		# Only free pages are released; pages still mapped stay until freed.
		echo 0 > "$HUGE_NR" 2>/dev/null || true
		HUGE_RESERVED=0
	fi
}
