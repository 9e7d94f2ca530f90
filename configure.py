#!/usr/bin/env python3
"""configure.py: writes build.ninja for ptxray; finds or installs what it needs.

Usage: ./configure.py [--debug] [--sanitize] [--tsan] [--werror] [--prefix=DIR] [--cc=CC]

Approach (after ninja's own configure.py): every source is listed explicitly
below, nothing is globbed. The script checks the C compiler and the libraries
(pkg-config: yaml-0.1, tree-sitter, criterion; plus libiberty), installs the
missing ones with apt-get when it runs as root, fetches the pinned
tree-sitter-cuda grammar with `npm pack` into build/grammar/ (checking its
published sha512 integrity), and writes build.ninja in the repository root;
every build output goes under build/. A re-run with nothing changed touches
nothing: build.ninja is rewritten only when its text changes, and the grammar
is fetched only when it is absent or unverified.

Standard library only.
"""

import argparse
import base64
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tarfile

# ---------------------------------------------------------------------------
# Source lists. Add a file here when you create it (keep each list sorted).
# ---------------------------------------------------------------------------

# Every library source (all of ptxray except main.c). The grammar's generated
# sources are added by the script itself (GRAMMAR_SOURCES below).
LIB_SOURCES = [
    'analyzer/api.c',
    'analyzer/compat.c',
    'analyzer/compat_cuda.c',
    'analyzer/compat_render.c',
    'analyzer/cuda/cuda_annot.c',
    'analyzer/cuda/cuda_check.c',
    'analyzer/cuda/cuda_fold.c',
    'analyzer/cuda/cuda_launch.c',
    'analyzer/cuda/cuda_nvcc.c',
    'analyzer/cuda/cuda_parse.c',
    'analyzer/cuda/cuda_pre.c',
    'analyzer/cuda/cuda_report.c',
    'analyzer/demangle.c',
    'analyzer/dump.c',
    'analyzer/ir.c',
    'analyzer/json.c',
    'analyzer/pass_access.c',
    'analyzer/pass_affine.c',
    'analyzer/pass_cfg.c',
    'analyzer/pass_dom.c',
    'analyzer/pass_events.c',
    'analyzer/pass_live.c',
    'analyzer/pass_loops.c',
    'analyzer/pass_mentions.c',
    'analyzer/pass_uniform.c',
    'analyzer/pipeline.c',
    'analyzer/pool.c',
    'analyzer/ptx/lexer.c',
    'analyzer/ptx/parse_insn.c',
    'analyzer/ptx/parser.c',
    'analyzer/ptxas.c',
    'analyzer/report.c',
    'analyzer/report_access.c',
    'analyzer/report_json.c',
    'analyzer/report_text.c',
    'analyzer/resources.c',
    'analyzer/simt/simt.c',
    'analyzer/simt/simt_cache.c',
    'analyzer/simt/simt_exec.c',
    'analyzer/simt/simt_fuse.c',
    'analyzer/simt/simt_its.c',
    'analyzer/simt/simt_float.c',
    'analyzer/simt/simt_half.c',
    'analyzer/simt/simt_mbar.c',
    'analyzer/util.c',
    'analyzer/yaml_load.c',
    'analyzer/verify.c',
    'arch/arch.c',
    'arch/ftable.c',
    'occupancy/occ_advice.c',
    'occupancy/occ_plot.c',
    'occupancy/occ_query.c',
    'occupancy/occ_report.c',
    'occupancy/occ_render.c',
    'occupancy/occupancy.c',
    'rules/check_code.c',
    'rules/check_kernel.c',
    'rules/check_simt.c',
    'rules/config.c',
    'rules/lint.c',
    'rules/lint_compat.c',
    'rules/lint_cuda.c',
    'rules/lint_simt.c',
    'rules/output.c',
    'rules/registry.c',
]

