/* test_cuda.c: the CUDA front end (analyzer/cuda) on small sources with
 * hand-worked values: constant folding of __shared__ sizes (macros, -D,
 * enum, constexpr, sizeof of built-in and struct types), launch sites
 * (<<<>>> with dim3 and folded arithmetic, cudaLaunchKernel, the vexing
 * `dim3 b(TILE, ROWS)`), opt-ins and their order, annotations and
 * bad-annotation, suppressions, and the compile_commands.json reader. */
#include <criterion/criterion.h>
#include <string.h>

#include "cuda/cuda.h"

static struct px_cuda_file *parse(const char *src, const struct px_cuda_options *opt, struct px_diags *d)
{
	struct px_cuda_options none = {0};
	struct px_cuda_file *f = px_cuda_parse("t.cu", src, strlen(src), opt ? opt : &none, d);
	cr_assert_not_null(f);
	return f;
}

static const struct px_cuda_func *func(const struct px_cuda_file *f, const char *name)
{
	int32_t i = px_cuda_find_func(f, name, strlen(name));
	cr_assert_geq(i, 0, "no function %s", name);
	return &f->funcs[i];
}

static size_t count_rule(const struct px_diags *d, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		n += d->items[i].rule && !strcmp(d->items[i].rule, rule);
	return n;
}

Test(cuda_fold, shared_sizes_from_macros_enum_constexpr_sizeof)
{
	static const char src[] =
		"#define TILE 32\n"
		"enum { B = 128 };\n"
		"constexpr int R = 4;\n"
		"struct S { float a; int b[3]; };\n"
		"__global__ void k(float *p) {\n"
		"  __shared__ float t[TILE][TILE + 1];\n"      /* 32*33*4 = 4224 */
		"  __shared__ S s[B / R];\n"                   /* 16*32 = 512 */
		"  __shared__ double d[sizeof(float2) << 1];\n" /* 8*16 = 128 */
		"  __shared__ char c[EXTRA];\n"                 /* -D EXTRA=3 */
		"  p[0] = t[0][0];\n"
		"}\n";
	static const char *const defs[] = {"EXTRA=3"};
	struct px_cuda_options opt = {.defines = defs, .ndefines = 1};
	struct px_diags d = {0};
	struct px_cuda_file *f = parse(src, &opt, &d);
	const struct px_cuda_func *k = func(f, "k");
	cr_assert_eq(k->kind, PX_CUDA_KERNEL);
	cr_assert(k->shared_static_known);
	cr_assert_eq(k->shared_static_bytes, 4224 + 512 + 128 + 3);
	cr_assert_eq(f->nshared, 4);
	cr_assert_eq(f->shared[0].ndims, 2);
	cr_assert_eq(f->shared[0].dims[0], 32);
	cr_assert_eq(f->shared[0].dims[1], 33);
	cr_assert_eq(f->shared[1].elem_bytes, 16);
	px_cuda_file_delete(f);
	px_diags_free(&d);
}

Test(cuda_fold, unknown_size_and_dynamic)
{
	static const char src[] =
		"__global__ void k(int n) {\n"
		"  __shared__ float a[n];\n"
		"  extern __shared__ float dyn[];\n"
		"}\n";
	struct px_diags d = {0};
	struct px_cuda_file *f = parse(src, NULL, &d);
	const struct px_cuda_func *k = func(f, "k");
	cr_assert_not(k->shared_static_known);
	cr_assert(k->shared_dynamic);
	cr_assert(f->shared[1].is_extern);
	px_cuda_file_delete(f);
	px_diags_free(&d);
}

Test(cuda_launch, sites_and_folded_configurations)
{
	static const char src[] =
		"#define TILE 32\n"
		"#define ROWS 8\n"
		"__global__ void __launch_bounds__(256, 2) k(float *p) { p[threadIdx.x] = 0; }\n"
		"void host(float *p, int n) {\n"
		"  const int threads = 128;\n"
		"  dim3 grid(1024 / TILE, 4), block(TILE, ROWS);\n"
		"  k<<<grid, block>>>(p);\n"
		"  k<<<(4096 + threads - 1) / threads, threads, 2 * 1024>>>(p);\n"
		"  k<<<n, dim3(16, 16, 1), n>>>(p);\n"
		"  void *args[] = {&p};\n"
		"  cudaLaunchKernel((void *)k, dim3(2), dim3(64), args, 0, 0);\n"
		"}\n";
	struct px_diags d = {0};
	struct px_cuda_file *f = parse(src, NULL, &d);
	const struct px_cuda_func *k = func(f, "k");
	cr_assert(k->has_launch_bounds && k->launch_bounds_known);
	cr_assert_eq(k->max_threads, 256);
	cr_assert_eq(k->min_blocks, 2);
	cr_assert_eq(f->nlaunches, 4);
	const struct px_cuda_launch *l = f->launches;
	cr_assert(l[0].grid.known && l[0].block.known);
	cr_assert_eq(l[0].grid.v[0], 32);
	cr_assert_eq(l[0].grid.v[1], 4);
	cr_assert_eq(l[0].block.v[0], 32);
	cr_assert_eq(l[0].block.v[1], 8);
	cr_assert_eq(l[0].block.v[2], 1);
	cr_assert_eq(l[0].line, 7);
	cr_assert_eq(l[1].grid.v[0], 32);
	cr_assert_eq(l[1].block.v[0], 128);
	cr_assert(l[1].smem_given && l[1].smem_known);
	cr_assert_eq(l[1].smem, 2048);
	cr_assert_not(l[2].grid.known);
	cr_assert(l[2].block.known);
	cr_assert_eq(l[2].block.v[1], 16);
	cr_assert(l[2].smem_given && !l[2].smem_known);
	cr_assert_eq(l[3].via, PX_CUDA_VIA_LAUNCH_KERNEL);
	cr_assert_str_eq(l[3].kernel, "k");
	cr_assert_eq(l[3].grid.v[0], 2);
	cr_assert_eq(l[3].block.v[0], 64);
	px_cuda_file_delete(f);
	px_diags_free(&d);
}

