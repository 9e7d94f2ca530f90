/* test_parser.c: the PTX parser: module directives, variables, functions,
 * registers and scopes, instruction decoding, operand shapes, .loc, labels,
 * diagnostics (text and positions), recovery, limits, robustness against
 * truncated and corrupted input, and the nvcc fixtures against ptxas. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"

#define FIX "tests/fixtures/ptx/"

struct parsed {
	struct px_module *m;
	struct px_diags d;
};

static struct parsed parse_buf(const char *src, size_t len)
{
	struct parsed p = {0};
	char *text = xmalloc(len + 1);
	memcpy(text, src, len);
	text[len] = 0;
	p.m = px_ptx_parse("t.ptx", text, len, &p.d);
	return p;
}

static struct parsed parse(const char *src)
{
	return parse_buf(src, strlen(src));
}

static struct parsed parse_file(const char *path)
{
	struct parsed p = {0};
	size_t len;
	char *err = NULL;
	char *text = px_read_file(path, &len, &err);
	cr_assert_not_null(text, "%s", err ? err : path);
	p.m = px_ptx_parse(path, text, len, &p.d);
	return p;
}

static void done(struct parsed *p)
{
	px_module_delete(p->m);
	px_diags_free(&p->d);
}

/* Wraps body in a kernel with some registers declared. */
static struct parsed parse_body(const char *body)
{
	char *src = xasprintf(".version 8.0\n.target sm_90\n.address_size 64\n"
	                      ".visible .entry k()\n{\n"
	                      "\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<10>;\n\t.reg .b64 %%rd<4>;\n"
	                      "\t.reg .f32 %%f<4>;\n\t.reg .v4 .f32 %%v;\n"
	                      "%s\n}\n", body);
	struct parsed p = parse(src);
	free(src);
	return p;
}

static const struct px_func *func(const struct px_module *m, const char *name)
{
	int32_t i = px_module_find_func(m, px_str_c(name));
	cr_assert_geq(i, 0, "no function %s", name);
	return &m->funcs[i];
}

static const struct px_var *mvar(const struct px_module *m, const char *name)
{
	for (uint32_t i = 0; i < m->nvars; i++)
		if (px_str_eqc(m->vars[i].name, name))
			return &m->vars[i];
	cr_assert_fail("no variable %s", name);
	return NULL;
}

/* The first instruction of f on PTX line `line`. */
static const struct px_insn *at_line(const struct px_func *f, uint32_t line)
{
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].line == line)
			return &f->insns[i];
	cr_assert_fail("no instruction on line %u", line);
	return NULL;
}

static int32_t reg_id(const struct px_func *f, const char *name)
{
	for (uint32_t i = 0; i < f->nregs; i++)
		if (px_str_eqc(f->regs[i].name, name))
			return (int32_t)i;
	return -1;
}

static bool has_diag(const struct px_diags *d, enum px_severity sev, uint32_t line,
                     uint32_t col, const char *msg)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->items[i].severity == sev && d->items[i].line == line &&
		    d->items[i].column == col && strcmp(d->items[i].message, msg) == 0)
			return true;
	return false;
}

static void dump_diags(const struct px_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "%u:%u: %s: %s\n", d->items[i].line, d->items[i].column,
		        px_severity_name(d->items[i].severity), d->items[i].message);
}

#define ASSERT_DIAG(p, sev, line, col, msg)                                   \
	do {                                                                      \
		if (!has_diag(&(p).d, sev, line, col, msg))                           \
			dump_diags(&(p).d);                                               \
		cr_assert(has_diag(&(p).d, sev, line, col, msg), "missing %u:%u: %s", \
		          (unsigned)(line), (unsigned)(col), msg);                    \
	} while (0)

#define ASSERT_CLEAN(p)                                                       \
	do {                                                                      \
		if ((p).d.errors)                                                     \
			dump_diags(&(p).d);                                               \
		cr_assert_eq((p).d.errors, 0);                                        \
	} while (0)

/* ---- the opcode table ---- */

Test(opcodes, table_is_sorted_and_every_spelling_is_found)
{
	for (unsigned op = 1; op < PX_OP_COUNT; op++) {
		const char *name = px_opcode_name((enum px_opcode)op);
		if (op > 1)
			cr_assert_lt(strcmp(px_opcode_name((enum px_opcode)(op - 1)), name), 0,
			             "opcodes.def not sorted at %s", name);
		cr_assert_eq(px_opcode_lookup(px_str_c(name)), (enum px_opcode)op);
	}
	cr_assert_eq(px_opcode_lookup(px_str_c("isspacep")), PX_OP_ISSPACEP);
	cr_assert_eq(px_opcode_lookup(px_str_c("tcgen05")), PX_OP_TCGEN05);
	cr_assert_eq(px_opcode_lookup(px_str_c("frobnicate")), PX_OP_UNKNOWN);
}

/* ---- module level: hand.ptx ---- */

Test(module, directives)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_module *m = p.m;
	cr_assert_eq(m->version_major, 8);
	cr_assert_eq(m->version_minor, 0);
	cr_assert_eq(m->ntargets, 2);
	cr_assert(px_str_eqc(m->targets[0], "sm_90"));
	cr_assert(px_str_eqc(m->targets[1], "texmode_independent"));
	cr_assert(px_str_eqc(m->target, "sm_90"));
	cr_assert(m->texmode_independent);
	cr_assert_not(m->target_debug);
	cr_assert_eq(m->address_size, 64);
	cr_assert_eq(m->nfiles, 2);
	cr_assert(px_str_eqc(px_module_file(m, 1)->name, "hand.cu"));
	cr_assert(px_str_eqc(px_module_file(m, 2)->name, "inc.h"));
	cr_assert_eq(m->nunknown_ops, 0);
	done(&p);
}

Test(module, target_flags_and_suffixes)
{
	struct parsed p = parse(".version 9.0\n.target sm_100f, debug, map_f64_to_f32\n.address_size 32\n");
	ASSERT_CLEAN(p);
	cr_assert(px_str_eqc(p.m->target, "sm_100f"));
	cr_assert(p.m->target_debug);
	cr_assert(p.m->map_f64_to_f32);
	cr_assert_eq(p.m->address_size, 32);
	cr_assert_eq(p.m->version_major, 9);
	done(&p);
	p = parse(".target sm_90a, frob\n");
	ASSERT_DIAG(p, PX_ERROR, 1, 17, "unknown target 'frob'");
	done(&p);
}

/* each pragma knows the instruction it comes before (simt_fuse.c reads
 * which loop a "nounroll" marks), the header's none */
Test(module, pragma_positions)
{
	struct parsed p = parse(
	    ".version 8.0\n.target sm_90\n.address_size 64\n"
	    ".entry k(.param .u32 n)\n.pragma \"a\";\n{\n"
	    "\t.reg .b32 %r<3>;\n\t.reg .pred %p<2>;\n"
	    "\tmov.u32 %r1, 0;\n"
	    "$L:\n"
	    "\t.pragma \"nounroll\";\n"
	    "\tadd.s32 %r1, %r1, 1;\n"
	    "\tsetp.lt.s32 %p1, %r1, 4;\n"
	    "\t.pragma \"b\", \"c\";\n"
	    "}\n");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "k");
	cr_assert_eq(f->npragmas, 4);
	cr_assert(px_str_eqc(f->pragmas[0], "a"));
	cr_assert_eq(f->pragma_at[0], UINT32_MAX);
	cr_assert(px_str_eqc(f->pragmas[1], "nounroll"));
	cr_assert_eq(f->pragma_at[1], 1);
	cr_assert_eq(f->pragma_at[2], 3);   /* after the last: ninsns */
	cr_assert_eq(f->pragma_at[3], 3);
	done(&p);
}

