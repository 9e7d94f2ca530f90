/* simt_exec.c: the PTX interpreter of `ptxray simt`: decodes a kernel's
 * instructions once (register slots, immediates, branch targets, timing
 * class) and executes one warp-instruction on concrete 64-bit lane values.
 *
 * Values: every register slot holds 32 lanes of uint64_t bit patterns (f32
 * in the low 32 bits) and a mask of lanes whose value is unknown. An
 * operation with an unknown input gives an unknown result. Memory: global
 * and local memory are one sparse word map (unwritten words are unknown);
 * shared memory is a flat array of tracked words (known bytes, last writer
 * and reader per barrier epoch) that the verifier checks on every access.
 * Floating point: C's float/double in round-to-nearest-even, with .ftz
 * (flush subnormal inputs and results), .sat (clamp to [0, 1]) and the
 * integer-conversion roundings .rni/.rzi/.rmi/.rpi exact; the .approx
 * functions use libm (their last bits may differ from the hardware's).
 * Half precision, tensor and texture instructions give unknown results. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../arch/arch.h"
#include "simt_int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#define RUN_SSE2 1   /* (load_groups' words) */
#else
#define RUN_SSE2 0
#endif

void sim_note(struct sim *s, uint32_t pc, const char *fmt, ...)
{
	if (s->noted[pc])
		return;
	s->noted[pc] = 1;
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	*PX_VEC_PUSH(s->res->notes, s->res->nnotes, s->res->capnotes) =
		xasprintf("line %u: %s", s->ins[pc].in->line, msg);
	free(msg);
}

struct px_simt_violation *sim_violation(struct sim *s, unsigned kind, uint32_t pc, uint32_t t0, uint32_t t1,
                                        const char *fmt, ...)
{
	bool *seen = &s->viol_seen[(size_t)pc * SIM_SEEN_SLOTS + kind];
	if (*seen)
		return NULL;
	*seen = true;
	const struct px_insn *in = s->ins[pc].in;
	struct px_simt_violation *v = PX_VEC_PUSH(s->res->viol, s->res->nviol, s->res->capviol);
	memset(v, 0, sizeof *v);
	v->same_warp = kind == SIM_SAME_WARP_RACE;
	v->kind = (uint8_t)(v->same_warp ? PX_V_SHARED_RACE : kind);
	v->line = in->line;
	v->col = in->col;
	v->loc_line = in->loc_line;
	const char *fp;
	size_t fn;
	if (in->loc_file && sim_file_name(s, in->loc_file, &fp, &fn))
		v->source_file = px_arena_strndup(s->m->arena, fp, fn);
	va_list ap;
	va_start(ap, fmt);
	v->message = xvasprintf(fmt, ap);
	va_end(ap);
	v->threads[0] = t0;
	v->threads[1] = t1;
	v->nthreads = t0 == t1 ? 1 : 2;
	v->guessed = s->res->guess_line != 0;
	return v;
}

/* Whether a violation of kind at pc is recorded already (sim_violation
 * records one): callers skip the search for what its message names. */
static inline bool viol_seen(const struct sim *s, unsigned kind, uint32_t pc)
{
	return s->viol_seen[(size_t)pc * SIM_SEEN_SLOTS + kind];
}

void sim_guess(struct sim *s, uint32_t pc)
{
	if (!s->res->guess_line)
		s->res->guess_line = s->ins[pc].in->line;
	if (s->opt->stop_at_guess) {
		s->stop = true;
		s->stop_reason = "unknown";
	}
}

const char *sim_thread(const struct sim *s, uint32_t t, char buf[48])
{
	uint32_t bx = s->block[0] ? s->block[0] : 1, by = s->block[1] ? s->block[1] : 1;
	snprintf(buf, 48, "(%u,%u,%u)", t % bx, (t / bx) % by, t / (bx * by));
	return buf;
}

bool sim_file_name(const struct sim *s, uint32_t idx, const char **p, size_t *n)
{
	const struct px_file_entry *fe = px_module_file(s->m, idx);
	if (fe) {
		*p = fe->name.p;
		*n = fe->name.n;
		return true;
	}
	if (idx < s->opt->nfile_names && s->opt->file_names[idx]) {
		*p = s->opt->file_names[idx];
		*n = strlen(*p);
		return true;
	}
	return false;
}

const char *sim_where(const struct sim *s, uint32_t pc, char buf[160])
{
	const struct px_insn *in = s->ins[pc].in;
	const char *fp;
	size_t fn;
	if (!in->loc_file || !in->loc_line || !sim_file_name(s, in->loc_file, &fp, &fn)) {
		snprintf(buf, 160, "PTX line %u", in->line);
		return buf;
	}
	const char *name = fp;
	size_t n = fn;
	for (size_t i = 0; i < fn; i++)
		if (fp[i] == '/') {
			name = fp + i + 1;
			n = fn - i - 1;
		}
	snprintf(buf, 160, "%.*s:%u (PTX line %u)", (int)(n > 100 ? 100 : n), name, in->loc_line, in->line);
	return buf;
}

/* ---- sparse memory (open addressing: slot_find in simt_int.h) ---- */
/* The page holding word number `word` (an address / 4, with the thread in
 * its high bits for local memory); NULL when absent and !insert. */
static struct sim_page *mem_page(struct sim_mem *m, uint64_t word, bool insert)
{
	void *t = m->p;
	struct sim_page *p = slot_find(&t, &m->n, &m->cap, sizeof *m->p, word / SIM_PAGE_WORDS + 1,
	                               insert);
	m->p = t;
	return p;
}

/* mem_page(m, word, false), inlined: the loads' lookup (a table that
 * holds nothing, or no page at the slot a word hashes to, answers at
 * once: the common case for a kernel that reads data the host wrote). */
static inline const struct sim_page *page_get(const struct sim_mem *m, uint64_t word)
{
	if (!m->n)
		return NULL;
	void *t = m->p;   /* (slot_find changes them only when it inserts) */
	uint64_t n = m->n, cap = m->cap;
	return slot_find(&t, &n, &cap, sizeof *m->p, word / SIM_PAGE_WORDS + 1, false);
}

void sim_mem_free(struct sim_mem *m)
{
	free(m->p);
	memset(m, 0, sizeof *m);
}

/* ---- decoding ---- */
static uint64_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static uint64_t f64_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}
/* the bits of an f32 result: a NaN is SIM_F32_NAN */
static uint64_t f32_result(float f)
{
	return f != f ? SIM_F32_NAN : f32_bits(f);
}
static float bits_f32(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static double bits_f64(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

bool sim_has_mod(const struct px_insn *in, const char *m)
{
	size_t n = strlen(m);
	const char *p = in->modtext.p, *e = p + in->modtext.n;
	while (p < e) {
		const char *q = p + 1;
		while (q < e && *q != '.')
			q++;
		if ((size_t)(q - p) == n && memcmp(p, m, n) == 0)
			return true;
		p = q;
	}
	return false;
}

static uint32_t slot_of(const struct sim *s, const struct px_operand *o)
{
	return s->slot_base[o->reg] + (o->comp > 0 ? (uint32_t)o->comp : 0);
}

static uint64_t sym_addr(const struct sim *s, px_str name, bool *ok)
{
	*ok = true;
	for (uint32_t i = 0; i < s->f->nvars; i++)
		if (px_str_eq(s->f->vars[i].name, name))
			return s->var_addr[i];
	for (uint32_t i = 0; i < s->m->nvars; i++)
		if (px_str_eq(s->m->vars[i].name, name))
			return s->mvar_addr[i];
	for (uint32_t i = 0; i < s->f->nparams; i++)
		if (px_str_eq(s->f->params[i].name, name))
			return s->param_off[i];
	*ok = false;
	return 0;
}

static enum sim_pipe pipe_of(const struct px_insn *in)
{
	unsigned fl = px_opcode_flags(in->op);
	char k = in->ntypes ? px_type_kind(in->types[0]) : 0;
	unsigned bits = in->ntypes ? px_type_bits(in->types[0]) : 32;
	switch (in->op) {
	case PX_OP_BRA: case PX_OP_RET: case PX_OP_EXIT: case PX_OP_CALL: case PX_OP_BRX:
		return P_BRANCH;
	case PX_OP_BAR: case PX_OP_BARRIER: case PX_OP_MEMBAR: case PX_OP_FENCE:
		return (in->mods & PX_MOD_WARP) ? P_ALU : P_BAR;
	case PX_OP_MMA:
		return P_TENSOR;   /* mma.sync (its values are not simulated) */
	case PX_OP_CP:
		/* cp.async's copies go through the LSU; commit_group and
		 * wait_group take an issue slot (exec_cp) */
		return sim_has_mod(in, ".commit_group") || sim_has_mod(in, ".wait_group") || sim_has_mod(in, ".wait_all")
		       ? P_ALU : P_GLOBAL;
	case PX_OP_SHFL: case PX_OP_VOTE: case PX_OP_MATCH: case PX_OP_REDUX: case PX_OP_ACTIVEMASK:
		return in->op == PX_OP_SHFL || in->op == PX_OP_MATCH || in->op == PX_OP_REDUX ? P_SHFL : P_ALU;
	case PX_OP_SIN: case PX_OP_COS: case PX_OP_EX2: case PX_OP_LG2: case PX_OP_RCP:
	case PX_OP_SQRT: case PX_OP_RSQRT: case PX_OP_TANH:
		return k == 'f' && bits == 64 ? P_FP64 : P_SFU;
	case PX_OP_DIV:
		return k == 'f' ? (bits == 64 ? P_FP64 : P_SFU) : P_IMAD;
	case PX_OP_REM: case PX_OP_DP4A: case PX_OP_DP2A:
		return P_IMAD;   /* (dp4a: IDP.4A, timed as an IMAD: an estimate) */
	case PX_OP_MUL: case PX_OP_MAD: case PX_OP_MUL24: case PX_OP_MAD24:
		if (k != 'f')
			return P_IMAD;
		return bits == 64 ? P_FP64 : P_FP32;
	case PX_OP_FMA: case PX_OP_ADD: case PX_OP_SUB: case PX_OP_MIN: case PX_OP_MAX:
	case PX_OP_ABS: case PX_OP_NEG: case PX_OP_SETP: case PX_OP_SET:
		if (k == 'f')
			return bits == 64 ? P_FP64 : P_FP32;
		return P_ALU;
	case PX_OP_CVT:
		if ((in->ntypes > 0 && px_type_bits(in->types[0]) == 64 && px_type_kind(in->types[0]) == 'f') ||
		    (in->ntypes > 1 && px_type_bits(in->types[1]) == 64 && px_type_kind(in->types[1]) == 'f'))
			return P_FP64;
		/* a float to an integer is F2I, 16 lanes a cycle per SM as the
		 * SFU's (the Programming Guide's throughput table, "all other
		 * type conversions"; conv_probe's cv_f2i/1024, 8.1 cycles a
		 * warp's F2I a scheduler); an integer to a float is I2FP, at the
		 * ALU's rate (cv_i2f) */
		if (in->ntypes > 1 && px_type_kind(in->types[1]) == 'f' && px_type_kind(in->types[0]) != 'f')
			return P_SFU;
		return P_ALU;
	default:
		break;
	}
	if (fl & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC)) {
		if (in->space == PX_SPACE_SHARED || in->space == PX_SPACE_SHARED_CTA)
			return P_SHARED;
		if (in->space == PX_SPACE_PARAM || in->space == PX_SPACE_CONST)
			return P_ALU;
		return P_GLOBAL;
	}
	return P_ALU;
}

/* Fills d for operand o of in; a vector's slots go to *el, which moves on
 * past them (sim_decode's pool after the memos). */
static void decode_opnd(struct sim *s, const struct px_insn *in, const struct px_operand *o,
                        struct sim_opnd *d, uint32_t **el)
{
	memset(d, 0, sizeof *d);
	d->kind = o->kind;
	d->neg = o->neg;
	d->comp = o->comp;
	d->sreg = o->sreg;
	d->slot = UINT32_MAX;
	unsigned tb = in->ntypes ? px_type_bits(in->types[in->op == PX_OP_CVT && in->ntypes > 1 ? 1 : 0]) : 32;
	switch (o->kind) {
	case PX_OPND_REG:
		d->slot = slot_of(s, o);
		break;
	case PX_OPND_IMM:
		d->imm = (uint64_t)o->imm;
		break;
	case PX_OPND_FIMM:
		d->imm = tb == 64 ? f64_bits(o->fimm) : f32_bits((float)o->fimm);
		if (o->is_f32 && tb == 64)
			d->imm = f64_bits((double)(float)o->fimm);
		break;
	case PX_OPND_SYM: {
		bool ok;
		d->imm = sym_addr(s, o->sym, &ok);
		break;
	}
	case PX_OPND_ADDR:
		if (o->reg >= 0)
			d->slot = slot_of(s, o);
		d->imm = (uint64_t)o->imm;
		if (o->sym.n) {
			bool ok;
			d->imm += sym_addr(s, o->sym, &ok);
		}
		break;
	case PX_OPND_VEC:
		d->nel = (uint8_t)(o->nelems > 8 ? 8 : o->nelems);
		d->el = *el;
		*el += d->nel;
		for (uint32_t e = 0; e < d->nel; e++)
			d->el[e] = o->elems[e].kind == PX_OPND_REG ? slot_of(s, &o->elems[e]) : UINT32_MAX;
		break;
	default:
		break;
	}
}

/* f32 add, sub, mul or fma (F32_ADD...) over all 32 lanes with AVX2 and
 * the processor's fused multiply-add where it has them (x86-64 builds are
 * not compiled for them: fmaf would be a libm call per lane, and the
 * scalar loops convert lane by lane); the same single-precision operations
 * (fmaf's result: both round once), so the same bits. Eight lanes at a
 * time: one shuffle packs the low words of two loads in the lane order
 * 0 1 4 5 2 3 6 7, which the two unpacks that zero-extend the results
 * undo. A NaN result is SIM_F32_NAN, as on the H100 (x86 returns its
 * first NaN operand quieted; only chunks with a NaN are looked at). */
enum { F32_ADD, F32_SUB, F32_MUL, F32_FMA };
#if defined(__x86_64__) && defined(__GNUC__) && !defined(PX_FUZZ)
#include <immintrin.h>
#define PX_SIMT_HW_FMA 1
#define F32_LOOP(W, expr)                                                                       \
	for (uint32_t l = 0; l < 32; l += 8) {                                                  \
		__m256 x = F32_LOAD8(a + l), y = F32_LOAD8(b + l), w = (W), v = (expr);         \
		(void)w;                                                                        \
		__m256 un = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);                                  \
		if (_mm256_movemask_ps(un))                                                     \
			v = _mm256_blendv_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(SIM_F32_NAN)), un); \
		_mm256_storeu_ps((float *)(r + l), _mm256_unpacklo_ps(v, z));                   \
		_mm256_storeu_ps((float *)(r + l + 4), _mm256_unpackhi_ps(v, z));               \
	}
#define F32_LOAD8(p) _mm256_shuffle_ps(_mm256_loadu_ps((const float *)(p)),                    \
                                       _mm256_loadu_ps((const float *)((p) + 4)), _MM_SHUFFLE(2, 0, 2, 0))
__attribute__((target("avx2,fma"))) static void f32_lanes_hw(int op, uint64_t *r, const uint64_t *a,
                                                             const uint64_t *b, const uint64_t *c)
{
	const __m256 z = _mm256_setzero_ps();
	switch (op) {
	case F32_ADD: F32_LOOP(z, _mm256_add_ps(x, y)) break;
	case F32_SUB: F32_LOOP(z, _mm256_sub_ps(x, y)) break;
	case F32_MUL: F32_LOOP(z, _mm256_mul_ps(x, y)) break;
	default: F32_LOOP(F32_LOAD8(c + l), _mm256_fmadd_ps(x, y, w)) break;
	}
}
#undef F32_LOOP
#undef F32_LOAD8
/* The low bits of the 32 lanes of a predicate row (sim_guard_pred): four
 * lanes a movemask. */
__attribute__((target("avx2"))) static uint32_t pred_bits_avx2(const uint64_t *v)
{
	uint32_t bits = 0;
	for (uint32_t l = 0; l < 32; l += 4) {
		__m256i x = _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(v + l)), 63);
		bits |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(x)) << l;
	}
	return bits;
}
static bool have_hw_fma(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
}
#else
#define PX_SIMT_HW_FMA 0
#endif

static bool is_fop(enum px_opcode op)
{
	switch (op) {
	case PX_OP_SIN: case PX_OP_COS: case PX_OP_EX2: case PX_OP_LG2: case PX_OP_RCP: case PX_OP_SQRT:
	case PX_OP_RSQRT: case PX_OP_TANH: case PX_OP_COPYSIGN:
		return true;
	default:
		return false;
	}
}

/* How sim_exec runs in (enum sim_ek). */
static uint8_t exec_kind(const struct px_insn *in, unsigned fl)
{
	if (fl & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC))
		return EK_MEM;
	if (fl & PX_OPF_WARP || in->op == PX_OP_ACTIVEMASK)
		return EK_WARP;
	switch (in->op) {
	case PX_OP_MOV: case PX_OP_CVTA: case PX_OP_SETP: case PX_OP_SET: case PX_OP_SELP: case PX_OP_SLCT:
	case PX_OP_CVT: case PX_OP_LOP3: case PX_OP_PRMT: case PX_OP_BFI: case PX_OP_SHF:
		return EK_OTHER;
	case PX_OP_TESTP:
		return in->ntypes && (in->types[0] == PX_TYPE_F32 || in->types[0] == PX_TYPE_F64) ? EK_OTHER : EK_UNSIM;
	case PX_OP_BAR: case PX_OP_BARRIER: case PX_OP_MEMBAR: case PX_OP_FENCE: case PX_OP_BRA:
	case PX_OP_RET: case PX_OP_EXIT: case PX_OP_PREFETCH: case PX_OP_PREFETCHU: case PX_OP_NANOSLEEP:
	case PX_OP_PMEVENT: case PX_OP_GRIDDEPCONTROL: case PX_OP_TRAP: case PX_OP_BRKPT:
		return EK_NOP;
	default:
		break;
	}
	unsigned t = in->ntypes ? in->types[0] : PX_TYPE_B32;
	char k = px_type_kind(t);
	unsigned bits = px_type_bits(t);
	bool fl_op = k == 'f' || is_fop(in->op);
	bool known_op = is_fop(in->op);
	bool x2;
	if (sim_half_format(t, &x2) != SIM_HF_NONE)
		/* the 16-bit formats (simt_half.c): only what sim_half_arith computes */
		return in->op == PX_OP_ADD || in->op == PX_OP_SUB || in->op == PX_OP_MUL || in->op == PX_OP_FMA ||
		       in->op == PX_OP_NEG || in->op == PX_OP_ABS || in->op == PX_OP_MIN || in->op == PX_OP_MAX ||
		       in->op == PX_OP_EX2 || in->op == PX_OP_TANH ? EK_ARITH : EK_UNSIM;
	if (t == PX_TYPE_TF32 || (k == 'f' && bits != 32 && bits != 64))
		return EK_UNSIM;   /* tf32 and the 8-bit floats: no arithmetic to simulate */
	switch (in->op) {
	case PX_OP_ADD: case PX_OP_SUB: case PX_OP_MUL: case PX_OP_MAD: case PX_OP_MUL24: case PX_OP_MAD24:
	case PX_OP_DIV: case PX_OP_REM: case PX_OP_MIN: case PX_OP_MAX: case PX_OP_ABS: case PX_OP_NEG:
	case PX_OP_AND: case PX_OP_OR: case PX_OP_XOR: case PX_OP_NOT: case PX_OP_CNOT: case PX_OP_SHL:
	case PX_OP_SHR: case PX_OP_POPC: case PX_OP_CLZ: case PX_OP_BREV: case PX_OP_BFIND: case PX_OP_BFE:
	case PX_OP_SAD: case PX_OP_FMA: case PX_OP_DP4A: case PX_OP_DP2A: case PX_OP_BMSK: case PX_OP_SZEXT:
	case PX_OP_ADDC: case PX_OP_SUBC: case PX_OP_MADC:
		known_op = true;
		break;
	default:
		break;
	}
	if (!known_op || t == PX_TYPE_PRED) {
		/* predicate logic is simulated; anything else unknown is not */
		if (!(t == PX_TYPE_PRED && (in->op == PX_OP_AND || in->op == PX_OP_OR || in->op == PX_OP_XOR ||
		                            in->op == PX_OP_NOT || in->op == PX_OP_MOV)))
			return EK_UNSIM;
	}
	if (fl_op && bits == 32 && !(in->mods & (PX_MOD_FTZ | PX_MOD_SAT)) && !sim_has_mod(in, ".rz") &&
	    !sim_has_mod(in, ".rm") && !sim_has_mod(in, ".rp") &&
	    (in->op == PX_OP_ADD || in->op == PX_OP_SUB || in->op == PX_OP_MUL || in->op == PX_OP_FMA ||
	     in->op == PX_OP_MAD))
		return EK_F32;
	if (!fl_op && t != PX_TYPE_PRED && (k == 's' || k == 'u' || k == 'b') &&
	    (bits == 16 || bits == 32 || bits == 64) && !(in->mods & (PX_MOD_SAT | PX_MOD_HI | PX_MOD_WIDE | PX_MOD_CC)) &&
	    (in->op == PX_OP_ADD || in->op == PX_OP_SUB || in->op == PX_OP_MUL || in->op == PX_OP_MAD ||
	     in->op == PX_OP_AND || in->op == PX_OP_OR || in->op == PX_OP_XOR))
		return EK_INT;
	return EK_ARITH;
}

/* The state space an access resolves to (resolve_space). */
enum { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_OTHER };

enum { MK_OTHER, MK_LD, MK_ST, MK_ATOM, MK_CP, MK_CP_COMMIT, MK_CP_WAIT, MK_LDSM, MK_STSM };   /* sim_memo.kind */

/* What exec_mem keeps per memory operation: its decoded facts, and its
 * last address pattern with what the timing model made of it (a memo). A
 * warp whose active lanes' addresses lie as far from its first active
 * lane's as the memo's (the next warp of a tile or a stream, the next
 * iteration) gets the same wavefronts when its first address is a
 * multiple of 4 bytes from the memo's (banks are words mod 32: the shift
 * only renames them), and the same sectors and lines, moved, when a
 * multiple of 128 (a line); its lanes share words as the memo's do. */
struct sim_memo {
	/* the instruction, decoded once (decode_mem) */
	uint8_t kind;            /* MK_*: ld/ldu, st, atom/red, cp.async's forms (exec_cp), else not simulated */
	uint8_t cp_size;         /* MK_CP: cp-size, bytes */
	int8_t cp_src;           /* MK_CP: the operand of src-size or ignore-src (cp_ignore), -1 none */
	bool cp_ignore;          /* ... a predicate: ignore-src */
	bool cp_all;             /* MK_CP_WAIT: wait_all (a commit_group first) */
	bool trans;              /* MK_LDSM, MK_STSM: .trans (nvec: the matrices, 1, 2 or 4) */
	uint32_t cp_n;           /* MK_CP_WAIT: the groups it leaves pending (wait_all: 0) */
	uint8_t fixed;           /* the SP_* its state space resolves to for every lane, else SP_OTHER */
	uint8_t eb, nvec;        /* bytes per element, elements per lane */
	bool sgn;                /* a signed type (loads sign-extend) */
	int8_t ao, dst, vo, vo2; /* operands: address, destination, value, second value; -1 none */
	unsigned type;           /* the element type (PX_TYPE_*) */
	uint8_t word;            /* WORD_LD: a load of one 32-bit global word per lane into a register, WORD_ST: a store
	                          * of one from a register, the address a register (+ imm): load_hit, store_hit */
	/* the last access */
	uint8_t spc;             /* SP_*, SP_OTHER (never a hit) before the first */
	bool repeat;             /* global: a lane named the line of the lane before */
	bool consec;             /* global: the 32 lanes' aligned words are consecutive (consecutive_words) */
	uint32_t mask;           /* the lanes with a known address */
	int64_t a0;              /* the first lane's address */
	uint64_t rel[32];        /* per lane of mask: its address - a0 */
	uint32_t sec, wf;        /* global: sectors; wavefronts (shared: after packed_wavefronts) */
	uint32_t plines;         /* global stores: lines with a sector written in part (partial_lines) */
	double hit_occ, hit_lat; /* global loads: global_cost's *occ for sec and wf, and its *lat less the slowest line's (load_hit) */
	double l1_occ, l1_lat;   /* ... the same where every line hits the L1 (l1_hit_cost) */
	uint32_t nlines;         /* global: the lines touched, in lane order, less repeats */
	uint64_t dline[32];      /* ... each less a0's line, modulo 2^57 */
	uint8_t dsec[32];        /* ... each's sectors (lane_lines; the same at every hit: a0 % 128 is) */
	/* shared: the lanes that name one address, a group (memo_groups,
	 * on the first hit) */
	bool grouped;
	uint8_t ngroups;
	uint8_t group[32];       /* per lane of mask: its group */
	uint8_t last[32];        /* per group: its last lane */
	uint8_t fill;            /* every lane: group l % ngroups (FILL_CYCLE), l / (32 / ngroups) (FILL_RUNS), else 0 */
	bool galigned;           /* every group's address is a multiple of 4 (the same at every hit), all within 2^40 bytes */
	int64_t gmin, gmax;      /* the least and greatest address of a group - a0 */
	int64_t grel0;           /* group 0's address - a0 */
	int64_t gsw[32];         /* per group: the words from group 0's shared word to its own (galigned) */
	bool gconsec;            /* galigned, and group g's word is group 0's + g (gsw[g] == g), a multiple of 4 groups */
	/* the accesses so far by the space they resolved to (SP_GLOBAL,
	 * SP_SHARED, SP_LOCAL): count_mem, sim_mem_counts */
	struct sim_memcount {
		uint64_t req, sec, wf;
		double hit;      /* sectors of L1 hits */
	} cnt[3];
};
enum { FILL_CYCLE = 1, FILL_RUNS };
enum { WORD_LD = 1, WORD_ST };   /* sim_memo.word */
#define MEMO_LINES ((1ull << 57) - 1)   /* line numbers of 64-bit addresses */

/* Whether an address or distance is so near 0 (within 2^59) that sums of
 * two stay far from overflowing (the memo's moved addresses count
 * exactly as the originals). */
static inline bool memo_near(uint64_t x)
{
	return x + (1ull << 59) < (1ull << 60);
}

/* cp.async's forms (PTX ISA, "Data Movement and Conversion
 * Instructions: cp.async"): a copy of cp-size bytes (4, 8 or 16) from
 * global to shared memory, `cp.async.ca|cg.shared{::cta}.global [dst],
 * [src], cp-size{, src-size | , ignore-src}{, cache-policy}` (bytes from
 * src-size on, or all of them when ignore-src is true, are zeros);
 * cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all (a
 * commit_group and a wait_group 0). The bulk forms (cp.async.bulk.*) and
 * cp.async.mbarrier.arrive stay MK_OTHER. */
static void decode_cp(const struct px_func *f, struct sim_insn *si)
{
	const struct px_insn *in = si->in;
	struct sim_memo *mo = si->memo;
	if (!sim_has_mod(in, ".async") || sim_has_mod(in, ".bulk") || sim_has_mod(in, ".mbarrier"))
		return;
	if (sim_has_mod(in, ".commit_group")) {
		mo->kind = MK_CP_COMMIT;
		return;
	}
	if (sim_has_mod(in, ".wait_all") || sim_has_mod(in, ".wait_group")) {
		bool all = sim_has_mod(in, ".wait_all");
		if (!all && (si->nop < 1 || si->op[0].kind != PX_OPND_IMM))
			return;
		mo->kind = MK_CP_WAIT;
		mo->cp_all = all;
		mo->cp_n = all ? 0 : si->op[0].imm > UINT32_MAX ? UINT32_MAX : (uint32_t)si->op[0].imm;
		si->cp_wait = true;
		return;
	}
	if (!(sim_has_mod(in, ".shared") || sim_has_mod(in, ".shared::cta")) || !sim_has_mod(in, ".global") ||
	    si->nop < 3 ||
	    si->op[0].kind != PX_OPND_ADDR || si->op[1].kind != PX_OPND_ADDR || si->op[2].kind != PX_OPND_IMM)
		return;
	uint64_t n = si->op[2].imm;
	if (n != 4 && n != 8 && n != 16)
		return;
	mo->kind = MK_CP;
	si->cp_copy = true;
	mo->cp_size = (uint8_t)n;
	mo->ao = 0;
	mo->vo = 1;
	if (si->nop > 3 && (si->op[3].kind == PX_OPND_IMM || si->op[3].kind == PX_OPND_REG)) {
		/* a 64-bit register after cp-size is the cache policy */
		const struct px_operand *o = &si->in->opnds[3];
		enum px_type t = o->kind == PX_OPND_REG && o->reg >= 0 && (uint32_t)o->reg < f->nregs
		               ? (enum px_type)f->regs[o->reg].type : PX_TYPE_B32;
		bool pred = o->kind == PX_OPND_REG && px_type_kind(t) == 'p';
		bool wide = o->kind == PX_OPND_REG && px_type_bits(t) == 64;
		if (!wide) {
			mo->cp_src = 3;
			mo->cp_ignore = pred;
		}
	}
}

