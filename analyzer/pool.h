/* pool.h: a fixed set of worker threads running tasks from a queue (-j N).
 *
 * Two classes of task: light ones never wait for other tasks (one
 * function's analysis); heavy ones may (one file, whose parser waits for
 * its functions). A thread waiting for a task helps: it runs queued light
 * tasks itself (and heavy ones too when it is not inside a task), so the
 * pool makes progress with any number of workers, even none. Workers take
 * light tasks first. The pool is the only shared object: what a task
 * reads or writes is the submitter's business (see report.c). */
#ifndef PX_POOL_H
#define PX_POOL_H

#include <stdbool.h>

struct px_task {
	/* worker: the running thread's slot, 0 .. px_pool_slots() - 1; two
	 * tasks never run on one slot at once (for per-thread scratch) */
	void (*run)(struct px_task *t, unsigned worker);
	bool heavy;
	/* the pool's own */
	struct px_task *next;
	int state;
	unsigned slot;      /* while running */
};

struct px_pool;
/* threads - 1 worker threads (fewer when threads cannot be started); the
 * threads that wait make up the rest. threads <= 1: no worker, every task
 * runs in px_pool_wait. Freed by px_pool_delete (which waits for the
 * workers to finish the queue). */
struct px_pool *px_pool_new(unsigned threads);
void px_pool_delete(struct px_pool *p);
/* Worker slots: the worker threads plus slot 0, the threads outside the
 * pool. Only one thread outside the pool may wait on it at a time. */
unsigned px_pool_slots(const struct px_pool *p);
void px_pool_submit(struct px_pool *p, struct px_task *t);
/* Returns once t has run, running queued tasks meanwhile. self: the task
 * the caller is running inside (its slot runs what the caller helps with;
 * then only light tasks), or NULL outside any task (slot 0). */
void px_pool_wait(struct px_pool *p, struct px_task *t, const struct px_task *self);
/* Has t run? Never blocks. */
bool px_pool_done(struct px_pool *p, struct px_task *t);

/* The number of CPUs online (at least 1): the default of -j. */
unsigned px_cpu_count(void);
/* Parses a -j value: 1..256. */
bool px_jobs_parse(const char *s, unsigned *out);

#endif