Test(module, variables)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_var *v = mvar(p.m, "gcount");
	cr_assert_eq(v->space, PX_SPACE_GLOBAL);
	cr_assert_eq(v->type, PX_TYPE_U32);
	cr_assert_eq(v->align, 4);
	cr_assert_eq(v->elems, 1);
	cr_assert(v->has_init);
	cr_assert_eq(v->line, 10);
	cr_assert_eq(v->col, 23);
	v = mvar(p.m, "gbytes");
	cr_assert_eq(v->elems, 24);
	cr_assert_eq(px_var_size(v), 24);
	cr_assert_not(v->has_init);
	v = mvar(p.m, "ctab");
	cr_assert_eq(v->space, PX_SPACE_CONST);
	cr_assert_eq(v->type, PX_TYPE_F32);
	cr_assert_eq(px_var_size(v), 16);
	v = mvar(p.m, "inferred");
	cr_assert_not(v->unsized);
	cr_assert_eq(v->elems, 5);
	v = mvar(p.m, "gvec");
	cr_assert_eq(v->vec, 4);
	cr_assert_eq(px_var_size(v), 16);
	v = mvar(p.m, "dynsmem");
	cr_assert(v->unsized);
	cr_assert_eq(v->linkage, PX_LINK_EXTERN);
	cr_assert_eq(v->space, PX_SPACE_SHARED);
	cr_assert_eq(v->align, 16);
	cr_assert_eq(px_var_size(v), 0);
	v = mvar(p.m, "gptr");
	cr_assert(v->has_init);
	cr_assert_eq(v->type, PX_TYPE_U64);
	cr_assert_eq(mvar(p.m, "gtex")->type, PX_TYPE_TEXREF);
	cr_assert_eq(mvar(p.m, "gc")->type, PX_TYPE_U32);
	cr_assert_eq(p.m->nvars, 11);
	done(&p);
}

Test(module, more_variable_forms)
{
	struct parsed p = parse(".tex .u64 t;\n"
	                        ".shared::cta .align 8 .b64 s[4][2];\n"
	                        ".global .u32 nest[2][2] = {{1, 2}, {3, 4}};\n"
	                        ".global .u8 un[][2] = {{1, 2}, {3, 4}, {5, 6}};\n"
	                        ".weak .global .f64 w = 1.5;\n"
	                        ".common .global .u32 c;\n"
	                        ".global .u32 m2 = mask(0xFF);\n"
	                        ".visible .global .u64 sy = gfoo + 8;\n");
	ASSERT_CLEAN(p);
	cr_assert_eq(mvar(p.m, "t")->space, PX_SPACE_TEX);
	cr_assert_eq(mvar(p.m, "s")->space, PX_SPACE_SHARED_CTA);
	cr_assert_eq(px_var_size(mvar(p.m, "s")), 64);
	cr_assert_eq(mvar(p.m, "nest")->elems, 4);
	cr_assert_eq(mvar(p.m, "un")->elems, 6);
	cr_assert_not(mvar(p.m, "un")->unsized);
	cr_assert_eq(mvar(p.m, "w")->linkage, PX_LINK_WEAK);
	cr_assert_eq(mvar(p.m, "c")->linkage, PX_LINK_COMMON);
	cr_assert_eq(mvar(p.m, "sy")->linkage, PX_LINK_VISIBLE);
	done(&p);
}

/* ---- functions ---- */

Test(functions, prototypes_params_and_directives)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	cr_assert_eq(p.m->nfuncs, 4);
	const struct px_func *f = func(p.m, "ext_fn");
	cr_assert_not(f->has_body);
	cr_assert_not(f->is_entry);
	cr_assert_eq(f->linkage, PX_LINK_EXTERN);
	cr_assert_eq(f->nrets, 1);
	cr_assert_eq(f->nparams, 1);
	cr_assert(px_str_eqc(f->rets[0].name, "rv"));
	f = func(p.m, "addone");
	cr_assert(f->has_body);
	cr_assert_eq(f->nrets, 1);
	cr_assert_eq(f->rets[0].space, PX_SPACE_PARAM);
	cr_assert_eq(f->rets[0].type, PX_TYPE_B32);
	cr_assert_eq(f->ninsns, 4);
	cr_assert_eq(f->line, 23);
	cr_assert_eq(f->col, 1);
	cr_assert_eq(f->end_line, 30);
	f = func(p.m, "regfn");
	cr_assert(f->noreturn);
	cr_assert_eq(f->nparams, 2);
	cr_assert_eq(f->params[0].space, PX_SPACE_REG);
	cr_assert_eq(reg_id(f, "a"), 0);
	cr_assert_eq(reg_id(f, "b"), 1);
	cr_assert_eq(reg_id(f, "c"), 2);
	cr_assert_eq(f->insns[0].opnds[0].reg, 2);
	cr_assert_eq(f->insns[0].opnds[2].reg, 1);
	f = func(p.m, "kern");
	cr_assert(f->is_entry);
	cr_assert_eq(f->linkage, PX_LINK_VISIBLE);
	cr_assert_eq(f->nparams, 3);
	cr_assert(f->params[0].is_ptr);
	cr_assert_eq(f->params[0].ptr_space, PX_SPACE_GLOBAL);
	cr_assert_eq(f->params[0].ptr_align, 16);
	cr_assert_eq(f->params[0].type, PX_TYPE_U64);
	cr_assert_eq(f->params[2].align, 8);
	cr_assert_eq(f->params[2].elems, 16);
	cr_assert_eq(f->maxntid[0], 128);
	cr_assert_eq(f->maxntid[1], 1);
	cr_assert_eq(f->maxntid[2], 1);
	cr_assert_eq(f->minnctapersm, 2);
	cr_assert_eq(f->maxnreg, 64);
	cr_assert_eq(f->npragmas, 1);
	cr_assert(px_str_eqc(f->pragmas[0], "nounroll"));
	cr_assert_eq(f->pragma_at[0], 0);   /* before the first instruction */
	cr_assert_eq(f->nvars, 6);  /* depot, smem, 2 x (pa, pr) */
	cr_assert(px_str_eqc(f->vars[0].name, "depot"));
	cr_assert_eq(f->vars[0].space, PX_SPACE_LOCAL);
	cr_assert_eq(f->vars[1].space, PX_SPACE_SHARED);
	cr_assert_eq(px_var_size(&f->vars[1]), 128);
	done(&p);
}