/* ldmatrix / stmatrix of 8x8 matrices of 16-bit elements (PTX ISA,
 * "Warp Level Matrix Load Instruction: ldmatrix" and "... stmatrix"):
 * `ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 d,
 * [a]` and `stmatrix... [a], s`. Lanes 8m to 8m+7 name the rows (16
 * bytes each) of matrix m; each thread's register m holds, of matrix m,
 * the two elements of row lane/4 at columns 2*(lane%4) and the next
 * (.trans: of column lane/4 at rows 2*(lane%4) and the next). Other
 * shapes and element types stay MK_OTHER. */
static void decode_matrix(struct sim_insn *si)
{
	const struct px_insn *in = si->in;
	struct sim_memo *mo = si->memo;
	unsigned num = sim_has_mod(in, ".x1") ? 1 : sim_has_mod(in, ".x2") ? 2 : sim_has_mod(in, ".x4") ? 4 : 0;
	bool st = in->op == PX_OP_STMATRIX;
	int ao = st ? 0 : 1, ro = st ? 1 : 0;
	if (!num || !sim_has_mod(in, ".m8n8") || !sim_has_mod(in, ".b16") || si->nop != 2 ||
	    si->op[ao].kind != PX_OPND_ADDR)
		return;
	const struct sim_opnd *r = &si->op[ro];
	if (!(r->kind == PX_OPND_VEC ? r->nel == num : num == 1 && r->kind == PX_OPND_REG))
		return;
	mo->kind = st ? MK_STSM : MK_LDSM;
	mo->nvec = (uint8_t)num;
	mo->trans = sim_has_mod(in, ".trans");
	mo->ao = (int8_t)ao;
	if (st)
		mo->vo = (int8_t)ro;
	else
		mo->dst = (int8_t)ro;
}

/* The memory operation si's facts that exec_mem needs (si->op decoded). */
static void decode_mem(const struct px_func *f, struct sim_insn *si)
{
	const struct px_insn *in = si->in;
	struct sim_memo *mo = si->memo;
	mo->kind = in->op == PX_OP_LD || in->op == PX_OP_LDU ? MK_LD : in->op == PX_OP_ST ? MK_ST
	         : in->op == PX_OP_ATOM || in->op == PX_OP_RED ? MK_ATOM : MK_OTHER;
	mo->cp_src = -1;
	mo->spc = SP_OTHER;
	mo->ao = mo->dst = mo->vo = mo->vo2 = -1;
	if (in->op == PX_OP_LDMATRIX || in->op == PX_OP_STMATRIX) {
		decode_matrix(si);
		if (mo->kind != MK_OTHER) {
			mo->fixed = SP_OTHER;
			return;
		}
	}
	if (in->op == PX_OP_CP) {
		decode_cp(f, si);
		if (mo->kind != MK_OTHER) {
			mo->fixed = SP_OTHER;
			return;
		}
	}
	mo->type = in->ntypes ? in->types[in->ntypes - 1] : PX_TYPE_B32;
	unsigned eb = px_type_bits(mo->type) / 8;
	mo->eb = (uint8_t)(eb ? eb : 4);
	mo->nvec = (uint8_t)(in->vec ? in->vec : 1);
	mo->sgn = px_type_kind(mo->type) == 's';
	mo->ao = mo->dst = mo->vo = mo->vo2 = -1;
	for (int k = 0; k < si->nop; k++)
		if (si->op[k].kind == PX_OPND_ADDR) {
			mo->ao = (int8_t)k;
			if (k > 0 && (mo->kind == MK_LD || in->op == PX_OP_ATOM))
				mo->dst = 0;
			mo->vo = (int8_t)(k + 1 < si->nop ? k + 1 : -1);
			mo->vo2 = (int8_t)(k + 2 < si->nop ? k + 2 : -1);
			break;
		}
	/* a state space named in the instruction resolves the same for every
	 * lane (resolve_space; shared: the generic window taken off) */
	mo->fixed = in->space == PX_SPACE_GLOBAL || in->space == PX_SPACE_CONST ? SP_GLOBAL
	          : in->space == PX_SPACE_LOCAL ? SP_LOCAL : in->space == PX_SPACE_PARAM ? SP_PARAM
	          : in->space == PX_SPACE_SHARED || in->space == PX_SPACE_SHARED_CTA ||
	            in->space == PX_SPACE_SHARED_CLUSTER ? SP_SHARED : SP_OTHER;
	mo->spc = SP_OTHER;
	bool word = mo->fixed == SP_GLOBAL && mo->eb == 4 && mo->nvec == 1 && mo->ao >= 0 &&
	            si->op[mo->ao].slot != UINT32_MAX;
	if (word && mo->kind == MK_LD && mo->dst >= 0 && si->op[mo->dst].kind == PX_OPND_REG &&
	    si->op[mo->dst].slot != UINT32_MAX)
		mo->word = WORD_LD;
	if (word && mo->kind == MK_ST && mo->vo >= 0 && si->op[mo->vo].kind == PX_OPND_REG &&
	    si->op[mo->vo].slot != UINT32_MAX && !si->op[mo->vo].neg)
		mo->word = WORD_ST;
}

/* Requires: s->f with fill_cfg; s->slot_base. Fills s->ins. */
void sim_decode(struct sim *s)
{
	const struct px_func *f = s->f;
	s->nins = f->ninsns;
#if PX_SIMT_HW_FMA
	s->hw_fma = have_hw_fma();
#endif
	/* the memory operations' memos follow the instructions in one block
	 * (freed with s->ins) */
	uint32_t nmem = 0;
	size_t nel = 0;   /* (and the vector operands' slots after them: sim_opnd.el) */
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		nmem += exec_kind(in, px_opcode_flags(in->op)) == EK_MEM;
		for (uint32_t k = 0; k < in->nopnds && k < 6; k++)
			if (in->opnds[k].kind == PX_OPND_VEC)
				nel += in->opnds[k].nelems > 8 ? 8 : in->opnds[k].nelems;
	}
	size_t memo_at = (f->ninsns + 1) * sizeof *s->ins;   /* (a multiple of 8: struct sim_memo's alignment) */
	size_t el_at = memo_at + nmem * sizeof(struct sim_memo);
	s->ins = xcalloc(1, el_at + (nel + 1) * sizeof(uint32_t));
	struct sim_memo *memo = (struct sim_memo *)((char *)s->ins + memo_at);
	uint32_t *el = (uint32_t *)((char *)s->ins + el_at);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		struct sim_insn *si = &s->ins[i];
		si->in = in;
		si->flags = px_opcode_flags(in->op);
		si->ek = exec_kind(in, si->flags);
		si->f32op = in->op == PX_OP_ADD ? F32_ADD : in->op == PX_OP_SUB ? F32_SUB
		          : in->op == PX_OP_MUL ? F32_MUL : F32_FMA;
		{
			bool x2;
			unsigned ht = in->op == PX_OP_SET && in->ntypes > 1 ? in->types[1] : in->ntypes ? in->types[0] : 0;
			si->half = (uint8_t)(sim_half_format(ht, &x2) | (x2 ? 0x80 : 0));
		}
		if (si->ek == EK_MEM)
			si->memo = memo++;
		si->pipe = si->lat_pipe = (uint8_t)pipe_of(in);
		si->mma64 = si->pipe == P_TENSOR && in->ntypes && px_type_bits((enum px_type)in->types[0]) == 64;
		/* popc, clz, brev and bfind (POPC, FLO, BREV) go 16 lanes a
		 * cycle an SM, the SFU's rate (CUDA C++ Programming Guide,
		 * "Arithmetic Instructions", throughput table: population
		 * count, count of leading zeros, bit reverse; held-out 14's
		 * hamming_nn_loop at 512 threads, 16 POPC a thread an iteration,
		 * 539 cycles an iteration: 15.2 a cycle), with a latency of
		 * their own (latency.bitop: commit_timing), their results
		 * waited for on the MIO's scoreboard (sim_result_why); of 64
		 * bits, two of them */
		if (in->op == PX_OP_POPC || in->op == PX_OP_CLZ || in->op == PX_OP_BREV || in->op == PX_OP_BFIND) {
			si->pipe = P_SFU;
			si->lat_pipe = P_ALU;
			si->bitop = in->op == PX_OP_CLZ ? 2 : 1;
			si->bits64 = in->ntypes && px_type_bits(in->types[0]) == 64;
		}
		/* a 64-bit integer multiply is a sequence of 32-bit IMADs in SASS
		 * (ptxas 13.0, sm_90; held-out 16's montgomery_loop): mul.lo an
		 * IMAD.WIDE.U32 of the low words and an IMAD for each cross
		 * product into the high word, two of them on the high word's
		 * path, then an IADD3; mul.hi four IMAD.WIDE.U32 of the word
		 * products and an IMAD.X for a carry, three on the path; mad.lo
		 * an IMAD more for the addend. (Its 64-bit adds, compares and
		 * selects are two ALU instructions each in SASS too, but not on
		 * addresses: simt_fuse.c's mark_slots.) */
		if (si->pipe == P_IMAD && (in->op == PX_OP_MUL || in->op == PX_OP_MAD) && in->ntypes &&
		    px_type_bits(in->types[0]) == 64 && !(in->mods & PX_MOD_WIDE)) {
			bool hi = in->mods & PX_MOD_HI;
			si->split = (uint8_t)((hi ? 1 : 2) + (in->op == PX_OP_MAD));
			si->split_wide = hi ? 4 : 1;
			si->split_chain = hi ? 3 : 2;
		}
		/* sm_90 (ptxas 13.0): 32-bit integer add/sub become VIADD or
		 * IMAD.IADD, which issue to the FMA pipe beside LOP3/ISETP/SHF on
		 * the ALU pipe, with the ALU's latency: int_add_lat's add/xor chain
		 * issues one instruction per cycle per scheduler with 8 warps each
		 * (263.8 cycles for 256 issues), which either pipe alone, at half
		 * rate, could not */
		if (si->pipe == P_ALU && (in->op == PX_OP_ADD || in->op == PX_OP_SUB) && in->ntypes &&
		    px_type_bits(in->types[0]) <= 32 && px_type_kind(in->types[0]) != 'f' &&
		    s->opt->arch->major >= 8)
			si->pipe = P_IMAD;
		si->nop = (uint8_t)(in->nopnds > 6 ? 6 : in->nopnds);
		for (uint32_t k = 0; k < si->nop; k++)
			decode_opnd(s, in, &in->opnds[k], &si->op[k], &el);
		if (si->memo)
			decode_mem(f, si);
		si->is_signed = in->ntypes && px_type_kind(in->types[0]) == 's';
		unsigned t0 = in->ntypes ? in->types[0] : PX_TYPE_B32;
		si->tbits = (uint16_t)px_type_bits(t0);
		si->tkind = px_type_kind(t0);
		si->fl_op = si->tkind == 'f' || is_fop(in->op);
		si->guarded = in->guard >= 0;
		si->src_regs = si->nop >= 2 && si->nop <= 4;
		si->dst_alone = si->nop >= 1 && si->op[0].kind == PX_OPND_REG && si->op[0].slot != UINT32_MAX;
		for (uint32_t k = 1; k < si->nop; k++) {
			si->src_regs &= si->op[k].kind == PX_OPND_REG && !si->op[k].neg;
			si->dst_alone &= !(si->op[k].kind == PX_OPND_REG && si->op[k].slot == si->op[0].slot);
		}
		static const char *const modwords[] = {
#define X(e, str) str,
			SIM_MODWORDS(X)
#undef X
		};
		for (uint32_t k = 0; k < PX_COUNTOF(modwords); k++)
			if (sim_has_mod(in, modwords[k]))
				si->mw |= 1u << k;
		si->rnd = sim_has_mod(in, ".rz") ? 1 : sim_has_mod(in, ".rm") ? 2 : sim_has_mod(in, ".rp") ? 3
		        : sim_has_mod(in, ".rni") ? 4 : sim_has_mod(in, ".rzi") ? 5 : sim_has_mod(in, ".rmi") ? 6
		        : sim_has_mod(in, ".rpi") ? 7 : 0;
		if (in->op == PX_OP_PRMT) {
			static const char *const modes[] = {".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"};
			for (uint32_t k = 0; k < PX_COUNTOF(modes); k++)
				if (sim_has_mod(in, modes[k]))
					si->mode = (uint8_t)(PRMT_F4E + k);
		}
		si->carry = (in->mods & PX_MOD_CC) || in->op == PX_OP_ADDC || in->op == PX_OP_SUBC || in->op == PX_OP_MADC;
		if (in->op == PX_OP_CVT && sim_has_mod(in, ".pack")) {
			/* the packed type: .u4/.s4 (no PTX type of ptxray's), else types[0] */
			bool u4 = sim_has_mod(in, ".u4"), s4 = sim_has_mod(in, ".s4");
			unsigned pt = in->ntypes ? in->types[0] : PX_TYPE_U8;
			unsigned bits = u4 || s4 ? 4 : px_type_bits(pt);
			bool sg = s4 || (!u4 && px_type_kind(pt) == 's');
			si->mode = (uint8_t)(CVT_PACK | (sg ? CVT_PACK_SIGNED : 0) | (bits & CVT_PACK_BITS));
		}
		if (in->op == PX_OP_CVT && in->ntypes && in->types[0] == PX_TYPE_TF32)
			si->mode = sim_has_mod(in, ".rna") ? CVT_TF32_RNA : sim_has_mod(in, ".rz") ? CVT_TF32_RZ : CVT_TF32_RN;
		if (in->op == PX_OP_TESTP) {   /* (in enum sim_testp's order) */
			static const char *const tests[] = {".finite", ".infinite", ".number", ".notanumber", ".normal",
			                                    ".subnormal"};
			for (uint32_t k = 0; k < PX_COUNTOF(tests); k++)
				if (sim_has_mod(in, tests[k]))
					si->mode = (uint8_t)k;
		}
		si->target = UINT32_MAX;
		if (in->op == PX_OP_BRA && in->nopnds && in->opnds[in->nopnds - 1].kind == PX_OPND_SYM) {
			px_str l = in->opnds[in->nopnds - 1].sym;
			for (uint32_t k = 0; k < f->nlabels; k++)
				if (px_str_eq(f->labels[k].name, l))
					si->target = f->labels[k].insn;
		}
		uint32_t n;
		const int32_t *u = px_func_uses(f, i, &n);
		for (uint32_t k = 0; k < n && si->nuses < 12; k++)
			si->uses[si->nuses++] = s->slot_base[u[k]];
		if (in->guard >= 0 && si->nuses < 12)
			si->uses[si->nuses++] = s->slot_base[in->guard];
		const int32_t *d = px_func_defs(f, i, &n);
		for (uint32_t k = 0; k < n && si->ndefs < 8; k++)
			si->defs[si->ndefs++] = s->slot_base[d[k]];
		if ((in->op == PX_OP_ADDC || in->op == PX_OP_SUBC || in->op == PX_OP_MADC) && si->nuses < 12)
			si->uses[si->nuses++] = s->cc_slot;
		if ((in->mods & PX_MOD_CC) && si->ndefs < 8)
			si->defs[si->ndefs++] = s->cc_slot;
	}
	sim_mbar_decode(s);
}

/* ---- operand access ---- */
static uint64_t sreg_val(const struct sim *s, const struct sim_warp *w, const struct sim_opnd *o,
                         uint32_t lane)
{
	uint32_t c = o->comp >= 0 && o->comp < 3 ? (uint32_t)o->comp : 0;
	switch (o->sreg) {
	case PX_SREG_TID: return (uint64_t)w->tid[lane][c];
	case PX_SREG_NTID: return s->block[c];
	case PX_SREG_LANEID: return lane;
	case PX_SREG_WARPID: return w->id;
	case PX_SREG_NWARPID: return s->nwarps;
	case PX_SREG_CTAID: return 0;
	case PX_SREG_NCTAID: return s->opt->grid[c] ? s->opt->grid[c] : 1;
	case PX_SREG_LANEMASK_EQ: return 1u << lane;
	case PX_SREG_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
	case PX_SREG_LANEMASK_LT: return (1u << lane) - 1;
	case PX_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
	case PX_SREG_LANEMASK_GT: return (uint32_t)~((2ull << lane) - 1);
	case PX_SREG_CLOCK: case PX_SREG_CLOCK64: case PX_SREG_GLOBALTIMER: case PX_SREG_GLOBALTIMER_LO:
		/* right after a block barrier: the warp's arrival (sim_warp.bar_next) */
		if (w->bar_next && w->bar_next < s->nins && o >= s->ins[w->bar_next].op &&
		    o < s->ins[w->bar_next].op + s->ins[w->bar_next].nop)
			return w->bar_clock;
		return s->cycle;
	case PX_SREG_DYNAMIC_SMEM_SIZE: return s->sh_limit - s->sh_static;
	case PX_SREG_TOTAL_SMEM_SIZE: case PX_SREG_AGGR_SMEM_SIZE: return s->sh_limit;
	default: return 0;
	}
}

static inline uint64_t rd(const struct sim *s, const struct sim_warp *w, const struct sim_opnd *o,
                          uint32_t lane, bool *unk)
{
	switch (o->kind) {
	case PX_OPND_REG: {
		if (w->unk[o->slot] >> lane & 1)
			*unk = true;
		uint64_t v = w->val[(size_t)o->slot * 32 + lane];
		return o->neg ? !v : v;
	}
	case PX_OPND_SREG:
		return sreg_val(s, w, o, lane);
	case PX_OPND_IMM: case PX_OPND_FIMM: case PX_OPND_SYM:
		return o->imm;
	default:
		*unk = true;
		return 0;
	}
}

static const uint64_t zero_lanes[32];

/* Operand o's values for all 32 lanes (lanes outside mask hold values too,
 * never used): a register's own row (read in place), else filled into buf;
 * its unknown lanes within mask are or-ed into *unk. */
static inline const uint64_t *gather(const struct sim *s, const struct sim_warp *w,
                                     const struct sim_opnd *o, uint32_t mask, uint64_t *buf,
                                     uint32_t *unk)
{
	switch (o->kind) {
	case PX_OPND_REG: {
		*unk |= w->unk[o->slot] & mask;
		const uint64_t *v = &w->val[(size_t)o->slot * 32];
		if (!o->neg)
			return v;
		for (uint32_t l = 0; l < 32; l++)
			buf[l] = !v[l];
		return buf;
	}
	case PX_OPND_SREG:
		for (uint32_t l = 0; l < 32; l++)
			buf[l] = sreg_val(s, w, o, l);
		return buf;
	case PX_OPND_IMM: case PX_OPND_FIMM: case PX_OPND_SYM: {
		/* (read once: buf could alias o->imm for gcc, which then
		 * reloaded it for every lane and did not vectorise the loop) */
		uint64_t v = o->imm;
		for (uint32_t l = 0; l < 32; l++)
			buf[l] = v;
		return buf;
	}
	default:
		*unk |= mask;
		return zero_lanes;
	}
}

/* Writes the results r of the lanes in mask to slot dst (none when
 * UINT32_MAX), with unknown lanes unk (within mask). */
static inline void commit(struct sim_warp *w, uint32_t dst, const uint64_t *r, uint32_t mask,
                          uint32_t unk)
{
	if (dst == UINT32_MAX)
		return;
	uint64_t *dv = &w->val[(size_t)dst * 32];
	if (mask == 0xffffffffu) {
		memcpy(dv, r, 32 * sizeof *dv);
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			dv[l] = r[l];
		}
	}
	w->unk[dst] = (w->unk[dst] & ~mask) | unk;
}

static inline void wr(struct sim_warp *w, uint32_t slot, uint32_t lane, uint64_t v, bool unk)
{
	if (slot == UINT32_MAX)
		return;
	w->val[(size_t)slot * 32 + lane] = v;
	if (unk)
		w->unk[slot] |= 1u << lane;
	else
		w->unk[slot] &= ~(1u << lane);
}

/* wr of the lanes of mask: predicate bits (bit l: lane l), unk the
 * unknown lanes (within mask). */
static inline void pred_row(struct sim_warp *w, uint32_t slot, uint32_t bits, uint32_t mask, uint32_t unk)
{
	if (slot == UINT32_MAX)
		return;
	uint64_t *v = &w->val[(size_t)slot * 32];
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		v[l] = bits >> l & 1;
	}
	w->unk[slot] = (w->unk[slot] & ~mask) | unk;
}

