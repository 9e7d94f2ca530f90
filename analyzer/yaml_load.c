/* yaml_load.c: text to a libyaml document, with libyaml's syntax errors as
 * located diagnostics. The parser is released at once: the document owns
 * its nodes (and their marks, which the readers use for their own errors). */
#include "yaml_load.h"

bool px_yaml_load(const char *path, const char *text, size_t len, yaml_document_t *doc,
                  struct px_diags *diags)
{
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		px_diag_add(diags, PX_ERROR, path, 1, 1, NULL, "cannot initialise the YAML parser");
		return false;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	bool ok = yaml_parser_load(&parser, doc) != 0;
	if (!ok) {
		yaml_mark_t m = parser.problem_mark;
		px_diag_add(diags, PX_ERROR, path, (uint32_t)m.line + 1, (uint32_t)m.column + 1, NULL,
		            "invalid YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
		            parser.context ? " " : "", parser.context ? parser.context : "");
	}
	yaml_parser_delete(&parser);
	return ok;
}
