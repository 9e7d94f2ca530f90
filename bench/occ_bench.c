/* occ_bench.c: occupancy evaluations per second through the library
 * (px_occ_compute), over a fixed pseudo-random set of configurations on
 * every embedded arch. Built and run by bench/occupancy.py; prints
 * "evaluations N seconds S rate R". */
#include <stdio.h>
#include <time.h>

#include "arch.h"
#include "occupancy.h"

int main(void)
{
	struct px_diags d = {0};
	struct px_archset *s = px_archset_new(&d);
	if (!s)
		return 1;
	enum { NQ = 4096 };
	static struct px_occ_query q[NQ];
	static const struct px_arch *a[NQ];
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < NQ; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a[i] = px_archset_at(s, x % px_archset_count(s));
		q[i].threads = 1 + (uint32_t)(x >> 8) % 1024;
		q[i].registers = (uint32_t)(x >> 20) % 256;
		q[i].shared = (uint32_t)(x >> 28) % 49152;
		q[i].dynamic_shared = (uint32_t)(x >> 40) % 16384;
		q[i].carveout = (int32_t)((x >> 50) % 102) - 1;
		q[i].optin = (x >> 60) & 1;
		q[i].barriers = 1;
	}
	struct timespec t0, t1;
	uint64_t n = 0, sink = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double el = 0;
	do {
		for (int r = 0; r < 1000; r++)
			for (int i = 0; i < NQ; i++) {
				struct px_occ_result res;
				px_occ_compute(a[i], &q[i], &res);
				sink += res.blocks_per_sm;
			}
		n += 1000ull * NQ;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		el = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	} while (el < 1.0);
	printf("evaluations %llu seconds %.3f rate %.0f (checksum %llu)\n", (unsigned long long)n, el,
	       n / el, (unsigned long long)sink);
	px_archset_delete(s);
	return 0;
}