# The per-compute-capability tables, embedded in the library by arch/embed.py
# (into ARCH_GEN, compiled with LIB_SOURCES). Sorted by compute capability.
ARCH_TABLES = [
    'arch/sm_50.yaml', 'arch/sm_52.yaml', 'arch/sm_53.yaml',
    'arch/sm_60.yaml', 'arch/sm_61.yaml', 'arch/sm_62.yaml',
    'arch/sm_70.yaml', 'arch/sm_72.yaml', 'arch/sm_75.yaml',
    'arch/sm_80.yaml', 'arch/sm_86.yaml', 'arch/sm_87.yaml', 'arch/sm_89.yaml',
    'arch/sm_90.yaml',
    'arch/sm_100.yaml', 'arch/sm_103.yaml', 'arch/sm_110.yaml',
    'arch/sm_120.yaml', 'arch/sm_121.yaml',
]
ARCH_GEN = 'build/gen/arch_tables.c'

# The PTX feature table of `ptxray compat` (arch/ftable.h), embedded the
# same way as px_features_builtin.
FEATURE_TABLE = 'arch/ptx-features.yaml'
FEATURE_GEN = 'build/gen/feature_table.c'

# NVIDIA's occupancy calculator: the differential test (tests/unit/
# test_occ_oracle.c) compiles against it only when it is there.
CUDA_OCCUPANCY_H = '/usr/local/cuda/include/cuda_occupancy.h'

# The command-line driver, linked against build/libptxray.a.
MAIN = 'analyzer/main.c'

# The rest of the command line (one file per command), linked with MAIN.
CLI_SOURCES = [
    'analyzer/cli/cmd_arch.c',
    'analyzer/cli/cmd_compat.c',
    'analyzer/cli/cmd_lint.c',
    'analyzer/cli/cmd_occupancy.c',
    'analyzer/cli/cmd_report.c',
    'analyzer/cli/cmd_rules.c',
    'analyzer/cli/cmd_simt.c',
    'analyzer/cli/common.c',
]

# Criterion unit tests: all of them go into one binary, build/unit_tests.
UNIT_TESTS = [
    'tests/unit/test_analysis.c',
    'tests/unit/test_arch.c',
    'tests/unit/test_cuda.c',
    'tests/unit/test_lexer.c',
    'tests/unit/test_lint.c',
    'tests/unit/test_occ_oracle.c',
    'tests/unit/test_parser.c',
    'tests/unit/test_passes.c',
    'tests/unit/test_pool.c',
    'tests/unit/test_report.c',
    'tests/unit/test_simt_half.c',
    'tests/unit/test_simt_scalar.c',
]

# libFuzzer targets (fuzz/fuzz_NAME.c -> build/fuzz/fuzz_NAME), built by `ninja fuzz`.
FUZZ = [
    'fuzz/fuzz_annot.c',
    'fuzz/fuzz_arch.c',
    'fuzz/fuzz_batch.c',
    'fuzz/fuzz_config.c',
    'fuzz/fuzz_cuda.c',
    'fuzz/fuzz_ftable.c',
    'fuzz/fuzz_ptx.c',
    'fuzz/fuzz_ptxas.c',
    'fuzz/fuzz_report.c',
    'fuzz/fuzz_simt.c',
]

# Benchmark programs (bench/NAME.c -> build/NAME, linked with the library),
# built and run by `ninja bench` (bench/run.py), never by the tests.
BENCH_PROGRAMS = [
    'bench/cuda_bench.c',
    'bench/parse_bench.c',
    'bench/simt_bench.c',
]

# The PTX files `ninja demo` reports on.
EXAMPLES = [
    'examples/histogram.ptx',
    'examples/matmul_tiled.ptx',
    'examples/reduce.ptx',
    'examples/stencil.ptx',
    'examples/transpose.ptx',
    'examples/vector_add.ptx',
]

# ---------------------------------------------------------------------------
# The pinned grammar.
# ---------------------------------------------------------------------------

GRAMMAR_PACKAGE = 'tree-sitter-cuda'
GRAMMAR_VERSION = '0.20.4'
GRAMMAR_INTEGRITY = ('sha512-mZiwGJEsPDLA6cweIYtGroSQoLu5+yLFl0I617OoODUL/'
                     '+X62SrqOR60bxJDUkPBnsRUGi/EEcXfVIfOIJgNQw==')
