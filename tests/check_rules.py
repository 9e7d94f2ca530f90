#!/usr/bin/env python3
"""tests/check_rules.py BUILD_DIR: `ptxray lint` and the rule catalogue
against their documentation, fixtures and formats.

Checks that:
 - `ptxray rules` lists every rule exactly once, sorted, and `ptxray rules ID`
   prints every documentation section (message, description, why, fix,
   before, after) for each;
 - man/ptxray-rules.7 is exactly `ptxray rules --man` (regenerate it with
   `build/ptxray rules --man > man/ptxray-rules.7`) and names every rule;
 - every rule not marked planned has tests/golden/rules/ID/{fires,silent,
   default}.ptx, the first and last expecting a finding of the rule, the
   silent one none;
 - every configuration key of rules/config.c is documented in ptxray-config(5);
 - every man page renders with no warning (`groff -ww -man -z`);
 - the examples produce exactly the findings listed in EXAMPLES below;
 - JSON output follows INTERFACES.md (ptxray-lint/1) and SARIF output
   validates against the SARIF 2.1.0 schema (tests/fixtures/sarif/, checked
   by the draft-04 validator below);
 - `-j 4` prints byte for byte what `-j 1` prints;
 - a baseline written from the examples absorbs all their findings, also
   after lines move; a broken configuration is a located error, exit 2;
   --show-config reports the file it came from.
Prints `N passed, N failed`. Standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The findings `ptxray lint examples/*.ptx` must produce, by rule: the
# examples are demo kernels with deliberate problems (transpose_naive's bank
# conflict, sgemm_reg_blocked's register pressure, sgemm_dynamic_index's local
# array, reduce's single-lane tail, histogram's modulo in a loop).
EXAMPLES = {
    'divergent-branch': 5,
    'launch-bounds-missing': 1,
    'local-memory-array': 1,
    'low-occupancy': 2,
    'register-spill': 1,
    'shared-bank-conflict': 132,
    'slow-integer-division': 2,
    'uncoalesced-global': 8,
}


def run(exe, *args, cwd=ROOT):
    p = subprocess.run([exe, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


# ---- a JSON-schema draft-04 validator for the keywords the SARIF schema uses ----

KNOWN = {'$schema', 'id', 'title', 'description', 'default', 'definitions', 'type',
         'properties', 'additionalProperties', 'required', 'items', 'minItems',
         'uniqueItems', 'enum', 'minimum', 'maximum', 'pattern', 'format', '$ref',
         'anyOf', 'oneOf'}


def type_ok(v, t):
    if t == 'object':
        return isinstance(v, dict)
    if t == 'array':
        return isinstance(v, list)
    if t == 'string':
        return isinstance(v, str)
    if t == 'integer':
        return isinstance(v, int) and not isinstance(v, bool)
    if t == 'number':
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == 'boolean':
        return isinstance(v, bool)
    if t == 'null':
        return v is None
    raise ValueError('unknown type %r' % t)


def validate(root, schema, v, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        errors.append('%s: schema keyword(s) not implemented: %s' % (path, sorted(unknown)))
    if '$ref' in schema:
        ref = schema['$ref']
        if not ref.startswith('#/definitions/'):
            errors.append('%s: unsupported $ref %s' % (path, ref))
            return
        validate(root, root['definitions'][ref[len('#/definitions/'):]], v, path, errors)
        return
    if 'type' in schema:
        ts = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(type_ok(v, t) for t in ts):
            errors.append('%s: expected %s' % (path, '|'.join(ts)))
            return
    if 'enum' in schema and v not in schema['enum']:
        errors.append('%s: %r not in %r' % (path, v, schema['enum']))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if 'minimum' in schema and v < schema['minimum']:
            errors.append('%s: %r < minimum %r' % (path, v, schema['minimum']))
        if 'maximum' in schema and v > schema['maximum']:
            errors.append('%s: %r > maximum %r' % (path, v, schema['maximum']))
    if isinstance(v, str):
        if 'pattern' in schema and not re.search(schema['pattern'], v):
            errors.append('%s: %r does not match %s' % (path, v, schema['pattern']))
        if schema.get('format') in ('uri', 'uri-reference') and (not v or ' ' in v):
            errors.append('%s: %r is not a %s' % (path, v, schema['format']))
    if isinstance(v, list):
        if len(v) < schema.get('minItems', 0):
            errors.append('%s: fewer than %d items' % (path, schema['minItems']))
        if schema.get('uniqueItems'):
            seen = [json.dumps(x, sort_keys=True) for x in v]
            if len(seen) != len(set(seen)):
                errors.append('%s: items not unique' % path)
        if 'items' in schema:
            for i, x in enumerate(v):
                validate(root, schema['items'], x, '%s[%d]' % (path, i), errors)
    if isinstance(v, dict):
        for k in schema.get('required', []):
            if k not in v:
                errors.append('%s: missing required %s' % (path, k))
        props = schema.get('properties', {})
        for k, x in v.items():
            if k in props:
                validate(root, props[k], x, '%s.%s' % (path, k), errors)
            else:
                ap = schema.get('additionalProperties', True)
                if ap is False:
                    errors.append('%s: property %s not allowed' % (path, k))
                elif isinstance(ap, dict):
                    validate(root, ap, x, '%s.%s' % (path, k), errors)
    for key in ('anyOf', 'oneOf'):
        if key in schema:
            ok = 0
            for alt in schema[key]:
                e = []
                validate(root, alt, v, path, e)
                ok += not e
            if (key == 'anyOf' and ok == 0) or (key == 'oneOf' and ok != 1):
                errors.append('%s: %s matched %d alternatives' % (path, key, ok))


def main():
    exe = os.path.abspath(os.path.join(sys.argv[1], 'ptxray'))
    check = Checks()


    # the catalogue
    rc, out, _ = run(exe, 'rules')
    check(rc == 0, 'ptxray rules exits 0')
    rows = [l for l in out.splitlines()[1:] if l.strip()]
    ids = [r.split()[0] for r in rows]
    planned = set()  # every rule, the compat-provided ones included, has fixtures
    ISSUE = '''divergent-barrier warp-sync-missing legacy-warp-intrinsic shuffle-mask uncoalesced-global
        shared-bank-conflict divergent-branch local-memory-array register-spill low-occupancy
        launch-infeasible block-size-not-multiple-of-32 shared-memory-opt-in-missing
        launch-bounds-missing arch-feature-unavailable ptx-isa-too-old fp64-on-consumer-gpu
        slow-integer-division bad-annotation'''.split()
    for rid in ISSUE:
        check(rid in ids, 'the catalogue has %s (issue 6)' % rid)
    check(ids == sorted(ids) and len(set(ids)) == len(ids), 'rule ids sorted and unique')
    for rid in ids:
        check(re.fullmatch(r'[a-z0-9]+(-[a-z0-9]+)*', rid) is not None, '%s is kebab-case' % rid)
        rc, doc, _ = run(exe, 'rules', rid)
        for sec in ('message:', 'description:', 'why it matters:', 'how to fix:', 'before:', 'after:'):
            body = doc.split(sec, 1)[1].split('\n\n')[0].strip() if sec in doc else ''
            check(rc == 0 and body != '', '%s: documentation section %s' % (rid, sec))
    # the man page is the registry's
    rc, man, _ = run(exe, 'rules', '--man')
    page = open(os.path.join(ROOT, 'man', 'ptxray-rules.7')).read()
    check(rc == 0 and man == page, 'man/ptxray-rules.7 equals `ptxray rules --man` (regenerate it)')
    for rid in ids:
        check(('.SS ' + rid.replace('-', '\\-')) in page, 'ptxray-rules(7) documents %s' % rid)
    # fixtures
    for rid in ids:
        if rid in planned:
            continue
        d = os.path.join(ROOT, 'tests', 'golden', 'rules', rid)
        for name, fires in (('fires', True), ('silent', False), ('default', True)):
            f = os.path.join(d, name + '.ptx')
            exists = os.path.isfile(f)
            check(exists, '%s has the fixture %s.ptx' % (rid, name))
            if not exists:
                continue
            text = open(f).read()
            exp = text.split('// EXPECT-BEGIN', 1)[1].split('// EXPECT-END', 1)[0] if '// EXPECT-BEGIN' in text else ''
            has = ('[%s]' % rid) in exp or ('"rule":"%s"' % rid) in exp
            check(has == fires, '%s/%s.ptx %s a finding of the rule' % (rid, name, 'expects' if fires else 'expects no'))
    # configuration keys
    src = open(os.path.join(ROOT, 'rules', 'config.c')).read()
    keys = re.findall(r'^\t\{"([a-z_.]+)", "', src.split('config_keys[] = {', 1)[1].split('};', 1)[0], re.M)
    cfgman = open(os.path.join(ROOT, 'man', 'ptxray-config.5')).read().replace('\\-', '-')
    check(len(keys) >= 10, 'config keys found in rules/config.c')
    for k in keys:
        check(('.B %s\n' % k) in cfgman, 'ptxray-config(5) documents %s' % k)
    # every man page renders without warnings
    groff = shutil.which('groff')
    check(groff is not None, 'groff is installed (configure.py installs groff-base)')
    if groff:
        for name in sorted(os.listdir(os.path.join(ROOT, 'man'))):
            p = subprocess.run([groff, '-ww', '-man', '-Tutf8', '-z', os.path.join('man', name)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            check(p.returncode == 0 and p.stderr == '', 'groff -ww: %s renders with no warning %s'
                  % (name, p.stderr.strip()[:200]))
    # the examples
    examples = sorted(os.path.join('examples', f) for f in os.listdir(os.path.join(ROOT, 'examples'))
                      if f.endswith('.ptx'))
    rc, out, err = run(exe, 'lint', '--format', 'json', *examples)
    doc = json.loads(out) if out.startswith('{') else {}
    counts = {}
    for d in doc.get('diagnostics', []):
        counts[d['rule']] = counts.get(d['rule'], 0) + 1
    check(counts == EXAMPLES, 'examples produce exactly the expected findings: %s' % counts)
    check(rc == 1, 'lint exits 1 on the examples (warnings at the default fail_on)')
    # JSON contract
    check(doc.get('schema') == 'ptxray-lint/1', 'JSON schema string')
    fields = {'rule': str, 'severity': str, 'file': str, 'line': int, 'column': int, 'message': str}
    bad = [d for d in doc.get('diagnostics', [])
           if any(not isinstance(d.get(k), t) for k, t in fields.items())
           or d['severity'] not in ('error', 'warning', 'note')
           or not (d.get('kernel') is None or isinstance(d['kernel'], str))
           or not (d.get('arch') is None or isinstance(d['arch'], str))
           or 'kernel' not in d or 'arch' not in d]
    check(not bad and doc.get('diagnostics'), 'JSON diagnostics follow INTERFACES.md (%d bad)' % len(bad))
    keys_sorted = [(d['file'], d['line'], d['column'], d['rule']) for d in doc.get('diagnostics', [])]
    check(keys_sorted == sorted(keys_sorted), 'JSON diagnostics sorted by file, line, column, rule')
    # SARIF against the schema
    schema = json.load(open(os.path.join(ROOT, 'tests', 'fixtures', 'sarif', 'sarif-2.1.0-rtm.5.json')))
    fixtures = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(ROOT, 'tests', 'golden', 'rules'))
                      for f in fs if f.endswith('.ptx'))
    rels = [os.path.relpath(f, ROOT) for f in fixtures]
    for what, args in (('examples', examples), ('rule fixtures', rels)):
        rc, out, err = run(exe, 'lint', '--format', 'sarif', '--arch', 'sm_86,sm_90', *args)
        try:
            log = json.loads(out)
        except ValueError:
            log = None
        errors = []
        if log is not None:
            validate(schema, schema, log, '$', errors)
        check(log is not None and not errors and log['runs'][0]['results'],
              'SARIF for the %s validates against the 2.1.0 schema %s' % (what, errors[:5]))
        if log:
            rules = [r['id'] for r in log['runs'][0]['tool']['driver']['rules']]
            check(rules == ids, 'SARIF rule metadata lists the catalogue')
    # -j
    rc1, out1, err1 = run(exe, 'lint', '-j', '1', '--arch', 'sm_86,sm_90', *examples, *rels)
    rc4, out4, err4 = run(exe, 'lint', '-j', '4', '--arch', 'sm_86,sm_90', *examples, *rels)
    check(rc1 == rc4 and out1 == out4 and err1 == err4 and out1, '-j 4 output identical to -j 1')
    rc, gh, _ = run(exe, 'lint', '--format', 'github', *examples)
    check(all(re.match(r'::(error|warning|notice) file=[^,]+,line=\d+,col=\d+,title=[a-z0-9-]+::', l)
              for l in gh.splitlines()) and gh, 'github format: one workflow command per finding')
    # baselines, config errors, --show-config (in a scratch folder)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(ROOT, 'examples', 'transpose.ptx'), os.path.join(tmp, 't.ptx'))
        rc, _, err = run(exe, 'lint', '--write-baseline', 'base.txt', 't.ptx', cwd=tmp)
        check(rc == 0 and os.path.isfile(os.path.join(tmp, 'base.txt')), 'write a baseline')
        rc, out, _ = run(exe, 'lint', '--baseline', 'base.txt', 't.ptx', cwd=tmp)
        check(rc == 0 and 'in the baseline' in out and ' 0 warnings' in out, 'the baseline absorbs every finding')
        text = open(os.path.join(tmp, 't.ptx')).read()
        with open(os.path.join(tmp, 't.ptx'), 'w') as f:
            f.write('// moved down by three lines\n\n\n' + text)
        rc, out, _ = run(exe, 'lint', '--baseline', 'base.txt', 't.ptx', cwd=tmp)
        check(rc == 0, 'the baseline still matches after the code moved')
        with open(os.path.join(tmp, '.ptxray.yaml'), 'w') as f:
            f.write('rules:\n  shared-bank-conflict: error\n  no-such-rule: off\n')
        rc, out, err = run(exe, 'lint', 't.ptx', cwd=tmp)
        check(rc == 2 and out == '' and re.search(r'\.ptxray\.yaml:3:3: error: unknown rule', err),
              'a bad .ptxray.yaml is a located error, exit 2, nothing on stdout (%r)' % err)
        with open(os.path.join(tmp, '.ptxray.yaml'), 'w') as f:
            f.write('rules:\n  shared-bank-conflict: error\n')
        os.makedirs(os.path.join(tmp, 'sub'))
        shutil.copy(os.path.join(tmp, 't.ptx'), os.path.join(tmp, 'sub', 'u.ptx'))
        rc, out, _ = run(exe, 'lint', '--show-config', 'sub/u.ptx', cwd=tmp)
        check(rc == 0 and '.ptxray.yaml' in out and 'shared-bank-conflict: {enabled: true, severity: error' in out,
              '--show-config finds the configuration above the file')
        rc, out, _ = run(exe, 'lint', 'sub/u.ptx', cwd=tmp)
        check(rc == 1 and 'error: 32-way bank conflict' in out, 'the configured severity applies')
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