static uint64_t trunc_to(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
static int64_t sext(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t m = 1ull << (bits - 1);
	v = trunc_to(v, bits);
	return (int64_t)((v ^ m) - m);
}

static float ftz32(float x, bool ftz)
{
	return ftz && fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static double round_int(double x, unsigned rnd)
{
	switch (rnd) {
	case 4: return nearbyint(x);
	case 6: return floor(x);
	case 7: return ceil(x);
	default: return trunc(x);
	}
}

/* EK_ARITH on a 16-bit floating-point format (simt_half.c) */
static uint64_t half_op(const struct sim_insn *si, uint64_t a, uint64_t b, uint64_t c, bool *unk)
{
	const struct px_insn *in = si->in;
	unsigned fl = (in->mods & PX_MOD_FTZ ? SIM_HF_FTZ : 0) | (in->mods & PX_MOD_SAT ? SIM_HF_SAT : 0) |
	              (si->mw & MW(RELU) ? SIM_HF_RELU : 0) | (si->mw & MW(NAN) ? SIM_HF_NAN : 0);
	return sim_half_pair(in->op, si->half & 0x7f, fl, si->half & 0x80, (uint32_t)a, (uint32_t)b, (uint32_t)c, unk);
}

/* Clamps x into [0, 1] (.sat: a NaN and -0 go to +0, as the H100 gives) */
static double sat01(double x)
{
	return !(x > 0) ? 0.0 : x > 1 ? 1.0 : x;
}

/* Whether op rounds its result by the instruction's rounding modifier
 * (the others are exact, or .approx) */
static bool rounded_op(enum px_opcode op)
{
	switch (op) {
	case PX_OP_ADD: case PX_OP_SUB: case PX_OP_MUL: case PX_OP_FMA: case PX_OP_MAD: case PX_OP_DIV:
	case PX_OP_RCP: case PX_OP_SQRT:
		return true;
	default:
		return false;
	}
}

/* Float operation on f32 or f64 values (bits). The H100's rules where
 * C's differ (bench/gpu/simt/scalar_ops.cu): a NaN result of f32
 * arithmetic is SIM_F32_NAN; min and max return the other operand when
 * one is a NaN (min.NaN/max.NaN: SIM_F32_NAN), abs and neg of an f64 NaN
 * its operand quieted, sign unchanged. The .approx operations (sin, cos,
 * ex2, lg2, rsqrt, tanh; rcp, sqrt and div without a rounding) are the C
 * library's functions: the MUFU unit's bits differ, by the amounts
 * tests/unit/test_simt_scalar.c measures and ptxray-simt(1) quotes. */
static uint64_t fop(const struct sim_insn *si, unsigned bits, uint64_t a, uint64_t b, uint64_t c,
                    bool *unk)
{
	const struct px_insn *in = si->in;
	bool ftz = in->mods & PX_MOD_FTZ;
	unsigned rnd = si->rnd < 4 ? si->rnd : 0;
	if (si->half)
		return half_op(si, a, b, c, unk);
	if (rnd && !rounded_op(in->op))
		rnd = 0;
	if (bits == 64) {
		double x = bits_f64(a), y = bits_f64(b), z = bits_f64(c), r;
		if (x != x || y != y || z != z) {
			/* NaN operands: the H100 returns one of them quieted, the
			 * first that is a NaN of b, a for add, sub and mul; a, b for
			 * div; b, c, a for fma; b for min and max when both are
			 * (scalar_ops.cu; x86 returns its instruction's first NaN operand,
			 * whichever the compiler put first) */
			const uint64_t *order = NULL, ba[] = {b, a}, ab[] = {a, b}, bca[] = {b, c, a};
			unsigned n = 0;
			switch (in->op) {
			case PX_OP_ADD: case PX_OP_SUB: case PX_OP_MUL: order = ba; n = 2; break;
			case PX_OP_DIV: order = ab; n = 2; break;
			case PX_OP_FMA: case PX_OP_MAD: order = bca; n = 3; break;
			case PX_OP_MIN: case PX_OP_MAX: if (x != x && y != y) { order = ba; n = 1; } break;
			default: break;
			}
			for (unsigned k = 0; k < n; k++)
				if (bits_f64(order[k]) != bits_f64(order[k]))
					return order[k] | 0x0008000000000000ull;
		}
		switch (rnd ? PX_OP_UNKNOWN : in->op) {
		case PX_OP_UNKNOWN: r = sim_f64_rounded(in->op, rnd, x, y, z); break;   /* a directed rounding */
		case PX_OP_ADD: r = x + y; break;
		case PX_OP_SUB: r = x - y; break;
		case PX_OP_MUL: r = x * y; break;
		case PX_OP_FMA: case PX_OP_MAD: r = fma(x, y, z); break;
		case PX_OP_DIV: r = x / y; break;
		case PX_OP_MIN: r = x != x ? y : y != y ? x : fmin(x, y); break;
		case PX_OP_MAX: r = x != x ? y : y != y ? x : fmax(x, y); break;
		case PX_OP_ABS: case PX_OP_NEG:
			if (x != x)
				return a | 0x0008000000000000ull;
			r = in->op == PX_OP_ABS ? fabs(x) : -x;
			break;
		case PX_OP_RCP:
			if (in->mods & PX_MOD_APPROX) {
				/* rcp.approx.ftz.f64 (MUFU.RCP64H): from the upper 32
				 * bits of a, a subnormal a flushed; the upper 32 bits of
				 * the reciprocal (cut, not rounded), subnormals flushed,
				 * a NaN 0x7fffffff (the H100: scalar_ops.cu) */
				double hx = bits_f64(a & 0xffffffff00000000ull);
				r = fpclassify(hx) == FP_SUBNORMAL ? copysign(INFINITY, hx) : 1.0 / hx;
				if (r != r)
					return 0x7fffffff00000000ull;
				if (fpclassify(r) == FP_SUBNORMAL)
					r = copysign(0.0, r);
				return f64_bits(r) & 0xffffffff00000000ull;
			}
			r = 1.0 / x;
			break;
		case PX_OP_SQRT: r = sqrt(x); break;
		case PX_OP_RSQRT: r = 1.0 / sqrt(x); break;
		case PX_OP_COPYSIGN: r = copysign(y, x); break;
		default: *unk = true; return 0;
		}
		if (in->mods & PX_MOD_SAT)
			r = sat01(r);
		return f64_bits(r);
	}
	if (bits != 32) {
		*unk = true;
		return 0;
	}
	float x = ftz32(bits_f32(a), ftz), y = ftz32(bits_f32(b), ftz), z = ftz32(bits_f32(c), ftz), r;
	switch (rnd ? PX_OP_UNKNOWN : in->op) {
	case PX_OP_UNKNOWN: r = sim_f32_rounded(in->op, rnd, x, y, z); break;   /* a directed rounding */
	case PX_OP_ADD: r = x + y; break;
	case PX_OP_SUB: r = x - y; break;
	case PX_OP_MUL: r = x * y; break;
	case PX_OP_FMA: case PX_OP_MAD: r = fmaf(x, y, z); break;
	case PX_OP_DIV:
		/* div.approx is a * (1 / b), whose reciprocal of |b| > 2^126 is a
		 * flushed subnormal (PTX ISA, div: so the quotient is 0, as on the
		 * H100; a subnormal b is scaled first: a full quotient) */
		r = (in->mods & PX_MOD_APPROX) && fabsf(y) > 0x1p126f ? x * copysignf(0.0f, y) : x / y;
		break;
	case PX_OP_RCP: r = 1.0f / x; break;
	case PX_OP_SQRT: r = sqrtf(x); break;
	case PX_OP_SIN: case PX_OP_COS: {
		/* the MUFU unit's argument is in turns: x times 1 / 2 pi as an
		 * f32, rounded toward zero (ptxas's FMUL.RZ; the H100's results
		 * at |x| > 100 follow it), then its fraction (so a large x, an
		 * integer number of turns, gives 0 and 1 as on the H100). The
		 * product is exact in a double. */
		double p = (double)x * (double)0.159154943f;
		float t = (float)p;
		if (fabs((double)t) > fabs(p))
			t = nextafterf(t, 0.0f);
		double turn = 6.283185307179586 * ((double)t - nearbyint((double)t));
		r = (float)(in->op == PX_OP_SIN ? sin(turn) : cos(turn));
		break;
	}
	case PX_OP_MIN: case PX_OP_MAX:
		if (x != x || y != y) {
			if (si->mw & MW(NAN))
				return SIM_F32_NAN;
			r = x != x ? y : x;
		} else {
			r = in->op == PX_OP_MIN ? fminf(x, y) : fmaxf(x, y);
		}
		break;
	case PX_OP_ABS: r = fabsf(x); break;
	case PX_OP_NEG: r = -x; break;
	case PX_OP_RSQRT: r = 1.0f / sqrtf(x); break;
	case PX_OP_EX2: r = exp2f(x); break;
	case PX_OP_LG2: r = log2f(x); break;
	case PX_OP_TANH: r = tanhf(x); break;
	case PX_OP_COPYSIGN: return f32_bits(copysignf(y, x));   /* (bits: a NaN's payload stays) */
	default: *unk = true; return 0;
	}
	if (in->mods & PX_MOD_SAT)
		r = (float)sat01(r);
	return r != r ? SIM_F32_NAN : f32_bits(ftz32(r, ftz));
}

static bool cmp_int(unsigned cmp, uint64_t a, uint64_t b, bool sgn, unsigned bits)
{
	int64_t x = sext(a, bits), y = sext(b, bits);
	uint64_t u = trunc_to(a, bits), v = trunc_to(b, bits);
	switch (cmp) {
	case PX_CMP_EQ: return u == v;
	case PX_CMP_NE: return u != v;
	case PX_CMP_LT: return sgn ? x < y : u < v;
	case PX_CMP_LE: return sgn ? x <= y : u <= v;
	case PX_CMP_GT: return sgn ? x > y : u > v;
	case PX_CMP_GE: return sgn ? x >= y : u >= v;
	case PX_CMP_LO: return u < v;
	case PX_CMP_LS: return u <= v;
	case PX_CMP_HI: return u > v;
	case PX_CMP_HS: return u >= v;
	default: return false;
	}
}

static bool cmp_flt(unsigned cmp, double x, double y)
{
	bool un = x != x || y != y;
	switch (cmp) {
	case PX_CMP_EQ: return !un && x == y;
	case PX_CMP_NE: return !un && x != y;
	case PX_CMP_LT: return !un && x < y;
	case PX_CMP_LE: return !un && x <= y;
	case PX_CMP_GT: return !un && x > y;
	case PX_CMP_GE: return !un && x >= y;
	case PX_CMP_EQU: return un || x == y;
	case PX_CMP_NEU: return un || x != y;
	case PX_CMP_LTU: return un || x < y;
	case PX_CMP_LEU: return un || x <= y;
	case PX_CMP_GTU: return un || x > y;
	case PX_CMP_GEU: return un || x >= y;
	case PX_CMP_NUM: return !un;
	case PX_CMP_NAN: return un;
	default: return false;
	}
}

/* A comparison of values of a type of kind k and bits bits (the caller
 * looks them up once per instruction); ftz: an f32 subnormal is a zero. */
static bool cmp_any(unsigned cmp, char k, unsigned bits, bool ftz, uint64_t a, uint64_t b)
{
	if (k == 'f')
		return bits == 64 ? cmp_flt(cmp, bits_f64(a), bits_f64(b))
		                  : cmp_flt(cmp, ftz32(bits_f32(a), ftz), ftz32(bits_f32(b), ftz));
	return cmp_int(cmp, a, b, k == 's', bits);
}

/* f32 bits x rounded to tf32 (10 significand bits), as f32 bits with the
 * low 13 zero, by rnd (CVT_TF32_RNA, _RN, _RZ; PTX ISA, cvt), with the
 * H100's handling of what the ISA leaves open (scalar_ops.cu): .rna is
 * integer arithmetic on the bits, NaNs included (add 0x1000, clear the
 * low 13: a signalling NaN with a small payload becomes an infinity), and
 * its .satfinite takes one tf32 ulp off an all-ones exponent (an infinity
 * becomes the largest finite value, a NaN another NaN); .rn and .rz give
 * a NaN as 0x7fffe000. */
static uint64_t tf32_round(uint32_t x, unsigned rnd, bool satfinite)
{
	uint32_t sign = x & 0x80000000u, mag = x & 0x7fffffffu;
	if (rnd == CVT_TF32_RNA) {
		/* (a round-up that would carry out of the exponent is not made:
		 * 0x7fffffff gives 0x7fffe000) */
		uint32_t r = sign | ((mag + 0x1000 <= 0x7fffffffu ? mag + 0x1000 : mag) & ~0x1fffu);
		if (satfinite && (r & 0x7f800000u) == 0x7f800000u)
			r -= 0x2000;
		return r;
	}
	if (mag > 0x7f800000u)
		return 0x7fffe000u;
	if (mag != 0x7f800000u) {
		if (rnd == CVT_TF32_RN)
			mag += 0xfff + (mag >> 13 & 1);
		mag &= ~0x1fffu;
	}
	return sign | mag;
}

/* The scalar type of small float format fmt (enum sim_hf) */
static unsigned scalar_type(unsigned fmt)
{
	switch (fmt) {
	case SIM_HF_F16: return PX_TYPE_F16;
	case SIM_HF_BF16: return PX_TYPE_BF16;
	case SIM_HF_E4M3: return PX_TYPE_E4M3;
	default: return PX_TYPE_E5M2;
	}
}

/* An integer result of db bits in its register: a signed one narrower
 * than 32 bits sign-extended to 32 (the H100's cvt.s8.s32, cvt.rzi.s16.f32
 * into a .b32 register: bench/gpu/simt/scalar_ops.cu), else the low db
 * bits. */
static uint64_t int_result(uint64_t x, unsigned db, char dk)
{
	return dk == 's' && db < 32 ? trunc_to((uint64_t)sext(x, db), 32) : trunc_to(x, db);
}

/* Conversion cvt.dst.src of one value. Directed roundings (.rz .rm .rp)
 * of a floating-point result go through simt_float.c; the integer
 * roundings (.rni ...) through round_int. */
static uint64_t convert(const struct sim_insn *si, unsigned dt, unsigned st, uint64_t v, bool *unk)
{
	char dk = px_type_kind(dt), sk = px_type_kind(st);
	unsigned db = px_type_bits(dt), sb = px_type_bits(st);
	bool sat = si->in->mods & PX_MOD_SAT, ftz = si->in->mods & PX_MOD_FTZ;
	unsigned frnd = si->rnd < 4 ? si->rnd : 0;   /* a float result's rounding */
	bool dx2, sx2;
	unsigned dfmt = sim_half_format(dt, &dx2), sfmt = sim_half_format(st, &sx2);
	/* (an x2 destination comes here one half at a time: exec_other) */
	if (dx2 || sx2 || dt == PX_TYPE_TF32 || st == PX_TYPE_TF32 || (dk == 'f' && !dfmt && db != 32 && db != 64) ||
	    (sk == 'f' && !sfmt && sb != 32 && sb != 64)) {
		*unk = true;
		return 0;
	}
	if (sfmt == SIM_HF_BF16 && dk == 'f' && db == 32) {
		/* bf16 is f32's upper half (a NaN keeps its bits) */
		uint64_t r = (v & 0xffff) << 16;
		return ftz && ftz32(bits_f32(r), true) == 0.0f ? r & 0x80000000u : r;
	}
	if (dk != 'f' && sk != 'f') {
		if (sat) {
			/* clamp the source value into the destination range */
			if (sk == 's') {
				int64_t x = sext(v, sb);
				int64_t lo = dk == 's' ? -(int64_t)(1ull << (db - 1)) : 0;
				int64_t hi = dk == 's' ? (int64_t)((1ull << (db - 1)) - 1)
				                       : (db >= 64 ? INT64_MAX : (int64_t)((1ull << db) - 1));
				x = x < lo ? lo : x > hi ? hi : x;
				return int_result((uint64_t)x, db, dk);
			}
			uint64_t x = trunc_to(v, sb);
			uint64_t hi = dk == 's' ? (1ull << (db - 1)) - 1 : (db >= 64 ? UINT64_MAX : (1ull << db) - 1);
			return int_result(x > hi ? hi : x, db, dk);
		}
		uint64_t x = sk == 's' ? (uint64_t)sext(v, sb) : trunc_to(v, sb);
		return int_result(x, db, dk);
	}
	double x;
	if (sfmt)
		x = sim_half_operand((uint16_t)v, sfmt, ftz);
	else if (sk == 'f')
		x = sb == 64 ? bits_f64(v) : (double)ftz32(bits_f32(v), ftz);
	else if (dfmt)
		x = sk == 's' ? sim_int_odd((uint64_t)sext(v, sb), true) : sim_int_odd(trunc_to(v, sb), false);
	else
		x = sk == 's' ? (double)sext(v, sb) : (double)trunc_to(v, sb);
	if (dfmt) {
		/* to a small float format: .relu takes negative results to +0, .satfinite
		 * overflows to the largest finite value */
		if (si->rnd >= 4)
			x = round_int(x, si->rnd);
		if (sat)
			x = sat01(x);
		uint16_t h = sim_half_round(x, dfmt, si->rnd & 3, si->mw & MW(SATFINITE));
		if ((si->mw & MW(RELU)) && (h >> (sim_half_width(dfmt) - 1) & 1) && x == x)
			h = 0;
		return h;
	}
	if (sfmt && dk == 'f' && db == 64)
		return sim_half_f64_bits((uint16_t)v, sfmt);
	if (sfmt && dk == 'f' && x != x)
		return SIM_F32_NAN;   /* (H100: cvt.f32.f16) */
	if (dk == 'f') {
		if (sk != 'f') {
			/* from an integer: rounded once, from the integer */
			uint64_t iv = sk == 's' ? (uint64_t)sext(v, sb) : trunc_to(v, sb);
			double r = db == 64 ? sim_f64_of_int(iv, sk == 's', frnd) : (double)sim_f32_of_int(iv, sk == 's', frnd);
			if (sat)
				r = sat01(r);
			return db == 64 ? f64_bits(r) : f32_bits(ftz32((float)r, ftz));
		}
		if (si->rnd >= 4)
			x = round_int(x, si->rnd);
		if (sat)
			x = sat01(x);
		if (db == 64) {
			/* from f32: exact; a NaN keeps its payload, but .ftz makes it
			 * SIM_F32_NAN widened (H100) */
			if (x != x && ftz && sb == 32)
				return 0x7fffffffe0000000ull;
			return f64_bits(x);
		}
		if (sb == 64) {
			/* f64 to f32: a NaN keeps the upper bits of its payload */
			float r = frnd ? sim_f32_of_f64(x, frnd) : (float)x;
			return f32_bits(ftz32(r, ftz));
		}
		return f32_result(ftz32((float)x, ftz));
	}
	/* float to integer: .rzi unless said, saturating (PTX ISA, cvt). A NaN
	 * gives 0 from an f32 or a 16-bit float into 32 bits or fewer; from an
	 * f64, or into 64 bits, the H100 gives the destination's sign bit (the
	 * ISA: unspecified; scalar_ops.cu measured 32- and 64-bit results) */
	if (x != x)
		return sb == 64 || db == 64 ? int_result(1ull << (db - 1), db, dk) : 0;
	x = round_int(x, si->rnd ? si->rnd : 5);
	if (dk == 's') {
		double lo = -ldexp(1.0, (int)db - 1), hi = ldexp(1.0, (int)db - 1) - 1;
		int64_t r = x <= lo ? (int64_t)lo : x >= hi ? (db == 64 ? INT64_MAX : (int64_t)hi) : (int64_t)x;
		return int_result((uint64_t)r, db, dk);
	}
	double hi = ldexp(1.0, (int)db) - 1;
	uint64_t r = x <= 0 ? 0 : x >= hi ? (db == 64 ? UINT64_MAX : (uint64_t)hi) : (uint64_t)x;
	return r;
}

/* x clamped into the range of an s32, as its bits */
static uint64_t sat_s32(int64_t x)
{
	return trunc_to((uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x), 32);
}

/* Integer/bit operation of one lane on values of bits bits, signed when
 * sg (the type's, looked up once per instruction by the caller). */
static uint64_t iop(const struct sim_insn *si, unsigned bits, bool sg, uint64_t a, uint64_t b, uint64_t c,
                    bool *unk)
{
	const struct px_insn *in = si->in;
	int64_t x = sext(a, bits), y = sext(b, bits);
	uint64_t u = trunc_to(a, bits), v = trunc_to(b, bits);
	switch (in->op) {
	case PX_OP_ADD: case PX_OP_SUB: {
		uint64_t r = in->op == PX_OP_ADD ? u + v : u - v;
		if ((in->mods & PX_MOD_SAT) && sg && bits == 32)
			return sat_s32(in->op == PX_OP_ADD ? x + y : x - y);
		return trunc_to(r, bits);
	}
	case PX_OP_MUL24: case PX_OP_MAD24: {
		/* the 48-bit product of the low 24 bits: .lo its bits 31..0, .hi
		 * its bits 47..16 (PTX ISA, mul24) */
		uint64_t p = sg ? (uint64_t)(sext(a, 24) * sext(b, 24)) : trunc_to(a, 24) * trunc_to(b, 24);
		uint64_t r = trunc_to(in->mods & PX_MOD_HI ? p >> 16 : p, 32);
		if (in->op == PX_OP_MUL24)
			return r;
		if ((in->mods & PX_MOD_SAT) && sg)
			return sat_s32(sext(r, 32) + sext(c, 32));
		return trunc_to(r + c, 32);
	}
	case PX_OP_MUL: case PX_OP_MAD: {
		bool add = in->op == PX_OP_MAD;
		if (in->mods & PX_MOD_WIDE) {
			uint64_t p = sg ? (uint64_t)(x * y) : u * v;
			return trunc_to(p + (add ? c : 0), bits * 2);
		}
		if (in->mods & PX_MOD_HI) {
			uint64_t hi;
			if (bits == 64) {
				__int128 p = sg ? (__int128)x * y : (__int128)((unsigned __int128)u * v);
				hi = (uint64_t)((unsigned __int128)p >> 64);
			} else {
				uint64_t p = sg ? (uint64_t)(x * y) : u * v;
				hi = p >> bits;
			}
			if (add && (in->mods & PX_MOD_SAT) && sg && bits == 32)   /* mad.hi.sat.s32 */
				return sat_s32(sext(hi, 32) + sext(c, 32));
			return trunc_to(hi + (add ? c : 0), bits);
		}
		return trunc_to(u * v + (add ? c : 0), bits);
	}
	case PX_OP_DIV: case PX_OP_REM:
		/* by zero, and the signed 64-bit -2^63 / -1 (C: undefined, x86: a
		 * trap): unspecified by the PTX ISA, unknown here */
		if (v == 0 || (sg && x == INT64_MIN && y == -1)) {
			*unk = true;
			return 0;
		}
		if (in->op == PX_OP_DIV)
			return trunc_to(sg ? (uint64_t)(x / y) : u / v, bits);
		return trunc_to(sg ? (uint64_t)(x % y) : u % v, bits);
	case PX_OP_MIN: return trunc_to(sg ? (uint64_t)(x < y ? x : y) : (u < v ? u : v), bits);
	case PX_OP_MAX: return trunc_to(sg ? (uint64_t)(x > y ? x : y) : (u > v ? u : v), bits);
	case PX_OP_ABS: case PX_OP_NEG:
		/* abs.s16/neg.s16 of -32768: ptxas keeps a 16-bit value in a
		 * 32-bit register, where this gives +32768, and a later
		 * cvt.s32.s16 passes that on (the H100: 0x00008000, not the
		 * ISA's 0xffff8000): unknown */
		if (bits == 16 && sg && x == INT16_MIN) {
			*unk = true;
			return 0;
		}
		return trunc_to(in->op == PX_OP_NEG || x < 0 ? 0 - (uint64_t)x : (uint64_t)x, bits);
	case PX_OP_AND: return u & v;
	case PX_OP_OR: return u | v;
	case PX_OP_XOR: return u ^ v;
	case PX_OP_NOT: return trunc_to(~u, bits);
	case PX_OP_CNOT: return u == 0;
	case PX_OP_SHL: return (b & 0xffffffff) >= bits ? 0 : trunc_to(u << (b & 0xffffffff), bits);
	case PX_OP_SHR: {
		uint64_t sh = b & 0xffffffff;
		if (sg)
			return trunc_to((uint64_t)(x >> (sh >= bits ? bits - 1 : sh)), bits);
		return sh >= bits ? 0 : u >> sh;
	}
	case PX_OP_POPC: return (uint64_t)__builtin_popcountll(u);
	case PX_OP_CLZ: return u ? (uint64_t)(__builtin_clzll(u) - (64 - bits)) : bits;
	case PX_OP_BREV: {
		uint64_t r = 0;
		for (unsigned i = 0; i < bits; i++)
			r |= ((u >> i) & 1) << (bits - 1 - i);
		return r;
	}
	case PX_OP_BFIND: {
		if (sg && x < 0)
			u = trunc_to(~u, bits);
		if (!u)
			return 0xffffffff;
		unsigned p = 63 - (unsigned)__builtin_clzll(u);
		return si->mw & MW(SHIFTAMT) ? bits - 1 - p : p;
	}
	case PX_OP_BFE: {
		/* position and length: their low 8 bits (PTX ISA, bfe); bfe.b64,
		 * which ptxas builds from shifts, takes larger ones whole (the
		 * H100: bench/gpu/simt/scalar_ops.cu), as 255 does */
		unsigned pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
		if (bits == 64) {
			pos = (b & 0xffffffff) > 255 ? 255 : (unsigned)b;
			len = (c & 0xffffffff) > 255 ? 255 : (unsigned)c;
		}
		uint64_t r = 0;
		bool sbit = sg && len ? ((u >> (pos + len - 1 < bits ? pos + len - 1 : bits - 1)) & 1) : 0;
		for (unsigned i = 0; i < bits; i++) {
			uint64_t bit = i < len && pos + i < bits ? (u >> (pos + i)) & 1 : (sg ? sbit : 0);
			r |= bit << i;
		}
		return r;
	}
	case PX_OP_BMSK: {
		/* a mask of b ones from bit a (PTX ISA, bmsk): .wrap takes both
		 * modulo 32, .clamp at most 32 */
		uint64_t pos = a & 0xffffffff, len = b & 0xffffffff;
		if (si->mw & MW(CLAMP)) {
			pos = pos > 32 ? 32 : pos;
			len = len > 32 ? 32 : len;
		} else {
			pos &= 31;
			len &= 31;
		}
		return pos >= 32 ? 0 : trunc_to(((1ull << len) - 1) << pos, 32);
	}
	case PX_OP_SZEXT: {
		/* a's low b bits, sign- (.s32) or zero-extended (PTX ISA,
		 * szext): .wrap takes b modulo 32, .clamp at most 32 */
		uint64_t n = b & 0xffffffff;
		n = si->mw & MW(CLAMP) ? (n > 32 ? 32 : n) : n & 31;
		if (!n)
			return 0;
		return sg ? trunc_to((uint64_t)sext(a, (unsigned)n), 32) : trunc_to(a, (unsigned)n);
	}
	case PX_OP_SAD:
		return trunc_to((sg ? (x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x)
		                    : (u > v ? u - v : v - u)) + c, bits);
	case PX_OP_DP4A: case PX_OP_DP2A:
		/* dp4a.atype.btype, dp2a.mode.atype.btype (simt_half.c) */
		return sim_dot(in->op, sg, in->ntypes > 1 && px_type_kind(in->types[1]) == 's', si->mw & MW(HI),
		               (uint32_t)a, (uint32_t)b, (uint32_t)c);
	default:
		*unk = true;
		return 0;
	}
}

/* Bit 0 of predicate slot's value, per lane (all 32; the loop: no
 * branch, gcc vectorises it). */
static uint32_t pred_lanes(const struct sim *s, const struct sim_warp *w, uint32_t slot)
{
	const uint64_t *v = &w->val[(size_t)slot * 32];
	uint32_t bits = 0;
#if PX_SIMT_HW_FMA
	if (s->hw_fma)
		return pred_bits_avx2(v);
#else
	(void)s;
#endif
	for (uint32_t l = 0; l < 32; l++)
		bits |= (uint32_t)(v[l] & 1) << l;
	return bits;
}

/* Guard: the lanes of mask whose guard holds (and that run the side of a
 * predicated if/else the instruction is on); lanes whose guard is unknown
 * go to *unknown (and are not in the result). */
uint32_t sim_guard_pred(struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask,
                        uint32_t *unknown)
{
	*unknown = 0;
	const struct px_insn *in = si->in;
	if (si->side) {   /* (the slot is never unknown once its branch ran) */
		uint32_t one = pred_lanes(s, w, si->side_slot);
		mask &= si->side == 1 ? one : ~one;
	}
	if (in->guard < 0)
		return mask;
	uint32_t slot = s->slot_base[in->guard];
	uint32_t bits = pred_lanes(s, w, slot);
	*unknown = w->unk[slot] & mask;
	return (in->guard_neg ? ~bits : bits) & mask & ~*unknown;
}

/* ---- memory ---- */
static int resolve_space(const struct sim *s, unsigned space, uint64_t *addr)
{
	switch (space) {
	case PX_SPACE_SHARED: case PX_SPACE_SHARED_CTA: case PX_SPACE_SHARED_CLUSTER:
		if (*addr >= SIM_SHARED_WIN)
			*addr -= SIM_SHARED_WIN;
		return SP_SHARED;
	case PX_SPACE_LOCAL: return SP_LOCAL;
	case PX_SPACE_PARAM: return SP_PARAM;
	case PX_SPACE_GLOBAL: case PX_SPACE_CONST: return SP_GLOBAL;
	default:
		if (*addr >= SIM_SHARED_WIN && *addr < SIM_SHARED_WIN + (1ull << 32)) {
			*addr -= SIM_SHARED_WIN;
			return SP_SHARED;
		}
		if (*addr >= SIM_LOCAL_WIN && *addr < SIM_LOCAL_WIN + (1ull << 32)) {
			*addr -= SIM_LOCAL_WIN;
			return SP_LOCAL;
		}
		(void)s;
		return SP_GLOBAL;
	}
}

/* The last page a run of reads looked up (gread): valid while nothing is
 * inserted into the memory (an insert may move the table). */
struct page_cache {
	uint64_t page;                 /* page number + 1; 0: none */
	const struct sim_page *p;      /* NULL: the page is absent */
};

/* The page of word (see mem_page), through pc. */
static inline const struct sim_page *cached_page(struct sim *s, uint64_t word, struct page_cache *pc)
{
	uint64_t page = word / SIM_PAGE_WORDS + 1;
	if (pc->page != page) {
		pc->page = page;
		pc->p = page_get(&s->global, word);
	}
	return pc->p;
}

/* Reads n bytes (1, 2, 4, 8) of global/local memory, a word at a time:
 * unknown (and 0) as soon as one byte is. pc (or NULL) caches the last
 * page found. */
static uint64_t gread(struct sim *s, uint64_t key_hi, uint64_t addr, unsigned n, bool *unk,
                      struct page_cache *pc)
{
	uint64_t r = 0;
	for (unsigned b = 0; b < n;) {
		uint64_t a = addr + b, word = (a >> 2) ^ key_hi;
		unsigned sh = (unsigned)(a & 3), k = 4 - sh < n - b ? 4 - sh : n - b;   /* bytes in this word */
		unsigned need = ((1u << k) - 1) << sh;
		const struct sim_page *p = pc ? cached_page(s, word, pc) : page_get(&s->global, word);
		unsigned i = (unsigned)(word % SIM_PAGE_WORDS);
		if (!p || (p->known[i] & need) != need) {
			*unk = true;
			return 0;
		}
		r |= (uint64_t)((p->val[i] >> (8 * sh)) & (uint32_t)(k == 4 ? 0xffffffffu : (1u << (8 * k)) - 1)) << (8 * b);
		b += k;
	}
	return r;
}

static void gwrite(struct sim *s, uint64_t key_hi, uint64_t addr, unsigned n, uint64_t v, bool unk)
{
	for (unsigned b = 0; b < n;) {
		uint64_t a = addr + b, word = (a >> 2) ^ key_hi;
		unsigned sh = (unsigned)(a & 3), k = 4 - sh < n - b ? 4 - sh : n - b;
		uint32_t bytes = k == 4 ? 0xffffffffu : ((1u << (8 * k)) - 1) << (8 * sh);
		struct sim_page *p = mem_page(&s->global, word, true);
		unsigned i = (unsigned)(word % SIM_PAGE_WORDS);
		p->val[i] = (p->val[i] & ~bytes) | ((uint32_t)(v >> (8 * b)) << (8 * sh) & bytes);
		uint8_t need = (uint8_t)(((1u << k) - 1) << sh);
		if (unk)
			p->known[i] &= (uint8_t)~need;
		else
			p->known[i] |= need;
		b += k;
	}
}

/* What the shared-memory checks read of the simulator and the warp, for
 * one instruction: copied once (gcc reloads them for every lane when it
 * reads them through s and w, whose fields the stores into the shared
 * words could alias). */
struct sh_now {
	const struct sim_shmem *sh;
	uint64_t limit;        /* s->sh_limit */
	uint32_t epoch, sync;  /* s->epoch, w->sync */
	uint32_t wid, pc;      /* the warp, the instruction */
};

static inline struct sh_now sh_now(const struct sim *s, const struct sim_warp *w, uint32_t pc)
{
	return (struct sh_now){&s->sh, s->sh_limit, s->epoch, w->sync, w->id, pc};
}

void sim_shmem_init(struct sim_shmem *m, uint64_t n)
{
	m->val = xcalloc(n, sizeof *m->val);
	m->known = xcalloc(n, 1);
	m->written = xcalloc(n, 1);
	m->watomic = xcalloc(n, 1);
	m->wtid = xmalloc(n * sizeof *m->wtid);
	m->rtid = xmalloc(n * sizeof *m->rtid);
	m->wepoch = xcalloc(n, sizeof *m->wepoch);
	m->wsync = xcalloc(n, sizeof *m->wsync);
	m->wpc = xcalloc(n, sizeof *m->wpc);
	m->repoch = xcalloc(n, sizeof *m->repoch);
	m->rsync = xcalloc(n, sizeof *m->rsync);
	m->rpc = xcalloc(n, sizeof *m->rpc);
	m->cp_pend = xcalloc(n + 1, sizeof *m->cp_pend);
	m->wbytes = xmalloc(n + 1);
	m->rbytes = xmalloc(n + 1);
	memset(m->wbytes, 0xf, n + 1);
	memset(m->rbytes, 0xf, n + 1);
	m->npend = 0;
	m->nwords = n;
	m->wclk = m->rclk = NULL;   /* (simt_mbar.c's, with mbarriers) */
	for (uint64_t i = 0; i < n; i++)
		m->wtid[i] = m->rtid[i] = -1;
}

void sim_shmem_free(struct sim_shmem *m)
{
	free(m->cp_pend);
	free(m->wclk);
	free(m->rclk);
	free(m->wbytes);
	free(m->rbytes);
	free(m->val);
	free(m->known);
	free(m->written);
	free(m->watomic);
	free(m->wtid);
	free(m->rtid);
	free(m->wepoch);
	free(m->wsync);
	free(m->wpc);
	free(m->repoch);
	free(m->rsync);
	free(m->rpc);
}

/* Whether thread who's access of a shared word (at barrier count epoch,
 * its warp's synchronisation count sync) is unordered with the threads
 * of warp c->wid now other than who: since the last barrier, and not
 * ordered by a warp synchronisation of their common warp. */
static inline bool sword_recent(const struct sh_now *c, int32_t who, uint32_t epoch, uint32_t sync)
{
	return who >= 0 && epoch == c->epoch && !((uint32_t)who / 32 == c->wid && sync != c->sync);
}

/* The same for thread t: whether who is another thread and its access recent. */
static inline bool sword_unordered(const struct sh_now *c, uint32_t t, int32_t who, uint32_t epoch, uint32_t sync)
{
	return (uint32_t)who != t && sword_recent(c, who, epoch, sync);
}

/* Records thread t's read / write of word wd now. */
static inline void sword_read(const struct sh_now *c, uint64_t wd, uint32_t t)
{
	const struct sim_shmem *m = c->sh;
	uint32_t epoch = c->epoch, sync = c->sync, pc = c->pc;
	m->rtid[wd] = (int32_t)t;
	m->repoch[wd] = epoch;
	m->rsync[wd] = sync;
	m->rpc[wd] = pc;
	m->rbytes[wd] = 0xf;
}

static inline void sword_write(const struct sh_now *c, uint64_t wd, uint32_t t, bool atomic)
{
	const struct sim_shmem *m = c->sh;
	uint32_t epoch = c->epoch, sync = c->sync, pc = c->pc;
	int32_t *wtid = m->wtid, *rtid = m->rtid;
	uint32_t *wepoch = m->wepoch, *wsync = m->wsync, *wpc = m->wpc;
	uint8_t *written = m->written, *watomic = m->watomic;
	wtid[wd] = (int32_t)t;
	wepoch[wd] = epoch;
	wsync[wd] = sync;
	wpc[wd] = pc;
	rtid[wd] = -1;
	written[wd] = true;
	watomic[wd] = atomic;
	m->wbytes[wd] = 0xf;
}

/* Shared access of one lane: bounds, race and initialisation checks, then
 * the value. Returns false when out of bounds. */
/* The cp.async of a copy to shared word wd that no wait has written yet
 * (exec_cp), but warp skip_w's copies skip_lo to skip_hi (cp_write's: the
 * copy landing and the places its loop has left behind; skip_w past the
 * warps: none); UINT32_MAX if none:
 * what a read of a word never written, or an access while a copy is in
 * flight, names. */
static uint32_t cp_pending_to(const struct sim *s, uint64_t wd, uint32_t skip_w, uint32_t skip_lo,
                              uint32_t skip_hi)
{
	for (uint32_t i = 0; i < s->nwarps; i++)
		for (uint32_t k = 0; k < s->w[i].ncp; k++) {
			const struct sim_cp *c = &s->w[i].cp[k];
			if (!(i == skip_w && k >= skip_lo && k <= skip_hi) && wd >= c->dst >> 2 &&
			    wd < (c->dst >> 2) + c->words)
				return c->pc;
		}
	return sim_mbar_bulk_to(s, wd);
}

static bool shared_access(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t lane,
                          uint64_t off, unsigned n, bool write, bool atomic, uint64_t *v, bool *unk)
{
	uint32_t t = w->id * 32 + lane;
	struct sh_now now = sh_now(s, w, pc);
	char t0[48], t1[48], l0[160], l1[160];
	const char *op = atomic ? "updates" : write ? "writes" : "reads";
	if (off + n > s->sh_limit) {
		sim_violation(s, PX_V_SHARED_OOB, pc, t, t,
		              "thread %s %s %u bytes of shared memory at byte offset %llu, past the %llu bytes "
		              "the kernel declares", sim_thread(s, t, t0), op, n,
		              (unsigned long long)off, (unsigned long long)s->sh_limit);
		*unk = true;
		return false;
	}
	uint64_t r = 0;
	const struct sim_shmem *m = &s->sh;
	for (uint64_t wd = off >> 2; wd <= (off + n - 1) >> 2; wd++) {
		if (m->cp_pend[wd] && !s->cp_landing && (write || m->written[wd]) &&
		    !viol_seen(s, PX_V_SHARED_RACE, pc)) {
			/* (a read of a word never written: uninitialized-shared
			 * below names the copy) */
			uint32_t cpc = cp_pending_to(s, wd, UINT32_MAX, 0, 0);
			struct px_simt_violation *cv = cpc == UINT32_MAX ? NULL : sim_violation(
				s, PX_V_SHARED_RACE, pc, t, t,
				"thread %s %s shared byte offset %llu at %s while a %s at %s copies to it: %s",
				sim_thread(s, t, t0), op, (unsigned long long)wd * 4, sim_where(s, pc, l0),
				s->ins[cpc].mbar == MB_BULK ? "cp.async.bulk" : "cp.async", sim_where(s, cpc, l1),
				s->ins[cpc].mbar == MB_BULK
				? "the thread has not waited for the mbarrier phase that completes the copy"
				: "no cp.async.wait_group has waited for the copy (and, for another thread, no barrier "
				  "after the wait)");
			if (cv)
				cv->other_line = s->ins[cpc].in->line;
		}
		int32_t wtid = m->wtid[wd], rtid = m->rtid[wd];
		uint32_t wpc = m->wpc[wd], rpc = m->rpc[wd];
		bool same_warp_w = wtid >= 0 && (uint32_t)wtid / 32 == w->id;
		bool ordered_w = same_warp_w && m->wsync[wd] != w->sync;
		/* the bytes of this word the access touches */
		uint64_t lo = wd * 4 > off ? wd * 4 : off, hi = wd * 4 + 4 < off + n ? wd * 4 + 4 : off + n;
		uint8_t need = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - wd * 4));
		uint8_t wb = m->wbytes[wd], rb = m->rbytes[wd];
		struct px_simt_violation *v = NULL;
		if (wtid >= 0 && (uint32_t)wtid != t && m->wepoch[wd] == s->epoch && !ordered_w && !s->ins[pc].poll &&
		    !(atomic && m->watomic[wd]) && (wb & need) && !(m->wclk && sim_hb_ordered(s, t, wtid, m->wclk[wd]))) {
			v = sim_violation(s, same_warp_w ? SIM_SAME_WARP_RACE : PX_V_SHARED_RACE, pc, (uint32_t)wtid, t,
			              "thread %s %s shared byte offset %llu at %s; thread %s %s it at %s, "
			              "no barrier between%s%s", sim_thread(s, (uint32_t)wtid, t0),
			              m->watomic[wd] ? "updates" : "writes", (unsigned long long)wd * 4,
			              sim_where(s, wpc, l0), sim_thread(s, t, t1), op, sim_where(s, pc, l1),
			              sim_order_means(s),
			              same_warp_w ? " (same warp: needs __syncwarp() under independent thread scheduling)" : "");
			if (v)
				v->other_line = s->ins[wpc].in->line;
		}
		if (write && sword_unordered(&now, t, rtid, m->repoch[wd], m->rsync[wd]) && (rb & need) &&
		    !(rpc < s->nins && s->ins[rpc].poll) && !(m->rclk && sim_hb_ordered(s, t, rtid, m->rclk[wd]))) {
			v = sim_violation(s, (uint32_t)rtid / 32 == w->id ? SIM_SAME_WARP_RACE : PX_V_SHARED_RACE, pc,
			                  (uint32_t)rtid, t,
			              "thread %s reads shared byte offset %llu at %s; thread %s %s it at %s, "
			              "no barrier between%s%s", sim_thread(s, (uint32_t)rtid, t0),
			              (unsigned long long)wd * 4, sim_where(s, rpc, l0), sim_thread(s, t, t1), op,
			              sim_where(s, pc, l1), sim_order_means(s),
			              (uint32_t)rtid / 32 == w->id
			              ? " (same warp: needs __syncwarp() under independent thread scheduling)" : "");
			if (v)
				v->other_line = s->ins[rpc].in->line;
		}
		if (!write || atomic) {
			if (!m->written[wd] && !viol_seen(s, PX_V_UNINIT_SHARED, pc)) {
				uint32_t cpc = cp_pending_to(s, wd, UINT32_MAX, 0, 0);
				sim_violation(s, PX_V_UNINIT_SHARED, pc, t, t,
				              "thread %s reads shared byte offset %llu, which no thread has written%s%s%s",
				              sim_thread(s, t, t0), (unsigned long long)wd * 4,
				              cpc != UINT32_MAX ? " (a cp.async at " : "",
				              cpc != UINT32_MAX ? sim_where(s, cpc, l0) : "",
				              cpc != UINT32_MAX ? " copies to it, but no cp.async.wait_group has waited for it)"
				                                : "");
			}
			/* (a thread's reads of a word since the barrier add up) */
			bool again = rtid == (int32_t)t && m->repoch[wd] == s->epoch;
			sword_read(&now, wd, t);
			m->rbytes[wd] = again ? (uint8_t)(rb | need) : need;
			if (m->rclk)
				m->rclk[wd] = sim_clock(s, t);
		}
		if (write) {
			bool again = wtid == (int32_t)t && m->wepoch[wd] == s->epoch;
			sword_write(&now, wd, t, atomic);
			m->wbytes[wd] = again ? (uint8_t)(wb | need) : need;
			if (m->wclk)
				m->wclk[wd] = s->mb_landing ? 0 : sim_clock(s, t);
		}
	}
	/* the value, a word at a time (k bytes of word a >> 2 from byte sh) */
	for (unsigned b = 0; b < n;) {
		uint64_t a = off + b, wd = a >> 2;
		unsigned sh = (unsigned)(a & 3), k = 4 - sh < n - b ? 4 - sh : n - b;
		uint32_t bytes = k == 4 ? 0xffffffffu : ((1u << (8 * k)) - 1) << (8 * sh);
		uint8_t need = (uint8_t)(((1u << k) - 1) << sh);
		if (write) {
			m->val[wd] = (m->val[wd] & ~bytes) | ((uint32_t)(*v >> (8 * b)) << (8 * sh) & bytes);
			if (*unk)
				m->known[wd] &= (uint8_t)~need;
			else
				m->known[wd] |= need;
		} else {
			if ((m->known[wd] & need) != need)
				*unk = true;
			r |= (uint64_t)((m->val[wd] & bytes) >> (8 * sh)) << (8 * b);
		}
		b += k;
	}
	if (!write)
		*v = r;
	return true;
}