GRAMMAR_DIR = 'build/grammar/tree-sitter-cuda'
GRAMMAR_SOURCES = [GRAMMAR_DIR + '/src/parser.c', GRAMMAR_DIR + '/src/scanner.c']
GRAMMAR_STAMP = GRAMMAR_DIR + '/.integrity'

PKG_MODULES = ['yaml-0.1', 'tree-sitter']       # the library and the binary
PKG_TEST_MODULES = ['criterion']                 # unit tests only
LIBIBERTY_HEADER = '/usr/include/libiberty/demangle.h'
APT_PACKAGES = ['libyaml-dev', 'libtree-sitter-dev', 'libcriterion-dev',
                'libiberty-dev', 'pkg-config', 'ninja-build', 'groff-base', 'pre-commit']
# Programs the tests need: the man page lint (groff -ww) and the pre-commit
# end-to-end test of `ptxray lint` (tests/check_rules.py, check_precommit.py).
TEST_PROGRAMS = {'groff': 'groff-base', 'pre-commit': 'pre-commit'}

ROOT = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print('configure.py: error: ' + msg, file=sys.stderr)
    sys.exit(2)


def note(msg):
    print('configure.py: ' + msg, file=sys.stderr)


# ---------------------------------------------------------------------------
# A small ninja file writer (the subset of ninja_syntax this script needs).
# ---------------------------------------------------------------------------

def ninja_escape_path(path):
    return path.replace('$', '$$').replace(' ', '$ ').replace(':', '$:')


def ninja_escape(text):
    return text.replace('$', '$$')


class NinjaWriter:
    def __init__(self):
        self.lines = []

    def comment(self, text):
        self.lines.append('# ' + text)

    def newline(self):
        self.lines.append('')

    def variable(self, key, value, indent=0):
        if isinstance(value, list):
            value = ' '.join(v for v in value if v)
        self.lines.append('  ' * indent + '%s = %s' % (key, value))

    def rule(self, name, command, description=None, depfile=None, deps=None,
             generator=False, pool=None, restat=False):
        self.lines.append('rule ' + name)
        self.variable('command', command, 1)
        if description:
            self.variable('description', description, 1)
        if depfile:
            self.variable('depfile', depfile, 1)
        if deps:
            self.variable('deps', deps, 1)
        if generator:
            self.variable('generator', '1', 1)
        if pool:
            self.variable('pool', pool, 1)
        if restat:
            self.variable('restat', '1', 1)

    def build(self, outputs, rule, inputs=(), implicit=(), order_only=(),
              variables=None):
        outputs = [outputs] if isinstance(outputs, str) else list(outputs)
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        text = 'build %s: %s' % (' '.join(map(ninja_escape_path, outputs)), rule)
        if inputs:
            text += ' ' + ' '.join(map(ninja_escape_path, inputs))
        if implicit:
            text += ' | ' + ' '.join(map(ninja_escape_path, implicit))
        if order_only:
            text += ' || ' + ' '.join(map(ninja_escape_path, order_only))
        self.lines.append(text)
        for key, value in (variables or {}).items():
            self.variable(key, value, 1)

    def default(self, paths):
        self.lines.append('default ' + ' '.join(map(ninja_escape_path, paths)))

    def text(self):
        return '\n'.join(self.lines) + '\n'


# ---------------------------------------------------------------------------
# Dependencies.
# ---------------------------------------------------------------------------

def run_quiet(argv, **kw):
    """Runs argv; returns (exit status, stdout) and never raises for a missing program."""
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True, **kw)
    except OSError:
        return 127, ''
    return p.returncode, p.stdout


def find_cc(opt_cc):
    """Returns the compiler command (a string, maybe with arguments) and whether it
    came from --cc or CC (then it is recorded for re-runs)."""
    if opt_cc:
        cc, explicit = opt_cc, True
    elif os.environ.get('CC'):
        cc, explicit = os.environ['CC'], True
    else:
        cc, explicit = None, False
        for name in ('cc', 'gcc', 'clang'):
            if shutil.which(name):
                cc = name
                break
        if cc is None:
            return None, False
    words = shlex.split(cc)
    if not words or not shutil.which(words[0]):
        fail('C compiler %r not found' % cc)
    return cc, explicit