Test(functions, perf_directives_and_forward_declarations)
{
	struct parsed p = parse(".func (.param .b32 r) g (.param .b32 a);\n"
	                        ".entry k () .reqntid 32, 4 .maxnctapersm 3 .explicitcluster\n"
	                        "  .reqnctapercluster 2, 1, 1 .maxclusterrank 8 { ret; }\n"
	                        ".func (.param .b32 r) g (.param .b32 a) { ret; }\n"
	                        ".weak .func h () { exit; }\n"
	                        ".func q () .attribute(.unified(0x1, 0x2)) .abi_preserve 8 { ret; }\n");
	ASSERT_CLEAN(p);
	cr_assert_eq(p.m->nfuncs, 4);
	cr_assert_eq(px_module_find_func(p.m, px_str_c("g")), 0);
	cr_assert(p.m->funcs[0].has_body);
	cr_assert_eq(p.m->funcs[0].ninsns, 1);
	const struct px_func *k = func(p.m, "k");
	cr_assert_eq(k->reqntid[0], 32);
	cr_assert_eq(k->reqntid[1], 4);
	cr_assert_eq(k->reqntid[2], 0);
	cr_assert_eq(k->maxnctapersm, 3);
	cr_assert(k->explicitcluster);
	cr_assert_eq(k->reqnctapercluster[0], 2);
	cr_assert_eq(k->maxclusterrank, 8);
	cr_assert_eq(func(p.m, "h")->linkage, PX_LINK_WEAK);
	done(&p);
}

/* ---- registers and scopes ---- */

Test(registers, parameterised_names_ids_and_shadowing)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "kern");
	cr_assert_eq(f->nregs, 26);
	cr_assert_eq(reg_id(f, "%p0"), 0);
	cr_assert_eq(reg_id(f, "%r0"), 4);
	cr_assert_eq(reg_id(f, "%r9"), 13);
	cr_assert_eq(reg_id(f, "%rd0"), 14);
	cr_assert_eq(reg_id(f, "%v"), 23);
	cr_assert_eq(f->regs[23].vec, 4);
	cr_assert_eq(f->regs[23].type, PX_TYPE_F32);
	cr_assert_eq(f->regs[4].type, PX_TYPE_B32);
	cr_assert_eq(f->regs[4].line, 49);
	/* the inner block's %r<2> makes ids 24, 25 and hides %r0, %r1 only */
	cr_assert(px_str_eqc(f->regs[24].name, "%r0"));
	const struct px_insn *in = at_line(f, 74);
	cr_assert_eq(in->opnds[0].reg, 25);
	in = at_line(f, 76);
	cr_assert_eq(in->opnds[0].reg, 7);   /* outer %r3 */
	cr_assert_eq(in->opnds[1].reg, 25);
	cr_assert_eq(in->opnds[2].reg, 24);
	in = at_line(f, 78);
	cr_assert_eq(in->opnds[1].reg, 5);   /* outer %r1 again */
	done(&p);
}

Test(registers, undeclared_and_redeclared)
{
	struct parsed p = parse_body("\tmov.u32 %r1, %q7;\n\tadd.s32 %r11, %r1, 1;\n"
	                             "\t.reg .b32 %x;\n\t.reg .b32 %x;\n\tmov.u32 %r1, 1;\n");
	ASSERT_DIAG(p, PX_ERROR, 11, 15, "undeclared register '%q7'");
	ASSERT_DIAG(p, PX_ERROR, 12, 10, "undeclared register '%r11'");
	ASSERT_DIAG(p, PX_ERROR, 14, 12, "redeclaration of register '%x'");
	cr_assert_eq(p.d.errors, 3);
	cr_assert_eq(p.m->funcs[0].ninsns, 1);  /* only the last one survived */
	done(&p);
}

Test(registers, scopes_end_with_their_block)
{
	struct parsed p = parse_body("\t{\n\t.reg .b32 t;\n\tmov.u32 t, 1;\n\t}\n\tmov.u32 t, 2;\n");
	cr_assert_eq(p.d.errors, 0);
	/* outside the block `t` is not a register any more: a symbol */
	const struct px_insn *in = &p.m->funcs[0].insns[1];
	cr_assert_eq(in->opnds[0].kind, PX_OPND_SYM);
	done(&p);
}

Test(registers, numbered_names_plain_shadows_and_prefix_splits)
{
	/* %r<101> spells %r0..%r100 (the digit count grows twice); an inner
	 * plain %p1 (inline asm) hides %p<4>'s %p1 only; a plain r0 and a label
	 * ending in digits are no range names; %q12 resolves through %q1<5>
	 * only because %q<10> has no 12th register, %q7 through %q<10> */
	struct parsed p = parse(".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n"
	          "\t.reg .b32 %r<101>;\n\t.reg .pred %p<4>;\n\t.reg .b32 %q<10>;\n"
	          "\t.reg .b32 %q1<5>;\n"
	          "\tmov.u32 %r100, %r9;\n"
	          "\t{\n\t.reg .pred %p1;\n\t.reg .u32 r0;\n\tsetp.ne.u32 %p1, r0, 0;\n"
	          "\tsetp.ne.u32 %p2, %r10, 0;\n\t}\n"
	          "\tsetp.ne.u32 %p1, %q12, %q7;\n"
	          "$L__BB0_1:\n\t@%p1 bra $L__BB0_1;\n\tret;\n}\n");
	ASSERT_CLEAN(p);
	const struct px_func *f = &p.m->funcs[0];
	cr_assert_eq(f->nregs, 101 + 4 + 10 + 5 + 2);
	for (uint32_t i = 0; i < 101; i++) {
		char want[8];
		snprintf(want, sizeof want, "%%r%u", i);
		cr_assert(px_str_eqc(f->regs[i].name, want), "%s", want);
	}
	cr_assert(px_str_eqc(f->regs[101].name, "%p0"));
	cr_assert(px_str_eqc(f->regs[115].name, "%q10"));   /* %q1<5>'s first */
	cr_assert(px_str_eqc(f->regs[119].name, "%q14"));
	const struct px_insn *in = &f->insns[0];
	cr_assert_eq(in->opnds[0].reg, 100);
	cr_assert_eq(in->opnds[1].reg, 9);
	in = &f->insns[1];
	cr_assert_eq(in->opnds[0].reg, 120);                 /* the inner plain %p1 */
	cr_assert_eq(in->opnds[1].reg, 121);                 /* r0 */
	in = &f->insns[2];
	cr_assert_eq(in->opnds[0].reg, 103);                 /* %p2: the outer range */
	cr_assert_eq(in->opnds[1].reg, 10);
	in = &f->insns[3];
	cr_assert_eq(in->opnds[0].reg, 102);                 /* %p1 outside the block */
	cr_assert_eq(in->opnds[1].reg, 117);                 /* %q12 = %q1<5>'s 2 */
	cr_assert_eq(in->opnds[2].reg, 112);                 /* %q7 = %q<10>'s 7 */
	in = &f->insns[4];
	cr_assert_eq(in->guard, 102);
	cr_assert_eq(in->opnds[0].kind, PX_OPND_SYM);        /* the label */
	done(&p);
}

/* ---- instructions ---- */

