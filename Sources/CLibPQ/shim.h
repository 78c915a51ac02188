#ifndef DATAMODELGEN_CLIBPQ_SHIM_H
#define DATAMODELGEN_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