def grammar_ok():
    """True when the grammar was unpacked from a verified tarball and is complete."""
    try:
        with open(os.path.join(ROOT, GRAMMAR_STAMP)) as f:
            if f.read().strip() != GRAMMAR_INTEGRITY:
                return False
    except OSError:
        return False
    return all(os.path.isfile(os.path.join(ROOT, s)) for s in GRAMMAR_SOURCES)


def missing_dependencies(cc, need_npm):
    """Returns (missing descriptions, extra apt packages to add to the list)."""
    missing, extra = [], []
    if cc is None:
        missing.append('a C compiler (cc, gcc or clang)')
        extra.append('gcc')
    if not shutil.which('ninja'):
        missing.append('ninja')
    if not shutil.which('pkg-config'):
        missing.append('pkg-config')
    else:
        modules = PKG_MODULES + PKG_TEST_MODULES
        status, _ = run_quiet(['pkg-config', '--exists'] + modules)
        if status != 0:
            for m in modules:
                if run_quiet(['pkg-config', '--exists', m])[0] != 0:
                    missing.append('%s (pkg-config)' % m)
    if not os.path.isfile(LIBIBERTY_HEADER):
        missing.append('libiberty (%s)' % LIBIBERTY_HEADER)
    elif cc is not None:
        status, out = run_quiet(shlex.split(cc) + ['-print-file-name=libiberty.a'])
        lib = out.strip()
        if status != 0 or not os.path.isabs(lib) or not os.path.isfile(lib):
            missing.append('libiberty (libiberty.a)')
    for prog, pkg in sorted(TEST_PROGRAMS.items()):
        if not shutil.which(prog):
            missing.append('%s (Debian package %s)' % (prog, pkg))
    if need_npm and not shutil.which('npm'):
        missing.append('npm (to fetch the tree-sitter-cuda grammar)')
        extra.append('npm')
    return missing, extra


def apt_lists_present():
    lists = '/var/lib/apt/lists'
    try:
        return any('_Packages' in name for name in os.listdir(lists))
    except OSError:
        return False


def install_or_exit(missing, extra):
    """Installs the Debian packages when we are root and have apt-get; otherwise
    prints the command to run and exits 2."""
    packages = APT_PACKAGES + [p for p in extra if p not in APT_PACKAGES]
    install = ['apt-get', 'install', '-y'] + packages
    note('missing: ' + ', '.join(missing))
    if os.geteuid() != 0 or not shutil.which('apt-get'):
        if shutil.which('apt-get'):
            cmd = 'sudo apt-get update && sudo ' + ' '.join(install)
        else:
            cmd = ('install the equivalents of the Debian packages: '
                   + ' '.join(packages))
        print('configure.py: run this, then configure again:\n    ' + cmd,
              file=sys.stderr)
        sys.exit(2)
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    steps = [install]
    if not apt_lists_present():
        steps.insert(0, ['apt-get', 'update'])
    for argv in steps:
        note('running: ' + ' '.join(argv))
        if subprocess.run(argv, env=env, stdin=subprocess.DEVNULL).returncode != 0:
            fail('%s failed' % ' '.join(argv))


def pkg_flags(option, modules):
    status, out = run_quiet(['pkg-config', option] + modules)
    if status != 0:
        fail('pkg-config %s %s failed' % (option, ' '.join(modules)))
    return out.split()


# ---------------------------------------------------------------------------
# The grammar.
# ---------------------------------------------------------------------------

def safe_member_path(name):
    """Maps a tarball member 'package/x/y' to 'x/y'; None when it must be rejected."""
    if name.startswith('/') or '\\' in name:
        return None
    parts = [p for p in name.split('/') if p not in ('', '.')]
    if not parts or parts[0] != 'package' or '..' in parts:
        return None
    return '/'.join(parts[1:])