Test(insns, modifier_decoding)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "kern");
	const struct px_insn *in = at_line(f, 67);
	cr_assert_eq(in->op, PX_OP_LD);
	cr_assert(px_str_eqc(in->opname, "ld"));
	cr_assert(px_str_eqc(in->modtext, ".global.nc.v4.f32"));
	cr_assert_eq(in->space, PX_SPACE_GLOBAL);
	cr_assert_eq(in->vec, 4);
	cr_assert_eq(in->ntypes, 1);
	cr_assert_eq(in->types[0], PX_TYPE_F32);
	cr_assert_eq(in->mods, PX_MOD_NC);
	cr_assert_eq(in->col, 2);
	in = at_line(f, 59);
	cr_assert_eq(in->op, PX_OP_CVTA);
	cr_assert(in->mods & PX_MOD_TO);
	cr_assert_eq(in->space, PX_SPACE_GLOBAL);
	in = at_line(f, 85);
	cr_assert_eq(in->ntypes, 2);
	cr_assert_eq(in->types[0], PX_TYPE_F32);
	cr_assert_eq(in->types[1], PX_TYPE_S32);
	in = at_line(f, 81);
	cr_assert_eq(in->cmp, PX_CMP_LT);
	in = at_line(f, 84);
	cr_assert(in->mods & PX_MOD_WIDE);
	in = at_line(f, 87);
	cr_assert_eq(in->op, PX_OP_BAR);
	cr_assert(in->mods & PX_MOD_SYNC);
	in = at_line(f, 69);
	cr_assert(in->mods & PX_MOD_FTZ);
	in = at_line(f, 83);
	cr_assert(in->mods & PX_MOD_UNI);
	cr_assert_eq(in->guard, reg_id(f, "%p2"));
	cr_assert(in->guard_neg);
	in = at_line(f, 64);
	cr_assert_eq(in->guard, 1);
	cr_assert_not(in->guard_neg);
	done(&p);
}

Test(insns, more_modifiers)
{
	struct parsed p = parse_body("\tsetp.lo.u32 %p1, %r1, %r2;\n"
	                             "\tmul.lo.s32 %r3, %r1, %r2;\n"
	                             "\tmul.hi.u32 %r3, %r1, %r2;\n"
	                             "\tsetp.nan.f32 %p1, %f1, %f2;\n"
	                             "\tset.gtu.u32.f32 %r1, %f1, %f2;\n"
	                             "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];\n"
	                             "\tbar.warp.sync -1;\n"
	                             "\tadd.cc.u32 %r1, %r1, 1;\n"
	                             "\tld.volatile.shared::cta.v2.u32 {%r1, %r2}, [%r3];\n"
	                             "\tvote.sync.uni.pred %p1, %p2, -1;\n"
	                             "\tmma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1,%r2,%r3}, {%r4,%r5}, {%f0,%f1,%f2,%f3};\n"
	                             "\tbar.red.popc.u32 %r1, 0, %p1;\n"
	                             "\tcvt.sat.approx.f32.f32 %f1, %f2;\n");
	ASSERT_CLEAN(p);
	const struct px_insn *in = p.m->funcs[0].insns;
	cr_assert_eq(in[0].cmp, PX_CMP_LO);
	cr_assert_eq(in[0].mods, 0);
	cr_assert_eq(in[1].mods, PX_MOD_LO);
	cr_assert_eq(in[1].cmp, PX_CMP_NONE);
	cr_assert_eq(in[2].mods, PX_MOD_HI);
	cr_assert_eq(in[3].cmp, PX_CMP_NAN);
	cr_assert_eq(in[4].cmp, PX_CMP_GTU);
	cr_assert_eq(in[4].ntypes, 2);
	cr_assert_eq(in[5].op, PX_OP_CP);
	cr_assert_eq(in[5].space, PX_SPACE_SHARED_CLUSTER);
	cr_assert(px_str_eqc(in[5].modtext, ".async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"));
	cr_assert_eq(in[6].mods, PX_MOD_WARP | PX_MOD_SYNC);
	cr_assert_eq(in[6].opnds[0].imm, -1);
	cr_assert_eq(in[7].mods, PX_MOD_CC);
	cr_assert_eq(in[8].space, PX_SPACE_SHARED_CTA);
	cr_assert_eq(in[8].vec, 2);
	cr_assert(in[8].mods & PX_MOD_VOLATILE);
	cr_assert_eq(in[9].mods, PX_MOD_SYNC);  /* vote's .uni is not bra's */
	cr_assert_eq(in[10].ntypes, 3);
	cr_assert_eq(in[10].types[1], PX_TYPE_BF16);
	cr_assert_eq(in[10].mods, PX_MOD_SYNC | PX_MOD_ALIGNED);
	cr_assert_eq(in[11].mods, PX_MOD_RED);
	cr_assert_eq(in[12].mods, PX_MOD_SAT | PX_MOD_APPROX);
	done(&p);
}

Test(insns, unknown_opcode_is_a_warning)
{
	struct parsed p = parse_body("\tfrobnicate.b32 %r1, %r2;\n\tret;\n");
	cr_assert_eq(p.d.errors, 0);
	ASSERT_DIAG(p, PX_WARNING, 11, 2, "unknown instruction 'frobnicate'");
	cr_assert_eq(p.m->nunknown_ops, 1);
	const struct px_insn *in = &p.m->funcs[0].insns[0];
	cr_assert_eq(in->op, PX_OP_UNKNOWN);
	cr_assert(px_str_eqc(in->opname, "frobnicate"));
	cr_assert(px_str_eqc(in->modtext, ".b32"));
	cr_assert_eq(in->nopnds, 2);
	done(&p);
}

/* ---- operands ---- */

Test(operands, shapes_in_hand_ptx)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "kern");
	const struct px_insn *in = at_line(f, 67);
	cr_assert_eq(in->nopnds, 2);
	cr_assert_eq(in->opnds[0].kind, PX_OPND_VEC);
	cr_assert_eq(in->opnds[0].nelems, 4);
	cr_assert_eq(in->opnds[0].elems[3].reg, reg_id(f, "%f3"));
	cr_assert_eq(in->opnds[0].line, 67);
	cr_assert_eq(in->opnds[0].col, 22);
	cr_assert_eq(in->opnds[1].kind, PX_OPND_ADDR);
	cr_assert_eq(in->opnds[1].reg, reg_id(f, "%rd2"));
	cr_assert_eq(in->opnds[1].imm, 16);
	cr_assert_eq(in->opnds[1].col, 44);
	in = at_line(f, 69);
	cr_assert_eq(in->opnds[1].reg, 23);
	cr_assert_eq(in->opnds[1].comp, 0);
	cr_assert_eq(in->opnds[2].comp, 3);
	in = at_line(f, 70);
	cr_assert_eq(in->opnds[0].kind, PX_OPND_ADDR);
	cr_assert(px_str_eqc(in->opnds[0].sym, "smem"));
	cr_assert_eq(in->opnds[0].reg, -1);
	cr_assert_eq(in->opnds[0].imm, -4);
	in = at_line(f, 60);
	cr_assert_eq(in->opnds[1].kind, PX_OPND_SREG);
	cr_assert_eq(in->opnds[1].sreg, PX_SREG_TID);
	cr_assert_eq(in->opnds[1].comp, 0);
	cr_assert_eq(at_line(f, 61)->opnds[1].comp, 1);
	cr_assert_eq(at_line(f, 62)->opnds[1].sreg, PX_SREG_LANEID);
	cr_assert_eq(at_line(f, 62)->opnds[1].comp, -1);
	in = at_line(f, 74);
	cr_assert_eq(in->opnds[1].kind, PX_OPND_FIMM);
	cr_assert(in->opnds[1].is_f32);
	cr_assert_float_eq(in->opnds[1].fimm, -1.0, 0);
	cr_assert_eq(at_line(f, 75)->opnds[1].imm, -5);
	cr_assert_eq(at_line(f, 78)->opnds[2].imm, 16);
	cr_assert_eq(at_line(f, 79)->opnds[2].imm, 3);
	cr_assert_eq(at_line(f, 80)->opnds[2].imm, 15);
	in = at_line(f, 82);
	cr_assert_eq(in->opnds[3].kind, PX_OPND_REG);
	cr_assert(in->opnds[3].neg);
	in = at_line(f, 88);
	cr_assert_eq(in->opnds[0].kind, PX_OPND_VEC);
	cr_assert(in->opnds[0].pair);
	cr_assert_eq(in->opnds[0].nelems, 2);
	cr_assert_eq(in->opnds[0].elems[1].reg, 3);
	cr_assert_eq(in->opnds[4].imm, -1);
	in = at_line(f, 89);
	cr_assert_eq(in->opnds[1].kind, PX_OPND_SYM);
	cr_assert(px_str_eqc(in->opnds[1].sym, "gcount"));
	done(&p);
}

