/* ptxray.h: the public C API of libptxray (build/libptxray.a).
 *
 * Style (tree-sitter's api.h): opaque handles, ptxray_object_verb(self, ...),
 * _new/_delete pairs, and every function that returns memory says who frees
 * it. Nothing here prints, exits or keeps global state: reports on two
 * threads are independent. */
#ifndef PTXRAY_H
#define PTXRAY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXRAY_VERSION "0.1.0"

/* A report over one PTX file: its kernels, resources and (optionally)
 * ptxas's figures. */
typedef struct ptxray_report ptxray_report;

typedef struct ptxray_report_options {
	uint32_t block[3];   /* launch block; {0} = from the kernel's directives or the default */
	uint32_t grid[3];    /* launch grid; {0} = unknown */
	const char *arch;    /* "sm_90"; NULL = the file's .target */
	const char *ptxas;   /* path of ptxas to run for exact figures; NULL = don't */
} ptxray_report_options;

/* Analyses the PTX text (len bytes; copied, the caller keeps its buffer) that
 * was read from path (used in messages only). options may be NULL.
 * Returns NULL when the text is not valid PTX; then *errors (when errors is
 * not NULL) receives the messages, one `path:line:col: error: ...` per line,
 * to be freed with free(). On success *errors is NULL or holds warnings. */
ptxray_report *ptxray_report_new(const char *path, const char *text, size_t len,
                                 const ptxray_report_options *options, char **errors);

/* Frees the report and everything it owns. NULL is fine. */
void ptxray_report_delete(ptxray_report *self);

/* Number of kernels (.entry functions with a body). */
size_t ptxray_report_kernel_count(const ptxray_report *self);

/* The mangled name of kernel i; owned by the report. */
const char *ptxray_report_kernel_name(const ptxray_report *self, size_t i);

/* The report as a "ptxray-report/1" JSON document (see INTERFACES.md),
 * NUL-terminated; the caller frees it with free(). */
char *ptxray_report_json(const ptxray_report *self);

#ifdef __cplusplus
}
#endif

#endif