def fetch_grammar():
    """Fetches GRAMMAR_PACKAGE@GRAMMAR_VERSION with npm pack into build/grammar,
    checks its integrity and unpacks it into GRAMMAR_DIR (regular files only,
    no absolute paths, no '..')."""
    work = os.path.join(ROOT, 'build', 'grammar')
    os.makedirs(work, exist_ok=True)
    tarball = os.path.join(work, '%s-%s.tgz' % (GRAMMAR_PACKAGE, GRAMMAR_VERSION))
    if not os.path.isfile(tarball) or not integrity_ok(tarball):
        note('fetching %s@%s with npm pack' % (GRAMMAR_PACKAGE, GRAMMAR_VERSION))
        argv = ['npm', 'pack', '%s@%s' % (GRAMMAR_PACKAGE, GRAMMAR_VERSION)]
        try:
            p = subprocess.run(argv, cwd=work, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
        except OSError as e:
            fail('cannot run npm: %s' % e)
        if p.returncode != 0:
            sys.stderr.write(p.stdout)
            fail('npm pack %s@%s failed' % (GRAMMAR_PACKAGE, GRAMMAR_VERSION))
        if not os.path.isfile(tarball):
            sys.stderr.write(p.stdout)
            fail('npm pack did not write %s' % os.path.relpath(tarball, ROOT))
        if not integrity_ok(tarball):
            os.remove(tarball)
            fail('%s does not match the pinned integrity %s; removed it'
                 % (os.path.relpath(tarball, ROOT), GRAMMAR_INTEGRITY))
    dest = os.path.join(ROOT, GRAMMAR_DIR)
    tmp = dest + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with tarfile.open(tarball, 'r:gz') as tf:
        for m in tf.getmembers():
            rel = safe_member_path(m.name)
            if rel is None:
                fail('unsafe path %r in %s' % (m.name, tarball))
            if m.isdir() or rel == '':
                continue
            if not m.isfile():
                fail('%r in %s is not a regular file' % (m.name, tarball))
            out = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            src = tf.extractfile(m)
            with open(out, 'wb') as f:
                shutil.copyfileobj(src, f)
            os.chmod(out, 0o644)
    with open(os.path.join(tmp, '.integrity'), 'w') as f:
        f.write(GRAMMAR_INTEGRITY + '\n')
    for s in GRAMMAR_SOURCES:
        if not os.path.isfile(os.path.join(tmp, os.path.relpath(s, GRAMMAR_DIR))):
            fail('the grammar package has no %s' % os.path.relpath(s, GRAMMAR_DIR))
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)


def integrity_ok(path):
    algo, _, want = GRAMMAR_INTEGRITY.partition('-')
    h = hashlib.new(algo)
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return base64.b64encode(h.digest()).decode('ascii') == want


# ---------------------------------------------------------------------------
# build.ninja
# ---------------------------------------------------------------------------

def obj(src, base='build/obj'):
    if src.startswith('build/'):
        src = src[len('build/'):]
    return '%s/%s.o' % (base, os.path.splitext(src)[0])