Test(operands, call_shapes)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "kern");
	const struct px_insn *in = at_line(f, 94);
	cr_assert_eq(in->op, PX_OP_CALL);
	cr_assert(in->mods & PX_MOD_UNI);
	cr_assert_eq(in->nopnds, 3);
	cr_assert_eq(in->opnds[0].kind, PX_OPND_LIST);
	cr_assert_eq(in->opnds[0].nelems, 1);
	cr_assert(px_str_eqc(in->opnds[0].elems[0].sym, "pr"));
	cr_assert_eq(in->opnds[1].kind, PX_OPND_SYM);
	cr_assert(px_str_eqc(in->opnds[1].sym, "addone"));
	cr_assert_eq(in->opnds[2].kind, PX_OPND_LIST);
	in = at_line(f, 103);
	cr_assert_eq(in->nopnds, 4);
	cr_assert_eq(in->opnds[1].kind, PX_OPND_REG);
	cr_assert_eq(in->opnds[1].reg, reg_id(f, "%rd4"));
	cr_assert_eq(in->opnds[3].kind, PX_OPND_SYM);
	cr_assert(px_str_eqc(in->opnds[3].sym, "proto"));
	done(&p);
	p = parse_body("\tcall f;\n\tcall.uni g, (%r1, %r2);\n\tcall (%r1), h, ();\n\tret;\n");
	ASSERT_CLEAN(p);
	in = p.m->funcs[0].insns;
	cr_assert_eq(in[0].nopnds, 1);
	cr_assert_eq(in[0].opnds[0].kind, PX_OPND_SYM);
	cr_assert_eq(in[1].nopnds, 2);
	cr_assert_eq(in[1].opnds[1].nelems, 2);
	cr_assert_eq(in[2].opnds[2].kind, PX_OPND_LIST);
	cr_assert_eq(in[2].opnds[2].nelems, 0);
	done(&p);
}

Test(operands, special_registers_immediates_and_brackets)
{
	struct parsed p = parse_body("\tmov.u32 %r1, %pm3;\n"
	                             "\tmov.u32 %r1, %envreg7;\n"
	                             "\tmov.u64 %rd1, %pm2_64;\n"
	                             "\tmov.u32 %r1, %clusterid.z;\n"
	                             "\tmov.u32 %r1, %dynamic_smem_size;\n"
	                             "\tmov.u64 %rd1, %clock64;\n"
	                             "\tmov.u32 %r1, %reserved_smem_offset_1;\n"
	                             "\tmov.u32 %r1, 0xFFFFFFFFU;\n"
	                             "\tmov.f64 %rd1, 0d3FF0000000000000;\n"
	                             "\tmov.f32 %f1, 1.5;\n"
	                             "\tld.u32 %r1, [12];\n"
	                             "\tld.u32 %r1, [%rd1];\n"
	                             "\ttex.2d.v4.f32.f32 {%f0, %f1, %f2, _}, [tx, smp, {%f1, %f2}];\n"
	                             "\tmov.u32 %r1, %ntid;\n");
	ASSERT_CLEAN(p);
	const struct px_insn *in = p.m->funcs[0].insns;
	cr_assert_eq(in[0].opnds[1].sreg, PX_SREG_PM);
	cr_assert_eq(in[0].opnds[1].comp, 3);
	cr_assert_eq(in[1].opnds[1].sreg, PX_SREG_ENVREG);
	cr_assert_eq(in[1].opnds[1].comp, 7);
	cr_assert_eq(in[2].opnds[1].sreg, PX_SREG_PM64);
	cr_assert_eq(in[2].opnds[1].comp, 2);
	cr_assert_eq(in[3].opnds[1].sreg, PX_SREG_CLUSTERID);
	cr_assert_eq(in[3].opnds[1].comp, 2);
	cr_assert_eq(in[4].opnds[1].sreg, PX_SREG_DYNAMIC_SMEM_SIZE);
	cr_assert_eq(in[5].opnds[1].sreg, PX_SREG_CLOCK64);
	cr_assert_eq(in[6].opnds[1].sreg, PX_SREG_RESERVED_SMEM_OFFSET);
	cr_assert_eq(in[6].opnds[1].comp, 1);
	cr_assert_eq(in[7].opnds[1].imm, 0xFFFFFFFF);
	cr_assert_eq(in[8].opnds[1].kind, PX_OPND_FIMM);
	cr_assert_not(in[8].opnds[1].is_f32);
	cr_assert_float_eq(in[8].opnds[1].fimm, 1.0, 0);
	cr_assert_float_eq(in[9].opnds[1].fimm, 1.5, 0);
	cr_assert_eq(in[10].opnds[1].kind, PX_OPND_ADDR);
	cr_assert_eq(in[10].opnds[1].reg, -1);
	cr_assert_eq(in[10].opnds[1].sym.n, 0);
	cr_assert_eq(in[10].opnds[1].imm, 12);
	cr_assert_eq(in[11].opnds[1].imm, 0);
	cr_assert_eq(in[12].opnds[0].elems[3].kind, PX_OPND_SINK);
	const struct px_operand *b = &in[12].opnds[1];
	cr_assert_eq(b->kind, PX_OPND_LIST);
	cr_assert(b->bracket);
	cr_assert_eq(b->nelems, 3);
	cr_assert_eq(b->elems[0].kind, PX_OPND_SYM);
	cr_assert_eq(b->elems[2].kind, PX_OPND_VEC);
	cr_assert_eq(b->elems[2].nelems, 2);
	cr_assert_eq(in[13].opnds[1].comp, -1);
	done(&p);
	p = parse_body("\tmov.u32 %r1, %tid.w;\n\tmov.u32 %r1, %nosuch;\n");
	ASSERT_DIAG(p, PX_ERROR, 11, 19, "bad special register component");
	ASSERT_DIAG(p, PX_ERROR, 12, 15, "undeclared register '%nosuch'");
	done(&p);
}

/* ---- .loc, labels, branch targets ---- */

Test(loc, in_force_per_instruction_and_reset_per_function)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "kern");
	const struct px_insn *in = at_line(f, 58);
	cr_assert_eq(in->loc_file, 1);
	cr_assert_eq(in->loc_line, 10);
	cr_assert_eq(in->loc_col, 3);
	in = at_line(f, 67);
	cr_assert_eq(in->loc_file, 2);
	cr_assert_eq(in->loc_line, 20);
	cr_assert_eq(in->loc_col, 5);
	done(&p);
	p = parse(".entry a () {\n.loc 1 5 2\nret;\n}\n.entry b () {\nret;\n}\n");
	ASSERT_CLEAN(p);
	cr_assert_eq(p.m->funcs[0].insns[0].loc_line, 5);
	cr_assert_eq(p.m->funcs[1].insns[0].loc_line, 0);
	cr_assert_eq(p.m->funcs[1].insns[0].loc_file, 0);
	done(&p);
}