/* shared_access's common case, for one lane: an aligned 32-bit word of
 * the declared memory, nothing to report (no race, a read of a word
 * written before). False, with nothing changed, for any other access:
 * shared_access does it. */
static inline bool shared_word(const struct sh_now *c, uint32_t lane, uint64_t off, bool write, uint64_t *v,
                               bool *unk)
{
	if ((off & 3) || off + 4 > c->limit)
		return false;
	uint32_t t = c->wid * 32 + lane;
	const struct sim_shmem *m = c->sh;
	uint64_t wd = off >> 2;
	if (m->npend && (m->cp_pend[wd] || m->wclk))
		return false;   /* a cp.async copy to it is in flight; or mbarriers: shared_access compares the clocks */
	if (sword_unordered(c, t, m->wtid[wd], m->wepoch[wd], m->wsync[wd]))
		return false;   /* written by another thread since the barrier */
	if (write) {
		if (sword_unordered(c, t, m->rtid[wd], m->repoch[wd], m->rsync[wd]))
			return false;   /* read by another thread since the barrier */
		sword_write(c, wd, t, false);
		m->val[wd] = (uint32_t)*v;
		if (*unk)
			m->known[wd] &= (uint8_t)~0xfu;
		else
			m->known[wd] |= 0xf;
		return true;
	}
	if (!m->written[wd])
		return false;
	sword_read(c, wd, t);
	if ((m->known[wd] & 0xf) != 0xf)
		*unk = true;
	*v = m->val[wd];
	return true;
}

static uint64_t param_read(struct sim *s, uint64_t off, unsigned n, bool *unk)
{
	for (uint32_t i = 0; i < s->f->nparams; i++) {
		uint64_t sz = px_var_size(&s->f->params[i]);
		if (off >= s->param_off[i] && off + n <= s->param_off[i] + sz) {
			if (!s->param_known[i] || off != s->param_off[i]) {
				*unk = true;
				return 0;
			}
			return trunc_to(s->param_val[i], n * 8);
		}
	}
	*unk = true;
	return 0;
}

/* The word after atomic si on word old with operands b and c (t its type;
 * global: the word is in global memory, where the H100's f32 add flushes
 * subnormal operands and results to zero and the f64 add returns a NaN
 * operand as it is, while shared memory's keeps subnormals and quiets the
 * NaN; a NaN f32 sum is SIM_F32_NAN in both: scalar_ops.cu, and NVIDIA's
 * answer in forums.developer.nvidia.com/t/31531 on the flush). */
static uint64_t atom_apply(const struct sim_insn *si, unsigned t, uint64_t old, uint64_t b, uint64_t c,
                           bool global, bool *unk)
{
	unsigned bits = px_type_bits(t);
	char k = px_type_kind(t);
	bool x2;
	unsigned fmt = sim_half_format(t, &x2);
	if (fmt && si->mw & (MW(ADD) | MW(MIN) | MW(MAX)))
		/* atom.add.noftz.f16 / .f16x2 / .bf16 / .bf16x2 (no flush), min, max */
		return sim_half_pair(si->mw & MW(ADD) ? PX_OP_ADD : si->mw & MW(MIN) ? PX_OP_MIN : PX_OP_MAX, fmt, 0, x2,
		                     (uint32_t)old, (uint32_t)b, 0, unk);
	if (si->mw & MW(ADD)) {
		if (k == 'f' && bits == 64) {
			double x = bits_f64(old), y = bits_f64(b);
			if (global && (x != x || y != y))
				return y != y ? b : old;   /* (measured with b a NaN; a's taken alike) */
			return f64_bits(x + y);
		}
		if (k == 'f')
			return f32_result(ftz32(ftz32(bits_f32(old), global) + ftz32(bits_f32(b), global), global));
		return trunc_to(old + b, bits);
	}
	if (si->mw & MW(EXCH)) return b;
	if (si->mw & MW(CAS)) return trunc_to(old, bits) == trunc_to(b, bits) ? c : old;
	if (si->mw & MW(AND)) return old & b;
	if (si->mw & MW(OR)) return old | b;
	if (si->mw & MW(XOR)) return old ^ b;
	if (si->mw & MW(MIN)) return k == 's' ? (sext(old, bits) < sext(b, bits) ? old : b) : (old < b ? old : b);
	if (si->mw & MW(MAX)) return k == 's' ? (sext(old, bits) > sext(b, bits) ? old : b) : (old > b ? old : b);
	if (si->mw & MW(INC)) return old >= b ? 0 : old + 1;
	if (si->mw & MW(DEC)) return (old == 0 || old > b) ? b : old - 1;
	*unk = true;
	return 0;
}

/* Wavefronts of a shared load wider than 32 bits whose lanes come in pairs
 * with one address (lane l and l^1 for every active lane, or l and l^2):
 * shared memory returns one 32-bit register per lane per cycle (128 bytes),
 * so an LDS.64/LDS.128 takes 2 or 4 wavefronts even without a bank
 * conflict, and pairs that share an address halve that because the
 * hardware packs their return registers (NVIDIA's answer in "Unexpected
 * shared memory bank conflict", forums.developer.nvidia.com/t/77228: an
 * LDS.128 drops from 4 requests to 2). gemm_loop's As[ty][k..k+3] is such
 * an LDS.128 (the SASS's LDS.128 [R6+0x10]: lanes 0-15 share one address,
 * 16-31 another); with 4 wavefronts the loop's 8 warps alone need 256 MIO
 * cycles per iteration, more than the 270 measured for all of it. */
static uint32_t packed_wavefronts(const int64_t *addrs, uint32_t mask, uint32_t wf)
{
	bool p1 = true, p2 = true;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		p1 &= !(mask >> (l ^ 1) & 1) || addrs[l] == addrs[l ^ 1];
		p2 &= !(mask >> (l ^ 2) & 1) || addrs[l] == addrs[l ^ 2];
	}
	return p1 || p2 ? (wf + 1) / 2 : wf;
}

/* Word i of page p (NULL: absent), sign-extended when sgn; *unk (and 0)
 * when any byte is unknown. */
static inline uint64_t page_word(const struct sim_page *p, unsigned i, bool sgn, bool *unk)
{
	*unk = !p || (p->known[i] & 0xf) != 0xf;
	if (*unk)
		return 0;
	return sgn ? trunc_to((uint64_t)sext(p->val[i], 32), 64) : p->val[i];
}

/* One 32-bit word of global/local memory at byte address ea (key_hi: the
 * thread's bits for local memory), sign-extended when sgn; *unk when any
 * byte is unknown. */
static inline uint64_t load_word(struct sim *s, uint64_t key_hi, uint64_t ea, bool sgn, struct page_cache *pc,
                                 bool *unk)
{
	if (!(ea & 3)) {
		uint64_t word = (ea >> 2) ^ key_hi;
		return page_word(cached_page(s, word, pc), (unsigned)(word % SIM_PAGE_WORDS), sgn, unk);
	}
	*unk = false;
	uint64_t v = gread(s, key_hi, ea, 4, unk, pc);
	if (!*unk && sgn)
		v = trunc_to((uint64_t)sext(v, 32), 64);
	return v;
}

/* Whether the 32 lanes read consecutive aligned words, lane 0 the first
 * (a warp streaming through an array). */
static bool consecutive_words(const int64_t *addrs)
{
	uint64_t a0 = (uint64_t)addrs[0], diff = a0 & 3;
	for (uint32_t l = 0; l < 32; l++)   /* (no branch: gcc vectorises it) */
		diff |= (uint64_t)addrs[l] ^ (a0 + 4 * l);
	return !diff && a0 <= UINT64_MAX - 4 * 31;
}

/* Zeroes SIM_PAGE_WORDS (16) lanes of a row with 16-byte stores, not in
 * a loop: gcc makes a memset of a loop, and its memset of a constant 128
 * bytes is a rep stos, slow to start. */
static inline void zero_page_lanes(uint64_t *v)
{
	typedef uint64_t pair __attribute__((vector_size(16), aligned(8)));
	pair z = {0, 0};
	*(pair *)&v[0] = z; *(pair *)&v[2] = z; *(pair *)&v[4] = z; *(pair *)&v[6] = z;
	*(pair *)&v[8] = z; *(pair *)&v[10] = z; *(pair *)&v[12] = z; *(pair *)&v[14] = z;
}

/* load_words for 32 lanes reading consecutive global words from word0:
 * a page lookup per page. */
static void load_consecutive(struct sim *s, uint64_t word0, bool sgn, uint64_t lv[32], uint32_t *lunk)
{
	if (!s->global.n) {
		/* nothing written yet (a kernel reading what the host wrote,
		 * its results stored after the loop): every lane unknown */
		zero_page_lanes(lv);
		zero_page_lanes(lv + SIM_PAGE_WORDS);
		*lunk = UINT32_MAX;
		return;
	}
	uint32_t unk_lanes = 0;
	for (uint32_t l = 0; l < 32;) {
		unsigned i = (unsigned)((word0 + l) % SIM_PAGE_WORDS);
		uint32_t n = SIM_PAGE_WORDS - i < 32 - l ? SIM_PAGE_WORDS - i : 32 - l;   /* lanes on this page */
		const struct sim_page *p = page_get(&s->global, word0 + l);
		if (!p) {
			/* never written: unknown (a whole page's lanes, mostly: a
			 * constant size, which gcc writes without a call) */
			if (n == SIM_PAGE_WORDS)
				zero_page_lanes(&lv[l]);
			else
				memset(&lv[l], 0, n * sizeof *lv);
			unk_lanes |= (uint32_t)(((1ull << n) - 1) << l);
			l += n;
			continue;
		}
		for (uint32_t end = l + n; l < end; l++, i++) {
			bool unk;
			lv[l] = page_word(p, i, sgn, &unk);
			unk_lanes |= (uint32_t)unk << l;
		}
	}
	*lunk |= unk_lanes;
}

/* exec_mem's values for a load of nvec 32-bit elements per lane from
 * global or local memory (spc) at the known addresses of every lane in
 * mask: gread's work, one cached page lookup per page. mo: the memo when
 * the addresses are its pattern (a hit: whether they are consecutive
 * words is known), else NULL. */
__attribute__((noinline)) static void load_words(struct sim *s, const struct sim_warp *w, const int64_t *addrs,
                                                 uint32_t mask, unsigned nvec, int spc, bool sgn,
                                                 const struct sim_memo *mo, uint64_t lv[8][32], uint32_t lunk[8])
{
	if (!s->global.n) {
		/* nothing written yet: every lane unknown (as in
		 * load_consecutive) */
		for (unsigned e = 0; e < nvec; e++) {
			if (mask == UINT32_MAX) {
				zero_page_lanes(lv[e]);
				zero_page_lanes(lv[e] + SIM_PAGE_WORDS);
			} else {
				for (uint32_t m = mask; m; m &= m - 1)
					lv[e][__builtin_ctz(m)] = 0;
			}
			lunk[e] |= mask;
		}
		return;
	}
	struct page_cache pc = {0};
	if (nvec == 1 && spc == SP_GLOBAL && mask == UINT32_MAX &&
	    (mo ? mo->consec && (uint64_t)addrs[0] <= UINT64_MAX - 4 * 31 : consecutive_words(addrs))) {
		load_consecutive(s, (uint64_t)addrs[0] >> 2, sgn, lv[0], &lunk[0]);
		return;
	}
	if (nvec == 1 && spc == SP_GLOBAL) {
		/* the commonest: one global word per lane */
		uint32_t unk_lanes = 0;
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk;
			lv[0][l] = load_word(s, 0, (uint64_t)addrs[l], sgn, &pc, &unk);
			unk_lanes |= (uint32_t)unk << l;
		}
		lunk[0] |= unk_lanes;
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t key_hi = spc == SP_LOCAL ? ((uint64_t)(w->id * 32 + l) << 44) | (1ull << 62) : 0;
		for (unsigned e = 0; e < nvec; e++) {
			bool unk;
			lv[e][l] = load_word(s, key_hi, (uint64_t)addrs[l] + 4u * e, sgn, &pc, &unk);
			lunk[e] |= (uint32_t)unk << l;
		}
	}
}

/* The word of the access before in load_shared_words, where the next
 * access of it needs no checks: no recent write orders it for some
 * threads only, so the checks and the value are the same, and the access
 * only becomes the word's reader (lanes that share a word: a broadcast). */
struct sh_prev {
	bool any;                      /* false: none */
	uint64_t wd, ea, v;            /* the word */
	bool unk;
};

/* One 32-bit word of a shared load for one lane (shared_word, else
 * shared_access), sign-extended when sgn; *unk when unknown. */
static inline uint64_t shared_load_word(struct sim *s, struct sim_warp *w, const struct sh_now *now,
                                        struct sh_prev *prev, uint32_t lane, uint64_t ea, bool sgn, bool *unk)
{
	uint64_t v = 0;
	*unk = false;
	if (prev->any && ea == prev->ea) {
		now->sh->rtid[prev->wd] = (int32_t)(now->wid * 32 + lane);   /* (sword_read's other fields are the same) */
		v = prev->v;
		*unk = prev->unk;
	} else if (shared_word(now, lane, ea, false, &v, unk)) {
		const struct sim_shmem *m = now->sh;
		uint64_t wd = ea >> 2;
		*prev = (struct sh_prev){!sword_recent(now, m->wtid[wd], m->wepoch[wd], m->wsync[wd]), wd, ea, v, *unk};
	} else {
		shared_access(s, w, now->pc, lane, ea, 4, false, false, &v, unk);
		prev->any = false;
	}
	if (!*unk && sgn)
		v = trunc_to((uint64_t)sext(v, 32), 64);
	return v;
}

/* Fills mo's groups (once per pattern). */
static void memo_groups(struct sim_memo *mo)
{
	uint32_t n = 0;
	for (uint32_t m = mo->mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m), g = 0;
		while (g < n && mo->rel[mo->last[g]] != mo->rel[l])
			g++;
		if (g == n)
			n++;
		mo->group[l] = (uint8_t)g;
		mo->last[g] = (uint8_t)l;
	}
	mo->ngroups = (uint8_t)n;
	/* the commonest patterns, which load_groups fills without a lookup
	 * per lane (gemm_loop's Bs[k][tx]: 16 words twice over; As[ty][k]: 2
	 * words, 16 lanes each) */
	bool cycle = mo->mask == UINT32_MAX && 32 % n == 0, runs = cycle;
	for (uint32_t l = 0; l < 32 && (cycle || runs); l++) {
		cycle &= mo->group[l] == l % n;
		runs &= mo->group[l] == l / (32 / n);
	}
	mo->fill = cycle && n > 1 ? FILL_CYCLE : runs ? FILL_RUNS : 0;   /* (one group: runs, a single one) */
	/* where the groups lie, for load_groups' bounds checks of them all
	 * at once (a hit moves a0 by a multiple of 4: memo_hit) */
	mo->galigned = true;
	mo->gmin = INT64_MAX;
	mo->gmax = INT64_MIN;
	mo->grel0 = (int64_t)mo->rel[mo->last[0]];
	for (uint32_t g = 0; g < n; g++) {
		int64_t r = (int64_t)mo->rel[mo->last[g]];
		mo->galigned &= !(((uint64_t)mo->a0 + (uint64_t)r) & 3);
		mo->gmin = r < mo->gmin ? r : mo->gmin;
		mo->gmax = r > mo->gmax ? r : mo->gmax;
		/* groups farther apart than any shared memory is large never pass
		 * load_groups' bounds check: no offset for them (it would not fit) */
		uint64_t d = (uint64_t)r - (uint64_t)mo->grel0;
		if (d + (1ull << 40) > (1ull << 41))
			mo->galigned = false;
		else
			mo->gsw[g] = (int64_t)d / 4;
	}
	mo->gconsec = mo->galigned && n % 4 == 0;
	for (uint32_t g = 0; g < n && mo->gconsec; g++)
		mo->gconsec = mo->gsw[g] == (int64_t)g;
	mo->grouped = true;
}

/* Neighbouring shared words, 4 at a time (load_groups' groups when
 * they are such words): SSE2 where there is one (every x86-64; gcc does
 * not vectorise these loops at -O2), else the plain loops. n: a multiple
 * of 4. */

/* Fills n words from d with v. */
static inline void fill_u32(uint32_t *d, uint32_t v, uint32_t n)
{
#if RUN_SSE2
	__m128i x = _mm_set1_epi32((int)v);
	for (uint32_t g = 0; g < n; g += 4)
		_mm_storeu_si128((__m128i *)(d + g), x);
#else
	for (uint32_t i = 0; i < n; i++)
		d[i] = v;
#endif
}

/* Fills n lanes from d with v. */
static inline void fill_u64(uint64_t *d, uint64_t v, uint32_t n)
{
#if RUN_SSE2
	__m128i x = _mm_set1_epi64x((long long)v);
	for (uint32_t i = 0; i < n; i += 4) {
		_mm_storeu_si128((__m128i *)(d + i), x);
		_mm_storeu_si128((__m128i *)(d + i + 2), x);
	}
#else
	for (uint32_t i = 0; i < n; i++)
		d[i] = v;
#endif
}

/* load_groups' test of n neighbouring words: each written before the
 * last barrier (epoch). */
static inline bool run_written(const uint8_t *written, const uint32_t *wepoch, uint32_t epoch, uint32_t n)
{
	uint32_t bad = 0;   /* written is 0 or 1: some byte of a 4 differs from 1 */
	for (uint32_t g = 0; g < n; g += 4) {
		uint32_t x;
		memcpy(&x, written + g, 4);
		bad |= x ^ 0x01010101u;
	}
#if RUN_SSE2
	__m128i e = _mm_set1_epi32((int)epoch), eq = _mm_setzero_si128();
	for (uint32_t g = 0; g < n; g += 4)
		eq = _mm_or_si128(eq, _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(wepoch + g)), e));
	bad |= (uint32_t)_mm_movemask_epi8(eq);
#else
	for (uint32_t g = 0; g < n; g++)
		bad |= wepoch[g] == epoch;
#endif
	return !bad;
}

/* The known bytes of every one of n neighbouring words (*kand) and of
 * any (*kor): 4 bytes at a time. */
static inline void run_known(const uint8_t *known, uint32_t n, unsigned *kand, unsigned *kor)
{
	uint32_t a = UINT32_MAX, o = 0;
	for (uint32_t g = 0; g < n; g += 4) {
		uint32_t x;
		memcpy(&x, known + g, 4);
		a &= x;
		o |= x;
	}
	a &= a >> 16;
	a &= a >> 8;
	o |= o >> 16;
	o |= o >> 8;
	*kand &= a & 0xff;
	*kor |= o & 0xff;
}

/* The values of n neighbouring words into gv. */
static inline void run_vals(uint64_t *restrict gv, const uint32_t *restrict val, uint32_t n)
{
#if RUN_SSE2
	__m128i z = _mm_setzero_si128();
	for (uint32_t g = 0; g < n; g += 4) {
		__m128i x = _mm_loadu_si128((const __m128i *)(val + g));
		_mm_storeu_si128((__m128i *)(gv + g), _mm_unpacklo_epi32(x, z));
		_mm_storeu_si128((__m128i *)(gv + g + 2), _mm_unpackhi_epi32(x, z));
	}
#else
	for (uint32_t g = 0; g < n; g++)
		gv[g] = val[g];
#endif
}

/* Each of n neighbouring words read last by lane last[g] of the warp
 * whose first thread is t0. */
static inline void run_readers(int32_t *restrict rtid, int32_t t0, const uint8_t *restrict last, uint32_t n)
{
#if RUN_SSE2
	__m128i z = _mm_setzero_si128(), t = _mm_set1_epi32(t0);
	for (uint32_t g = 0; g < n; g += 4) {
		uint32_t b;
		memcpy(&b, last + g, 4);
		__m128i x = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)b), z), z);
		_mm_storeu_si128((__m128i *)(rtid + g), _mm_add_epi32(x, t));
	}
#else
	for (uint32_t g = 0; g < n; g++)
		rtid[g] = t0 + last[g];
#endif
}

/* load_shared_words for one word per lane when the addresses are mo's
 * pattern (a memo hit): shared_word's checks once per word its lanes
 * share, when they pass for any lane (aligned words of the declared
 * memory, written, and by no thread since the barrier unordered with the
 * warp), and its last lane the word's reader. False, with no shared word
 * changed, when they do not (lv's first lanes may be written: the caller
 * then fills every lane). */
