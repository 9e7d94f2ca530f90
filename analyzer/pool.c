/* pool.c: the -j N thread pool (see pool.h).
 *
 * Approach: one mutex guards two FIFO queues (light, heavy) and every
 * task's state; one condition variable, broadcast when a task is queued or
 * finishes, wakes workers and waiters alike (a waiter helps with new work
 * as a worker does). A worker runs light tasks
 * before heavy ones, so the functions of the files being parsed are
 * analysed before another file is opened (which bounds memory). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool.h"
#include "util.h"

enum { QUEUED, RUNNING, DONE };

struct queue {
	struct px_task *head, *tail;
};

struct px_pool {
	pthread_mutex_t lock;
	pthread_cond_t changed;  /* a task was queued or finished, or the pool is closing */
	struct queue q[2];       /* light, heavy */
	bool closing;
	unsigned nthreads;       /* worker threads started */
	pthread_t *threads;
	struct worker_arg *args;
};

struct worker_arg {
	struct px_pool *p;
	unsigned slot;
};

static void push(struct queue *q, struct px_task *t)
{
	t->next = NULL;
	if (q->tail)
		q->tail->next = t;
	else
		q->head = t;
	q->tail = t;
}

static struct px_task *pop(struct queue *q)
{
	struct px_task *t = q->head;
	if (t) {
		q->head = t->next;
		if (!q->head)
			q->tail = NULL;
	}
	return t;
}

/* Requires the lock, held; t taken off its queue. Runs t unlocked. */
static void run_locked(struct px_pool *p, struct px_task *t, unsigned slot)
{
	t->state = RUNNING;
	t->slot = slot;
	pthread_mutex_unlock(&p->lock);
	t->run(t, slot);
	pthread_mutex_lock(&p->lock);
	t->state = DONE;
	pthread_cond_broadcast(&p->changed);
}

static void *worker(void *varg)
{
	struct worker_arg *a = varg;
	struct px_pool *p = a->p;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct px_task *t = pop(&p->q[0]);
		if (!t)
			t = pop(&p->q[1]);
		if (t) {
			run_locked(p, t, a->slot);
			continue;
		}
		if (p->closing)
			break;
		pthread_cond_wait(&p->changed, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct px_pool *px_pool_new(unsigned threads)
{
	struct px_pool *p = xcalloc(1, sizeof *p);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	unsigned want = threads > 1 ? threads - 1 : 0;
	p->threads = xcalloc(want + 1, sizeof *p->threads);
	p->args = xcalloc(want + 1, sizeof *p->args);
	for (unsigned i = 0; i < want; i++) {
		p->args[i].p = p;
		p->args[i].slot = i + 1;
		if (pthread_create(&p->threads[i], NULL, worker, &p->args[i]) != 0)
			break;  /* fewer workers: the waiters do the rest */
		p->nthreads++;
	}
	return p;
}

void px_pool_delete(struct px_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->closing = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	/* without workers, tasks nobody waited for still run */
	pthread_mutex_lock(&p->lock);
	for (int k = 0; k < 2; k++) {
		struct px_task *t;
		while ((t = pop(&p->q[k])))
			run_locked(p, t, 0);
	}
	pthread_mutex_unlock(&p->lock);
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
	free(p->threads);
	free(p->args);
	free(p);
}

unsigned px_pool_slots(const struct px_pool *p)
{
	return p->nthreads + 1;
}

void px_pool_submit(struct px_pool *p, struct px_task *t)
{
	pthread_mutex_lock(&p->lock);
	t->state = QUEUED;
	push(&p->q[t->heavy ? 1 : 0], t);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

void px_pool_wait(struct px_pool *p, struct px_task *t, const struct px_task *self)
{
	unsigned slot = self ? self->slot : 0;
	pthread_mutex_lock(&p->lock);
	while (t->state != DONE) {
		struct px_task *h = pop(&p->q[0]);
		if (!h && !self)
			h = pop(&p->q[1]);
		if (h)
			run_locked(p, h, slot);
		else
			pthread_cond_wait(&p->changed, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
}

bool px_pool_done(struct px_pool *p, struct px_task *t)
{
	pthread_mutex_lock(&p->lock);
	bool d = t->state == DONE;
	pthread_mutex_unlock(&p->lock);
	return d;
}

unsigned px_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

bool px_jobs_parse(const char *s, unsigned *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < 1 || v > 256)
		return false;
	*out = (unsigned)v;
	return true;
}