Test(labels, positions_branchtargets_and_undefined)
{
	struct parsed p = parse_file(FIX "hand.ptx");
	ASSERT_CLEAN(p);
	const struct px_func *f = func(p.m, "kern");
	cr_assert_eq(f->nlabels, 3);
	cr_assert(px_str_eqc(f->labels[0].name, "$L__a"));
	cr_assert_eq(f->labels[0].line, 108);
	cr_assert_eq(f->labels[0].col, 1);
	cr_assert_eq(f->insns[f->labels[0].insn].line, 109);
	cr_assert(px_str_eqc(f->labels[2].name, "$L__done"));
	cr_assert_eq(f->insns[f->labels[2].insn].op, PX_OP_RET);
	cr_assert_eq(f->nbtargets, 1);
	cr_assert(px_str_eqc(f->btargets[0].name, "ts"));
	cr_assert_eq(f->btargets[0].nlabels, 2);
	cr_assert(px_str_eqc(f->btargets[0].labels[1], "$L__b"));
	cr_assert_eq(f->btargets[0].line, 105);
	const struct px_insn *in = at_line(f, 107);
	cr_assert_eq(in->op, PX_OP_BRX);
	cr_assert_eq(in->opnds[1].kind, PX_OPND_SYM);
	done(&p);
	p = parse_body("\tbra $L__nowhere;\nL1:\nL1:\n\tret;\n");
	ASSERT_DIAG(p, PX_ERROR, 11, 6, "undefined label '$L__nowhere'");
	ASSERT_DIAG(p, PX_ERROR, 13, 1, "redefinition of label 'L1'");
	done(&p);
	p = parse_body("\tret;\nend:\n");
	ASSERT_CLEAN(p);
	cr_assert_eq(p.m->funcs[0].labels[0].insn, 1);  /* == ninsns */
	done(&p);
}

/* ---- nvcc output ---- */

/* Kernels ptxas compiles in path (-1 when ptxas is not installed). */
static int ptxas_entries(const char *path, const char *target)
{
	const char *ptxas = "/usr/local/cuda/bin/ptxas";
	if (access(ptxas, X_OK) != 0)
		return -1;
	char *cmd = xasprintf("%s -v -arch=%s %s -o /dev/null 2>&1", ptxas, target, path);
	FILE *f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return -1;
	char line[4096];
	int n = 0;
	while (fgets(line, sizeof line, f))
		if (strstr(line, "Compiling entry function"))
			n++;
	pclose(f);
	return n;
}

Test(fixtures, nvcc_output_parses_cleanly_and_matches_ptxas)
{
	static const struct {
		const char *file;
		unsigned entries, funcs;
	} fx[] = {
		{"small_sm75.ptx", 3, 6},
		{"small_sm90_lineinfo.ptx", 3, 6},
		{"small_sm80_G.ptx", 3, 6},
		{"small_sm120.ptx", 3, 6},
		{"cluster_sm90a.ptx", 3, 3},
		{"cluster_sm100a.ptx", 3, 3},
		{"hand.ptx", 1, 4},
	};
	for (size_t i = 0; i < PX_COUNTOF(fx); i++) {
		char *path = xasprintf(FIX "%s", fx[i].file);
		struct parsed p = parse_file(path);
		ASSERT_CLEAN(p);
		cr_assert_eq(p.d.n, 0, "%s: diagnostics", path);
		unsigned entries = 0;
		for (uint32_t k = 0; k < p.m->nfuncs; k++)
			entries += p.m->funcs[k].is_entry;
		cr_assert_eq(entries, fx[i].entries, "%s", path);
		cr_assert_eq(p.m->nfuncs, fx[i].funcs, "%s", path);
		char *target = xstrndup(p.m->target.p, p.m->target.n);
		int want = ptxas_entries(path, target);
		if (want >= 0)
			cr_assert_eq(entries, (unsigned)want, "%s: ptxas compiles %d kernels", path, want);
		free(target);
		done(&p);
		free(path);
	}
}

Test(fixtures, debug_sections_are_skipped)
{
	struct parsed p = parse_file(FIX "small_sm80_G.ptx");
	ASSERT_CLEAN(p);
	cr_assert(p.m->nfiles >= 1);
	const struct px_func *f = func(p.m, "_Z5saxpyfPKfPfi");
	cr_assert(f->ninsns > 0);
	cr_assert(f->insns[0].loc_file >= 1 || f->insns[1].loc_file >= 1);
	done(&p);
	p = parse(".section .debug_info { .b8 1 } .b32 } \n.entry k () { ret; }\n");
	ASSERT_DIAG(p, PX_ERROR, 1, 32, "expected a directive");
	done(&p);
	p = parse(".section .debug_info {\n.b8 1,2\n");
	ASSERT_DIAG(p, PX_ERROR, 1, 22, "unterminated .section");
	done(&p);
}

/* ---- diagnostics, recovery and limits ---- */

Test(errors, messages_positions_and_recovery)
{
	struct parsed p = parse_body("\tadd.s32 %r1, %r2, %r3\n\tmov.u32 %r1, 1;\n"
	                             "\tmov.u32 %r1, ];\n\tmov.u32 %r2, 2;\n");
	ASSERT_DIAG(p, PX_ERROR, 12, 2, "expected ';' after instruction");
	ASSERT_DIAG(p, PX_ERROR, 13, 15, "expected an operand");
	cr_assert_eq(p.d.errors, 2);
	const struct px_func *f = &p.m->funcs[0];
	cr_assert_eq(f->ninsns, 1);
	cr_assert_eq(f->insns[0].line, 14);
	done(&p);
	p = parse("# 1 \"x.cu\"\n.version 9.0\n.target sm_90\n.entry k() { ret; }\n");
	ASSERT_DIAG(p, PX_ERROR, 1, 1, "unexpected character '#'");
	cr_assert_eq(p.m->nfuncs, 1);
	cr_assert(px_str_eqc(p.m->target, "sm_90"));
	done(&p);
	p = parse(".entry k() {\n\tret;\n");
	ASSERT_DIAG(p, PX_ERROR, 1, 12, "unterminated function body");
	done(&p);
	p = parse(".version 9.0\n.global .u32 a[3] = {1, 2;\n.entry k() { ret; }\n");
	ASSERT_DIAG(p, PX_ERROR, 2, 26, "expected '}' in initializer");
	cr_assert_eq(p.m->nfuncs, 1);
	done(&p);
	p = parse(".entry k(.param .u32 a, .param .u32) { ret; }\n");
	ASSERT_DIAG(p, PX_ERROR, 1, 36, "expected a parameter name");
	done(&p);
}

