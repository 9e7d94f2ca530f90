/* ir.c: the IR's tables (spaces, types, special registers, opcodes), variable
 * sizes, and which register operands an instruction defines and uses.
 *
 * Defs and uses follow the operand conventions of ir.h: the destination, when
 * there is one, is operand 0 (a register, a vector, or an `a|b` pair); every
 * other register mentioned (address bases included) is a use. Which opcodes
 * have a destination depends on the opcode and, for the families whose
 * sub-operations differ (mbarrier, wmma, tcgen05, multimem, ...), on the
 * first modifier: see has_dest(). */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static const char *const space_names[] = {
#define X(e, s) s,
	PX_SPACES(X)
#undef X
};

static const struct {
	const char *name;
	unsigned bits;
	char kind;
} type_info[] = {
#define X(e, s, bits, kind) {s, bits, kind},
	PX_TYPES(X)
#undef X
};

static const char *const sreg_names[] = {
#define X(e, s, shape) s,
	PX_SREGS(X)
#undef X
};

static const struct {
	const char *name;
	unsigned flags;
} op_info[] = {
	{"<unknown>", 0},
#define PX_OP(e, s, f) {s, f},
#include "ptx/opcodes.def"
#undef PX_OP
};

const char *px_space_name(enum px_space s)
{
	return (unsigned)s < PX_SPACE_COUNT ? space_names[s] : "";
}

const char *px_type_name(enum px_type t)
{
	return (unsigned)t < PX_TYPE_COUNT ? type_info[t].name : "";
}

unsigned px_type_bits(enum px_type t)
{
	return (unsigned)t < PX_TYPE_COUNT ? type_info[t].bits : 0;
}

char px_type_kind(enum px_type t)
{
	return (unsigned)t < PX_TYPE_COUNT ? type_info[t].kind : 0;
}

const char *px_sreg_name(enum px_sreg s)
{
	return (unsigned)s < PX_SREG_COUNT ? sreg_names[s] : "";
}

const char *px_opcode_name(enum px_opcode op)
{
	return (unsigned)op < PX_OP_COUNT ? op_info[op].name : "";
}

unsigned px_opcode_flags(enum px_opcode op)
{
	return (unsigned)op < PX_OP_COUNT ? op_info[op].flags : 0;
}

/* Binary search over opcodes.def, which is sorted by spelling (a unit test
 * checks that). */
enum px_opcode px_opcode_lookup(px_str s)
{
	unsigned lo = 1, hi = PX_OP_COUNT;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		const char *name = op_info[mid].name;
		size_t len = strlen(name);
		size_t n = len < s.n ? len : s.n;
		int c = memcmp(s.p, name, n);
		if (c == 0)
			c = s.n < len ? -1 : s.n > len ? 1 : 0;
		if (c == 0)
			return (enum px_opcode)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return PX_OP_UNKNOWN;
}

uint64_t px_var_size(const struct px_var *v)
{
	if (v->unsized)
		return 0;
	uint64_t bytes = px_type_bits(v->type) / 8;
	if (bytes == 0)
		bytes = 1;  /* .pred variables are not allowed outside .reg; be safe */
	return v->elems * (v->vec ? v->vec : 1) * bytes;
}

uint32_t px_var_align(const struct px_var *v)
{
	if (v->align)
		return v->align;
	uint32_t bytes = px_type_bits(v->type) / 8;
	if (bytes == 0)
		bytes = 1;
	return bytes * (v->vec ? v->vec : 1);
}

const struct px_file_entry *px_module_file(const struct px_module *m, uint32_t index)
{
	for (uint32_t i = 0; i < m->nfiles; i++)
		if (m->files[i].index == index)
			return &m->files[i];
	return NULL;
}

int32_t px_module_find_func(const struct px_module *m, px_str name)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (px_str_eq(m->funcs[i].name, name))
			return (int32_t)i;
	return -1;
}

struct px_arena *px_func_arena(struct px_module *m, struct px_func *f)
{
	return f->body_arena ? f->body_arena : m->arena;
}

