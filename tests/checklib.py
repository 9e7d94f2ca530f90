"""checklib.py: the check counter the tests/check_*.py scripts share.

    check = Checks()              # or Checks(verbose=True): print passes too
    check(ok, 'what was checked')
    return check.summary()        # prints `N passed, N failed` (what
                                  # tests/run.py reads); 1 if any failed

A failure prints `FAIL what` (and `detail`, when given, cut to its last
3,000 characters) at once; verbose also prints `ok   what` for a pass.
Standard library only."""


class Checks:
    def __init__(self, verbose=False):
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def __call__(self, ok, what, detail=''):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        if self.verbose or not ok:
            print('%s %s' % ('ok  ' if ok else 'FAIL', what))
        if not ok and detail:
            print(detail[-3000:])
        return ok

    def add(self, passed, failed):
        """Counts another counter's results (a part checked on its own)."""
        self.passed += passed
        self.failed += failed

    def summary(self):
        print('%d passed, %d failed' % (self.passed, self.failed))
        return 1 if self.failed else 0
