/* registry.c: the rule catalogue, one explicit table sorted by id.
 *
 * Every rule `ptxray lint` knows is a row here, whether this file's checks
 * implement it (check != NULL) or another analysis provides it (provider:
 * the compatibility checks, the CUDA front end). `ptxray rules`, the
 * ptxray-rules(7) page (`ptxray rules --man`), SARIF's rule metadata and
 * tests/check_rules.py all read this table; nothing else lists rules.
 * Adding a rule: a row here (keep the order), its check, three fixtures
 * under tests/golden/rules/ID/, then `ptxray rules --man > man/ptxray-rules.7`. */
#include <string.h>

#include "checks.h"

/* How the verifier rules' simulation runs in lint (their descriptions end
 * with it). The budget's time: bench/simt.py has measured 3 to 30 million
 * warp-instructions a second on the machines this project has run on. */
#define SIMT_RUN_TEXT                                                                                        \
	" The simulation (one thread block, ptxray-simt(1)) runs in lint for each kernel that declares shared "   \
	"memory or uses a barrier or a warp collective, at a launch block that is known: --block or the "         \
	"configuration, .reqntid, the CUDA source's `// ptxray: launch` annotation or launch sites that agree, or " \
	".maxntid for a kernel that uses only threadIdx.x (a kernel with none of these gets a note instead: a "    \
	"guessed block would be a guessed verdict). --param gives parameters; an unknown value follows the "       \
	"unknown-value policy of ptxray-simt(1), and what is found after the policy decided a branch, guard or "    \
	"store is not reported (a note on standard error says from which line). The budget bounds the run (the "  \
	"largest budget of the enabled verifier rules); when it runs out a note says so. On by default: the "     \
	"kernels the simulation skips cost nothing, and the default budget, 1 million warp-instructions, keeps "  \
	"the others to about 0.03 to 0.3 s (3 to 30 million warp-instructions per second, by the machine)."