Test(errors, capped)
{
	size_t n = 2000;
	char *src = xmalloc(n * 10 + 64);
	size_t len = (size_t)sprintf(src, ".entry k() {\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(src + len, "\tmov %%x;\n");
	len += (size_t)sprintf(src + len, "}\n");
	struct parsed p = parse_buf(src, len);
	cr_assert_eq(p.d.errors, 50);
	cr_assert_eq(p.d.items[p.d.n - 1].severity, PX_NOTE);
	cr_assert_str_eq(p.d.items[p.d.n - 1].message, "too many errors; stopping");
	done(&p);
	free(src);
}

Test(limits, deep_braces_give_a_located_error)
{
	size_t n = 100000;
	char *src = xmalloc(n + 64);
	size_t len = (size_t)sprintf(src, ".entry k()\n");
	memset(src + len, '{', n);
	len += n;
	struct parsed p = parse_buf(src, len);
	ASSERT_DIAG(p, PX_ERROR, 2, 1025, "scopes nested too deeply (limit 1024)");
	done(&p);
	/* and 100k braces at module level or in an initialiser */
	memset(src, '{', n);
	p = parse_buf(src, n);
	cr_assert(p.d.errors >= 1);
	cr_assert_eq(p.d.items[0].line, 1);
	cr_assert_eq(p.d.items[0].column, 1);
	done(&p);
	len = (size_t)sprintf(src, ".global .u32 a[1] = ");
	memset(src + len, '{', n - 64);
	p = parse_buf(src, len + n - 64);
	ASSERT_DIAG(p, PX_ERROR, 1, 21, "unterminated initializer");
	done(&p);
	free(src);
}

Test(limits, huge_operand_lists)
{
	size_t n = 200000;
	char *src = xmalloc(n * 8 + 128);
	size_t len = (size_t)sprintf(src, ".entry k() {\n.reg .b32 %%r<2>;\nmov.b32 %%r0");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(src + len, ", %%r1");
	len += (size_t)sprintf(src + len, ";\nret;\n}\n");
	struct parsed p = parse_buf(src, len);
	ASSERT_DIAG(p, PX_ERROR, 3, 1, "too many operands (limit 65535)");
	cr_assert_eq(p.d.errors, 1);
	cr_assert_eq(p.m->funcs[0].ninsns, 1);
	done(&p);
	len = (size_t)sprintf(src, ".entry k() {\n.reg .b32 %%r<2>;\nmov.b32 %%r0, {%%r1");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(src + len, ", %%r1");
	len += (size_t)sprintf(src + len, "};\nret;\n}\n");
	p = parse_buf(src, len);
	ASSERT_DIAG(p, PX_ERROR, 3, 14, "too many elements (limit 65535)");
	done(&p);
	free(src);
}

Test(limits, register_budget)
{
	struct parsed p = parse(".entry k() {\n.reg .b32 %r<4000000000>;\n}\n");
	ASSERT_DIAG(p, PX_ERROR, 2, 11, "too many registers declared");
	done(&p);
	p = parse(".entry k() {\n.reg .b32 %r<1000>;\nmov.b32 %r999, 1;\nmov.b32 %r1000, 1;\n}\n");
	ASSERT_DIAG(p, PX_ERROR, 4, 9, "undeclared register '%r1000'");
	cr_assert_eq(p.d.errors, 1);
	cr_assert_eq(p.m->funcs[0].nregs, 1000);
	cr_assert(px_str_eqc(p.m->funcs[0].regs[999].name, "%r999"));
	done(&p);
}

/* Every prefix of a fixture must parse without crashing and every error
 * must carry a position inside the text. */
static void check_located(const struct parsed *p, size_t len)
{
	(void)len;
	for (size_t i = 0; i < p->d.n; i++) {
		cr_assert_geq(p->d.items[i].line, 1);
		cr_assert_geq(p->d.items[i].column, 1);
	}
}

Test(robustness, every_truncation_of_a_fixture)
{
	size_t len;
	char *err = NULL;
	char *text = px_read_file(FIX "hand.ptx", &len, &err);
	cr_assert_not_null(text);
	for (size_t cut = 0; cut <= len; cut++) {
		struct parsed p = parse_buf(text, cut);
		check_located(&p, cut);
		done(&p);
	}
	free(text);
}

Test(robustness, random_byte_flips)
{
	size_t len;
	char *err = NULL;
	char *text = px_read_file(FIX "small_sm90_lineinfo.ptx", &len, &err);
	cr_assert_not_null(text);
	char *copy = xmalloc(len);
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	for (int iter = 0; iter < 500; iter++) {
		memcpy(copy, text, len);
		for (int k = 0; k < 1 + iter % 8; k++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			size_t pos = (size_t)(seed >> 33) % len;
			copy[pos] = (char)(seed >> 17);
		}
		struct parsed p = parse_buf(copy, len);
		check_located(&p, len);
		done(&p);
	}
	free(copy);
	free(text);
}

Test(robustness, binary_garbage)
{
	size_t n = 1 << 16;
	char *buf = xmalloc(n);
	uint64_t seed = 42;
	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (char)(seed >> 40);
	}
	struct parsed p = parse_buf(buf, n);
	cr_assert(p.d.errors >= 1);
	check_located(&p, n);
	done(&p);
	free(buf);
}

Test(errors, unknown_instruction_warnings_are_capped)
{
	size_t n = 1000;
	char *src = xmalloc(n * 8 + 64);
	size_t len = (size_t)sprintf(src, ".entry k() {\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(src + len, "\tfoo;\n");
	len += (size_t)sprintf(src + len, "}\n");
	struct parsed p = parse_buf(src, len);
	cr_assert_eq(p.d.errors, 0);
	cr_assert_eq(p.m->nunknown_ops, 1000);
	cr_assert_eq(p.m->funcs[0].ninsns, 1000);
	cr_assert_eq(p.d.n, 101);
	ASSERT_DIAG(p, PX_NOTE, 102, 2, "more unknown instructions follow; not reported one by one");
	done(&p);
	free(src);
}

/* ---- streaming (px_ptx_parse_hooked) ---- */

struct seen {
	uint32_t n;
	uint32_t index[8];
	uint32_t ninsns[8];
	uint32_t nfuncs_then[8];
	bool own_arena[8];
};

static void on_func(void *ctx, struct px_module *m, uint32_t i)
{
	struct seen *s = ctx;
	struct px_func *f = &m->funcs[i];
	cr_assert(f->has_body);
	cr_assert_lt(s->n, 8);
	s->index[s->n] = i;
	s->ninsns[s->n] = f->ninsns;
	s->nfuncs_then[s->n] = m->nfuncs;
	s->own_arena[s->n] = f->body_arena != NULL;
	/* every operand of the body is readable now */
	for (uint32_t k = 0; k < f->ninsns; k++)
		for (uint32_t j = 0; j < f->insns[k].nopnds; j++)
			cr_assert_geq(f->insns[k].opnds[j].line, f->line);
	s->n++;
	px_func_drop_body(f);
}

Test(streaming, each_body_is_handed_over_in_order_and_can_be_dropped)
{
	size_t len;
	char *err = NULL;
	char *text = px_read_file(FIX "hand.ptx", &len, &err);
	cr_assert_not_null(text);
	struct px_diags d = {0};
	struct seen s = {0};
	struct px_parse_hook hook = {.function = on_func, .ctx = &s, .body_arenas = true};
	struct px_module *m = px_ptx_parse_hooked(FIX "hand.ptx", text, len, &d, &hook);
	cr_assert_eq(d.errors, 0);
	cr_assert_eq(s.n, 3);  /* addone, regfn, kern (ext_fn has no body) */
	cr_assert_eq(s.index[0], 1);
	cr_assert_eq(s.index[2], 3);
	cr_assert_eq(s.ninsns[0], 4);
	cr_assert_eq(s.nfuncs_then[0], 2);
	cr_assert(s.own_arena[2]);
	cr_assert_eq(m->nfuncs, 4);
	const struct px_func *k = func(m, "kern");
	cr_assert(k->body_dropped);
	cr_assert_null(k->insns);
	cr_assert_eq(k->nparams, 3);     /* the signature outlives the body */
	cr_assert_eq(k->nvars, 6);
	cr_assert(px_str_eqc(k->pragmas[0], "nounroll"));
	cr_assert_eq(m->nvars, 11);
	px_module_delete(m);
	px_diags_free(&d);
}

Test(streaming, no_hand_over_after_an_error)
{
	const char *src = ".entry a () { ret; }\n.entry b () { mov %x; }\n.entry c () { ret; }\n";
	char *text = xstrdup(src);
	struct px_diags d = {0};
	struct seen s = {0};
	struct px_parse_hook hook = {.function = on_func, .ctx = &s, .body_arenas = false};
	struct px_module *m = px_ptx_parse_hooked("t.ptx", text, strlen(src), &d, &hook);
	cr_assert_eq(d.errors, 1);
	cr_assert_eq(s.n, 1);
	cr_assert_not(s.own_arena[0]);
	cr_assert_eq(m->nfuncs, 3);
	cr_assert_eq(m->funcs[2].ninsns, 1);  /* parsed, not handed over */
	px_module_delete(m);
	px_diags_free(&d);
}

/* ---- mapped input (px_map_file, px_parse_hook.text_mapped) ---- */

/* Resident bytes of the mapping that holds addr (/proc/self/smaps), or -1. */
static long mapping_rss(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	bool in = false;
	long rss = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		long kb;
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1) {
			rss = kb * 1024;
			break;
		}
	}
	fclose(f);
	return rss;
}