def write_build_ninja(args, argv, cc, cc_explicit):
    cflags_pkg = pkg_flags('--cflags', PKG_MODULES)
    libs_pkg = pkg_flags('--libs', PKG_MODULES)
    cflags_test = pkg_flags('--cflags', PKG_TEST_MODULES)
    libs_test = pkg_flags('--libs', PKG_TEST_MODULES)

    opt = ['-O0', '-g'] if args.debug else ['-O2', '-g']
    san = (['-fsanitize=address,undefined', '-fno-omit-frame-pointer',
            '-fno-sanitize-recover=all'] if args.sanitize else [])
    if args.tsan:   # data races between -j N threads (tests/check_parallel.py)
        san = ['-fsanitize=thread', '-fno-omit-frame-pointer']
    includes = ['-Ianalyzer', '-Iarch', '-Ioccupancy', '-Irules', '-Iinclude', '-I' + GRAMMAR_DIR + '/src']
    cflags = (['-std=c11'] + opt + ['-Wall', '-Wextra', '-D_GNU_SOURCE']
              + (['-DPX_DEBUG'] if args.debug else [])
              + (['-Werror'] if args.werror else []) + san + includes + cflags_pkg)
    # The grammar is generated third-party code: no warnings, and no UBSan (its
    # scanner calls memcpy(dst, NULL, 0), which UBSan rejects); ASan still applies.
    grammar_san = (['-fsanitize=address', '-fno-omit-frame-pointer']
                   if args.sanitize else [])
    if args.tsan:
        grammar_san = ['-fsanitize=thread']
    grammar_cflags = opt + ['-w'] + grammar_san + ['-I' + GRAMMAR_DIR + '/src']
    libs = libs_pkg + ['-liberty', '-lm']

    # Arguments for the re-run: the same options, and the compiler when it was chosen.
    rerun = list(argv)
    if cc_explicit and not args.cc:
        rerun.append('--cc=' + cc)

    n = NinjaWriter()
    n.comment('Generated by configure.py; do not edit (edit configure.py instead).')
    n.comment('configure.py ' + ' '.join(shlex.quote(a) for a in rerun))
    n.newline()
    n.variable('ninja_required_version', '1.10')
    n.variable('builddir', 'build')
    n.variable('configure_args', ninja_escape(' '.join(shlex.quote(a) for a in rerun)))
    n.variable('cc', ninja_escape(cc))
    n.variable('cflags', ninja_escape(' '.join(cflags)))
    n.variable('grammar_cflags', ninja_escape(' '.join(grammar_cflags)))
    n.variable('test_cflags', ninja_escape(' '.join(cflags_test)))
    n.variable('ldflags', ninja_escape(' '.join(san)))
    n.variable('libs', ninja_escape(' '.join(libs)))
    n.variable('test_libs', ninja_escape(' '.join(libs_test)))
    n.variable('prefix', ninja_escape(args.prefix))
    n.newline()

    n.rule('configure', 'python3 configure.py $configure_args',
           description='CONFIGURE', generator=True, pool='console')
    n.rule('fetch_grammar', 'python3 configure.py --fetch-grammar',
           description='FETCH %s@%s' % (GRAMMAR_PACKAGE, GRAMMAR_VERSION))
    n.rule('cc', '$cc -MMD -MF $out.d $cflags -c $in -o $out',
           description='CC $out', depfile='$out.d', deps='gcc')
    n.rule('ar', 'rm -f $out && ar crs $out $in', description='AR $out')
    n.rule('link', '$cc $ldflags -o $out $in $libs', description='LINK $out')
    n.rule('console', '$cmd', description='$desc', pool='console')
    n.newline()

    n.build('build.ninja', 'configure', implicit=['configure.py'])
    n.rule('embed_arch', 'python3 arch/embed.py $out $in', description='EMBED $out')
    n.build(ARCH_GEN, 'embed_arch', ARCH_TABLES, implicit=['arch/embed.py'])
    n.rule('embed_features', 'python3 arch/embed.py --symbol px_features_builtin $out $in',
           description='EMBED $out')
    n.build(FEATURE_GEN, 'embed_features', [FEATURE_TABLE], implicit=['arch/embed.py'])
    n.build(GRAMMAR_SOURCES, 'fetch_grammar')
    n.newline()

    # The library, the binary, the unit tests.
    lib_objs = []
    for src in LIB_SOURCES:
        n.build(obj(src), 'cc', src)
        lib_objs.append(obj(src))
    for src in GRAMMAR_SOURCES:
        n.build(obj(src), 'cc', src, variables={'cflags': '$grammar_cflags'})
        lib_objs.append(obj(src))
    n.build(obj(ARCH_GEN), 'cc', ARCH_GEN)
    lib_objs.append(obj(ARCH_GEN))
    n.build(obj(FEATURE_GEN), 'cc', FEATURE_GEN)
    lib_objs.append(obj(FEATURE_GEN))
    n.build('build/libptxray.a', 'ar', lib_objs)
    for src in [MAIN] + CLI_SOURCES:
        n.build(obj(src), 'cc', src)
    n.build('build/ptxray', 'link', [obj(s) for s in [MAIN] + CLI_SOURCES] + ['build/libptxray.a'])
    test_objs = []
    occ_oracle = (['-DPX_HAVE_CUDA_OCCUPANCY', '-isystem', os.path.dirname(CUDA_OCCUPANCY_H)]
                  if os.path.isfile(CUDA_OCCUPANCY_H) else [])
    for src in UNIT_TESTS:
        extra = ' ' + ' '.join(occ_oracle) if src.endswith('test_occ_oracle.c') and occ_oracle else ''
        n.build(obj(src), 'cc', src, variables={'cflags': '$cflags $test_cflags' + extra})
        test_objs.append(obj(src))
    n.build('build/unit_tests', 'link', test_objs + ['build/libptxray.a'],
            variables={'libs': '$libs $test_libs'})
    bench_bins = []
    for src in BENCH_PROGRAMS:
        out = 'build/' + os.path.splitext(os.path.basename(src))[0]
        n.build(obj(src), 'cc', src)
        n.build(out, 'link', [obj(src), 'build/libptxray.a'])
        bench_bins.append(out)
    n.newline()

    # Fuzzers: clang, the library recompiled with the fuzzer's instrumentation.
    fuzz_bins = []
    if FUZZ:
        fcc = os.environ.get('FUZZ_CC', 'clang')
        n.variable('fuzz_cc', ninja_escape(fcc))
        n.rule('fuzz_cc', '$fuzz_cc -MMD -MF $out.d $fuzz_cflags -c $in -o $out',
               description='CC(fuzz) $out', depfile='$out.d', deps='gcc')
        n.rule('fuzz_link', '$fuzz_cc -fsanitize=fuzzer,address,undefined '
               '-o $out $in $libs',
               description='LINK(fuzz) $out')
        base_fuzz = ['-std=c11', '-O1', '-g', '-D_GNU_SOURCE', '-Wall', '-Wextra',
                     '-DPX_FUZZ', '-fsanitize=fuzzer-no-link,address,undefined',
                     '-fno-omit-frame-pointer'] + includes + cflags_pkg
        n.variable('fuzz_cflags', ninja_escape(' '.join(base_fuzz)))
        fuzz_grammar = ['-O1', '-g', '-w', '-fsanitize=fuzzer-no-link,address',
                        '-I' + GRAMMAR_DIR + '/src']
        n.variable('fuzz_grammar_cflags', ninja_escape(' '.join(fuzz_grammar)))
        fobjs = []
        for src in LIB_SOURCES:
            n.build(obj(src, 'build/fuzz/obj'), 'fuzz_cc', src)
            fobjs.append(obj(src, 'build/fuzz/obj'))
        for src in GRAMMAR_SOURCES:
            n.build(obj(src, 'build/fuzz/obj'), 'fuzz_cc', src,
                    variables={'fuzz_cflags': '$fuzz_grammar_cflags'})
            fobjs.append(obj(src, 'build/fuzz/obj'))
        n.build(obj(ARCH_GEN, 'build/fuzz/obj'), 'fuzz_cc', ARCH_GEN)
        fobjs.append(obj(ARCH_GEN, 'build/fuzz/obj'))
        n.build(obj(FEATURE_GEN, 'build/fuzz/obj'), 'fuzz_cc', FEATURE_GEN)
        fobjs.append(obj(FEATURE_GEN, 'build/fuzz/obj'))
        for src in FUZZ:
            name = os.path.splitext(os.path.basename(src))[0]
            n.build(obj(src, 'build/fuzz/obj'), 'fuzz_cc', src)
            n.build('build/fuzz/' + name, 'fuzz_link',
                    [obj(src, 'build/fuzz/obj')] + fobjs)
            fuzz_bins.append('build/fuzz/' + name)
        n.newline()

    # Actions. Their outputs (build/.run-*) are never written, so they always run.
    n.build('build/.run-test', 'console', implicit=['build/ptxray', 'build/unit_tests'],
            variables={'cmd': 'python3 tests/run.py build', 'desc': 'TEST'})
    demo = ' '.join(['build/ptxray', 'report'] + [shlex.quote(e) for e in EXAMPLES])
    n.build('build/.run-demo', 'console', implicit=['build/ptxray'] + EXAMPLES,
            variables={'cmd': ninja_escape(demo), 'desc': 'DEMO'})
    n.build('build/.run-bench', 'console', implicit=['build/ptxray'] + bench_bins,
            variables={'cmd': 'python3 bench/run.py build', 'desc': 'BENCH'})
    dest = '"${DESTDIR:-}"' + shlex.quote(args.prefix)
    install = ('set -e; d=%s; '
               'install -Dm755 build/ptxray "$d/bin/ptxray"; '
               'install -Dm644 build/libptxray.a "$d/lib/libptxray.a"; '
               'if [ -f include/ptxray.h ]; then '
               'install -Dm644 include/ptxray.h "$d/include/ptxray.h"; fi; '
               'for f in man/*.1 man/*.5 man/*.7; do if [ -f "$f" ]; then '
               's="${f##*.}"; install -Dm644 "$f" "$d/share/man/man$s/${f##*/}"; '
               'fi; done' % dest)
    n.build('build/.run-install', 'console', implicit=['build/ptxray', 'build/libptxray.a'],
            variables={'cmd': ninja_escape(install), 'desc': 'INSTALL $prefix'})
    n.newline()
    n.build('all', 'phony', ['build/ptxray', 'build/unit_tests'])
    n.build('test', 'phony', 'build/.run-test')
    n.build('demo', 'phony', 'build/.run-demo')
    n.build('bench', 'phony', 'build/.run-bench')
    n.build('install', 'phony', 'build/.run-install')
    n.build('fuzz', 'phony', fuzz_bins)
    n.default(['build/ptxray'])

    path = os.path.join(ROOT, 'build.ninja')
    text = n.text()
    try:
        with open(path) as f:
            old = f.read()
    except OSError:
        old = None
    if old != text:
        with open(path, 'w') as f:
            f.write(text)
    elif os.path.getmtime(path) < os.path.getmtime(os.path.join(ROOT, 'configure.py')):
        os.utime(path)   # unchanged, but ninja must see it as newer than configure.py