static bool load_groups(const struct sh_now *c, const int64_t *addrs, struct sim_memo *mo, bool sgn,
                        uint64_t lv[32], uint32_t *lunk)
{
	if (c->sh->npend)
		return false;   /* cp.async copies in flight: shared_access's checks */
	if (!mo->grouped)
		memo_groups(mo);
	/* the bounds of all groups at once (a sum that overflows is out of
	 * them too) */
	int64_t a0 = addrs[__builtin_ctz(mo->mask)], lo, hi;
	if (!mo->galigned || __builtin_add_overflow(a0, mo->gmin, &lo) || __builtin_add_overflow(a0, mo->gmax, &hi) ||
	    lo < 0 || (uint64_t)hi + 4 > c->limit)
		return false;
	/* the checks and the values first (reads only), then the reads
	 * recorded: every group's word lies in the declared memory and is
	 * aligned, so each is group 0's moved by its whole words */
	const struct sim_shmem *m = c->sh;
	const uint8_t *written = m->written, *known = m->known;
	const uint32_t *wepoch = m->wepoch, *val = m->val;
	uint64_t wd0 = (uint64_t)(a0 + mo->grel0) >> 2;
	uint64_t gbuf[32], *gv = mo->fill == FILL_CYCLE ? lv : gbuf;   /* (a cycle's first ng lanes are its words) */
	uint32_t ng = mo->ngroups, epoch = c->epoch;
	unsigned kand = 0xf, kor = 0;   /* the known bytes of every word, of any */
	if (mo->gconsec && run_written(written + wd0, wepoch + wd0, epoch, ng)) {
		/* neighbouring words, all written before the last barrier:
		 * what the loop below finds, 4 words at a time */
		run_known(known + wd0, ng, &kand, &kor);
		run_vals(gv, val + wd0, ng);
	} else {
		for (uint32_t g = 0; g < ng; g++) {
			uint64_t wd = wd0 + (uint64_t)mo->gsw[g];
			/* written before the last barrier: no write is recent (the
			 * common case, tested first); else shared_word's test */
			if (!(written[wd] & (wepoch[wd] != epoch)) &&
			    (!written[wd] || sword_recent(c, m->wtid[wd], wepoch[wd], m->wsync[wd])))
				return false;
			gv[g] = val[wd];
			kand &= known[wd];
			kor |= known[wd];
		}
	}
	/* per group: unknown (commonly none, or all with no byte known) */
	uint32_t gunk = (kand & 0xf) == 0xf ? 0 : !(kor & 0xf) ? (uint32_t)((1ull << ng) - 1) : 0;
	for (uint32_t g = 0; (kand & 0xf) != 0xf && (kor & 0xf) && g < ng && g < 32; g++)   /* (ng <= 32) */
		gunk |= (uint32_t)((known[wd0 + (uint64_t)mo->gsw[g]] & 0xf) != 0xf) << g;
	if (sgn)
		for (uint32_t g = 0; g < ng; g++)
			if (!(gunk >> g & 1))
				gv[g] = trunc_to((uint64_t)sext(gv[g], 32), 64);
	uint32_t t0 = c->wid * 32, sync = c->sync, pc = c->pc;
	int32_t *rtid = m->rtid;
	uint32_t *repoch = m->repoch, *rsync = m->rsync, *rpc = m->rpc;
	if (mo->gconsec) {
		run_readers(rtid + wd0, (int32_t)t0, mo->last, ng);
		fill_u32(repoch + wd0, epoch, ng);
		fill_u32(rsync + wd0, sync, ng);
		fill_u32(rpc + wd0, pc, ng);
		memset(m->rbytes + wd0, 0xf, ng);
	} else {
		for (uint32_t g = 0; g < ng; g++) {
			uint64_t wd = wd0 + (uint64_t)mo->gsw[g];
			m->rbytes[wd] = 0xf;
			rtid[wd] = (int32_t)(t0 + mo->last[g]);
			repoch[wd] = epoch;
			rsync[wd] = sync;
			rpc[wd] = pc;
		}
	}
	if (mo->fill == FILL_CYCLE) {
		/* ng a power of 2 (FILL_CYCLE's): the first ng lanes doubled
		 * until all 32 are filled (copies of constant sizes, which gcc
		 * inlines) */
		switch (ng) {
		case 2: memcpy(&lv[2], lv, 2 * sizeof *lv);   /* fall through */
		case 4: memcpy(&lv[4], lv, 4 * sizeof *lv);   /* fall through */
		case 8: memcpy(&lv[8], lv, 8 * sizeof *lv);   /* fall through */
		case 16: memcpy(&lv[16], lv, 16 * sizeof *lv); break;
		}
	} else if (mo->fill == FILL_RUNS) {
		/* runs of k = 32 / ng lanes (a power of 2): 4 at a time where
		 * they are that long */
		uint32_t k = 32 / ng;
		if (k >= 4) {
			for (uint32_t g = 0; g < ng; g++)
				fill_u64(&lv[g * k], gv[g], k);
		} else {
			for (uint32_t l = 0; l < 32; l++)
				lv[l] = gv[l / k];
		}
	} else if (mo->mask == UINT32_MAX) {
		for (uint32_t l = 0; l < 32; l++)
			lv[l] = gv[mo->group[l]];
	} else {
		for (uint32_t m = mo->mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			lv[l] = gv[mo->group[l]];
		}
	}
	/* the lanes of the unknown words (commonly none or all) */
	uint64_t all = (1ull << ng) - 1;
	uint32_t unk_lanes = gunk == all ? mo->mask : 0;
	for (uint32_t m = gunk && gunk != all ? mo->mask : 0; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		unk_lanes |= (gunk >> mo->group[l] & 1) << l;
	}
	*lunk |= unk_lanes;
	return true;
}

/* The same for a load from shared memory, per lane and element as
 * exec_mem's loop does them. Neither is inlined into exec_mem: gcc then
 * compiled exec_mem's other paths worse (global_stream +0.9%). */
__attribute__((noinline)) static void load_shared_words(struct sim *s, struct sim_warp *w, uint32_t pc,
                                                        const int64_t *addrs, uint32_t mask, unsigned nvec,
                                                        bool sgn, struct sim_memo *mo, uint64_t lv[8][32],
                                                        uint32_t lunk[8])
{
	struct sh_now now = sh_now(s, w, pc);
	struct sh_prev prev = {0};
	if (nvec == 1 && mo && load_groups(&now, addrs, mo, sgn, lv[0], &lunk[0]))
		return;
	if (nvec == 1) {
		/* the commonest: one word per lane */
		uint32_t unk_lanes = 0;
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk;
			lv[0][l] = shared_load_word(s, w, &now, &prev, l, (uint64_t)addrs[l], sgn, &unk);
			unk_lanes |= (uint32_t)unk << l;
		}
		lunk[0] |= unk_lanes;
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		for (unsigned e = 0; e < nvec; e++) {
			bool unk;
			lv[e][l] = shared_load_word(s, w, &now, &prev, l, (uint64_t)addrs[l] + 4u * e, sgn, &unk);
			lunk[e] |= (uint32_t)unk << l;
		}
	}
}

/* The low 32 bits of the 32 lanes of v (!v when neg) into d. */
static void store_vals(uint32_t *restrict d, const uint64_t *restrict v, bool neg)
{
	if (neg)
		for (uint32_t l = 0; l < 32; l++)
			d[l] = !v[l];
	else
		for (uint32_t l = 0; l < 32; l++)
			d[l] = (uint32_t)v[l];
}

/* store_shared_words' commonest case for a whole warp at once: its 32
 * lanes write the 32 words from wd0, which lie in the declared memory,
 * and no thread has written or read any of them since the last barrier
 * (the lane-by-lane loop's first case for each, on all of them at once,
 * each array a vector; the words differ, so their order does not
 * matter). False, with nothing changed, when some word was written or
 * read since the barrier. */
static bool store_run(const struct sh_now *c, uint64_t wd0, const uint64_t *vv, uint32_t vunk, bool neg)
{
	const struct sim_shmem *m = c->sh;
	int32_t *wtid = m->wtid + wd0, *rtid = m->rtid + wd0;
	uint32_t *wepoch = m->wepoch + wd0, *repoch = m->repoch + wd0;
	uint32_t epoch = c->epoch, busy = 0;
	for (uint32_t l = 0; l < 32; l++)
		busy |= (uint32_t)(wtid[l] >= 0) & (uint32_t)(wepoch[l] == epoch);
	for (uint32_t l = 0; l < 32; l++)
		busy |= (uint32_t)(rtid[l] >= 0) & (uint32_t)(repoch[l] == epoch);
	if (busy)
		return false;
	int32_t t0 = (int32_t)(c->wid * 32);
	for (uint32_t l = 0; l < 32; l++)
		wtid[l] = t0 + (int32_t)l;
	fill_u32(wepoch, epoch, 32);
	fill_u32(m->wsync + wd0, c->sync, 32);
	fill_u32(m->wpc + wd0, c->pc, 32);
	memset(m->wbytes + wd0, 0xf, 32);
	fill_u32((uint32_t *)rtid, UINT32_MAX, 32);   /* -1: none */
	memset(m->written + wd0, 1, 32);
	memset(m->watomic + wd0, 0, 32);
	store_vals(m->val + wd0, vv, neg);
	uint8_t *known = m->known + wd0;
	if (!vunk) {   /* (commonly none unknown, or all) */
		for (uint32_t l = 0; l < 32; l++)
			known[l] |= 0xf;
	} else if (vunk == UINT32_MAX) {
		for (uint32_t l = 0; l < 32; l++)
			known[l] &= (uint8_t)~0xfu;
	} else {
		for (uint32_t l = 0; l < 32; l++)
			known[l] = (uint8_t)(vunk >> l & 1 ? known[l] & ~0xfu : known[l] | 0xfu);
	}
	return true;
}

/* exec_mem's store of register vo to shared 32-bit words at the known
 * addresses of the lanes of mask, lane by lane in lane order: shared_word's
 * work, its commonest case tested first (an aligned word of the declared
 * memory that no thread has written or read since the last barrier: no
 * race to look for), else shared_word, else shared_access. */
__attribute__((noinline)) static void store_shared_words(struct sim *s, struct sim_warp *w, uint32_t pc,
                                                         const int64_t *addrs, uint32_t mask,
                                                         const struct sim_opnd *vo)
{
	struct sh_now now = sh_now(s, w, pc);
	const uint64_t *vv = &w->val[(size_t)vo->slot * 32];
	uint32_t vunk = w->unk[vo->slot], t0 = now.wid * 32;
	bool neg = vo->neg;
	const struct sim_shmem *sm = now.sh;
	if (mask == UINT32_MAX && !sm->npend && consecutive_words(addrs) && (uint64_t)addrs[0] + 128 <= now.limit &&
	    store_run(&now, (uint64_t)addrs[0] >> 2, vv, vunk, neg))
		return;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		bool unk = vunk >> l & 1;
		uint64_t v = neg ? !vv[l] : vv[l], ea = (uint64_t)addrs[l];
		if (!(ea & 3) && ea + 4 <= now.limit && !sm->npend) {
			uint64_t wd = ea >> 2;
			if (!(sm->wtid[wd] >= 0 && sm->wepoch[wd] == now.epoch) &&
			    !(sm->rtid[wd] >= 0 && sm->repoch[wd] == now.epoch)) {
				sword_write(&now, wd, t0 + l, false);
				sm->val[wd] = (uint32_t)v;
				sm->known[wd] = (uint8_t)(unk ? sm->known[wd] & ~0xfu : sm->known[wd] | 0xfu);
				continue;
			}
		}
		if (!shared_word(&now, l, ea, true, &v, &unk))
			shared_access(s, w, pc, l, ea, 4, true, false, &v, &unk);
	}
}

/* Whether the lanes of mask (every one with a known address) have the
 * addresses of mo's pattern, moved so far that what it holds stays true
 * (struct sim_memo). rdiff: for all 32 lanes, the OR of each lane's
 * address less lane 0's xor mo->rel (fixed_addrs'), else NULL. */
static inline bool memo_hit(const struct sim_memo *mo, int spc, const int64_t *a, uint32_t mask,
                            const uint64_t *rdiff)
{
	if (mo->mask != mask || mo->spc != spc || !mask)
		return false;
	uint64_t a0 = (uint64_t)a[__builtin_ctz(mask)];
	if ((a0 - (uint64_t)mo->a0) & (spc == SP_SHARED ? 3 : 127) || !memo_near(a0))
		return false;
	uint64_t diff = 0;
	if (rdiff && mask == UINT32_MAX) {
		diff = *rdiff;
	} else if (mask == UINT32_MAX) {
		for (uint32_t l = 0; l < 32; l++)   /* (no branch: gcc vectorises it) */
			diff |= ((uint64_t)a[l] - a0) ^ mo->rel[l];
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			diff |= ((uint64_t)a[l] - a0) ^ mo->rel[l];
		}
	}
	return !diff;
}

/* Records the addresses of the lanes of mask and what they cost in mo (none
 * when an address is so far out that moving it could overflow). */
static void memo_store(struct sim_memo *mo, int spc, const int64_t *a, uint32_t mask, uint32_t sec, uint32_t wf,
                       const uint64_t *lines, const uint8_t *secs, uint32_t nlines, bool repeat)
{
	uint64_t a0 = (uint64_t)a[__builtin_ctz(mask)];
	bool near = memo_near(a0);
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		mo->rel[l] = (uint64_t)a[l] - a0;
		near &= memo_near(mo->rel[l]);
	}
	mo->mask = near ? mask : 0;
	mo->spc = (uint8_t)spc;
	mo->a0 = (int64_t)a0;
	bool consec = mask == UINT32_MAX && spc == SP_GLOBAL && !(a0 & 3);
	for (uint32_t l = 0; consec && l < 32; l++)
		consec = mo->rel[l] == 4 * l;
	mo->consec = consec;
	mo->sec = sec;
	mo->wf = wf;
	mo->nlines = nlines;
	mo->repeat = repeat;
	mo->grouped = false;
	for (uint32_t i = 0; i < nlines; i++) {
		mo->dline[i] = (lines[i] - (a0 >> 7)) & MEMO_LINES;
		mo->dsec[i] = secs[i];
	}
}

/* The lines mo's lanes touch (memo_store's lines) for a first address a0:
 * how many; *repeat as memo_store's. */
static inline uint32_t memo_lines(const struct sim_memo *mo, uint64_t a0, uint64_t *lines, uint8_t *secs,
                                  bool *repeat)
{
	for (uint32_t i = 0; i < mo->nlines; i++) {
		lines[i] = ((a0 >> 7) + mo->dline[i]) & MEMO_LINES;
		secs[i] = mo->dsec[i];
	}
	*repeat = mo->repeat;
	return mo->nlines;
}

/* Where the lanes of tk find their local-memory bytes (addrs: each
 * thread's own offsets): the hardware interleaves a warp's local memory so
 * that consecutive threads access consecutive words ("local memory is
 * organized such that consecutive 32-bit words are accessed by consecutive
 * thread IDs", CUDA C++ Programming Guide, Device Memory Accesses, Local
 * Memory), here at the access's own width (2 to 16 bytes; 4 for narrower):
 * lanes at the same offset read one line, lanes at different offsets
 * (a local array indexed by a per-lane value: held-out 18's isort8_loop)
 * as many lines as there are offsets. Each warp's region apart. Fills
 * phys; returns it. */
static const int64_t *local_phys(const struct sim_warp *w, const int64_t *addrs, uint32_t tk, uint32_t bytes,
                                 int64_t *phys)
{
	uint64_t g = bytes < 4 ? 4 : bytes > 16 ? 16 : bytes;
	uint64_t base = (uint64_t)(w->id + 1) << 44;   /* (a region holds 2^32 offsets, 32 threads' of 16 bytes) */
	for (uint32_t m = tk; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = (uint64_t)addrs[l] & ((1ull << 32) - 1);
		phys[l] = (int64_t)(base + (a / g * 32 + l) * g + a % g);
	}
	return phys;
}

/* The 128-byte lines of a global or local access, in lane order, a lane on
 * the line of the lane before left out (*repeat then): how many. Local
 * lines carry the thread. */
static uint32_t lane_lines(const struct sim_warp *w, int spc, const int64_t *addrs, uint32_t known_mask,
                           uint64_t *lines, uint8_t *secs, bool *repeat)
{
	uint32_t n = 0;
	*repeat = false;
	for (uint32_t m = known_mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t line = ((uint64_t)addrs[l] >> 7) ^ (spc == SP_LOCAL ? (uint64_t)(w->id * 32 + l) << 40 : 0);
		uint8_t sec = (uint8_t)(1u << ((uint64_t)addrs[l] >> 5 & 3));   /* (an access of 32 bytes at most, aligned) */
		if (n && line == lines[n - 1]) {
			*repeat = true;
			secs[n - 1] |= sec;
		} else {
			secs[n] = sec;
			lines[n++] = line;
		}
	}
	return n;
}

/* The 128-byte lines on which the lanes of mask, bytes each from their
 * addresses, write some 32-byte sector in part (not all its bytes): a
 * store's extra turn of the SM's write path for each (l2st_probe: a warp's
 * store takes its sectors' cycles, and one more per such line). */
static uint32_t partial_lines(const int64_t *addrs, uint32_t mask, uint32_t bytes)
{
	/* the sectors in the order the lanes first touch them, each with the
	 * bytes written (a lane touches at most two: bytes <= 32) */
	uint64_t sec[64];
	uint32_t got[64], n = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = (uint64_t)addrs[l], end = a + (bytes ? bytes : 1);
		while (a < end) {
			uint64_t sc = a >> 5, lim = (sc + 1) << 5 < end ? (sc + 1) << 5 : end;
			uint32_t lo = (uint32_t)(a & 31), hi = (uint32_t)((lim - 1) & 31);
			uint32_t bits = (hi == 31 ? ~0u : (1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
			uint32_t i = n;
			while (i && sec[i - 1] != sc)   /* (mostly the last one) */
				i--;
			if (i) {
				got[i - 1] |= bits;
			} else if (n < 64) {
				sec[n] = sc;
				got[n++] = bits;
			}
			a = lim;
		}
	}
	/* the lines of the sectors written in part, each counted once */
	uint64_t lines[64];
	uint32_t nl = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (got[i] == ~0u)
			continue;
		uint32_t j = nl;
		while (j && lines[j - 1] != sec[i] >> 2)
			j--;
		if (!j)
			lines[nl++] = sec[i] >> 2;
	}
	return nl;
}

/* The warp's earliest L1-miss slot (w->miss_free[w->miss_head]) is taken
 * until cycle t: the ring of n slots stays sorted (struct sim_warp). */
static inline void miss_slot_take(struct sim_warp *w, uint32_t n, uint64_t t)
{
	uint64_t *mf = w->miss_free;
	uint32_t h = w->miss_head, pos = h;   /* pos: the ring's last place, the earliest's */
	w->miss_head = (uint8_t)(h + 1 == n ? 0 : h + 1);
	for (uint32_t r = n - 1; r > 0; r--) {
		uint32_t prev = pos ? pos - 1 : n - 1;
		if (mf[prev] <= t)
			break;
		mf[pos] = mf[prev];
		pos = prev;
	}
	mf[pos] = t;
}


/* A load that misses the L1 waits for one of the warp's miss slots
 * (global_stream: a warp streaming from DRAM keeps about 9 lines in
 * flight): *lat grows by the wait, and the slot is the warp's until the
 * load's data is back. */
static inline void miss_wait(struct sim *s, struct sim_warp *w, double *lat)
{
	uint64_t first = w->miss_free[w->miss_head];
	uint64_t start = first > s->cycle ? first : s->cycle;
	*lat += (double)(start - s->cycle);
	miss_slot_take(w, s->misses_per_warp, s->cycle + (uint64_t)(*lat + 0.5));
}

/* An access of instruction mo's to space spc (SP_GLOBAL, SP_SHARED or
 * SP_LOCAL) by a warp with some lane's address known (not of a free
 * instruction, which ptxas folds into another's access): sec sectors (global
 * and local), wf wavefronts (loads and shared accesses, else 0), and of
 * its nlines lines (sim_touch_lines' list, which may name a line twice)
 * hits that hit the L1. The hit sectors are the sectors' share of the
 * lines that hit: the cache model decides per line. */
static inline void count_mem(struct sim_memo *mo, unsigned spc, uint32_t sec, uint32_t wf, uint32_t hits,
                             uint32_t nlines)
{
	if (spc > SP_LOCAL)
		return;
	struct sim_memcount *c = &mo->cnt[spc];
	c->req++;
	c->sec += sec;
	c->wf += wf;
	if (hits && nlines)
		c->hit += hits >= nlines ? (double)sec : (double)sec * hits / nlines;
}

/* Adds instruction pc's accesses so far to out (enum px_simt_mem_kind). */
void sim_mem_counts(const struct sim *s, uint32_t pc, struct px_simt_mem *out)
{
	const struct sim_memo *mo = s->ins[pc].memo;
	if (!mo)
		return;
	static const uint8_t kind[][3] = {
		/* SP_GLOBAL, SP_SHARED, SP_LOCAL */
		[MK_LD] = {PX_MEM_GLOBAL_LOAD, PX_MEM_SHARED_LOAD, PX_MEM_LOCAL_LOAD},
		[MK_ST] = {PX_MEM_GLOBAL_STORE, PX_MEM_SHARED_STORE, PX_MEM_LOCAL_STORE},
		[MK_ATOM] = {PX_MEM_GLOBAL_ATOMIC, PX_MEM_SHARED_ATOMIC, PX_MEM_COUNT},
		[MK_CP] = {PX_MEM_GLOBAL_LOAD, PX_MEM_COUNT, PX_MEM_COUNT},   /* (its read: sim_copy_cost) */
		[MK_LDSM] = {PX_MEM_COUNT, PX_MEM_SHARED_LOAD, PX_MEM_COUNT},
		[MK_STSM] = {PX_MEM_COUNT, PX_MEM_SHARED_STORE, PX_MEM_COUNT},
	};
	if (mo->kind >= PX_COUNTOF(kind))
		return;
	for (unsigned sp = 0; sp < 3; sp++) {
		const struct sim_memcount *c = &mo->cnt[sp];
		unsigned k = kind[mo->kind][sp];
		if (!c->req || k >= PX_MEM_COUNT)   /* (only count_mem's callers' kinds have any) */
			continue;
		out[k].requests += (double)c->req;
		out[k].sectors += (double)c->sec;
		out[k].l1_hit_sectors += c->hit;
		out[k].wavefronts += (double)c->wf;
	}
}

/* A load whose lines all hit the L1 takes the load/store unit for its
 * lines' turns of the L1's tag stage (throughput.l1_hit_lines a cycle) or
 * for its wavefronts (wf), whichever is more, not for its sectors: *occ,
 * and in *spread the cycles its last data comes after its first.
 * l1line_probe: 4-byte loads on 9, 17 and 32 lines, every lane on a bank
 * of its own, 3.0, 5.0 and 8.8 cycles a warp's load at 16 warps (32
 * sectors each: 8 by the sectors). nlines is lane_lines' count, a lane on
 * the line of the lane before left out: a line lanes come back to counts
 * again. The probe does not tell the two apart; counting each line once
 * put held-out 2's lut_loop 4 points further off at every size (-18% ->
 * -22%) and moved 9 other loops further, 1 closer. */
static inline void l1_hit_cost(const struct sim *s, uint32_t nlines, uint32_t wf, double *occ, double *spread)
{
	double t = ceil(nlines / s->l1_hit_lines);
	*occ = t > wf ? t : wf;
	if (*occ < 1)
		*occ = 1;
	*spread = *occ - 1;
}

/* The latency (*lat) and pipe cycles (*occ) of a global or local access
 * of the memory-operation kind (MK_*) of si that reads sec sectors in wf
 * wavefronts (known: some lane has a known address) from the lines (the
 * L1's and L2's state moves on). */
static inline void global_cost(struct sim *s, struct sim_warp *w, const struct sim_insn *si, unsigned kind,
                               bool known, uint32_t sec, uint32_t wf, const uint64_t *lines, const uint8_t *secs,
                               uint32_t nlines,
                               bool repeat, double *lat, double *occ, uint32_t *hits)
{
	bool is_ld = kind == MK_LD, is_st = kind == MK_ST, is_atom = kind == MK_ATOM;
	*occ = sec / s->lsu_sectors_per_clk;
	/* a load's data leaves the L1 through the same 32 banks of 4
	 * bytes as shared memory, one wavefront per conflict-free set:
	 * l1_gather_tput (32 lanes on 32 lines at one offset) takes 32
	 * cycles a load, 1858 / 4082 / 8179 cycles measured for 64 /
	 * 128 / 256 loads of 32 lines (simt_heldout.cu) */
	if (is_ld && known && wf > *occ)
		*occ = wf;
	if (*occ < 1)
		*occ = 1;
	bool cg = si->l2_only || is_atom;
	double worst = sim_touch_lines(s, lines, secs, nlines, is_st, cg, hits);
	if (is_atom)
		sim_l1_evict_lines(s, lines, nlines);
	/* a lane on the line of the lane before finds it in the caches:
	 * an L1 hit (no later than worst), or for .cg an L2 hit */
	if (repeat && !is_st && cg && s->lat_l2 > worst)
		worst = s->lat_l2;
	double spread = sec > 4 ? (sec - 4) / s->lsu_sectors_per_clk : 0;
	if (is_ld && known && worst <= s->lat_l1 && s->l1_hit_lines > 0) {
		l1_hit_cost(s, nlines, wf, occ, &spread);
		wf = 1;   /* (its wavefronts are in the spread now) */
	}
	*lat = worst + (wf - 1 > spread ? wf - 1 : spread);
	if (worst > s->lat_l1 && !is_st)
		miss_wait(s, w, lat);
}

/* a[l] = v[l] + imm for the 32 lanes; returns the OR of the a[l]; *diff:
 * the OR of (a[l] - a[0]) ^ rel[l] (memo_hit's test, in the same pass). */
static inline uint64_t lanes_plus(int64_t *restrict a, const uint64_t *restrict v, uint64_t imm,
                                  const uint64_t *restrict rel, uint64_t *diff)
{
	uint64_t any = 0, d = 0, v0 = v[0];
	for (uint32_t l = 0; l < 32; l++) {
		a[l] = (int64_t)(v[l] + imm);
		any |= v[l] + imm;
		d |= (v[l] - v0) ^ rel[l];
	}
	*diff = d;
	return any;
}

#if PX_SIMT_HW_FMA
/* lanes_plus four lanes at a time (AVX2; gcc's loop is SSE2's two). */
__attribute__((target("avx2"))) static uint64_t lanes_plus_avx2(int64_t *restrict a, const uint64_t *restrict v,
                                                                uint64_t imm, const uint64_t *restrict rel,
                                                                uint64_t *diff)
{
	__m256i vi = _mm256_set1_epi64x((long long)imm), v0 = _mm256_set1_epi64x((long long)v[0]);
	__m256i any = _mm256_setzero_si256(), d = _mm256_setzero_si256();
	for (uint32_t l = 0; l < 32; l += 4) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(v + l)), y = _mm256_add_epi64(x, vi);
		_mm256_storeu_si256((__m256i *)(a + l), y);
		any = _mm256_or_si256(any, y);
		d = _mm256_or_si256(d, _mm256_xor_si256(_mm256_sub_epi64(x, v0),
		                                        _mm256_loadu_si256((const __m256i *)(rel + l))));
	}
	__m128i any2 = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
	__m128i d2 = _mm_or_si128(_mm256_castsi256_si128(d), _mm256_extracti128_si256(d, 1));
	*diff = (uint64_t)_mm_cvtsi128_si64(d2) | (uint64_t)_mm_extract_epi64(d2, 1);
	return (uint64_t)_mm_cvtsi128_si64(any2) | (uint64_t)_mm_extract_epi64(any2, 1);
}
#endif

/* The OR over the 32 lanes of (v[l] - v[0]) ^ rel[l]: 0 when the lanes'
 * values lie as far from lane 0's as rel says (lanes_plus's *diff without
 * the sums). */
static inline uint64_t lanes_diff(const uint64_t *restrict v, const uint64_t *restrict rel)
{
	uint64_t d = 0, v0 = v[0];
	for (uint32_t l = 0; l < 32; l++)
		d |= (v[l] - v0) ^ rel[l];
	return d;
}

#if PX_SIMT_HW_FMA
__attribute__((target("avx2"))) static uint64_t lanes_diff_avx2(const uint64_t *restrict v,
                                                                const uint64_t *restrict rel)
{
	__m256i v0 = _mm256_set1_epi64x((long long)v[0]), d = _mm256_setzero_si256();
#pragma GCC unroll 8
	for (uint32_t l = 0; l < 32; l += 4)
		d = _mm256_or_si256(d, _mm256_xor_si256(_mm256_sub_epi64(_mm256_loadu_si256((const __m256i *)(v + l)), v0),
		                                        _mm256_loadu_si256((const __m256i *)(rel + l))));
	__m128i d2 = _mm_or_si128(_mm256_castsi256_si128(d), _mm256_extracti128_si256(d, 1));
	return (uint64_t)_mm_cvtsi128_si64(d2) | (uint64_t)_mm_extract_epi64(d2, 1);
}
#endif

/* Whether the 32 lanes of a word load or store (sim_memo.word) all
 * access known addresses in mo's pattern (memo_hit, from the address
 * register's row without writing the addresses: lanes_diff); *a0p: the
 * first lane's address. */
SIM_HOT bool word_hit(const struct sim *s, const struct sim_warp *w, const struct sim_insn *si,
                      const struct sim_memo *mo, uint32_t mask, uint64_t *a0p)
{
	const struct sim_opnd *ao = &si->op[mo->ao];
	if (mask != UINT32_MAX || mo->mask != UINT32_MAX || mo->spc != SP_GLOBAL || w->unk[ao->slot])
		return false;
	const uint64_t *av = &w->val[(size_t)ao->slot * 32];
	uint64_t a0 = av[0] + ao->imm;
	if ((a0 - (uint64_t)mo->a0) & 127 || !memo_near(a0))
		return false;
	*a0p = a0;
#if PX_SIMT_HW_FMA
	return !(s->hw_fma ? lanes_diff_avx2(av, mo->rel) : lanes_diff(av, mo->rel));
#else
	(void)s;
	return !lanes_diff(av, mo->rel);
#endif
}