static char *write_temp(const char *data, size_t len)
{
	char *path = xstrdup("/tmp/ptxray-test-XXXXXX");
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

Test(mapped, map_file_ends_in_a_nul_and_falls_back_to_reading)
{
	/* a file of exactly one page: its NUL lies in the page after it */
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *data = xmalloc(pg);
	memset(data, 'x', pg);
	char *path = write_temp(data, pg);
	size_t len = 0;
	bool mapped = false;
	char *err = NULL;
	char *text = px_map_file(path, &len, &mapped, &err);
	cr_assert_not_null(text);
	cr_assert(mapped);
	cr_assert_eq(len, pg);
	cr_assert_eq(memcmp(text, data, pg), 0);
	cr_assert_eq(text[len], 0);
	/* giving pages back keeps the content */
	cr_assert_eq(px_text_release(text, len, 0, len - 1), 0);  /* no whole page */
	cr_assert_eq(px_text_release(text, len, 0, len), pg);
	cr_assert_eq(memcmp(text, data, pg), 0);
	px_text_free(text, len, mapped);
	unlink(path);
	free(path);
	/* an empty file and a device are read, not mapped */
	path = write_temp("", 0);
	text = px_map_file(path, &len, &mapped, &err);
	cr_assert_not_null(text);
	cr_assert_not(mapped);
	cr_assert_eq(len, 0);
	cr_assert_eq(text[0], 0);
	px_text_free(text, len, mapped);
	unlink(path);
	free(path);
	text = px_map_file("/dev/null", &len, &mapped, &err);
	cr_assert_not_null(text);
	cr_assert_not(mapped);
	cr_assert_eq(len, 0);
	px_text_free(text, len, mapped);
	/* errors read as px_read_file's */
	cr_assert_null(px_map_file("/nonexistent/x.ptx", &len, &mapped, &err));
	cr_assert_str_eq(err, "No such file or directory");
	free(err);
	cr_assert_null(px_map_file("tests", &len, &mapped, &err));
	cr_assert_str_eq(err, "Is a directory");
	free(err);
	free(data);
}

static bool outside(px_str s, const struct px_module *m)
{
	return s.n == 0 || s.p + s.n <= m->text || s.p >= m->text + m->len;
}

struct mapped_seen {
	uint32_t n;
	long max_rss;
};

static void on_mapped_func(void *ctx, struct px_module *m, uint32_t i)
{
	struct mapped_seen *s = ctx;
	if (s->n++ % 64 == 0) {
		long rss = mapping_rss(m->text);
		s->max_rss = rss > s->max_rss ? rss : s->max_rss;
	}
	px_func_drop_body(&m->funcs[i]);
}

Test(mapped, pages_behind_the_parser_are_given_back_and_names_kept)
{
	/* about 6 MB of kernels: the text mapped holds about 1 MB at a time */
	struct px_buf b = {0};
	px_buf_printf(&b, ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n");
	uint32_t nk = 3000;
	for (uint32_t k = 0; k < nk; k++) {
		px_buf_printf(&b, ".visible .entry kern%u(.param .u64 p%u)\n{\n\t.reg .b32 %%r<9>;\n"
		              "\t.shared .align 4 .b8 sm%u[64];\n", k, k, k);
		for (int i = 0; i < 60; i++)
			px_buf_printf(&b, "\t.loc 1 %d 1\n\tadd.s32 \t%%r%d, %%r%d, %d;\n", i + 1, i % 8,
			              (i + 1) % 8, i);
		px_buf_printf(&b, "\tret;\n}\n");
	}
	char *path = write_temp(b.p, b.n);
	size_t len = 0;
	bool mapped = false;
	char *err = NULL;
	char *text = px_map_file(path, &len, &mapped, &err);
	cr_assert(mapped);
	cr_assert_eq(len, b.n);
	struct px_diags d = {0};
	struct mapped_seen s = {0};
	struct px_parse_hook hook = {.function = on_mapped_func, .ctx = &s, .body_arenas = true,
	                             .text_mapped = true};
	struct px_module *m = px_ptx_parse_hooked(path, text, len, &d, &hook);
	cr_assert_eq(d.errors, 0);
	cr_assert_eq(s.n, nk);
	cr_assert(m->text_mapped);
	/* the mapping never held much more than one release step (1 MB) plus
	 * the kernel's fault-around window; none of it at the end */
	cr_assert_gt(s.max_rss, 0);
	cr_assert_lt(s.max_rss, 2 << 20, "rss %ld", s.max_rss);
	cr_assert_leq(mapping_rss(m->text), 0, "rss %ld", mapping_rss(m->text));
	/* what outlives the bodies is copied out of the text */
	cr_assert(outside(m->target, m) && px_str_eqc(m->target, "sm_90"));
	cr_assert(outside(m->files[0].name, m) && px_str_eqc(m->files[0].name, "k.cu"));
	cr_assert_eq(m->nfuncs, nk);
	for (uint32_t k = 0; k < nk; k++) {
		const struct px_func *f = &m->funcs[k];
		char want[32];
		snprintf(want, sizeof want, "kern%u", k);
		cr_assert(outside(f->name, m) && px_str_eqc(f->name, want));
		snprintf(want, sizeof want, "p%u", k);
		cr_assert(outside(f->params[0].name, m) && px_str_eqc(f->params[0].name, want));
		snprintf(want, sizeof want, "sm%u", k);
		cr_assert(outside(f->vars[0].name, m) && px_str_eqc(f->vars[0].name, want));
	}
	cr_assert_leq(mapping_rss(m->text), 0);
	px_module_delete(m);
	px_diags_free(&d);
	unlink(path);
	free(path);
	px_buf_free(&b);
}