Test(cuda_launch, optin_counts_only_before_the_launch)
{
	static const char src[] =
		"__global__ void k(float *p) { extern __shared__ float s[]; s[threadIdx.x] = p[0]; }\n"
		"void host(float *p) {\n"
		"  k<<<1, 256, 64 * 1024>>>(p);\n"
		"  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);\n"
		"  k<<<1, 256, 64 * 1024>>>(p);\n"
		"}\n";
	struct px_diags d = {0};
	struct px_cuda_file *f = parse(src, NULL, &d);
	cr_assert_eq(f->noptins, 1);
	cr_assert(f->optins[0].known);
	cr_assert_eq(f->optins[0].bytes, 65536);
	struct px_cuda_options opt = {0};
	struct px_cuda_results res = {0};
	px_cuda_check(f, &opt, NULL, 0, &res);
	size_t n = 0;
	for (size_t i = 0; i < res.n; i++)
		if (!strcmp(res.items[i].rule, "shared-memory-opt-in-missing")) {
			n++;
			cr_assert_eq(res.items[i].line, 3);
		}
	cr_assert_eq(n, 1);
	px_cuda_results_free(&res);
	px_cuda_file_delete(f);
	px_diags_free(&d);
}

Test(cuda_annot, launch_assume_ignore)
{
	static const char src[] =
		"// ptxray: launch block=(16,16) grid=(64,64) smem=4096\n"
		"__global__ void k(float *p, int n) {\n"
		"  // ptxray: assume n % 32 == 0\n"
		"  __syncthreads(); // ptxray-ignore: divergent-barrier, warp-sync-missing -- checked by hand\n"
		"}\n"
		"// ptxray-ignore-file: uncoalesced-global\n";
	struct px_diags d = {0};
	struct px_cuda_file *f = parse(src, NULL, &d);
	const struct px_cuda_func *k = func(f, "k");
	cr_assert(k->have_launch);
	cr_assert(k->ann_block.known && k->ann_grid.known && k->ann_smem_known);
	cr_assert_eq(k->ann_block.v[0], 16);
	cr_assert_eq(k->ann_block.v[1], 16);
	cr_assert_eq(k->ann_grid.v[0], 64);
	cr_assert_eq(k->ann_smem, 4096);
	cr_assert_eq(f->nassumes, 1);
	cr_assert_str_eq(f->assumes[0].name, "n");
	cr_assert_eq(f->assumes[0].op, PX_ASSUME_MOD_ZERO);
	cr_assert_eq(f->assumes[0].k, 32);
	cr_assert_eq(f->nsupp, 2);
	const struct px_cuda_suppression *s = &f->supp[0];
	cr_assert_not(s->file_wide);
	cr_assert_eq(s->line, 4);
	cr_assert_eq(s->nrules, 2);
	cr_assert_str_eq(s->rules[0], "divergent-barrier");
	cr_assert_str_eq(s->rules[1], "warp-sync-missing");
	cr_assert_not_null(s->reason);
	cr_assert(f->supp[1].file_wide);
	cr_assert_eq(count_rule(&d, "bad-annotation"), 0);
	px_cuda_file_delete(f);
	px_diags_free(&d);
}

Test(cuda_annot, malformed_is_bad_annotation)
{
	static const char src[] =
		"// ptxray: launch block=(16,,16)\n"
		"__global__ void k(float *p) {}\n"
		"// ptxray: asume n > 3\n";
	struct px_diags d = {0};
	struct px_cuda_file *f = parse(src, NULL, &d);
	cr_assert_eq(count_rule(&d, "bad-annotation"), 2);
	for (size_t i = 0; i < d.n; i++)
		if (d.items[i].rule && !strcmp(d.items[i].rule, "bad-annotation"))
			cr_assert(d.items[i].line == 1 || d.items[i].line == 3);
	px_cuda_file_delete(f);
	px_diags_free(&d);
}

Test(cuda_nvcc, compile_commands_flags)
{
	static const char db[] =
		"[{\"directory\": \"/src\", \"file\": \"a.cu\", \"command\": \"nvcc -c -Iinc -DX=\\\"1 2\\\" -O2 "
		"-arch=sm_80 a.cu\"},\n"
		" {\"directory\": \"/src\", \"file\": \"/other.cu\", \"arguments\": [\"nvcc\", \"-DY\"]}]";
	struct px_diags d = {0};
	struct px_cuda_flags fl = {0};
	cr_assert(px_cuda_compile_db_parse("cc.json", db, strlen(db), "/src/a.cu", &fl, &d));
	cr_assert_eq(fl.nflags, 2);
	cr_assert_str_eq(fl.flags[0], "-I/src/inc");
	cr_assert_str_eq(fl.flags[1], "-DX=1 2");
	cr_assert_eq(fl.narchs, 1);
	cr_assert_str_eq(fl.archs[0], "sm_80");
	px_cuda_flags_free(&fl);
	static const char bad[] = "[{\"file\": \"a.cu\",\n \"directory\" 3}]";
	cr_assert_not(px_cuda_compile_db_parse("cc.json", bad, strlen(bad), "/src/a.cu", &fl, &d));
	cr_assert_eq(d.n, 1);
	cr_assert_eq(d.items[0].line, 2);
	cr_assert_eq(d.items[0].column, 14);
	px_cuda_flags_free(&fl);
	px_diags_free(&d);
}