/* exec_mem for a store of a register's 32-bit words (sim_memo.word ==
 * WORD_ST) to consecutive words, in a memo hit (word_hit): the timing of
 * global_cost for a store (the L1 and L2 take the lines; a store waits
 * for no miss slot) and gwrite's work a page at a time (the pages are
 * claimed in the same order as lane by lane). false, with nothing done,
 * for any other access. */
SIM_HOT bool store_hit(struct sim *s, struct sim_warp *w, const struct sim_insn *si, struct sim_memo *mo,
                       uint32_t mask, double *lat, double *occ)
{
	uint64_t a0;
	if (!mo->consec || !word_hit(s, w, si, mo, mask, &a0) || a0 > UINT64_MAX - 4 * 31)
		return false;
	uint64_t lines[32];
	uint8_t secs[32];
	bool repeat;
	uint32_t nlines = memo_lines(mo, a0, lines, secs, &repeat);
	*occ = mo->hit_occ;
	*lat = sim_touch_lines(s, lines, secs, nlines, true, si->l2_only, NULL) + mo->hit_lat;
	if (!si->free)
		count_mem(mo, SP_GLOBAL, mo->sec, 0, 0, nlines);
	s->gst_cost = mo->sec * s->gst_sector + mo->plines * s->gst_partial;
	uint32_t vs = si->op[mo->vo].slot, unk = w->unk[vs];
	const uint64_t *v = &w->val[(size_t)vs * 32];
	uint64_t word0 = a0 >> 2;
	for (uint32_t l = 0; l < 32;) {
		unsigned i = (unsigned)((word0 + l) % SIM_PAGE_WORDS);
		uint32_t end = l + (SIM_PAGE_WORDS - i < 32 - l ? SIM_PAGE_WORDS - i : 32 - l);
		struct sim_page *p = mem_page(&s->global, word0 + l, true);
		for (; l < end; l++, i++) {
			p->val[i] = (uint32_t)v[l];
			if (unk >> l & 1)
				p->known[i] &= (uint8_t)~0xfu;
			else
				p->known[i] |= 0xf;
		}
	}
	return true;
}

/* exec_mem for a word load (sim_memo.word == WORD_LD) whose 32 lanes all
 * read known addresses in the memo's pattern (word_hit): the same timing
 * and values without the general path's steps for every other case (a
 * warp streaming through an array). false, with nothing done, for any
 * other access. */
SIM_HOT bool load_hit(struct sim *s, struct sim_warp *w, const struct sim_insn *si, struct sim_memo *mo,
                     uint32_t mask, double *lat, double *occ)
{
	uint64_t a0;
	if (!word_hit(s, w, si, mo, mask, &a0))
		return false;
	const struct sim_opnd *ao = &si->op[mo->ao];
	const uint64_t *av = &w->val[(size_t)ao->slot * 32];
	/* global_cost for a load with the memo's sums */
	uint64_t lines[32];
	uint8_t secs[32];
	bool repeat, cg = si->l2_only;
	uint32_t nlines = memo_lines(mo, a0, lines, secs, &repeat);
	uint32_t hits = 0;
	double worst = sim_touch_lines(s, lines, secs, nlines, false, cg, &hits);
	if (!si->free)
		count_mem(mo, SP_GLOBAL, mo->sec, mo->wf, hits, nlines);
	if (repeat && cg && s->lat_l2 > worst)
		worst = s->lat_l2;
	bool l1 = worst <= s->lat_l1 && s->l1_hit_lines > 0;
	*occ = l1 ? mo->l1_occ : mo->hit_occ;
	*lat = worst + (l1 ? mo->l1_lat : mo->hit_lat);
	if (worst > s->lat_l1)
		miss_wait(s, w, lat);
	uint32_t dst = si->op[mo->dst].slot, lunk = 0;
	uint64_t *row = &w->val[(size_t)dst * 32];
	if (mo->consec && a0 <= UINT64_MAX - 4 * 31) {
		load_consecutive(s, a0 >> 2, mo->sgn, row, &lunk);
	} else {
		int64_t addrs[32];   /* (before the row is written: the address may be dst) */
		uint32_t lunks[8] = {0};
		for (uint32_t l = 0; l < 32; l++)
			addrs[l] = (int64_t)(av[l] + ao->imm);
		load_words(s, w, addrs, mask, 1, SP_GLOBAL, mo->sgn, mo, (uint64_t (*)[32])row, lunks);
		lunk = lunks[0];
	}
	w->unk[dst] = lunk;
	return true;
}

/* The addresses of the lanes of mask for an operation whose instruction
 * names its state space (shared: the generic window taken off): the lanes
 * whose address is known (the others' addrs 0). *rdiff: memo_hit's OR
 * against mo's pattern, for all 32 lanes, when it comes with the
 * addresses (*has_rdiff). hw: s->hw_fma (AVX2). */
static inline uint32_t fixed_addrs(const struct sim_warp *w, const struct sim_opnd *ao, uint32_t mask, bool shared,
                                   int64_t *addrs, const struct sim_memo *mo, uint64_t *rdiff, bool *has_rdiff,
                                   bool hw)
{
	const uint64_t *av = ao->slot != UINT32_MAX ? &w->val[(size_t)ao->slot * 32] : NULL;
	uint32_t aunk = ao->slot != UINT32_MAX ? w->unk[ao->slot] : 0;
	if (mask == UINT32_MAX && av && !aunk) {
		/* the commonest: a register known in every lane (restrict, no
		 * branch: gcc vectorises it) */
#if PX_SIMT_HW_FMA
		uint64_t any = hw ? lanes_plus_avx2(addrs, av, ao->imm, mo->rel, rdiff)
		                  : lanes_plus(addrs, av, ao->imm, mo->rel, rdiff);
#else
		(void)hw;
		uint64_t any = lanes_plus(addrs, av, ao->imm, mo->rel, rdiff);
#endif
		*has_rdiff = !(shared && any >= SIM_SHARED_WIN);   /* (the window moves some lanes only) */
		for (uint32_t l = 0; shared && any >= SIM_SHARED_WIN && l < 32; l++)
			if ((uint64_t)addrs[l] >= SIM_SHARED_WIN)   /* (none when their OR is below) */
				addrs[l] -= (int64_t)SIM_SHARED_WIN;
		return mask;
	}
	uint32_t known_mask = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = ao->imm + (av ? av[l] : 0);
		if (aunk >> l & 1) {
			addrs[l] = 0;
			continue;
		}
		if (shared && a >= SIM_SHARED_WIN)
			a -= SIM_SHARED_WIN;
		addrs[l] = (int64_t)a;
		known_mask |= 1u << l;
	}
	return known_mask;
}

/* ---- cp.async ----
 * Each lane's copy reads global memory when it issues and is written to
 * shared memory, as a store by that lane at the cp.async's line, when the
 * lane waits for its group (wait_group, wait_all): before, the lane and
 * every other thread read what was there (a read of a word no copy has
 * reached yet is uninitialized-shared, or a race where it was written),
 * so a missing wait shows. PTX ISA, cp.async.wait_group: wait_group N
 * waits for all but the N most recent groups the executing thread
 * committed; copies not committed are not waited for.
 * Timing: a copy costs what a global load of its lines costs (the LSU, the
 * L1 and L2, a miss slot); its group ends when its last copy's data has
 * arrived, and the warp's next instruction after a wait waits for the
 * groups it names (the warp's own commits stand for its lanes'). Not
 * modelled: the shared-memory write's own bandwidth. */

/* Copy c's words are in flight (cp_pend), or no longer. */
static void cp_pend(struct sim_shmem *m, const struct sim_cp *c)
{
	for (uint32_t k = 0; k < c->words; k++) {
		uint64_t wd = (c->dst >> 2) + k;
		if (wd < m->nwords) {
			m->cp_pend[wd]++;
			m->npend++;
		}
	}
}

static void cp_unpend(struct sim_shmem *m, const struct sim_cp *c)
{
	for (uint32_t k = 0; k < c->words; k++) {
		uint64_t wd = (c->dst >> 2) + k;
		if (wd < m->nwords && m->cp_pend[wd]) {
			m->cp_pend[wd]--;
			m->npend--;
		}
	}
}

/* The copies of the lanes of mask whose groups are older than the lane's
 * keep most recent (all: every copy) are written to shared memory, in
 * issue order. */
static void cp_write(struct sim *s, struct sim_warp *w, uint32_t mask, uint32_t keep, bool all)
{
	uint32_t j = 0;
	for (uint32_t i = 0; i < w->ncp; i++) {
		struct sim_cp c = w->cp[i];
		if ((mask >> c.lane & 1) && (all || w->cp_commits[c.lane] - c.group > keep)) {
			cp_unpend(&s->sh, &c);
			for (uint32_t k = 0; k < c.words; k++) {
				uint64_t v = c.val[k], wd = (c.dst >> 2) + k;
				bool unk = c.unk >> k & 1;
				if (wd < s->sh.nwords && s->sh.cp_pend[wd] && !viol_seen(s, PX_V_SHARED_RACE, c.pc)) {
					char t0[48], l0[160], l1[160];
					uint32_t t = w->id * 32 + c.lane, opc = cp_pending_to(s, wd, w->id, j, i);
					struct px_simt_violation *v2 = opc == UINT32_MAX ? NULL : sim_violation(
						s, PX_V_SHARED_RACE, c.pc, t, t,
						"thread %s's cp.async at %s lands on shared byte offset %llu while another "
						"cp.async copy to it, at %s, is in flight: it was issued before this one was "
						"waited for", sim_thread(s, t, t0), sim_where(s, c.pc, l0),
						(unsigned long long)wd * 4, sim_where(s, opc, l1));
					if (v2)
						v2->other_line = s->ins[opc].in->line;
				}
				struct sh_now now = sh_now(s, w, c.pc);
				if (!shared_word(&now, c.lane, c.dst + 4 * k, true, &v, &unk)) {
					s->cp_landing = true;
					shared_access(s, w, c.pc, c.lane, c.dst + 4 * k, 4, true, false, &v, &unk);
					s->cp_landing = false;
				}
			}
			continue;
		}
		w->cp[j++] = c;
	}
	w->ncp = j;
}

/* One lane's copy: its bytes read from global memory at a (src: src-size
 * or ignore-src, srcu unknown). */
static void cp_read(struct sim *s, struct sim_cp *c, uint64_t a, uint32_t size, uint32_t src, bool srcu)
{
	for (uint32_t k = 0; k < size / 4; k++) {
		uint32_t lo = 4 * k;
		bool u = false;
		uint64_t v = 0;
		if (srcu)
			u = true;
		else if (lo < src)
			v = gread(s, 0, a + lo, src - lo < 4 ? src - lo : 4, &u, NULL);   /* (the rest: zeros) */
		c->val[k] = (uint32_t)v;
		c->unk |= (uint8_t)((unsigned)u << k);
	}
}

/* (exec_cp's, and simt_mbar.c's for cp.async.bulk) */
void sim_copy_cost(struct sim *s, struct sim_warp *w, uint32_t pc, const int64_t *addrs, uint32_t known,
                   uint32_t size, double *lat, double *occ)
{
	uint32_t sec = 1, ideal = 1, nlines = 0;
	uint64_t lines[32] = {0};
	uint8_t secs[32] = {0};
	bool repeat = false;
	if (known) {
		px_warp_sectors(addrs, known, size, &sec, &ideal);
		nlines = lane_lines(w, SP_GLOBAL, addrs, known, lines, secs, &repeat);
	}
	/* (a cp.async.bulk reads through the L2 only, as an atomic does) */
	uint32_t hits = 0;
	bool bulk = s->ins[pc].mbar == MB_BULK;
	global_cost(s, w, &s->ins[pc], bulk ? MK_ATOM : MK_LD, known != 0, sec, 1, lines, secs, nlines, repeat, lat, occ,
	            &hits);
	/* (ncu counts a cp.async's LDGSTS with the global loads) */
	if (known && !bulk && s->ins[pc].memo)
		count_mem(s->ins[pc].memo, SP_GLOBAL, sec, 1, hits, nlines);
}

static void exec_cp(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat, double *occ)
{
	const struct sim_insn *si = &s->ins[pc];
	const struct sim_memo *mo = si->memo;
	if (mo->kind == MK_CP_COMMIT || (mo->kind == MK_CP_WAIT && mo->cp_all)) {
		for (uint32_t m = mask; m; m &= m - 1)
			w->cp_commits[__builtin_ctz(m)]++;
		w->cp_end[w->cp_groups % SIM_CP_RING] = w->cp_open_end;
		w->cp_groups++;
		w->cp_open_end = 0;
	}
	if (mo->kind == MK_CP_WAIT) {
		cp_write(s, w, mask, mo->cp_n, false);
		uint64_t t = 0;
		uint32_t g0 = w->cp_groups > SIM_CP_RING ? w->cp_groups - SIM_CP_RING : 0;
		for (uint32_t g = g0; g < w->cp_groups && w->cp_groups - g > mo->cp_n; g++)
			t = w->cp_end[g % SIM_CP_RING] > t ? w->cp_end[g % SIM_CP_RING] : t;
		sim_hold(w, t, PX_STALL_MEMORY);
		return;
	}
	if (mo->kind != MK_CP)
		return;
	const struct sim_opnd *dop = &si->op[0], *sop = &si->op[1];
	uint32_t size = mo->cp_size, known = 0;
	int64_t src[32];
	bool skipped = false;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		bool du = dop->slot != UINT32_MAX && (w->unk[dop->slot] >> l & 1);
		bool su = sop->slot != UINT32_MAX && (w->unk[sop->slot] >> l & 1);
		uint64_t d = dop->imm + (dop->slot != UINT32_MAX ? w->val[(size_t)dop->slot * 32 + l] : 0);
		uint64_t a = sop->imm + (sop->slot != UINT32_MAX ? w->val[(size_t)sop->slot * 32 + l] : 0);
		if (du) {
			skipped = true;
			continue;
		}
		resolve_space(s, PX_SPACE_SHARED, &d);
		uint32_t n = size;
		bool nu = false;
		if (mo->cp_src >= 0) {
			uint64_t x = rd(s, w, &si->op[mo->cp_src], l, &nu);
			n = mo->cp_ignore ? (x & 1 ? 0 : size) : x < size ? (uint32_t)x : size;
		}
		if (w->ncp >= SIM_CP_MAX) {
			/* copies never waited for: the older half is dropped, never
			 * written (what the kernel's memory holds is a guess since) */
			for (uint32_t k = 0; k < SIM_CP_MAX / 2; k++)
				cp_unpend(&s->sh, &w->cp[k]);
			memmove(w->cp, w->cp + SIM_CP_MAX / 2, (w->ncp - SIM_CP_MAX / 2) * sizeof *w->cp);
			w->ncp -= SIM_CP_MAX / 2;
			sim_guess(s, pc);
			sim_note(s, pc, "more than %u cp.async copies of one warp are not waited for: the oldest are "
			         "not written to shared memory", SIM_CP_MAX);
		}
		struct sim_cp *c = PX_VEC_PUSH(w->cp, w->ncp, w->capcp);
		*c = (struct sim_cp){.pc = pc, .group = w->cp_commits[l], .lane = (uint8_t)l,
		                     .words = (uint8_t)(size / 4), .dst = d};
		cp_read(s, c, a, size, n, su || nu);
		cp_pend(&s->sh, c);
		if (!su) {
			src[l] = (int64_t)a;
			known |= 1u << l;
		}
	}
	if (skipped)
		sim_guess(s, pc);   /* a skipped store: memory is no longer what the kernel wrote */
	if (known != mask)
		sim_note(s, pc, "address depends on an unknown value (memory contents or a parameter without "
		         "--param): the access is skipped for those lanes, its results are unknown");
	sim_copy_cost(s, w, pc, src, known, size, lat, occ);
	uint64_t end = s->cycle + (uint64_t)(*lat + 0.5);
	if (end > w->cp_open_end)
		w->cp_open_end = end;
	*lat = s->lat[P_ALU];   /* no register waits for it */
}

void sim_cp_land_all(struct sim *s, struct sim_warp *w, uint32_t mask)
{
	cp_write(s, w, mask, 0, true);
}

uint64_t sim_lane_val(const struct sim *s, const struct sim_warp *w, const struct sim_opnd *o, uint32_t lane,
                      bool *unk)
{
	return rd(s, w, o, lane, unk);
}

void sim_lane_write(struct sim_warp *w, uint32_t slot, uint32_t lane, uint64_t v, bool unk)
{
	wr(w, slot, lane, v, unk);
}

bool sim_lane_shared(const struct sim *s, const struct sim_warp *w, const struct sim_opnd *o, unsigned space,
                     uint32_t lane, uint64_t *off)
{
	if (o->kind != PX_OPND_ADDR || (o->slot != UINT32_MAX && (w->unk[o->slot] >> lane & 1)))
		return false;
	uint64_t a = o->imm + (o->slot != UINT32_MAX ? w->val[(size_t)o->slot * 32 + lane] : 0);
	if (resolve_space(s, space, &a) != SP_SHARED)
		return false;
	*off = a;
	return true;
}

bool sim_shared_access(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t lane, uint64_t off, unsigned n,
                       bool write, bool atomic, uint64_t *v, bool *unk)
{
	return shared_access(s, w, pc, lane, off, n, write, atomic, v, unk);
}

uint64_t sim_global_read(struct sim *s, uint64_t addr, unsigned n, bool *unk)
{
	return gread(s, 0, addr, n, unk, NULL);
}

/* ---- ldmatrix / stmatrix (decode_matrix) ----
 * Each row is read or written, as 16 bytes of shared memory, by the lane
 * that names it; a row named by an inactive lane or at an unknown address
 * is skipped (unknown elements; for stmatrix, the memory a guess since).
 * Timing: a shared load or store of the rows' wavefronts (16 bytes a lane).
 * The element of matrix m, row rr, column c: half c % 2 of word c / 2 of
 * row rr. */
static void exec_matrix(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat, double *occ)
{
	const struct sim_insn *si = &s->ins[pc];
	const struct sim_memo *mo = si->memo;
	bool st = mo->kind == MK_STSM;
	unsigned num = mo->nvec;
	const struct sim_opnd *ao = &si->op[mo->ao], *ro = &si->op[st ? mo->vo : mo->dst];
	uint32_t used = num == 4 ? UINT32_MAX : (1u << (8 * num)) - 1, known = 0;
	int64_t addrs[32] = {0};
	for (uint32_t m = used & mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		if (ao->slot != UINT32_MAX && (w->unk[ao->slot] >> l & 1))
			continue;
		uint64_t a = ao->imm + (ao->slot != UINT32_MAX ? w->val[(size_t)ao->slot * 32 + l] : 0);
		if (resolve_space(s, si->in->space, &a) != SP_SHARED)
			continue;
		addrs[l] = (int64_t)a;
		known |= 1u << l;
	}
	if (known != used) {
		sim_note(s, pc, "a row address is unknown, not in shared memory or named by an inactive lane: "
		         "those rows are skipped, their elements unknown");
		if (st)
			sim_guess(s, pc);
	}
	uint32_t rw[4][8][4];
	uint8_t ru[4][8];   /* per row: its unknown words */
	struct sh_now now = sh_now(s, w, pc);
	for (unsigned mx = 0; mx < num; mx++) {
		uint32_t slot = ro->kind == PX_OPND_VEC ? ro->el[mx] : ro->slot;
		for (unsigned r = 0; r < 8; r++) {
			ru[mx][r] = 0;
			for (unsigned k = 0; k < 4; k++) {
				uint64_t v = 0;
				bool u = !(known >> (mx * 8 + r) & 1);
				if (st) {
					/* the word's two elements from the lanes that hold them */
					v = 0;
					for (unsigned h = 0; h < 2; h++) {
						unsigned c = 2 * k + h, lane = mo->trans ? c * 4 + r / 2 : r * 4 + k;
						unsigned half = mo->trans ? r % 2 : h;
						bool lu = slot == UINT32_MAX || !(mask >> lane & 1) || (w->unk[slot] >> lane & 1);
						uint64_t x = slot == UINT32_MAX ? 0 : w->val[(size_t)slot * 32 + lane] >> (16 * half) & 0xffff;
						v |= x << (16 * h);
						u |= lu;
					}
					uint64_t ea = (uint64_t)addrs[mx * 8 + r] + 4 * k;
					if ((known >> (mx * 8 + r) & 1) && !shared_word(&now, mx * 8 + r, ea, true, &v, &u))
						shared_access(s, w, pc, mx * 8 + r, ea, 4, true, false, &v, &u);
				} else if (!u) {
					/* (shared_word: the common case's checks, else shared_access's) */
					uint64_t ea = (uint64_t)addrs[mx * 8 + r] + 4 * k;
					if (!shared_word(&now, mx * 8 + r, ea, false, &v, &u))
						shared_access(s, w, pc, mx * 8 + r, ea, 4, false, false, &v, &u);
				}
				rw[mx][r][k] = (uint32_t)v;
				ru[mx][r] |= (uint8_t)((unsigned)u << k);
			}
		}
	}
	for (unsigned mx = 0; mx < num && !st; mx++) {
		uint32_t slot = ro->kind == PX_OPND_VEC ? ro->el[mx] : ro->slot;
		for (uint32_t m = mask; m && slot != UINT32_MAX; m &= m - 1) {
			uint32_t t = (uint32_t)__builtin_ctz(m);
			uint64_t v;
			bool u;
			if (!mo->trans) {
				v = rw[mx][t / 4][t % 4];
				u = ru[mx][t / 4] >> (t % 4) & 1;
			} else {
				unsigned c = t / 4, r0 = 2 * (t % 4);
				v = (rw[mx][r0][c / 2] >> (16 * (c % 2)) & 0xffff) |
				    (uint64_t)(rw[mx][r0 + 1][c / 2] >> (16 * (c % 2)) & 0xffff) << 16;
				u = (ru[mx][r0] >> (c / 2) & 1) || (ru[mx][r0 + 1] >> (c / 2) & 1);
			}
			wr(w, slot, t, v, u);
		}
	}
	uint32_t wf = 1, ideal = 1;
	if (known)
		px_warp_wavefronts(addrs, known, 16, &wf, &ideal);
	*occ = wf ? wf : 1;
	if (known)
		count_mem(si->memo, SP_SHARED, 0, wf ? wf : 1, 0, 0);
	*lat = s->lat[P_SHARED] + (wf > 1 ? wf - 1 : 0);
}

/* A small table of 64-bit keys (4-byte words, 32-byte sectors) seen by
 * the lanes of one instruction, by hash, each with a count. */
struct keytab {
	int64_t key[64];
	uint8_t n[64];   /* 0: free */
};

static uint32_t keytab_slot(struct keytab *t, int64_t key)
{
	uint32_t h = (uint32_t)((uint64_t)key * 0x9e3779b97f4a7c15ull >> 58);
	while (t->n[h] && t->key[h] != key)
		h = (h + 1) & 63;
	t->key[h] = key;
	return h;
}

/* The most lanes of mask whose addrs name one 4-byte word. */
static uint32_t lanes_per_word(const int64_t *addrs, uint32_t mask)
{
	struct keytab words;
	memset(words.n, 0, sizeof words.n);
	uint32_t k = 1;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t h = keytab_slot(&words, addrs[__builtin_ctz(m)] >> 2);
		if (++words.n[h] > k)
			k = words.n[h];
	}
	return k;
}

/* Warp w's next instruction waits for fence si: fence_probe (H200, the
 * H100's SM) measured membar.cta 12 cycles an iteration at one warp, and
 * membar.gl (MEMBAR.SC.GPU) 269 to 280 at 1 to 16 warps alone and 421
 * after a global store: it waits for the store's acknowledgement first
 * (latency.store_ack after the store, fitted). */
static void fence_wait(struct sim *s, struct sim_warp *w, const struct sim_insn *si)
{
	uint64_t t = s->cycle;
	double f = s->fence_cta;
	if (si->fence == 2) {
		f = s->fence_gl;
		uint64_t ack = w->gst_at ? w->gst_at - 1 + (uint64_t)(s->store_ack + 0.5) : 0;
		if (ack > t)
			t = ack;
	}
	if (f > 0)
		sim_hold(w, t + (uint64_t)(f + 0.5), PX_STALL_MEMORY);
}

/* A shared atom.add.f32 is a loop in SASS (LDS, FADD, ATOMS.CAST.SPIN,
 * and a branch back for the lanes whose swap failed), each round
 * latency.shared_atomic_f32_round; so is a .min or .max of 64-bit
 * integers (sim_insn.cas_loop), timed alike. In a round one lane a bank gets
 * through: the lanes of the warp on one bank (32 banks of 4-byte words,
 * the Programming Guide's shared memory section for compute capability
 * 5.x on), on one word or not, go a round apart. A lane whose word
 * another warp has just swapped gets through latency.
 * shared_atomic_f32_gap after that swap at the soonest (the block's words'
 * last swaps: f32_swapped); the warp is held until its last lane is
 * through. casf_probe (H100): a warp whose lanes are each on a bank of
 * their own 103 cycles an iteration, lanes hashed to 64 or to 1024 words
 * (3.6 on the busiest bank either way) 423 and 437; lane l of every warp
 * on word l 103, 296 and 737 cycles at 1, 4 and 16 warps. atoms2_probe's
 * addf_k32 (32 lanes on a word, four adds an iteration): 12,151 cycles an
 * iteration at one and four warps, 12,585 at 16. */
static void shared_cas_loop(struct sim *s, struct sim_warp *w, const int64_t *addrs, uint32_t mask, double *lat)
{
	double r = s->f32_round, gap = s->f32_gap;
	double t0 = (double)s->cycle, end = t0 + r;
	uint8_t nbank[32] = {0};
	if (!s->f32_swapped && s->sh_words)
		s->f32_swapped = xcalloc(s->sh_words, sizeof *s->f32_swapped);
	for (uint32_t m = mask; m && s->f32_swapped; m &= m - 1) {
		uint64_t wd = (uint64_t)addrs[__builtin_ctz(m)] >> 2;
		if (wd >= s->sh_words)
			continue;
		double go = t0 + r * nbank[wd & 31]++;   /* (its round in the warp) */
		double *at = &s->f32_swapped[wd];   /* (0: none yet) */
		if (*at > go)
			go = *at;
		*at = go + gap;
		if (go + r > end)
			end = go + r;
	}
	double c = end - t0;
	if (c > *lat)
		*lat = c;
	sim_hold(w, s->cycle + (uint64_t)(c + 0.5), PX_STALL_MIO);
}

/* The L2 atomic unit's turns for an atomic whose known lanes (mask) name
 * addrs: one for the instruction and, line by line (128 bytes), the most
 * lanes on one of its words (k) for each of the 32-byte sectors it
 * touches (n) and once more less one, k (n + 1) - 1, or k for a line whose
 * lanes all name one word. red_probe (H100), cycles a warp's RED at 16
 * warps, lane l on word (l / K) S: K = 1, 2, 4, 8, 16 on packed words (4,
 * 2, 1, 1, 1 sectors of one line) 5, 6, 8, 16, 32, all as charged; K = 32
 * (one word) 32 (33 charged); a word a sector (S = 8) 40 for K = 1, 2, 4
 * (8, 4, 2 lines of 4 sectors: 33, 37, 39 charged). agg_probe's
 * gl_all_red, the leader's one lane, 2; held-out 15's bloom_loop, 32
 * lanes on lines of their own, about 1 a line; held-out 11's ghist_loop
 * (256 bins) 31. Each turn is throughput.global_atomic_lane with a result,
 * global_red_lane without. */
static uint32_t atomic_turns(const int64_t *addrs, uint32_t mask)
{
	struct keytab words, lines;   /* (lines.n: the line's index below, + 1) */
	memset(words.n, 0, sizeof words.n);
	memset(lines.n, 0, sizeof lines.n);
	uint8_t k[32] = {0}, sectors[32] = {0}, nwords[32] = {0};
	uint32_t nl = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		int64_t a = addrs[__builtin_ctz(m)];
		uint32_t h = keytab_slot(&lines, a >> 7);
		if (!lines.n[h])
			lines.n[h] = (uint8_t)++nl;
		uint32_t li = lines.n[h] - 1u;
		uint32_t g = keytab_slot(&words, a >> 2);
		uint8_t c = ++words.n[g];
		nwords[li] += c == 1;
		if (c > k[li])
			k[li] = c;
		sectors[li] |= (uint8_t)(1u << ((a >> 5) & 3));
	}
	uint32_t turns = 1;
	for (uint32_t li = 0; li < nl; li++)
		turns += nwords[li] == 1 ? k[li] : k[li] * ((uint32_t)__builtin_popcount(sectors[li]) + 1) - 1;
	return turns;
}