static const struct px_rule rules[] = {
	{"arch-feature-unavailable", PX_CAT_PORTABILITY, PX_ERROR, true,
	 "an instruction the target compute capability does not have",
	 "compat", NULL, 0, NULL,
	 "cp.async.ca.shared.global requires sm_80; the target is sm_75",
	 "The kernel uses an instruction or a modifier that ptxas rejects for one of the target "
	 "compute capabilities (the feature table of `ptxray compat`).",
	 "The build fails for that target, or a fat binary silently lacks the kernel for it and "
	 "the launch fails at run time with `no kernel image is available`.",
	 "Guard the code with `#if __CUDA_ARCH__ >= 800`, provide a fallback, or drop the target "
	 "from the build.",
	 "__pipeline_memcpy_async(&s[i], &g[i], 4);  // sm_80+",
	 "#if __CUDA_ARCH__ >= 800\n__pipeline_memcpy_async(&s[i], &g[i], 4);\n#else\ns[i] = g[i];\n#endif",
	 NULL, true},
	{"bad-annotation", PX_CAT_STYLE, PX_ERROR, true,
	 "a malformed `// ptxray:` annotation or a suppression without a reason",
	 NULL, NULL, 0, NULL,
	 "ptxray-ignore needs a reason: `// ptxray-ignore: RULE — why`",
	 "An annotation comment (`// ptxray: launch ...`, `// ptxray-ignore: rule — reason`) could "
	 "not be read: an unknown rule id, a missing reason, or a malformed value. In PTX files "
	 "ptxray checks the suppressions; in CUDA files the CUDA front end checks every annotation.",
	 "A typo in an annotation silently changes what is analysed or suppressed; a suppression "
	 "without a reason cannot be reviewed.",
	 "Fix the annotation; give every suppression the rule id and a reason after a dash.",
	 "// ptxray-ignore: shared-bank-conflict",
	 "// ptxray-ignore: shared-bank-conflict — the tile is read once per block",
	 NULL, false},
	{"block-size-not-multiple-of-32", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "a block size that is not a multiple of the warp size",
	 NULL, NULL, 0, NULL,
	 "block of 100 threads (.reqntid) is not a multiple of 32: the last warp runs 4 of 32 lanes",
	 "The kernel's block size (from .reqntid or .maxntid in PTX, or a launch site in CUDA) is "
	 "not a multiple of 32 threads.",
	 "Warps are scheduled whole: the last warp of every block runs with idle lanes, wasting "
	 "issue slots, registers and warp slots on the SM.",
	 "Round the block size up to a multiple of 32 and guard the extra threads with a bounds check.",
	 "__global__ void __launch_bounds__(100) k(float *x) { x[threadIdx.x] = 0; }",
	 "__global__ void __launch_bounds__(128) k(float *x, int n)\n"
	 "{ if (threadIdx.x < n) x[threadIdx.x] = 0; }",
	 px_check_block_size, false},
	{"deadlock", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "warps of a block waiting forever at barriers (simulated)",
	 NULL, "budget", 1000000,
	 "warp-instructions the simulation of one kernel may run (the largest budget of the enabled verifier rules applies)",
	 "warps wait at different barriers: thread (0,0,0) (warp 0) at barrier 1, k.cu:6 (PTX line 56); thread (32,0,0) (warp 1) at barrier 2, k.cu:8 (PTX line 63): none can go on (simulated, block 64x1x1)",
	 "Simulating one thread block, every warp that has not exited waits at a barrier, but not at the same one, or a warp waits at a barrier the rest of the block has exited without reaching."
	 " For a file whose first target is before sm_70, also a path that goes round a loop waiting on memory "
	 "10,000 times in a row while lanes of its warp wait for it to reconverge: a spin lock or a flag within "
	 "a warp, which independent thread scheduling (sm_70 and newer) completes and an older GPU never does."
	 SIMT_RUN_TEXT,
	 "A block that deadlocks never finishes: the kernel hangs until the watchdog or the user kills it.",
	 "Make every thread of the block reach the same barriers in the same order: move __syncthreads() out of conditional code and early returns.",
	 "if (threadIdx.x < 32) return;\n__syncthreads();",
	 "bool active = threadIdx.x >= 32;\n__syncthreads();\nif (!active) return;",
	 px_check_simulated, false},
	{"divergent-barrier", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "__syncthreads() (bar.sync) that not every thread of the block reaches",
	 NULL, NULL, 0, NULL,
	 "barrier under a divergent condition: only 16 of the 32 threads of warp 0 reach it",
	 "A block-wide barrier (bar.sync, barrier.sync, __syncthreads) sits under a branch whose "
	 "condition differs between the threads of a block, as the uniformity analysis and the "
	 "per-lane evaluation at the launch block show. When the SIMT simulation (see shared-race "
	 "for when it runs) reproduces it, the message adds the threads that reach the barrier and "
	 "those that do not; a barrier the simulation finds reached by part of a warp where the "
	 "static analysis could not decide is reported with the simulator's message.",
	 "The CUDA Programming Guide makes __syncthreads() in conditional code undefined unless the "
	 "condition is the same across the whole block: the kernel may hang or read stale shared "
	 "memory.",
	 "Move the barrier out of the conditional code, so that every thread reaches it.",
	 "if (threadIdx.x < 16) { s[threadIdx.x] = x; __syncthreads(); }",
	 "if (threadIdx.x < 16) s[threadIdx.x] = x;\n__syncthreads();",
	 px_check_divergent_barrier, false},
	{"divergent-branch", PX_CAT_PERFORMANCE, PX_NOTE, true,
	 "a branch that splits warps, leaving few lanes active on one side",
	 NULL, "active-lanes", 24,
	 "fires when the smaller side of a split warp has fewer active lanes than this (Nsight "
	 "Compute's divergence threshold)",
	 "branch splits warps: 8 of 32 lanes take one side (depends on %tid.x via %r4)",
	 "A conditional branch whose condition differs between the lanes of a warp at the launch "
	 "block. The message gives the lanes on the smaller side, evaluated per lane; branches whose "
	 "split cannot be evaluated are not reported.",
	 "A split warp runs both sides one after the other with the other lanes idle: inside a hot "
	 "loop this divides the throughput of that code.",
	 "Make the condition uniform per warp (branch on threadIdx.x / 32, or on a value the whole "
	 "warp shares), or replace the branch by a select.",
	 "if (threadIdx.x % 4 == 0) y = expensive(x);",
	 "// one warp in four does the work, the others skip as a whole\n"
	 "if ((threadIdx.x / 32) % 4 == 0) y = expensive(x);",
	 px_check_divergent_branch, false},
	{"fp64-on-consumer-gpu", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "double-precision arithmetic on a target with a small FP64 rate",
	 NULL, "ratio", 1.0 / 16,
	 "fires when the target's FP64 throughput over its FP32 throughput is at most this",
	 "12 f64 instructions on sm_86, whose FP64 rate is 1/64 of FP32 (first here)",
	 "The kernel does 64-bit floating-point arithmetic and a target's FP64 throughput (results "
	 "per clock per SM, from the arch table's throughput section, after the CUDA C++ "
	 "Programming Guide's arithmetic instruction table) is a small fraction of its FP32 rate, "
	 "as on GeForce and most embedded parts.",
	 "Double-precision arithmetic runs 32 to 64 times slower than single precision there; an "
	 "unintended double literal (`1.0` instead of `1.0f`) is enough to trigger it.",
	 "Use float and float literals (`1.0f`), `-Xptxas -warn-double-usage` to find the sources, "
	 "or keep FP64 only where precision needs it.",
	 "float y = x * 0.5;",
	 "float y = x * 0.5f;",
	 px_check_fp64, .per_arch = true},
	{"launch-bounds-missing", PX_CAT_PERFORMANCE, PX_NOTE, true,
	 "a kernel without launch bounds whose register use limits occupancy",
	 NULL, NULL, 0, NULL,
	 "no launch bounds and registers limit occupancy to 50%: __launch_bounds__(256, 2) caps "
	 "registers at 128",
	 "The kernel has neither .maxntid nor .reqntid (`__launch_bounds__`), and at its launch "
	 "block the registers are what limits the resident blocks.",
	 "Without bounds the compiler assumes up to 1024 threads per block and allocates registers "
	 "freely; with them it can trade registers for occupancy.",
	 "Add `__launch_bounds__(THREADS, MIN_BLOCKS)` with the block size you launch; the message "
	 "gives the bounds the occupancy advice computes.",
	 "__global__ void k(float *x) { ... }",
	 "__global__ void __launch_bounds__(256, 2) k(float *x) { ... }",
	 px_check_launch_bounds, .per_arch = true},
	{"launch-infeasible", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "a kernel that cannot launch on a target with its block size and resources",
	 NULL, NULL, 0, NULL,
	 "block of 2048 threads (.reqntid) exceeds sm_90's 1024 threads per block",
	 "With its launch block (.reqntid/.maxntid, a launch site, or the configured block) the "
	 "kernel needs more threads, registers or shared memory per block than the target has; "
	 "no block can reside on an SM.",
	 "The launch fails at run time with `too many resources requested for launch` or "
	 "`invalid configuration argument`.",
	 "Reduce the block size, the registers (__launch_bounds__, -maxrregcount) or the shared "
	 "memory per block.",
	 "__global__ void __launch_bounds__(2048) k(float *x);",
	 "__global__ void __launch_bounds__(1024) k(float *x);",
	 px_check_launch_infeasible, .per_arch = true},
	{"legacy-warp-intrinsic", PX_CAT_PORTABILITY, PX_ERROR, true,
	 "shfl or vote without .sync (__shfl, __any, __all, __ballot)",
	 NULL, NULL, 0, NULL,
	 "shfl without .sync is not supported on sm_70 and later: use __shfl_sync",
	 "The kernel uses a warp shuffle or vote in its legacy form, without a member mask.",
	 "Since compute capability 7.0 threads of a warp are scheduled independently; the "
	 "legacy intrinsics were deprecated in CUDA 9 and PTX does not accept shfl/vote without "
	 ".sync for sm_70 and later targets.",
	 "Use the _sync variants with the mask of the participating lanes: __shfl_sync(0xffffffff, "
	 "v, src), __any_sync, __all_sync, __ballot_sync.",
	 "v += __shfl_down(v, 16);",
	 "v += __shfl_down_sync(0xffffffff, v, 16);",
	 px_check_legacy_warp, false},
	{"local-memory-array", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "a per-thread array placed in local memory (indexed dynamically)",
	 NULL, NULL, 0, NULL,
	 "per-thread array in local memory (32 bytes), indexed by a value that varies at run time",
	 "The kernel declares .local memory: a per-thread array the compiler could not keep in "
	 "registers, usually because it is indexed with a value only known at run time.",
	 "Local memory lives in device memory: every access goes through L1/L2 and costs a global "
	 "memory transaction when it misses.",
	 "Index the array with compile-time constants (unroll the loop that indexes it), or keep "
	 "the data in shared memory or registers.",
	 "float acc[8]; ... acc[i % 8] += v;  // i varies at run time",
	 "float acc[8];\n#pragma unroll\nfor (int j = 0; j < 8; j++) acc[j] += v;",
	 px_check_local_array, false},
	{"low-occupancy", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "theoretical occupancy below a threshold, naming the limiter and the fix",
	 NULL, "threshold", 0.8,
	 "fires when the theoretical occupancy (resident warps over the maximum) is below this "
	 "fraction (Nsight Compute's default)",
	 "theoretical occupancy 50% on sm_90 (limited by registers: 64 per thread); 56 registers "
	 "would give 62%",
	 "At its launch block the kernel's theoretical occupancy on a target (the occupancy "
	 "engine, equal to NVIDIA's calculator) is below the threshold. The message names the "
	 "resource that limits it and the change the occupancy advice computes.",
	 "Fewer resident warps leave the scheduler less to switch to while a warp waits for memory.",
	 "Act on the limiter: cap registers (__launch_bounds__), shrink shared memory per block, or "
	 "change the block size to the one the advice gives.",
	 "__global__ void k(...)  // 64 registers, 1024 threads",
	 "__global__ void __launch_bounds__(1024, 2) k(...)",
	 px_check_low_occupancy, .per_arch = true},
	{"ptx-isa-too-old", PX_CAT_PORTABILITY, PX_ERROR, true,
	 "the PTX .version is older than the target or an instruction requires",
	 "compat", NULL, 0, NULL,
	 "PTX ISA 7.0 does not support target sm_90 (needs 7.8)",
	 "The file's .version is older than the PTX ISA version the target, or one of its "
	 "instructions, requires (`ptxray compat`).",
	 "ptxas rejects the file; a JIT from an old PTX misses the features of newer GPUs.",
	 "Compile with a CUDA toolkit that emits a new enough PTX ISA.",
	 ".version 7.0\n.target sm_90",
	 ".version 7.8\n.target sm_90",
	 NULL, true},
	{"register-spill", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "registers spill to local memory",
	 NULL, NULL, 0, NULL,
	 "registers spill: the estimate needs 180 registers, the cap is 128 (launch bounds)",
	 "ptxas reported spill stores or loads (with --ptxas), or the register demand the "
	 "liveness analysis estimates is above the cap (.maxnreg, the launch bounds, or 255).",
	 "Spilled registers go to local memory, which lives in device memory: each spill is a "
	 "memory round trip on the critical path.",
	 "Relax the cap (fewer min blocks in __launch_bounds__, a higher -maxrregcount), or reduce "
	 "what is live at once (smaller unroll factors, fewer accumulators).",
	 "__global__ void __launch_bounds__(1024, 2) k(...)  // 32 registers max",
	 "__global__ void __launch_bounds__(1024, 1) k(...)",
	 px_check_register_spill, false},
	{"shared-bank-conflict", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "a shared-memory access whose lanes collide in the same banks",
	 NULL, "ways", 2,
	 "fires when a request needs at least this many times the ideal wavefronts",
	 "32-way bank conflict (32 wavefronts, ideal 1); padding each 128-byte row by 4 bytes "
	 "makes it conflict-free",
	 "A shared-memory load or store whose addresses, evaluated for every lane of the launch "
	 "block's warps, fall into the same banks at different 4-byte words: the request is "
	 "replayed once per extra word in the worst bank. When padding the rows of the array "
	 "removes the conflict, the message says by how much (the access model re-evaluated with "
	 "the padded row pitch).",
	 "Each extra wavefront serialises the request: a 32-way conflict is 32 times slower.",
	 "Pad the rows (`__shared__ float t[32][33]`), swizzle the index (`t[r][c ^ r]`), or change "
	 "which thread reads which element.",
	 "__shared__ float t[32][32];\n... = t[threadIdx.x][k];",
	 "__shared__ float t[32][33];\n... = t[threadIdx.x][k];",
	 px_check_bank_conflict, false},
	{"shared-memory-opt-in-missing", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "more shared memory per block than the default 48 KiB without the opt-in",
	 NULL, NULL, 0, NULL,
	 "needs 64 KiB of shared memory per block on sm_90: above the 48 KiB default, the launch "
	 "fails without cudaFuncSetAttribute(MaxDynamicSharedMemorySize)",
	 "The kernel's static plus dynamic shared memory (the configured dynamic size, or the "
	 "launch site's) is above the default per-block limit but within the opt-in limit, and no "
	 "opt-in is known (PTX: the host code is not visible, so the rule fires unless the "
	 "configuration sets `launch.optin: true`; CUDA: no cudaFuncSetAttribute call is found).",
	 "Above 48 KiB a launch without the opt-in fails with `invalid argument`.",
	 "Call cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) "
	 "before the launch; static shared memory cannot exceed 48 KiB: make it dynamic.",
	 "k<<<g, b, 64 * 1024>>>(x);",
	 "cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);\n"
	 "k<<<g, b, 64 * 1024>>>(x);",
	 px_check_optin, .per_arch = true},
	{"shared-out-of-bounds", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "a shared-memory access outside the declared size (simulated)",
	 NULL, "budget", 1000000,
	 "warp-instructions the simulation of one kernel may run (the largest budget of the enabled verifier rules applies)",
	 "thread (255,0,0) writes 4 bytes of shared memory at byte offset 1024, past the 1024 bytes the kernel declares (simulated, block 256x1x1; at k.cu:4)",
	 "Simulating one thread block on concrete values, a thread loads or stores shared memory beyond the static shared variables plus the dynamic size (launch.dynamic_shared in the configuration, else 48 KiB less the static size when the kernel uses dynamic shared memory)."
	 SIMT_RUN_TEXT,
	 "Out-of-bounds shared accesses read or overwrite other variables or other blocks' data, or fault (`misaligned or out-of-range shared or local address`).",
	 "Size the array for every index the threads use (an off-by-one is the usual cause), or guard the access.",
	 "__shared__ float s[256];\ns[threadIdx.x + 1] = x;  // 256 threads",
	 "__shared__ float s[257];\ns[threadIdx.x + 1] = x;",
	 px_check_simulated, false},
	{"shared-race", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "two threads access one shared word between barriers, one writing (simulated)",
	 NULL, "budget", 1000000,
	 "warp-instructions the simulation of one kernel may run (the largest budget of the enabled verifier rules applies)",
	 "thread (32,0,0) writes shared byte offset 128 at k.cu:4 (PTX line 44); thread (0,0,0) reads it at k.cu:5 (PTX line 49), no barrier between (simulated, block 128x1x1)",
	 "Simulating one thread block on concrete values, two threads of different warps access the same bytes of a shared word between the same two barriers and at least one writes (atomics with atomics excepted; threads writing different halves or bytes of one word, as in a __shared__ half array, do not race). The message names both threads and both lines with their source location. The same race between lanes of one warp is warp-sync-missing. An access to a word while a cp.async copy to it is in flight (no cp.async.wait_group of the copying thread has waited for it, and for another thread no barrier after that wait) is a race with the copy, and so is a copy that lands while a later copy to the same word is in flight."
	 SIMT_RUN_TEXT,
	 "Without a barrier the read may see the old or the new value depending on scheduling: wrong results that change from run to run and GPU to GPU.",
	 "Put __syncthreads() between the write and the other thread's read (__syncwarp() when both are in one warp), or give each thread its own word.",
	 "s[threadIdx.x] = v;\nout[threadIdx.x] = s[(threadIdx.x + 32) % 256];",
	 "s[threadIdx.x] = v;\n__syncthreads();\nout[threadIdx.x] = s[(threadIdx.x + 32) % 256];",
	 px_check_simulated, false},
	{"shuffle-mask", PX_CAT_CORRECTNESS, PX_ERROR, true,
	 "a .sync membermask that does not match the lanes executing the instruction",
	 NULL, NULL, 0, NULL,
	 "membermask 0x0000ffff leaves out lane 16 of warp 0, which executes it",
	 "A warp collective (shfl.sync, vote.sync, match.sync, redux.sync, bar.warp.sync) has a "
	 "constant membermask that does not cover the lanes that execute it, or names lanes that "
	 "never execute it, at the launch block. The SIMT simulation (see shared-race for when it "
	 "runs) proves the static findings it reproduces (the message adds the threads) and adds "
	 "the ones only concrete values show, such as a full mask after some lanes returned early.",
	 "The PTX ISA makes the result undefined when an executing thread is not in the mask, and "
	 "the named threads that do not arrive make the others wait (a hang on sm_70 and later).",
	 "Compute the mask from the condition: `unsigned m = __ballot_sync(0xffffffff, cond);` "
	 "before the branch, or use __activemask() only where every lane is known to be present.",
	 "if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffff, v, 8);",
	 "unsigned m = __ballot_sync(0xffffffff, threadIdx.x < 16);\n"
	 "if (threadIdx.x < 16) v = __shfl_down_sync(m, v, 8);",
	 px_check_shuffle_mask, false},
	{"slow-integer-division", PX_CAT_PERFORMANCE, PX_NOTE, true,
	 "integer division or modulo by a non-constant inside a loop",
	 NULL, NULL, 0, NULL,
	 "integer rem by a value unknown at compile time inside a loop (depth 1)",
	 "A div or rem on integers whose divisor is not a constant, inside a loop.",
	 "GPUs have no integer divider: ptxas expands each one into a sequence of about 20 "
	 "instructions; a power-of-two or constant divisor costs a shift or a multiply.",
	 "Hoist the division out of the loop, divide by a constant or a power of two (template "
	 "parameter), or precompute the reciprocal (a magic-number multiply).",
	 "for (...) { int r = i % n; ... }",
	 "for (...) { r = (r + 1 == n) ? 0 : r + 1; ... }",
	 px_check_int_div, false},
	{"uncoalesced-global", PX_CAT_PERFORMANCE, PX_WARNING, true,
	 "a global access touching more 32-byte sectors per request than needed",
	 NULL, "factor", 2,
	 "fires when the sectors per request reach this multiple of the ideal",
	 "uncoalesced global load: 32 sectors per request, ideal 4 (8x)",
	 "A global load or store whose addresses, evaluated for every lane of a warp at the launch "
	 "block, touch more 32-byte sectors than the bytes it requests need (Nsight Compute's "
	 "sectors per request over the ideal).",
	 "Every sector is fetched whole: a strided access moves several times the useful bytes "
	 "through L2 and DRAM.",
	 "Make consecutive lanes read consecutive addresses (index by threadIdx.x in the fastest "
	 "dimension), transpose through shared memory, or use a structure of arrays.",
	 "y[threadIdx.x * 32] = x;",
	 "y[threadIdx.x] = x;",
	 px_check_uncoalesced, false},
	{"uninitialized-shared", PX_CAT_CORRECTNESS, PX_WARNING, true,
	 "a read of shared memory no thread has written (simulated)",
	 NULL, "budget", 1000000,
	 "warp-instructions the simulation of one kernel may run (the largest budget of the enabled verifier rules applies)",
	 "thread (0,0,0) reads shared byte offset 0, which no thread has written (simulated, block 256x1x1; at k.cu:6)",
	 "Simulating one thread block on concrete values, a thread reads a shared-memory word that no thread of the block has written before (shared memory starts with unspecified contents)."
	 SIMT_RUN_TEXT,
	 "The value is whatever the previous block left there: results that depend on the launch history.",
	 "Write every element the kernel reads (including halo and padding elements), or read only what was written.",
	 "__shared__ float s[257];\ns[threadIdx.x + 1] = x;\n__syncthreads();\ny = s[threadIdx.x];",
	 "__shared__ float s[257];\ns[threadIdx.x + 1] = x;\nif (threadIdx.x == 0) s[0] = 0;\n__syncthreads();\ny = s[threadIdx.x];",
	 px_check_simulated, false},
	{"warp-sync-missing", PX_CAT_CORRECTNESS, PX_WARNING, true,
	 "lanes exchange data through shared memory without __syncwarp()",
	 NULL, NULL, 0, NULL,
	 "each thread reads what the thread 16 lanes above stored (line 40) with no __syncwarp() "
	 "in between",
	 "A shared-memory load reads a word another lane of the same warp stored earlier, with no "
	 "barrier, __syncwarp() or warp collective in between (the legacy warp-synchronous "
	 "reduction). Decided on PTX for loads and stores in one basic block whose addresses differ "
	 "by a whole number of lanes; volatile accesses are left to the CUDA front end. The SIMT "
	 "simulation (see shared-race for when it runs) proves the static findings it reproduces "
	 "(the message adds both threads and lines) and adds the races between lanes of one warp "
	 "that only concrete values show.",
	 "Since compute capability 7.0 the lanes of a warp are not guaranteed to run in lock step: "
	 "the load may run before the other lane's store.",
	 "Put __syncwarp() between the store and the load, or exchange the values with "
	 "__shfl_down_sync.",
	 "s[t] = v; v += s[t + 16];",
	 "s[t] = v; __syncwarp(); v += s[t + 16];",
	 px_check_warp_sync, false},
};

const struct px_rule *px_rules(size_t *n)
{
	*n = PX_COUNTOF(rules);
	return rules;
}

const struct px_rule *px_rule_find(const char *id)
{
	for (size_t i = 0; i < PX_COUNTOF(rules); i++)
		if (strcmp(rules[i].id, id) == 0)
			return &rules[i];
	return NULL;
}

const char *px_rule_category_name(enum px_rule_category c)
{
	static const char *const names[] = {"correctness", "performance", "portability", "style"};
	return (unsigned)c < PX_COUNTOF(names) ? names[c] : "?";
}
