#ifndef DATAMODELGEN_CLIBXML2_SHIM_H
#define DATAMODELGEN_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Distributions build libxml2 with ICU; its headers would clash with the ICU copy inside Foundation.
// Nothing here uses libxml2's ICU converters, so keep those headers out.
#ifdef LIBXML_ICU_ENABLED
#undef LIBXML_ICU_ENABLED
#endif
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/parserInternals.h>

/// `xmlFree` is a global function pointer, which Swift 6 treats as shared mutable state.
static inline void datamodelgen_xml_free(void *pointer) {
    xmlFree(pointer);
}
#endif