/* A global atomic's result: the L2's atomic unit takes it later than an L2
 * load's data (latency.global_atomic), and the unit, which serves one
 * warp-instruction after another, takes its lanes line by line
 * (atomic_turns), each turn throughput.global_atomic_lane with a result
 * and global_red_lane without (ptxas's RED). gatoms_probe (H100): an add whose result the next
 * address waits for 531 cycles a step at 1 to 16 warps; 32 lanes on one
 * word, each warp on a line of its own or every warp on one word, 64
 * cycles a warp at 16 warps (CAS, add, exchange), 32 for an add whose
 * result is not read; 32 lanes on the 4 sectors of a line, 5 cycles a
 * warp's RED; held-out 11's global histogram (256 bins, about 20 sectors a
 * warp's RED) 31. The LSU takes no other access of the SM meanwhile (the
 * unit's queue backs up into it: four independent exchanges by 32 lanes
 * on a word an iteration, 256 cycles at 4 warps). */
static void global_atomic(struct sim *s, const struct sim_insn *si, const int64_t *addrs, uint32_t mask,
                          double *lat, double *occ)
{
	if (s->lat_gatom > s->lat_l2)
		*lat += s->lat_gatom - s->lat_l2;
	double f = si->red ? s->gred_lane : s->gatom_lane;
	if (f <= 0)
		return;
	uint64_t start = s->gatom_free > s->cycle ? s->gatom_free : s->cycle;
	uint64_t busy = (uint64_t)(f * atomic_turns(addrs, mask) + 0.5);
	s->gatom_free = start + busy;
	*lat += (double)(start - s->cycle + busy);
	if ((double)busy > *occ)
		*occ = (double)busy;
}

/* The shared unit's cycles past its wavefronts for atomic si, whose known
 * lanes (mask) name one word k at the most (lanes_per_word): lanes on one
 * word go one at a time, each past the first costing throughput.shared_atomic*_lane by the kind
 * of operation (enum sim_atom_class). atoms_probe and atoms2_probe (H100)
 * measured 32 lanes on one word holding the unit 32 cycles for an
 * exchange, a max or an add (ATOMS.EXCH, .MAX, .ADD), 64 for a CAS: 1 and
 * 2 a lane. An add of 1 in every lane whose result nothing reads is
 * ATOMS.POPC.INC.32 RZ, the lanes' count added in one go: agg_probe's
 * sh_all_red, 32 lanes on one word, 7.0 and 16.1 cycles an iteration at 1
 * and 16 warps. (atoms_probe's 8.7 cycles a warp for adds of 1, once read
 * as 0.25 a lane, are three of those and an ATOMS.ADD whose result is read,
 * 32 cycles: NVVM drops the results of three in four of its chain.) */
static double atom_serial(const struct sim *s, const struct sim_warp *w, const struct sim_insn *si,
                          const struct sim_opnd *vo, uint32_t mask, uint32_t k)
{
	if (k == 1)
		return 0;
	unsigned c = si->mw & MW(CAS) ? SIM_ATOM_CAS : SIM_ATOM_OTHER;
	if ((si->mw & MW(ADD)) && vo && si->red) {
		bool inc = true;   /* (ATOMS.POPC.INC RZ) */
		for (uint32_t m = mask; m && inc; m &= m - 1) {
			bool unk = false;
			inc = rd(s, w, vo, (uint32_t)__builtin_ctz(m), &unk) == 1 && !unk;
		}
		if (inc)
			return 0;
	}
	return s->atom_lane[c] * (k - 1);
}

/* ld/st/atom/red for the lanes in mask. Fills *lat and *occ. */
__attribute__((noinline)) static void exec_mem(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat,
                     double *occ)
{
	const struct sim_insn *si = &s->ins[pc];
	const struct px_insn *in = si->in;
	struct sim_memo *mo = si->memo;
	bool is_ld = mo->kind == MK_LD, is_st = mo->kind == MK_ST, is_atom = mo->kind == MK_ATOM;
	if (mo->kind == MK_LDSM || mo->kind == MK_STSM) {
		exec_matrix(s, w, pc, mask, lat, occ);
		return;
	}
	if (mo->kind >= MK_CP) {
		exec_cp(s, w, pc, mask, lat, occ);
		return;
	}
	if (mo->kind == MK_OTHER) {
		for (uint32_t d = 0; d < si->ndefs; d++)
			w->unk[si->defs[d]] |= mask;
		sim_note(s, pc, "'%.*s%.*s' is not simulated: its results are unknown", (int)in->opname.n, in->opname.p,
		         (int)in->modtext.n, in->modtext.p);
		/* memory it writes is no longer what the kernel wrote: the
		 * checks that follow are guesses */
		if (si->flags & (PX_OPF_STORE | PX_OPF_ATOMIC))
			sim_guess(s, pc);
		return;
	}
	if (mo->ao < 0)
		return;
	unsigned t = mo->type, eb = mo->eb, nvec = mo->nvec;
	const struct sim_opnd *ao = &si->op[mo->ao];
	const struct sim_opnd *dst = mo->dst >= 0 ? &si->op[mo->dst] : NULL;
	const struct sim_opnd *vo = mo->vo >= 0 ? &si->op[mo->vo] : NULL;
	const struct sim_opnd *vo2 = mo->vo2 >= 0 ? &si->op[mo->vo2] : NULL;
	int64_t addrs[32];
	uint64_t rdiff = 0;
	bool has_rdiff = false;
	uint32_t known_mask = 0;
	int spc = SP_OTHER, fixed = mo->fixed;
	if (fixed != SP_OTHER) {
		known_mask = fixed_addrs(w, ao, mask, fixed == SP_SHARED, addrs, mo, &rdiff, &has_rdiff, s->hw_fma);
		if (known_mask)
			spc = fixed;
	}
	for (uint32_t m = fixed != SP_OTHER ? 0 : mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		bool unk = false;
		uint64_t a = ao->imm;
		if (ao->slot != UINT32_MAX) {
			if (w->unk[ao->slot] >> l & 1)
				unk = true;
			a += w->val[(size_t)ao->slot * 32 + l];
		}
		if (unk) {
			addrs[l] = 0;
			continue;
		}
		spc = resolve_space(s, in->space, &a);
		addrs[l] = (int64_t)a;
		known_mask |= 1u << l;
	}
	if (known_mask != mask && (is_st || is_atom))
		sim_guess(s, pc);   /* a skipped store: memory is no longer what the kernel wrote */
	if (known_mask != mask)
		sim_note(s, pc, "address depends on an unknown value (memory contents or a parameter without "
		         "--param): the access is skipped for those lanes, its results are unknown");
	/* timing: of an atomic ptxas aggregates (sim_insn.agg), the leader's
	 * one access (the address is the lanes'), and the aggregation's own
	 * latency after; the values below stay the lanes' in lane order, which
	 * is what the leader's sum and the lanes' ranks give. tk: the lanes
	 * the memory sees; the access memo is kept for the lanes' own */
	uint32_t bytes = eb * nvec, wide = bytes * (si->vecw ? si->vecw : 1);
	bool agg = si->agg && known_mask == mask && (si->agg == AGG_UNIFORM || mask == 0xffffffffu);
	uint32_t tk = agg ? known_mask & -known_mask : known_mask;
	bool memo = !agg && known_mask == mask;
	bool hit = memo && memo_hit(mo, spc, addrs, mask, has_rdiff ? &rdiff : NULL);
	if (spc == SP_SHARED) {
		uint32_t wf = 1, ideal = 1;
		if (hit) {
			wf = mo->wf;
		} else if (known_mask) {
			px_warp_wavefronts(addrs, tk, wide, &wf, &ideal);
			if (is_ld && wide > 4 && wf > 1 && known_mask == mask)
				wf = packed_wavefronts(addrs, mask, wf);
			if (memo)
				memo_store(mo, spc, addrs, mask, 0, wf, NULL, NULL, 0, false);
		}
		*occ = wf ? wf : 1;
		if (known_mask && !si->free)   /* (a vector load's members: the leader's access) */
			count_mem(mo, SP_SHARED, 0, wf ? wf : 1, 0, 0);
		uint32_t k = is_atom && known_mask ? lanes_per_word(addrs, tk) : 1;
		if (is_atom && known_mask)
			*occ += atom_serial(s, w, si, vo, tk, k);
		*lat = s->lat[P_SHARED] + (*occ - 1);
		if (is_atom && known_mask && si->cas_loop && s->f32_round > 0)
			shared_cas_loop(s, w, addrs, tk, lat);
	} else if (spc == SP_GLOBAL || spc == SP_LOCAL) {
		uint32_t sec = 1, ideal = 1, wf = 1, nlines = 0, plines = 0;
		uint64_t lines[32];
		uint8_t secs[32];
		bool repeat = false;
		int64_t phys[32];
		const int64_t *ta = spc == SP_LOCAL && known_mask ? local_phys(w, addrs, tk, bytes, phys) : addrs;
		if (hit) {
			sec = mo->sec;
			wf = mo->wf;
			plines = mo->plines;
			nlines = memo_lines(mo, (uint64_t)addrs[__builtin_ctz(mask)], lines, secs, &repeat);
		} else if (known_mask) {
			px_warp_sectors(ta, tk, bytes, &sec, &ideal);
			if (is_ld)
				px_warp_wavefronts(ta, tk, wide, &wf, &ideal);
			nlines = lane_lines(w, ta == phys ? SP_GLOBAL : spc, ta, tk, lines, secs, &repeat);
			plines = is_st ? partial_lines(ta, tk, bytes) : 0;
			if (memo && spc == SP_GLOBAL) {
				memo_store(mo, spc, addrs, mask, sec, wf, lines, secs, nlines, repeat);
				mo->plines = plines;
			}
			if (memo && spc == SP_GLOBAL && (is_ld || is_st)) {
				/* (global_cost's sums, for load_hit and store_hit) */
				double o = sec / s->lsu_sectors_per_clk;
				if (is_ld && wf > o)
					o = wf;
				mo->hit_occ = o < 1 ? 1 : o;
				double spread = sec > 4 ? (sec - 4) / s->lsu_sectors_per_clk : 0;
				mo->hit_lat = wf - 1 > spread ? wf - 1 : spread;
				if (s->l1_hit_lines > 0)
					l1_hit_cost(s, nlines, wf, &mo->l1_occ, &mo->l1_lat);
			}
		}
		uint32_t hits = 0;
		global_cost(s, w, si, mo->kind, known_mask != 0, sec, wf, lines, secs, nlines, repeat, lat, occ, &hits);
		if (known_mask && !si->free)
			count_mem(mo, spc, sec, is_ld ? wf : 0, hits, nlines);
		/* a store's turn of the SM's write path to L2 (commit_timing): a
		 * local one's too, the L1 writing through for local memory as for
		 * global (local_probe under ncu: the L2 takes every sector of its
		 * STLs; lc_st_tput/512, 136 warp-stores of 4 sectors an iteration,
		 * 543 cycles), and with the same turn for a line written in part
		 * (local2_probe at 16 warps: a store of the even lanes' words, 4
		 * sectors in part, 5.0 cycles; lane 0's word alone 2.0; lanes 0
		 * to 15's, 2 whole sectors, 2.0). Held-out 18's isort8_loop/512
		 * is 24% slow with the turns (4% without): ncu counts 4,029 L2
		 * write sectors an iteration for its 3,972 local and 1,024 global
		 * store sectors, which the model does not merge */
		if (is_st && known_mask)
			s->gst_cost = sec * s->gst_sector + plines * s->gst_partial;
		if (is_atom && known_mask)
			global_atomic(s, si, addrs, tk, lat, occ);
	} else {
		*lat = s->lat[P_ALU];
		*occ = 1;
	}
	if (agg) {
		*lat += s->agg_lat[si->agg];
		/* (a shared one's result goes to the lanes by a SHFL.IDX, a turn
		 * of the MIO as its ATOMS is: agg_probe's sh_all/512, 16 warps'
		 * adds of 1 to one word, 36.0 cycles an iteration, 21.0 without,
		 * 32.8 with) */
		if (si->agg == AGG_UNIFORM && spc == SP_SHARED)
			*occ += 1;
		/* (the scan's SHFL of the result waits for it, and the warp's
		 * next instructions behind: its SASS runs in order) */
		if (si->agg == AGG_SCAN)
			sim_hold(w, s->cycle + (uint64_t)(*lat + 0.5), spc == SP_SHARED ? PX_STALL_MIO : PX_STALL_MEMORY);
		if (si->agg_elect && s->agg_elect > 0)
			sim_hold(w, s->cycle + (uint64_t)(s->agg_elect + 0.5), PX_STALL_DEPENDENCY);
	}
	/* values, lane by lane in lane order (atomics serialise that way); a
	 * load's results are written once at the end (a load reads no register
	 * in this loop) */
	uint64_t lbuf[8][32], (*lv)[32] = lbuf;
	uint32_t lunk[8] = {0};
	bool defer = is_ld && nvec <= 8, sgn = mo->sgn;
	struct page_cache cache = {0};   /* loads only: nothing is inserted meanwhile */
	struct sh_now now = sh_now(s, w, pc);
	/* loads of 32-bit words at known addresses: loops of their own */
	bool words = defer && (spc == SP_GLOBAL || spc == SP_LOCAL || spc == SP_SHARED) && eb == 4 &&
	             known_mask == mask;
	/* one word into every lane of a register: straight into its row (the
	 * addresses are read already; commit then has nothing to copy) */
	if (words && nvec == 1 && mask == UINT32_MAX && dst && dst->kind != PX_OPND_VEC && dst->slot != UINT32_MAX)
		lv = (uint64_t (*)[32])&w->val[(size_t)dst->slot * 32];
	if (words && spc == SP_SHARED)
		load_shared_words(s, w, pc, addrs, mask, nvec, sgn, hit ? mo : NULL, lv, lunk);
	else if (words)
		load_words(s, w, addrs, mask, nvec, spc, sgn, hit ? mo : NULL, lv, lunk);
	/* a register stored to shared 32-bit words at known addresses: the
	 * loop's work below without its dispatch per lane */
	bool sh_store = is_st && spc == SP_SHARED && eb == 4 && nvec == 1 && known_mask == mask && vo &&
	                vo->kind == PX_OPND_REG;
	if (sh_store)
		store_shared_words(s, w, pc, addrs, mask, vo);
	for (uint32_t m = words || sh_store ? 0 : mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		bool aunk = !(known_mask >> l & 1);
		uint64_t a = (uint64_t)addrs[l];
		uint64_t key_hi = spc == SP_LOCAL ? ((uint64_t)(w->id * 32 + l) << 44) | (1ull << 62) : 0;
		for (unsigned e = 0; e < nvec; e++) {
			uint64_t ea = a + (uint64_t)e * eb;
			uint32_t dslot = UINT32_MAX, vslot_unk = 0;
			(void)vslot_unk;
			if (dst)
				dslot = dst->kind == PX_OPND_VEC ? dst->el[e] : dst->slot;
			if (is_ld) {
				bool unk = aunk;
				uint64_t v = 0;
				if (!aunk) {
					if (spc == SP_SHARED) {
						if (eb != 4 || !shared_word(&now, l, ea, false, &v, &unk))
							shared_access(s, w, pc, l, ea, eb, false, false, &v, &unk);
					} else if (spc == SP_PARAM) {
						v = param_read(s, ea, eb, &unk);
					} else {
						v = gread(s, key_hi, ea, eb, &unk, &cache);
					}
				}
				if (!unk && sgn)
					v = trunc_to((uint64_t)sext(v, eb * 8), 64);
				if (defer) {
					lv[e][l] = v;
					lunk[e] |= (uint32_t)unk << l;
				} else {
					wr(w, dslot, l, v, unk);
				}
				continue;
			}
			/* store value / atomic operands */
			const struct sim_opnd *src = vo;
			bool unk = false;
			uint64_t v = 0;
			if (src && src->kind == PX_OPND_VEC) {
				uint32_t sl = src->el[e];
				if (sl == UINT32_MAX) {
					v = 0;
				} else {
					v = w->val[(size_t)sl * 32 + l];
					unk = w->unk[sl] >> l & 1;
				}
			} else if (src) {
				v = rd(s, w, src, l, &unk);
			}
			if (aunk)
				continue;
			if (is_st) {
				if (spc == SP_SHARED) {
					if (eb != 4 || !shared_word(&now, l, ea, true, &v, &unk))
						shared_access(s, w, pc, l, ea, eb, true, false, &v, &unk);
				}
				else if (spc != SP_PARAM)
					gwrite(s, key_hi, ea, eb, v, unk);
				continue;
			}
			/* atomics */
			uint64_t c = 0;
			if (vo2)
				c = rd(s, w, vo2, l, &unk);
			uint64_t old = 0;
			bool ounk = false;
			if (spc == SP_SHARED) {
				if (!shared_access(s, w, pc, l, ea, eb, false, true, &old, &ounk))
					continue;
			} else {
				old = gread(s, key_hi, ea, eb, &ounk, NULL);
			}
			bool nunk = unk || ounk;
			uint64_t nv = atom_apply(si, t, old, v, c, spc != SP_SHARED, &nunk);
			if (spc == SP_SHARED)
				shared_access(s, w, pc, l, ea, eb, true, true, &nv, &nunk);
			else
				gwrite(s, key_hi, ea, eb, nv, nunk);
			if (dst && in->op == PX_OP_ATOM)
				wr(w, dslot, l, old, ounk);
		}
	}
	if (lv != lbuf)
		w->unk[dst->slot] = lunk[0];   /* (commit's, mask all lanes) */
	else if (defer && dst)
		for (unsigned e = 0; e < nvec; e++)
			commit(w, dst->kind == PX_OPND_VEC ? dst->el[e] : dst->slot, lv[e], mask, lunk[e]);
}

/* A word load or store (sim_memo.word): load_hit's or store_hit's short
 * path where it applies, else exec_mem (a function of its own, so that
 * sim_exec stays small for the rest, and other memory operations go to
 * exec_mem straight). */
__attribute__((noinline)) static void exec_word(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask,
                                                double *lat, double *occ)
{
	const struct sim_insn *si = &s->ins[pc];
	struct sim_memo *mo = si->memo;
	if (!(mo->word == WORD_LD ? load_hit(s, w, si, mo, mask, lat, occ) : store_hit(s, w, si, mo, mask, lat, occ)))
		exec_mem(s, w, pc, mask, lat, occ);
}

/* ---- warp-wide operations ---- */
uint32_t sim_member_mask(struct sim *s, struct sim_warp *w, const struct sim_opnd *o, uint32_t mask, uint32_t pc)
{
	uint32_t mm = 0xffffffff;
	bool unk = false;
	if (o) {
		uint32_t l = mask ? (uint32_t)__builtin_ctz(mask) : 0;
		mm = (uint32_t)rd(s, w, o, l, &unk);
	}
	if (unk)
		return mask;
	uint32_t live = w->exists & ~w->exited;
	char t0[48], t1[48];
	uint32_t first = w->id * 32 + (mask ? (uint32_t)__builtin_ctz(mask) : 0);
	if (mask & ~mm) {
		uint32_t l = (uint32_t)__builtin_ctz(mask & ~mm);
		sim_violation(s, PX_V_SHUFFLE_MASK, pc, w->id * 32 + l, w->id * 32 + l,
		              "thread %s (lane %u) executes this instruction but the membermask 0x%08x does not "
		              "include it", sim_thread(s, w->id * 32 + l, t0), l, mm);
	} else if (mm & ~live & w->exists) {
		uint32_t l = (uint32_t)__builtin_ctz(mm & ~live & w->exists);
		sim_violation(s, PX_V_SHUFFLE_MASK, pc, first, w->id * 32 + l,
		              "membermask 0x%08x names thread %s (lane %u), which has exited; thread %s executes "
		              "it (executing lanes 0x%08x)", mm, sim_thread(s, w->id * 32 + l, t1), l,
		              sim_thread(s, first, t0), mask);
	} else if (mm & ~mask & w->exists) {
		uint32_t l = (uint32_t)__builtin_ctz(mm & ~mask & w->exists);
		sim_violation(s, PX_V_SHUFFLE_MASK, pc, first, w->id * 32 + l,
		              "membermask 0x%08x names thread %s (lane %u), which does not execute this instruction; "
		              "thread %s does (executing lanes 0x%08x)", mm, sim_thread(s, w->id * 32 + l, t1), l,
		              sim_thread(s, first, t0), mask);
	}
	w->sync++;
	return mm;
}

static void exec_warp(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat)
{
	const struct sim_insn *si = &s->ins[pc];
	const struct px_insn *in = si->in;
	const struct sim_opnd *mo = si->nop ? &si->op[si->nop - 1] : NULL;
	switch (in->op) {
	case PX_OP_ACTIVEMASK:
		for (uint32_t m = mask; m; m &= m - 1)
			wr(w, si->op[0].slot, (uint32_t)__builtin_ctz(m), mask, false);
		return;
	case PX_OP_ELECT: {
		/* elect.sync d|p, membermask: the lowest lane that runs it leads
		 * (the H100, scalar_ops.cu; the PTX ISA says only "one"): d its
		 * lane number in every lane, p true in it alone */
		sim_member_mask(s, w, mo, mask, pc);
		const struct sim_opnd *d = &si->op[0];
		uint32_t dslot = d->kind == PX_OPND_VEC ? d->el[0] : d->slot;
		uint32_t pslot = d->kind == PX_OPND_VEC && d->nel > 1 ? d->el[1] : UINT32_MAX;
		uint32_t lead = (uint32_t)__builtin_ctz(mask);
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			wr(w, dslot, l, lead, false);
			wr(w, pslot, l, l == lead, false);
		}
		return;
	}
	case PX_OP_SHFL: {
		if (!(in->mods & PX_MOD_SYNC))
			mo = NULL;
		sim_member_mask(s, w, mo, mask, pc);
		const struct sim_opnd *d = &si->op[0];
		uint32_t dslot = d->kind == PX_OPND_VEC ? d->el[0] : d->slot;
		uint32_t pslot = d->kind == PX_OPND_VEC && d->nel > 1 ? d->el[1] : UINT32_MAX;
		int mode = si->mw & MW(UP) ? 0 : si->mw & MW(DOWN) ? 1 : si->mw & MW(BFLY) ? 2 : 3;
		/* every operand read before any result is written */
		uint64_t bb[32], cb[32], sb[32], res[32], pv[32];
		uint32_t unk_bc = 0, sunk = 0, runk = 0;
		const uint64_t *bv = gather(s, w, &si->op[2], mask, bb, &unk_bc);
		const uint64_t *cv = gather(s, w, &si->op[3], mask, cb, &unk_bc);
		const uint64_t *sv = gather(s, w, &si->op[1], 0xffffffffu, sb, &sunk);
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			uint32_t b = (uint32_t)bv[l] & 31;
			uint32_t c = (uint32_t)cv[l];
			uint32_t segmask = (c >> 8) & 31, cval = c & 31;
			uint32_t maxl = (l & segmask) | (cval & ~segmask), minl = l & segmask;
			int32_t j;
			bool p;
			switch (mode) {
			case 0: j = (int32_t)l - (int32_t)b; p = j >= (int32_t)maxl; break;
			case 1: j = (int32_t)(l + b); p = j <= (int32_t)maxl; break;
			case 2: j = (int32_t)(l ^ b); p = j <= (int32_t)maxl; break;
			default: j = (int32_t)(minl | (b & ~segmask)); p = j <= (int32_t)maxl; break;
			}
			if (!p)
				j = (int32_t)l;
			bool su = true;
			uint64_t v = 0;
			if (j >= 0 && j <= 31 && (mask >> j & 1)) {
				v = sv[j];
				su = sunk >> j & 1;
			}
			res[l] = v;
			pv[l] = p;
			if (su || (unk_bc >> l & 1))
				runk |= 1u << l;
		}
		commit(w, dslot, res, mask, runk);
		commit(w, pslot, pv, mask, 0);
		return;
	}
	case PX_OP_VOTE: {
		if (!(in->mods & PX_MOD_SYNC))
			mo = NULL;
		sim_member_mask(s, w, mo, mask, pc);
		uint32_t ballot = 0, unkl = 0;
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t v = rd(s, w, &si->op[1], l, &unk);
			if (unk)
				unkl |= 1u << l;
			if (v & 1)
				ballot |= 1u << l;
		}
		bool all = (ballot & mask) == mask, any = ballot != 0, uni = all || !any;
		uint64_t r = si->mw & MW(BALLOT) ? ballot : si->mw & MW(ALL) ? all : si->mw & MW(ANY) ? any : uni;
		for (uint32_t m = mask; m; m &= m - 1)
			wr(w, si->op[0].slot, (uint32_t)__builtin_ctz(m), r, unkl != 0);
		return;
	}
	case PX_OP_MATCH: case PX_OP_REDUX: {
		sim_member_mask(s, w, mo, mask, pc);
		uint64_t v[32];
		uint32_t unkl = 0;
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			v[l] = rd(s, w, &si->op[1], l, &unk);
			if (unk)
				unkl |= 1u << l;
		}
		const struct sim_opnd *d = &si->op[0];
		uint32_t dslot = d->kind == PX_OPND_VEC ? d->el[0] : d->slot;
		if (in->op == PX_OP_MATCH) {
			bool all = si->mw & MW(ALL);
			uint32_t first = (uint32_t)__builtin_ctz(mask);
			bool same = true;
			for (uint32_t m = mask; m; m &= m - 1)
				same &= v[__builtin_ctz(m)] == v[first];
			uint32_t groups = 0;   /* the distinct values (a lane of unknown value: one of its own) */
			for (uint32_t m = mask; m; m &= m - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(m), r = 0;
				for (uint32_t q = mask; q; q &= q - 1)
					if (v[__builtin_ctz(q)] == v[l])
						r |= 1u << __builtin_ctz(q);
				groups += (unkl >> l & 1) || (uint32_t)__builtin_ctz(r) == l;
				wr(w, dslot, l, all ? (same ? mask : 0) : r, unkl != 0);
				if (d->kind == PX_OPND_VEC && d->nel > 1)
					wr(w, d->el[1], l, same, unkl != 0);
			}
			/* MATCH.ANY takes a round per distinct value (MATCH.ALL
			 * one): its result comes latency.match_any_group cycles
			 * later for each value past the first, and the SM's match
			 * unit takes throughput.match_any_group cycles a round,
			 * one instruction after another; it issues as a shuffle
			 * does, its result waiting for the unit's queue (one warp's
			 * four chains of 32 values overlap: 1541 cycles for 16
			 * MATCH.ANY of 375 each; 16 warps' follow the unit's rate:
			 * bench/gpu/simt/match_probe.cu) */
			if (s->match_lat > 0) {
				uint32_t k = all ? 1 : groups;
				double now = (double)s->cycle, start = s->match_free > now ? s->match_free : now;
				s->match_free = start + s->match_group_occ * k;
				double l = s->match_lat + s->match_group_lat * (k - 1);
				*lat = s->match_free - now > l ? s->match_free - now : l;
			}
			return;
		}
		unsigned t = in->ntypes ? in->types[0] : PX_TYPE_U32;
		bool sg = px_type_kind(t) == 's';
		uint64_t acc = v[__builtin_ctz(mask)];
		for (uint32_t m = mask & (mask - 1); m; m &= m - 1) {
			uint64_t x = v[__builtin_ctz(m)];
			if (si->mw & MW(ADD)) acc = (uint32_t)(acc + x);
			else if (si->mw & MW(AND)) acc &= x;
			else if (si->mw & MW(OR)) acc |= x;
			else if (si->mw & MW(XOR)) acc ^= x;
			else if (si->mw & MW(MIN)) acc = sg ? (sext(x, 32) < sext(acc, 32) ? x : acc) : (x < acc ? x : acc);
			else if (si->mw & MW(MAX)) acc = sg ? (sext(x, 32) > sext(acc, 32) ? x : acc) : (x > acc ? x : acc);
		}
		for (uint32_t m = mask; m; m &= m - 1)
			wr(w, dslot, (uint32_t)__builtin_ctz(m), acc, unkl != 0);
		return;
	}
	default:
		/* a warp-wide operation not simulated: its results unknown */
		for (uint32_t k = 0; k < si->ndefs; k++)
			w->unk[si->defs[k]] |= mask;
		sim_note(s, pc, "'%.*s%.*s' is not simulated: its results are unknown", (int)in->opname.n, in->opname.p,
		         (int)in->modtext.n, in->modtext.p);
		return;
	}
}

/* ---- one warp-instruction (everything but control flow and barriers) ---- */
/* The sources of an arithmetic instruction, all lanes (see gather); their
 * unknown lanes within mask, each (unk_src, when given) and together. */
static uint32_t sources(const struct sim *s, const struct sim_warp *w, const struct sim_insn *si,
                        uint32_t mask, uint64_t buf[3][32], const uint64_t *src[3], uint32_t *unk_src)
{
	uint32_t nsrc = si->nop > 1 ? si->nop - 1u : 0, unk = 0;
	for (uint32_t k = 0; k < 3; k++) {
		uint32_t u = 0;
		src[k] = k < nsrc ? gather(s, w, &si->op[1 + k], mask, buf[k], &u) : zero_lanes;
		if (unk_src)
			unk_src[k] = u;
		unk |= u;
	}
	return unk;
}

/* sources for an instruction whose sources are registers (src_regs):
 * the same, without gather's cases. */
