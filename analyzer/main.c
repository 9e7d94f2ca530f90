/* main.c: the ptxray command line: the command table and main(). Each
 * command lives in cli/cmd_NAME.c; --help and the man-page checks read the
 * table below. Exit status: 0 success; 1 findings at or above the failure
 * threshold; 2 bad usage or invalid input (nothing is written to standard
 * output then). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Sorted by name. */
const struct cmd px_commands[] = {
	{"arch", "the per-compute-capability tables: list them, show one", cmd_arch,
	 "usage: ptxray arch list [--arch-dir DIR]\n"
	 "       ptxray arch show NAME [--arch-dir DIR]\n"
	 "  list                 every table: name, compute capability, main limits, source\n"
	 "  show NAME            one table as YAML (NAME: sm_90, sm_90a, 9.0)\n"
	 "  --arch-dir DIR       also load DIR/*.yaml, replacing tables of the same name\n"
	 "                       (repeatable; after PTXRAY_ARCH_PATH); format: ptxray-arch(5)\n"},
	{"compat", "which kernels run on which targets, which PTX ISA they need, and why not", cmd_compat,
	 "usage: ptxray compat [options] FILE.ptx|FILE.cu...\n"
	 "       ptxray compat --list-features [--format text|json]\n"
	 "  --arch LIST          targets to judge, comma-separated (sm_80,sm_90a,sm_100f);\n"
	 "                       all: every target of the feature table; ptxas: the ones\n"
	 "                       ptxas 13.0 compiles for (default: all)\n"
	 "  --any-version        judge at the newest PTX ISA version, not the file's .version\n"
	 "  --format text|json   output format (default text)\n"
	 "  --table FILE         use this feature table instead of the embedded one\n"
	 "  --list-features      print the feature table: targets, versions, entries\n"
	 "  --nvcc PATH          nvcc for .cu files (one compilation per --arch target, cached)\n"
	 "  -p BUILD_DIR         the compile_commands.json flags for .cu files\n"
	 "  --no-compile         never run nvcc (a .cu file is then an error: compat needs PTX)\n"
	 "  -j N, --jobs N       judge N PTX files at once (default: CPUs online; the output\n"
	 "                       is the same as -j 1)\n"},
	{"lint", "diagnostics from the rule catalogue: text, JSON, SARIF, GitHub annotations", cmd_lint,
	 "usage: ptxray lint [options] PATH...\n"
	 "       ptxray lint --show-config FILE\n"
	 "  PATH                 a .ptx, .cu or .cuh file, or a folder (searched for them)\n"
	 "  --format text|json|sarif|github  output format (default text)\n"
	 "  --fail-on error|warning|note  lowest severity that makes the exit status 1\n"
	 "                       (default: the configuration's fail_on, else warning)\n"
	 "  --arch LIST          targets to check, comma-separated (overrides the config)\n"
	 "  --only LIST          run only these rules (comma-separated ids)\n"
	 "  --config FILE        use FILE instead of the nearest .ptxray.yaml\n"
	 "  --show-config FILE   print the configuration that applies to FILE\n"
	 "  --baseline FILE      report only findings not in FILE\n"
	 "  --write-baseline FILE  write every finding to FILE (exit 0)\n"
	 "  -j N, --jobs N       lint on N threads: files and each file's functions (default:\n"
	 "                       CPUs online; the output is the same as -j 1)\n"
	 "  --block X[,Y[,Z]]    launch block for kernels without .reqntid/.maxntid\n"
	 "  --param NAME=VALUE   value of a kernel parameter (repeatable)\n"
	 "  --ptxas[=PATH]       exact registers and spills from ptxas -v\n"
	 "  --nvcc PATH          the nvcc for CUDA files (default: $CUDA_HOME/bin/nvcc, PATH)\n"
	 "  --no-compile         source analyses only for CUDA files (no nvcc)\n"
	 "  -p BUILD_DIR         folder of compile_commands.json (CUDA files)\n"
	 "  --arch-dir DIR       also load the arch tables in DIR (repeatable)\n"},
	{"occupancy", "the occupancy calculator: blocks per SM, limiters, advice, plots", cmd_occupancy,
	 "usage: ptxray occupancy --arch sm_XX --threads N --registers N [options]\n"
	 "       ptxray occupancy FILE.ptx [--kernel NAME] [--threads N] [options]\n"
	 "       ptxray occupancy --batch FILE|-\n"
	 "  --arch sm_XX         compute capability (FILE mode: default the .target)\n"
	 "  --threads N|X,Y,Z    threads per block (FILE mode: default the report's block)\n"
	 "  --registers N        registers per thread (FILE mode: the estimate, or ptxas)\n"
	 "  --shared SIZE        static shared memory per block (units: 8K, 8KiB, 1M)\n"
	 "  --dynamic-shared SIZE  dynamic shared memory per block\n"
	 "  --shared-per-thread SIZE  for the block-size advice: dynamic shared grows by\n"
	 "                       SIZE per thread\n"
	 "  --carveout P         shared memory carveout preference, percent (-1: default)\n"
	 "  --optin              the kernel opted into the large dynamic shared limit\n"
	 "  --barriers N         named barriers the kernel uses (default 1)\n"
	 "  --target-occupancy X the occupancy (0..1 or N%) the launch-bounds advice aims at\n"
	 "  --kernel NAME        FILE mode: only this kernel\n"
	 "  --ptxas[=PATH]       FILE mode: exact registers and shared memory from ptxas -v\n"
	 "  --batch FILE|-       one JSON object per line in, one result per line out\n"
	 "  --plot FILE.svg|-    the calculator's three graphs as SVG, or as text (-)\n"
	 "  --format text|json   output format (default text)\n"
	 "  --arch-dir DIR       also load the arch tables in DIR (repeatable)\n"},
	{"report", "per kernel: resources, registers, shared and local memory, launch", cmd_report,
	 "usage: ptxray report [options] FILE.ptx...\n"
	 "       ptxray report [options] FILE.cu...   (CUDA source: kind \"cuda\")\n"
	 "  --format text|json   output format (default text)\n"
	 "  --block X[,Y[,Z]]    launch block for lane-level verdicts (default: .reqntid,\n"
	 "                       else .maxntid, else 256x1x1)\n"
	 "  --grid X[,Y[,Z]]     launch grid\n"
	 "  --param NAME=VALUE   value of a kernel parameter (name or index; repeatable)\n"
	 "  --kernel NAME        only this kernel, mangled or demangled (repeatable)\n"
	 "  --arch sm_XX         target (default: the file's .target)\n"
	 "  --ptxas[=PATH]       run ptxas -v for exact registers, stack and spills\n"
	 "  --dump=PASS[,PASS]   print a pass's state to standard error (see --dump=list)\n"
	 "  -j N, --jobs N       analyse on N threads: files and each file's functions in\n"
	 "                       parallel, output identical to -j 1 (default: CPUs online)\n"
	 "  CUDA sources:\n"
	 "  --nvcc PATH          the nvcc to compile with (default: $CUDA_HOME/bin/nvcc, PATH)\n"
	 "  --no-compile         source analyses only (no nvcc)\n"
	 "  -p BUILD_DIR         folder of compile_commands.json (-I, -D, -std, -arch)\n"
	 "                       PTX is cached in $XDG_CACHE_HOME/ptxray, else .ptxray-cache\n"},
	{"rules", "the rule catalogue and each rule's documentation", cmd_rules,
	 "usage: ptxray rules [ID] [--man]\n"
	 "  (none)               every rule: id, category, default severity, on by default, summary\n"
	 "  ID                   one rule's documentation: message, description, why, fix, example\n"
	 "  --man                the ptxray-rules(7) page, generated from the registry\n"},
	{"simt", "cycle-level SIMT simulation of one block: loop timing and verifier checks", cmd_simt,
	 "usage: ptxray simt FILE.ptx|FILE.cu --kernel NAME [options]\n"
	 "  --kernel NAME        the kernel to simulate (mangled or demangled)\n"
	 "  --block X[,Y[,Z]]    the block (default: .reqntid, the CUDA source's launch\n"
	 "                       annotation or launch sites, .maxntid, else 256)\n"
	 "  --grid X[,Y[,Z]]     the grid (%nctaid); the simulated block is block 0\n"
	 "  --param NAME=VALUE   value of a kernel parameter, by name or index (repeatable)\n"
	 "  --loop LINE|all      the loops to report: the one whose header is at LINE (PTX\n"
	 "                       or .loc source line), or every loop (default: the loops\n"
	 "                       annotated `// ptxray: hot` in the CUDA source, else the\n"
	 "                       four heaviest innermost loops)\n"
	 "  --iters N            iterations assumed where a loop depends on unknown values\n"
	 "                       (default 64)\n"
	 "  --l2 cold|warm       where the data is at launch: cold, in DRAM (default), or\n"
	 "                       warm, in the L2 (earlier launches or kernels touched it)\n"
	 "  --budget N           stop after N warp-instructions (default 50000000)\n"
	 "  --dynamic-shared N   bytes of dynamic shared memory (default: 48 KiB less static)\n"
	 "  --registers N        the kernel's registers a thread, which size the L1 (the\n"
	 "                       shared memory the driver configures for the blocks an SM\n"
	 "                       holds; default: --ptxas's, else estimated from the PTX)\n"
	 "  --ptxas[=PATH]       take the registers from ptxas -v on the PTX\n"
	 "  --arch sm_XX         target to time for (default: the PTX .target); a table\n"
	 "                       without latencies takes them from the nearest that has\n"
	 "                       them (ptxray-simt(1), Timing tables)\n"
	 "  --format text|json   output format (default text)\n"
	 "  --arch-dir DIR       also load the arch tables in DIR (repeatable)\n"
	 "  --nvcc PATH          FILE.cu: the nvcc that compiles it to PTX (default:\n"
	 "                       $CUDA_HOME/bin/nvcc, else nvcc on PATH)\n"
	 "  -p BUILD_DIR         FILE.cu: folder of compile_commands.json (-I, -D, -std, -arch)\n"},
};
const size_t px_ncommands = PX_COUNTOF(px_commands);

static void usage_all(FILE *to)
{
	fprintf(to, "usage: ptxray COMMAND [options] [FILE...]\n\ncommands:\n");
	for (size_t i = 0; i < px_ncommands; i++)
		fprintf(to, "  %-10s %s\n", px_commands[i].name, px_commands[i].summary);
	fprintf(to, "\n'ptxray COMMAND --help' describes a command; "
	            "exit status: 0 ok, 1 findings, 2 bad usage or input.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage_all(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
		usage_all(stdout);
		return 0;
	}
	if (strcmp(name, "--version") == 0) {
		printf("ptxray %s\n", PX_VERSION);
		return 0;
	}
	for (size_t i = 0; i < px_ncommands; i++)
		if (strcmp(px_commands[i].name, name) == 0)
			return px_commands[i].run(argc - 2, argv + 2);
	fprintf(stderr, "ptxray: error: unknown command '%s'\n", name);
	usage_all(stderr);
	return 2;
}
