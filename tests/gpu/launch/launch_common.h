/* launch_common.h: what the launch-feasibility programs record. Each
 * program launches its kernels at the sites the checker names by line
 * (tests/check_launch_hw.py) and prints one JSON object: per launch its
 * line, kernel, block, dynamic shared bytes and cudaGetLastError right
 * after the launch; per kernel cudaFuncGetAttributes (numRegs, static
 * shared, maxThreadsPerBlock); the cudaFuncSetAttribute opt-in results. */
#include <cstdio>
#include <cuda_runtime.h>

static int rec_count = 0;

/* After a launch on line `line`: the launch's own error (configuration
 * errors are reported synchronously), then a synchronize so that a
 * failing kernel cannot leak into the next record. */
static void rec(const char *file, int line, const char *kernel, unsigned threads, unsigned smem)
{
	cudaError_t e = cudaGetLastError();
	cudaError_t s = cudaDeviceSynchronize();
	cudaGetLastError();
	printf("%s\n    {\"file\": \"%s\", \"line\": %d, \"kernel\": \"%s\", \"threads\": %u, \"dynamic_shared\": %u, "
	       "\"error\": \"%s\", \"sync_error\": \"%s\"}",
	       rec_count++ ? "," : "", file, line, kernel, threads, smem, cudaGetErrorName(e), cudaGetErrorName(s));
}
#define REC(kernel, threads, smem) rec(__FILE__, __LINE__, kernel, threads, smem)

static void attrs(const char *name, const void *fn, int *first)
{
	cudaFuncAttributes a;
	cudaError_t e = cudaFuncGetAttributes(&a, fn);
	printf("%s\n    {\"kernel\": \"%s\", \"error\": \"%s\", \"numRegs\": %d, \"sharedSizeBytes\": %zu, "
	       "\"maxThreadsPerBlock\": %d, \"maxDynamicSharedSizeBytes\": %d, \"localSizeBytes\": %zu}",
	       (*first)++ ? "," : "", name, cudaGetErrorName(e), a.numRegs, a.sharedSizeBytes,
	       a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes, a.localSizeBytes);
}
#define ATTRS(k) attrs(#k, (const void *)k, &first)

static void optin(const char *file, int line, const char *kernel, const void *fn, int bytes)
{
	cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
	cudaGetLastError();
	fprintf(stderr, "%s:%d: opt-in %s %d: %s\n", file, line, kernel, bytes, cudaGetErrorName(e));
}