void px_func_drop_body(struct px_func *f)
{
	if (!f->body_arena)
		return;
	px_arena_delete(px_func_detach_body(f));
}

struct px_arena *px_func_detach_body(struct px_func *f)
{
	struct px_arena *a = f->body_arena;
	if (!a)
		return NULL;
	f->body_arena = NULL;
	f->body_dropped = true;
	f->insns = NULL;
	f->ninsns = 0;
	f->op_start = NULL;
	f->op_ndefs = NULL;
	f->op_regs = NULL;
	f->labels = NULL;
	f->nlabels = 0;
	f->regs = NULL;
	f->nregs = 0;
	f->btargets = NULL;
	f->nbtargets = 0;
	f->blocks = NULL;
	f->nblocks = 0;
	f->rpo_order = NULL;
	f->nrpo = 0;
	f->loops = NULL;
	f->nloops = 0;
	f->an = NULL;
	f->live_reg = NULL;
	f->live_bit = NULL;
	f->nlive_regs = f->live_words = 0;
	return a;
}

const char *px_module_release_text(struct px_module *m)
{
	const char *t = m->text;
	m->text = NULL;
	m->len = 0;
	m->text_mapped = false;
	return t;
}

void px_module_delete(struct px_module *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		px_arena_delete(m->funcs[i].body_arena);
	px_text_free(m->text, m->len, m->text_mapped);
	px_arena_delete(m->arena);  /* the module itself lives in its arena */
}

/* The first modifier word after the opcode ("init" in mbarrier.init.shared.b64). */
static px_str first_mod(const struct px_insn *in)
{
	px_str t = in->modtext;
	if (t.n == 0 || t.p[0] != '.')
		return px_str_make(t.p, 0);
	uint32_t i = 1;
	while (i < t.n && t.p[i] != '.')
		i++;
	return px_str_make(t.p + 1, i - 1);
}

/* Does operand 0 receive a result? */
static bool has_dest(const struct px_insn *in)
{
	if (in->nopnds == 0)
		return false;
	/* the first modifier is decoded only for the families that need it
	 * (this runs for every instruction in several passes) */
	switch ((enum px_opcode)in->op) {
	case PX_OP_BAR:
	case PX_OP_BARRIER:
		/* bar.red.popc.u32 d, a, p: the only barrier form with a result */
		return (in->mods & PX_MOD_RED) != 0;
	case PX_OP_MBARRIER: {
		px_str m = first_mod(in);
		return !(px_str_eqc(m, "init") || px_str_eqc(m, "inval") ||
		         px_str_eqc(m, "expect_tx") || px_str_eqc(m, "complete_tx"));
	}
	case PX_OP_WMMA:
		return !px_str_eqc(first_mod(in), "store");
	case PX_OP_TCGEN05:
		return px_str_eqc(first_mod(in), "ld");
	case PX_OP_MULTIMEM:
		return px_str_eqc(first_mod(in), "ld_reduce");
	case PX_OP_CLUSTERLAUNCHCONTROL:
		return px_str_eqc(first_mod(in), "query_cancel");
	case PX_OP_CP:
		return false;
	case PX_OP_UNKNOWN:
		/* unknown opcode: assume the common shape (destination first) when
		 * there are at least two operands */
		return in->nopnds >= 2 && in->opnds[0].kind == PX_OPND_REG;
	default:
		return !(px_opcode_flags((enum px_opcode)in->op) & PX_OPF_NODEST);
	}
}

static void collect(const struct px_operand *o, bool addr_only_base,
                    int32_t *out, uint32_t max, uint32_t *n)
{
	(void)addr_only_base;
	switch (o->kind) {
	case PX_OPND_REG:
	case PX_OPND_ADDR:
		if (o->reg >= 0) {
			if (*n < max)
				out[*n] = o->reg;
			(*n)++;
		}
		break;
	case PX_OPND_VEC:
	case PX_OPND_LIST:
		for (uint32_t i = 0; i < o->nelems; i++)
			collect(&o->elems[i], addr_only_base, out, max, n);
		break;
	default:
		break;
	}
}