static inline uint32_t reg_sources(const struct sim_warp *w, const struct sim_insn *si, uint32_t mask,
                                   const uint64_t *src[3], uint32_t *unk_src)
{
	uint32_t nsrc = si->nop - 1u, unk = 0;
	for (uint32_t k = 0; k < 3; k++) {
		uint32_t u = 0;
		src[k] = zero_lanes;
		if (k < nsrc) {
			uint32_t sl = si->op[1 + k].slot;
			src[k] = &w->val[(size_t)sl * 32];
			u = w->unk[sl] & mask;
		}
		unk_src[k] = u;
		unk |= u;
	}
	return unk;
}

#if PX_SIMT_HW_FMA
/* reg_sources for every lane, unrolled for exec_f32's and exec_int's
 * common case: the source rows (zero_lanes past the last) and the lanes
 * unknown in any of them. */
static inline uint32_t src_rows(const struct sim_warp *w, const struct sim_insn *si, const uint64_t **a,
                                const uint64_t **b, const uint64_t **c)
{
	uint32_t nsrc = si->nop - 1u, s0 = si->op[1].slot, unk = w->unk[s0];
	*a = &w->val[(size_t)s0 * 32];
	*b = *c = zero_lanes;
	if (nsrc > 1) {
		*b = &w->val[(size_t)si->op[2].slot * 32];
		unk |= w->unk[si->op[2].slot];
	}
	if (nsrc > 2) {
		*c = &w->val[(size_t)si->op[3].slot * 32];
		unk |= w->unk[si->op[3].slot];
	}
	return unk;
}
#endif

/* Where an EK_F32/EK_INT instruction puts its 32 results: straight into
 * its destination's row when every lane is active and no source is read
 * from it (then commit has nothing to copy), else into buf. */
static inline uint64_t *result_row(struct sim_warp *w, const struct sim_insn *si, uint32_t mask, uint64_t *buf)
{
	return mask == 0xffffffffu && si->dst_alone ? &w->val[(size_t)si->op[0].slot * 32] : buf;
}

/* commit's work for results in rr (result_row). */
static inline void commit_row(struct sim_warp *w, const struct sim_insn *si, const uint64_t *rr, uint32_t mask,
                              uint32_t unk)
{
	uint32_t dst = si->op[0].slot;
	if (dst != UINT32_MAX && rr == &w->val[(size_t)dst * 32])
		w->unk[dst] = unk;   /* (w->unk[dst] & ~mask) | unk, mask all lanes */
	else
		commit(w, dst, rr, mask, unk);
}

/* EK_F32: every lane computed (lanes outside mask are dropped by commit),
 * each operation's loop free of branches so that it vectorises. */
static void exec_f32_rows(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask);

static void exec_f32(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask)
{
#if PX_SIMT_HW_FMA
	/* the common case without the buffers: every lane, register sources
	 * read in place and a destination none of them names (reg_sources,
	 * result_row and commit_row's work, the same results) */
	if (mask == 0xffffffffu && si->src_regs && si->dst_alone && s->hw_fma) {
		const uint64_t *a, *b, *c;
		uint32_t unk = src_rows(w, si, &a, &b, &c);
		uint32_t dst = si->op[0].slot;
		f32_lanes_hw(si->f32op, &w->val[(size_t)dst * 32], a, b, c);
		w->unk[dst] = unk;
		return;
	}
#endif
	exec_f32_rows(s, w, si, mask);
}

/* exec_f32 through rows that may be buffers. */
static void exec_f32_rows(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask)
{
	uint64_t buf[3][32], rbuf[32];
	const uint64_t *src[3];
	uint32_t unk_src[3];
	uint32_t unk = si->src_regs ? reg_sources(w, si, mask, src, unk_src) : sources(s, w, si, mask, buf, src, NULL);
	const uint64_t *a = src[0], *b = src[1], *c = src[2];
	uint64_t *r = result_row(w, si, mask, rbuf);
#if PX_SIMT_HW_FMA
	if (s->hw_fma) {
		f32_lanes_hw(si->f32op, r, a, b, c);
		commit_row(w, si, r, mask, unk & mask);
		return;
	}
#endif
	switch (si->in->op) {
	case PX_OP_ADD:
		for (uint32_t l = 0; l < 32; l++)
			r[l] = f32_result(bits_f32(a[l]) + bits_f32(b[l]));
		break;
	case PX_OP_SUB:
		for (uint32_t l = 0; l < 32; l++)
			r[l] = f32_result(bits_f32(a[l]) - bits_f32(b[l]));
		break;
	case PX_OP_MUL:
		for (uint32_t l = 0; l < 32; l++)
			r[l] = f32_result(bits_f32(a[l]) * bits_f32(b[l]));
		break;
	default:   /* fma, mad */
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			r[l] = f32_result(fmaf(bits_f32(a[l]), bits_f32(b[l]), bits_f32(c[l])));
		}
		break;
	}
	commit_row(w, si, r, mask, unk & mask);
}

/* EK_INT's operations on all 32 lanes, modulo 2^bits (tm); r is no
 * source's row (result_row), so the loops vectorise (the same integer
 * results in any order). */
#define INT_LANES_BODY                                                                                  \
	switch (op) {                                                                                   \
	case PX_OP_ADD: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] + b[l]) & tm; break;            \
	case PX_OP_SUB: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] - b[l]) & tm; break;            \
	case PX_OP_MUL: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] * b[l]) & tm; break;            \
	case PX_OP_MAD: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] * b[l] + c[l]) & tm; break;     \
	case PX_OP_AND: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] & b[l]) & tm; break;            \
	case PX_OP_OR: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] | b[l]) & tm; break;             \
	default: for (uint32_t l = 0; l < 32; l++) r[l] = (a[l] ^ b[l]) & tm; break;                   \
	}
static void int_lanes(enum px_opcode op, uint64_t *restrict r, const uint64_t *a, const uint64_t *b,
                      const uint64_t *c, uint64_t tm)
{
	INT_LANES_BODY
}
#if PX_SIMT_HW_FMA
__attribute__((target("avx2"))) static void int_lanes_avx2(enum px_opcode op, uint64_t *restrict r,
                                                           const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *c, uint64_t tm)
{
	INT_LANES_BODY
}
#endif
#undef INT_LANES_BODY

/* EK_INT: iop's results modulo 2^bits, every lane, no sign handling needed. */
static void exec_int_rows(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask);

static void exec_int(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask)
{
#if PX_SIMT_HW_FMA
	/* exec_f32's common case: no buffers, and no unknown source (the
	 * known zeros of and/mul need the rows' lanes) */
	if (mask == 0xffffffffu && si->src_regs && si->dst_alone && s->hw_fma) {
		const uint64_t *a, *b, *c;
		uint32_t unk = src_rows(w, si, &a, &b, &c);
		if (!unk) {
			unsigned bits = si->tbits;
			uint32_t dst = si->op[0].slot;
			int_lanes_avx2(si->in->op, &w->val[(size_t)dst * 32], a, b, c,
			               bits == 64 ? UINT64_MAX : (1ull << bits) - 1);
			w->unk[dst] = 0;
			return;
		}
	}
#endif
	exec_int_rows(s, w, si, mask);
}

/* exec_int through rows that may be buffers. */
static void exec_int_rows(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask)
{
	uint64_t buf[3][32], rbuf[32];
	const uint64_t *src[3];
	uint32_t unk_src[3];
	uint32_t unk = (si->src_regs ? reg_sources(w, si, mask, src, unk_src)
	                             : sources(s, w, si, mask, buf, src, unk_src)) & mask;
	const uint64_t *a = src[0], *b = src[1], *c = src[2];
	uint64_t *r = result_row(w, si, mask, rbuf);
	unsigned bits = si->tbits;   /* (EK_INT: the instruction has a type) */
	uint64_t tm = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
#if PX_SIMT_HW_FMA
	if (s->hw_fma)
		int_lanes_avx2(si->in->op, r, a, b, c, tm);
	else
#endif
		int_lanes(si->in->op, r, a, b, c, tm);
	if ((si->in->op == PX_OP_AND || si->in->op == PX_OP_MUL) && unk) {
		/* x & 0 and x * 0 are 0 whatever x is: a lane with one known
		 * zero source has a known result (r holds 0 there already) */
		for (uint32_t m = unk; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			if ((!(unk_src[0] >> l & 1) && (a[l] & tm) == 0) || (!(unk_src[1] >> l & 1) && (b[l] & tm) == 0))
				unk &= ~(1u << l);
		}
	}
	commit_row(w, si, r, mask, unk);
}

/* exec_arith's shifts and widening multiplies of integers of 8 to 32
 * bits: all 32 lanes (r: a buffer, commit drops the lanes outside the
 * mask), each loop free of branches (gemm_loop's shl and mul.wide ran
 * through iop's switch at about 75 instructions a lane); the results are
 * iop's. False for any other operation. */
static bool arith_lanes(const struct px_insn *in, unsigned bits, bool sg, uint64_t *restrict r, const uint64_t *a,
                        const uint64_t *b)
{
	uint64_t tm = (1ull << bits) - 1, sm = 1ull << (bits - 1);
	switch (in->op) {
	case PX_OP_SHL:
		for (uint32_t l = 0; l < 32; l++) {
			uint64_t sh = b[l] & 0xffffffff;
			r[l] = sh >= bits ? 0 : ((a[l] & tm) << (sh & 63)) & tm;
		}
		return true;
	case PX_OP_SHR:
		for (uint32_t l = 0; l < 32; l++) {
			uint64_t sh = b[l] & 0xffffffff;
			int64_t x = (int64_t)(((a[l] & tm) ^ sm) - sm);
			if (sg)
				r[l] = (uint64_t)(x >> (sh >= bits ? bits - 1 : sh)) & tm;
			else
				r[l] = sh >= bits ? 0 : (a[l] & tm) >> (sh & 63);
		}
		return true;
	case PX_OP_MUL: {
		if (!(in->mods & PX_MOD_WIDE))
			return false;
		uint64_t pm = bits == 32 ? UINT64_MAX : (1ull << (2 * bits)) - 1;
		for (uint32_t l = 0; l < 32; l++) {
			int64_t x = (int64_t)(((a[l] & tm) ^ sm) - sm), y = (int64_t)(((b[l] & tm) ^ sm) - sm);
			r[l] = (sg ? (uint64_t)(x * y) : (a[l] & tm) * (b[l] & tm)) & pm;
		}
		return true;
	}
	default:
		return false;
	}
}

/* prmt's modes (enum sim_prmt; PTX ISA, prmt): the byte selectors of d's
 * bytes 0..3 as a generic control (4 bits each), by mode and by the two
 * low bits of c; PRMT_GENERIC takes c's own selectors. */
static uint32_t prmt_ctl(unsigned mode, uint32_t c)
{
	static const uint16_t ctl[6][4] = {
		{0x3210, 0x4321, 0x5432, 0x6543},   /* .f4e: forward 4 extract */
		{0x5670, 0x6701, 0x7012, 0x0123},   /* .b4e: backward 4 extract */
		{0x0000, 0x1111, 0x2222, 0x3333},   /* .rc8: replicate 8 */
		{0x3210, 0x3211, 0x3222, 0x3333},   /* .ecl: edge clamp left */
		{0x0000, 0x1110, 0x2210, 0x3210},   /* .ecr: edge clamp right */
		{0x1010, 0x3232, 0x1010, 0x3232},   /* .rc16: replicate 16 */
	};
	return mode == PRMT_GENERIC ? c & 0xffff : ctl[mode - 1][c & 3];
}

/* EK_ARITH's carry chains (sim_insn.carry; PTX ISA, "Extended-Precision
 * Integer Arithmetic"): add, sub and mad (.lo or .hi of the product) with
 * the carry flag as carry-in (addc, madc) or borrow-in (subc), and, with
 * .cc, the carry-out (the borrow for sub: the H100, scalar_ops.cu) written
 * to it. A carry-in not known makes the result unknown. */
static void exec_carry(struct sim_warp *w, const struct sim_insn *si, const uint64_t *const src[3], uint32_t mask,
                       uint32_t unk_in)
{
	const struct px_insn *in = si->in;
	unsigned bits = si->tbits == 64 ? 64 : 32;
	bool reads = in->op == PX_OP_ADDC || in->op == PX_OP_SUBC || in->op == PX_OP_MADC;
	bool sub = in->op == PX_OP_SUB || in->op == PX_OP_SUBC, mad = in->op == PX_OP_MAD || in->op == PX_OP_MADC;
	uint64_t r[32];
	uint32_t unk_out = 0, cout = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		uint64_t a = trunc_to(src[0][l], bits), b = trunc_to(src[1][l], bits), c = trunc_to(src[2][l], bits);
		uint64_t cin = reads ? (w->cc >> l & 1) : 0;
		if ((unk_in >> l & 1) || (reads && !(w->cc_known >> l & 1)))
			unk_out |= 1u << l;
		unsigned __int128 t;
		bool carry;
		if (mad) {
			unsigned __int128 p = si->is_signed ? (unsigned __int128)((__int128)sext(a, bits) * sext(b, bits))
			                                    : (unsigned __int128)a * b;
			uint64_t part = trunc_to((uint64_t)(in->mods & PX_MOD_HI ? p >> bits : p), bits);
			t = (unsigned __int128)part + c + cin;
			carry = (uint64_t)(t >> bits) & 1;
		} else if (sub) {
			t = (unsigned __int128)a - b - cin;
			carry = (unsigned __int128)b + cin > a;
		} else {
			t = (unsigned __int128)a + b + cin;
			carry = (uint64_t)(t >> bits) & 1;
		}
		r[l] = trunc_to((uint64_t)t, bits);
		cout |= (uint32_t)carry << l;
	}
	commit(w, si->op[0].slot, r, mask, unk_out);
	if (in->mods & PX_MOD_CC) {
		w->cc = (w->cc & ~mask) | (cout & mask);
		w->cc_known = (w->cc_known & ~mask) | (mask & ~unk_out);
	}
}

/* EK_ARITH: fop/iop (or predicate logic) lane by lane. */
static void exec_arith(const struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask)
{
	const struct px_insn *in = si->in;
	unsigned t = in->ntypes ? in->types[0] : PX_TYPE_B32;
	unsigned bits = si->tbits;
	bool fl_op = si->fl_op, sg = si->tkind == 's';
	uint64_t buf[3][32], r[32];
	const uint64_t *src[3];
	uint32_t unk_in = sources(s, w, si, mask, buf, src, NULL), unk_out = 0;
	if (si->carry) {
		exec_carry(w, si, src, mask, unk_in);
		return;
	}
	if (t != PX_TYPE_PRED && !fl_op && bits >= 8 && bits <= 32 && arith_lanes(in, bits, sg, r, src[0], src[1])) {
		commit(w, si->op[0].slot, r, mask, unk_in);   /* (within mask: iop finds none of its own) */
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		bool unk = unk_in >> l & 1;
		uint64_t a = src[0][l], b = src[1][l], c = src[2][l];
		if (t == PX_TYPE_PRED)
			r[l] = (in->op == PX_OP_AND ? a & b : in->op == PX_OP_OR ? a | b
			        : in->op == PX_OP_XOR ? a ^ b : !(a & 1)) & 1;
		else if (fl_op)
			r[l] = fop(si, bits, a, b, c, &unk);
		else
			r[l] = iop(si, bits, sg, a, b, c, &unk);
		if (unk)
			unk_out |= 1u << l;
	}
	commit(w, si->op[0].slot, r, mask, unk_out);
}

/* EK_OTHER: the opcode switch. Not inlined into sim_exec, whose other
 * cases (the commonest) then do not pay for its stack frame and saved
 * registers. */
__attribute__((noinline)) static void exec_other(struct sim *s, struct sim_warp *w, const struct sim_insn *si,
                                                 uint32_t mask)
{
	const struct px_insn *in = si->in;
	const struct sim_opnd *o = si->op;
	unsigned t = in->ntypes ? in->types[0] : PX_TYPE_B32;
	unsigned bits = si->tbits;
	switch (in->op) {
	case PX_OP_MOV: case PX_OP_CVTA:
		if (o[0].kind == PX_OPND_VEC || o[1].kind == PX_OPND_VEC) {
			/* pack / unpack: mov.b64 %rd, {%r1, %r2} and back */
			const struct sim_opnd *vec = o[0].kind == PX_OPND_VEC ? &o[0] : &o[1];
			unsigned eb = bits / (vec->nel ? vec->nel : 1);
			for (uint32_t m = mask; m; m &= m - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(m);
				if (o[0].kind == PX_OPND_VEC) {
					bool unk = false;
					uint64_t v = rd(s, w, &o[1], l, &unk);
					for (uint32_t e = 0; e < vec->nel; e++)
						wr(w, vec->el[e], l, trunc_to(v >> (eb * e), eb), unk);
				} else {
					bool unk = false;
					uint64_t v = 0;
					for (uint32_t e = 0; e < vec->nel; e++) {
						uint32_t sl = vec->el[e];
						if (sl == UINT32_MAX)
							continue;
						unk |= w->unk[sl] >> l & 1;
						v |= trunc_to(w->val[(size_t)sl * 32 + l], eb) << (eb * e);
					}
					wr(w, o[0].slot, l, v, unk);
				}
			}
			return;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t v = rd(s, w, &o[1], l, &unk);
			if (in->op == PX_OP_CVTA) {
				bool shared = in->space == PX_SPACE_SHARED || in->space == PX_SPACE_SHARED_CTA;
				bool local = in->space == PX_SPACE_LOCAL;
				if (in->mods & PX_MOD_TO)
					v -= shared ? SIM_SHARED_WIN : local ? SIM_LOCAL_WIN : 0;
				else
					v += shared ? SIM_SHARED_WIN : local ? SIM_LOCAL_WIN : 0;
				if (in->mods & PX_MOD_TO && (shared || local))
					v = trunc_to(v, bits ? bits : 64);
			} else if (o[1].kind == PX_OPND_SYM && bits == 64) {
				/* the generic address of a shared variable is taken with cvta */
			}
			wr(w, o[0].slot, l, v, unk);
		}
		if (o[1].kind == PX_OPND_SREG && w->id == 0 && (mask & 1) &&
		    (o[1].sreg == PX_SREG_CLOCK || o[1].sreg == PX_SREG_CLOCK64)) {
			uint64_t v = sreg_val(s, w, &o[1], 0);
			if (!s->clock_reads++)
				s->clock_first = v;
			s->clock_last = v;
		}
		return;
	case PX_OP_SETP: case PX_OP_SET: {
		uint32_t pslot = o[0].kind == PX_OPND_VEC ? o[0].el[0] : o[0].slot;
		uint32_t qslot = o[0].kind == PX_OPND_VEC && o[0].nel > 1 ? o[0].el[1] : UINT32_MAX;
		int bop = si->mw & MW(AND) ? 1 : si->mw & MW(OR) ? 2 : si->mw & MW(XOR) ? 3 : 0;
		unsigned ct = in->op == PX_OP_SET && in->ntypes > 1 ? in->types[1] : t;
		char ck = px_type_kind(ct);
		unsigned cbits = px_type_bits(ct);
		if (in->op == PX_OP_SETP && !(bop && si->nop > 3) && ck != 'f' && pslot != qslot) {
			/* an integer comparison into p (and q): its sources' rows
			 * read once (gather, as rd reads them per lane), the
			 * predicates written as rows */
			uint64_t ba[32], bb[32];
			uint32_t unk = 0, rb = 0;
			const uint64_t *a = gather(s, w, &o[1], mask, ba, &unk), *b = gather(s, w, &o[2], mask, bb, &unk);
			for (uint32_t m = mask; m; m &= m - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(m);
				rb |= (uint32_t)cmp_int(in->cmp, a[l], b[l], ck == 's', cbits) << l;
			}
			pred_row(w, pslot, rb, mask, unk);
			pred_row(w, qslot, ~rb, mask, unk);
			return;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk), b = rd(s, w, &o[2], l, &unk);
			bool r, q;
			if (si->half) {
				/* a 16-bit format; x2: p from the low halves, q from the high */
				unsigned fmt = si->half & 0x7f;
				bool ftz = in->mods & PX_MOD_FTZ;
				r = cmp_flt(in->cmp, sim_half_operand((uint16_t)a, fmt, ftz), sim_half_operand((uint16_t)b, fmt, ftz));
				q = si->half & 0x80 ? cmp_flt(in->cmp, sim_half_operand((uint16_t)(a >> 16), fmt, ftz),
				                              sim_half_operand((uint16_t)(b >> 16), fmt, ftz))
				                    : !r;
				unk |= in->op == PX_OP_SET;   /* set's 16-bit forms: not simulated */
			} else {
				r = cmp_any(in->cmp, ck, cbits, in->mods & PX_MOD_FTZ, a, b);
				q = !r;
			}
			if (bop && si->nop > 3) {
				bool c = rd(s, w, &o[3], l, &unk) & 1;
				r = bop == 1 ? (r && c) : bop == 2 ? (r || c) : (r != c);
				q = bop == 1 ? (q && c) : bop == 2 ? (q || c) : (q != c);
			}
			if (in->op == PX_OP_SET) {
				uint64_t v = px_type_kind(t) == 'f' ? (r ? f32_bits(1.0f) : 0) : (r ? 0xffffffffu : 0);
				wr(w, pslot, l, v, unk);
			} else {
				wr(w, pslot, l, r, unk);
				wr(w, qslot, l, q, unk);
			}
		}
		return;
	}
	case PX_OP_SELP: case PX_OP_SLCT:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk), b = rd(s, w, &o[2], l, &unk);
			bool cu = false;
			uint64_t c = rd(s, w, &o[3], l, &cu);
			bool pick;
			if (in->op == PX_OP_SELP) {
				pick = c & 1;
			} else {
				unsigned ct = in->ntypes > 1 ? in->types[1] : PX_TYPE_S32;
				pick = px_type_kind(ct) == 'f' ? bits_f32(c) >= 0.0f : sext(c, 32) >= 0;
			}
			wr(w, o[0].slot, l, pick ? a : b, unk || cu);
		}
		return;
	case PX_OP_CVT:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk), r;
			unsigned st = in->ntypes > 1 ? in->types[1] : t;
			if (si->mode & CVT_PACK) {
				/* cvt.pack.sat.ct.s32{.b32} d, a, b{, c}: a and b saturated
				 * to ct (w bits), a above b, with c's bits above them (PTX
				 * ISA, cvt.pack; the H100: scalar_ops.cu) */
				unsigned wd = si->mode & CVT_PACK_BITS;
				int64_t lo = si->mode & CVT_PACK_SIGNED ? -(1ll << (wd - 1)) : 0;
				int64_t hi = si->mode & CVT_PACK_SIGNED ? (1ll << (wd - 1)) - 1 : (1ll << wd) - 1;
				int64_t x = sext(a, 32), y = sext(rd(s, w, &o[2], l, &unk), 32);
				uint64_t c = si->nop > 3 ? rd(s, w, &o[3], l, &unk) : 0;
				x = x < lo ? lo : x > hi ? hi : x;
				y = y < lo ? lo : y > hi ? hi : y;
				uint64_t em = (1ull << wd) - 1;
				r = trunc_to(c << (2 * wd) | ((uint64_t)x & em) << wd | ((uint64_t)y & em), 32);
			} else if (t == PX_TYPE_TF32 && px_type_kind(st) == 'f' && px_type_bits(st) == 32) {
				r = tf32_round((uint32_t)a, si->mode & CVT_TF32_RND, si->mw & MW(SATFINITE));
			} else if (si->half & 0x80) {
				/* two results in one register, the upper from a: cvt.f16x2.f32
				 * d, a, b (bf16x2, e4m3x2, e5m2x2 alike); from a pair,
				 * cvt.e4m3x2.f16x2 d, a and cvt.f16x2.e4m3x2 d, a, its upper
				 * element to the upper (PTX ISA, cvt) */
				unsigned df = si->half & 0x7f, dw = sim_half_width(df);
				bool sx2;
				unsigned sf = sim_half_format(st, &sx2);
				uint64_t hi = a, lo = 0;
				if (sx2) {
					unsigned sw = sim_half_width(sf);
					hi = a >> sw & ((1u << sw) - 1);
					lo = a & ((1u << sw) - 1);
					st = scalar_type(sf);
				} else {
					lo = si->nop > 2 ? rd(s, w, &o[2], l, &unk) : 0;
					unk |= si->nop <= 2;
				}
				r = convert(si, scalar_type(df), st, hi, &unk) << dw | convert(si, scalar_type(df), st, lo, &unk);
			} else {
				r = convert(si, t, st, a, &unk);
			}
			wr(w, o[0].slot, l, r, unk);
		}
		return;
	case PX_OP_LOP3:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk), b = rd(s, w, &o[2], l, &unk),
			         c = rd(s, w, &o[3], l, &unk), lut = rd(s, w, &o[4], l, &unk), r = 0;
			for (unsigned i = 0; i < 32; i++) {
				unsigned idx = (unsigned)(((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1));
				r |= ((lut >> idx) & 1) << i;
			}
			wr(w, o[0].slot, l, r, unk);
		}
		return;
	case PX_OP_PRMT:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk), b = rd(s, w, &o[2], l, &unk),
			         c = rd(s, w, &o[3], l, &unk);
			uint64_t bytes = (a & 0xffffffff) | (b & 0xffffffff) << 32, r = 0;
			uint32_t ctl = prmt_ctl(si->mode, (uint32_t)c);
			for (unsigned i = 0; i < 4; i++) {
				unsigned sel = ctl >> (4 * i) & 0xf;
				uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
				if (sel & 8)
					byte = (byte & 0x80) ? 0xff : 0;
				r |= byte << (8 * i);
			}
			wr(w, o[0].slot, l, r, unk);
		}
		return;
	case PX_OP_TESTP:   /* (PTX ISA, testp: zeros are normal numbers) */
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk);
			int c = bits == 64 ? fpclassify(bits_f64(a)) : fpclassify(bits_f32(a));
			bool r;
			switch (si->mode) {
			case TESTP_FINITE: r = c != FP_INFINITE && c != FP_NAN; break;
			case TESTP_INFINITE: r = c == FP_INFINITE; break;
			case TESTP_NUMBER: r = c != FP_NAN; break;
			case TESTP_NOTANUMBER: r = c == FP_NAN; break;
			case TESTP_NORMAL: r = c == FP_NORMAL || c == FP_ZERO; break;
			default: r = c == FP_SUBNORMAL; break;
			}
			wr(w, o[0].slot, l, r, unk);
		}
		return;
	case PX_OP_BFI:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk), b = rd(s, w, &o[2], l, &unk);
			unsigned pos = (unsigned)rd(s, w, &o[3], l, &unk) & 0xff, len = (unsigned)rd(s, w, &o[4], l, &unk) & 0xff;
			uint64_t r = b;
			for (unsigned i = 0; i < len && pos + i < bits; i++)
				r = (r & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
			wr(w, o[0].slot, l, r, unk);
		}
		return;
	case PX_OP_SHF:
		for (uint32_t m = mask; m; m &= m - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(m);
			bool unk = false;
			uint64_t a = rd(s, w, &o[1], l, &unk) & 0xffffffff, b = rd(s, w, &o[2], l, &unk) & 0xffffffff;
			uint32_t n = (uint32_t)rd(s, w, &o[3], l, &unk);
			n = si->mw & MW(CLAMP) ? (n > 32 ? 32 : n) : n & 31;
			uint64_t cat = b << 32 | a, r = si->mw & MW(L) ? (cat << n) >> 32 : cat >> n;
			wr(w, o[0].slot, l, r & 0xffffffff, unk);
		}
		return;
	default:
		break;
	}
}

uint32_t sim_exec(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat,
                  double *occ)
{
	const struct sim_insn *si = &s->ins[pc];
	*lat = s->lat[si->lat_pipe];
	*occ = s->occ[si->pipe];
	if (si->mma64) {
		*lat = s->mma64_lat;
		*occ = s->mma64_occ;
	}
	if (si->bits64)
		*occ *= 2;
	if (si->split) {
		*occ = *occ * si->split + s->imad_wide_occ * si->split_wide;
		*lat = s->lat[P_IMAD] * si->split_chain + s->lat[P_ALU];
	}
	if (!mask)
		return 0;
	switch (si->ek) {
	case EK_MEM:
		if (si->sync_mem)
			sim_its_acquire(s, w, pc, mask);
		if (si->memo->word)
			exec_word(s, w, pc, mask, lat, occ);
		else
			exec_mem(s, w, pc, mask, lat, occ);
		if (si->sync_mem)
			sim_its_release(s, w, pc, mask);
		return 0;
	case EK_WARP:
		exec_warp(s, w, pc, mask, lat);
		return 0;
	case EK_NOP:
		if (si->fence)
			fence_wait(s, w, si);
		return 0;
	case EK_UNSIM:
		for (uint32_t d = 0; d < si->ndefs; d++)
			w->unk[si->defs[d]] |= mask;
		sim_note(s, pc, "'%.*s%.*s' is not simulated: its results are unknown", (int)si->in->opname.n,
		         si->in->opname.p, (int)si->in->modtext.n, si->in->modtext.p);
		return 0;
	case EK_F32:
		exec_f32(s, w, si, mask);
		return 0;
	case EK_INT:
		exec_int(s, w, si, mask);
		return 0;
	case EK_ARITH:
		exec_arith(s, w, si, mask);
		return 0;
	default:
		exec_other(s, w, si, mask);
		return 0;
	}
}
