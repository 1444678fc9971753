/**
 * @file numerics.h
 * @brief nsdyn Numerics: the whole C API in one include.
 *
 * @code
 * #include <nsdyn/numerics.h>
 * double m[] = {2, 1, 1, 2}, q[] = {-5, -6}, z[2], w[2];
 * NsdLcp* lcp = nsd_lcp_create(nsd_matrix_create_dense_from(2, 2, m), q);
 * NsdSolverOptions opt; nsd_solver_options_default(&opt);
 * NsdReport rep = {0};
 * nsd_lcp_lemke(lcp, z, w, &opt, &rep);   // z = (4/3, 7/3)
 * nsd_lcp_destroy(lcp);
 * @endcode
 */
#ifndef NSDYN_NUMERICS_H
#define NSDYN_NUMERICS_H

#include "nsd_bodies.h"
#include "nsd_common.h"
#include "nsd_fc.h"
#include "nsd_gfc.h"
#include "nsd_gmp.h"
#include "nsd_io.h"
#include "nsd_lcp.h"
#include "nsd_matrix.h"
#include "nsd_mlcp.h"
#include "nsd_options.h"
#include "nsd_problems.h"
#include "nsd_rfc.h"
#include "nsd_solvers.h"
#include "nsd_version.h"

#endif