uint32_t px_insn_defs(const struct px_insn *in, int32_t *out, uint32_t max)
{
	uint32_t n = 0;
	if (in->op == PX_OP_CALL) {
		/* call (rets), f, (args): the return list, when present, comes first */
		if (in->nopnds > 0 && in->opnds[0].kind == PX_OPND_LIST)
			collect(&in->opnds[0], false, out, max, &n);
		return n;
	}
	if (has_dest(in) && in->opnds[0].kind != PX_OPND_ADDR)
		collect(&in->opnds[0], false, out, max, &n);
	return n;
}

uint32_t px_insn_uses(const struct px_insn *in, int32_t *out, uint32_t max)
{
	uint32_t n = 0;
	if (in->guard >= 0) {
		if (n < max)
			out[n] = in->guard;
		n++;
	}
	uint32_t first = 0;
	if (in->op == PX_OP_CALL) {
		if (in->nopnds > 0 && in->opnds[0].kind == PX_OPND_LIST)
			first = 1;
	} else if (has_dest(in) && in->opnds[0].kind != PX_OPND_ADDR) {
		first = 1;
		/* wgmma.mma_async accumulates into its destination */
		if (in->op == PX_OP_WGMMA)
			first = 0;
	}
	for (uint32_t i = first; i < in->nopnds; i++)
		collect(&in->opnds[i], false, out, max, &n);
	return n;
}

/* Requires: a parsed body. Fills: f->op_start, op_ndefs, op_regs (body
 * arena): every instruction's defs and uses, decoded once, because the
 * passes after it (live, affine, uniform) read them many times each. One
 * walk, into a growing scratch array copied to the arena at the end. */
void fill_operands(struct px_module *m, struct px_func *f)
{
	struct px_arena *ar = px_func_arena(m, f);
	uint32_t n = f->ninsns, total = 0, cap = 3 * n + 64;
	f->op_start = px_arena_alloc(ar, (n + 1) * sizeof *f->op_start);
	f->op_ndefs = px_arena_alloc(ar, (n + 1) * sizeof *f->op_ndefs);
	int32_t *regs = xmalloc(cap * sizeof *regs);
	for (uint32_t i = 0; i < n; i++) {
		const struct px_insn *in = &f->insns[i];
		uint32_t nd, nu;
		for (;;) {
			nd = px_insn_defs(in, regs + total, cap - total);
			nu = nd <= cap - total ? px_insn_uses(in, regs + total + nd, cap - total - nd) : 0;
			if (nd + nu <= cap - total)
				break;
			cap = 2 * cap + nd + nu;   /* rare: grow and decode again */
			regs = xrealloc(regs, cap * sizeof *regs);
		}
		if (nd > UINT16_MAX)
			nd = UINT16_MAX;  /* cannot happen: operands are capped far below */
		f->op_start[i] = total;
		f->op_ndefs[i] = (uint16_t)nd;
		total += nd + nu;
	}
	f->op_start[n] = total;
	f->op_regs = px_arena_alloc(ar, (total + 1) * sizeof *f->op_regs);
	memcpy(f->op_regs, regs, total * sizeof *f->op_regs);
	free(regs);
}

void px_dump_operands(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	px_buf_printf(out, "operands " PX_STR_FMT ":\n", PX_STR_ARG(f->name));
	for (uint32_t i = 0; f->op_start && i < f->ninsns; i++) {
		uint32_t nd, nu;
		const int32_t *d = px_func_defs(f, i, &nd), *u = px_func_uses(f, i, &nu);
		px_buf_printf(out, "  line %u:", f->insns[i].line);
		for (uint32_t k = 0; k < nd; k++)
			if (d[k] >= 0 && (uint32_t)d[k] < f->nregs)
				px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(f->regs[d[k]].name));
		px_buf_puts(out, " <-");
		for (uint32_t k = 0; k < nu; k++)
			if (u[k] >= 0 && (uint32_t)u[k] < f->nregs)
				px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(f->regs[u[k]].name));
		px_buf_puts(out, "\n");
	}
}
