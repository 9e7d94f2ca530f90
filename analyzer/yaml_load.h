/* yaml_load.h: the one way ptxray's YAML readers (arch tables, the PTX
 * feature table, .ptxray.yaml) turn text into a libyaml document. */
#ifndef PX_YAML_LOAD_H
#define PX_YAML_LOAD_H

#include <yaml.h>

#include "util.h"

/* Parses len bytes of text into *doc (the caller frees it with
 * yaml_document_delete). On a syntax error, adds `path:line:col: error:
 * invalid YAML: ...` at libyaml's position and returns false. */
bool px_yaml_load(const char *path, const char *text, size_t len, yaml_document_t *doc,
                  struct px_diags *diags);

#endif