def main():
    p = argparse.ArgumentParser(
        description='Writes build.ninja for ptxray; finds or installs its dependencies.')
    p.add_argument('--debug', action='store_true',
                   help='-O0 -g and PX_DEBUG (the IR verifier runs between passes)')
    p.add_argument('--sanitize', action='store_true',
                   help='build with AddressSanitizer and UndefinedBehaviorSanitizer')
    p.add_argument('--tsan', action='store_true',
                   help='build with ThreadSanitizer (not with --sanitize)')
    p.add_argument('--werror', action='store_true', help='make warnings errors')
    p.add_argument('--prefix', default='/usr/local',
                   help='where `ninja install` installs (default /usr/local)')
    p.add_argument('--cc', help='the C compiler (default: $CC, else cc, gcc or clang)')
    p.add_argument('--fetch-grammar', action='store_true',
                   help='only fetch and verify the grammar (build.ninja uses this)')
    argv = sys.argv[1:]
    args = p.parse_args(argv)
    if args.tsan and args.sanitize:
        p.error('--tsan and --sanitize cannot be combined')
    os.chdir(ROOT)

    if args.fetch_grammar:
        if not grammar_ok():
            if not shutil.which('npm'):
                install_or_exit(['npm'], ['npm'])
            fetch_grammar()
        return 0

    listed = (LIB_SOURCES + [MAIN] + CLI_SOURCES + UNIT_TESTS + FUZZ + BENCH_PROGRAMS + EXAMPLES + ARCH_TABLES
              + [FEATURE_TABLE])
    absent = [s for s in listed if not os.path.isfile(s)]
    if absent:
        fail('listed in configure.py but missing: %s\n'
             '  (create the file, or remove it from the list in configure.py)'
             % ', '.join(absent))

    cc, cc_explicit = find_cc(args.cc)
    need_grammar = not grammar_ok()
    missing, extra = missing_dependencies(cc, need_grammar)
    if missing:
        install_or_exit(missing, extra)
        cc, cc_explicit = find_cc(args.cc)
        missing, extra = missing_dependencies(cc, need_grammar)
        if missing:
            fail('still missing after installing: ' + ', '.join(missing))
    if need_grammar:
        fetch_grammar()
    write_build_ninja(args, argv, cc, cc_explicit)
    return 0


if __name__ == '__main__':
    sys.exit(main())
