// ldsm_layout.cu: checks on the GPU the element layout simt_exec.c's
// exec_matrix gives ldmatrix and stmatrix (m8n8, 16-bit, x4, with and
// without .trans): each thread's register m holds, of matrix m, row
// lane / 4 at columns 2 (lane % 4) and the next (.trans: column lane / 4 at
// rows 2 (lane % 4) and the next), lanes 8m to 8m + 7 naming the rows.
// Prints the mismatches of each form (0 expected). Run with
//   nvcc -arch=sm_90 -o /tmp/ldsm bench/gpu/simt/ldsm_layout.cu && /tmp/ldsm
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned expect(int m, int t, bool trans) {
	unsigned lo, hi;
	if (!trans) {
		lo = m * 64 + (t / 4) * 8 + 2 * (t % 4);
		hi = lo + 1;
	} else {
		lo = m * 64 + (2 * (t % 4)) * 8 + t / 4;
		hi = lo + 8;
	}
	return lo | hi << 16;
}

template <bool TRANS>
__global__ void check(int *bad) {
	__shared__ __align__(16) unsigned short mat[256], back[256];
	int t = threadIdx.x;
	for (int e = t; e < 256; e += 32) mat[e] = (unsigned short)e;
	__syncwarp();
	unsigned a = (unsigned)__cvta_generic_to_shared(&mat[t * 8]), r[4];
	if (TRANS)
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
		             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
	else
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
		             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
	for (int m = 0; m < 4; m++)
		if (r[m] != expect(m, t, TRANS)) atomicAdd(&bad[0], 1);
	// stmatrix of the expected registers must give back the matrices
	unsigned b = (unsigned)__cvta_generic_to_shared(&back[t * 8]);
	unsigned x0 = expect(0, t, TRANS), x1 = expect(1, t, TRANS), x2 = expect(2, t, TRANS), x3 = expect(3, t, TRANS);
	if (TRANS)
		asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
		             :: "r"(b), "r"(x0), "r"(x1), "r"(x2), "r"(x3) : "memory");
	else
		asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
		             :: "r"(b), "r"(x0), "r"(x1), "r"(x2), "r"(x3) : "memory");
	__syncwarp();
	for (int e = t; e < 256; e += 32)
		if (back[e] != e) atomicAdd(&bad[1], 1);
}

int main(void) {
	int *bad, h[2];
	cudaMalloc(&bad, 8);
	for (int tr = 0; tr < 2; tr++) {
		cudaMemset(bad, 0, 8);
		if (tr) check<true><<<1, 32>>>(bad); else check<false><<<1, 32>>>(bad);
		cudaMemcpy(h, bad, 8, cudaMemcpyDeviceToHost);
		printf("%s: ldmatrix mismatches %d, stmatrix mismatches %d (%s)\n", tr ? ".trans" : "plain", h[0], h[1],
		       cudaGetErrorString(cudaGetLastError()));
	}
	return 0;
}
