/*
 * 2D Coulomb friction as an LCP, solved by lexicographic Lemke (nsd_lcp_lemke).
 *
 * Reformulation (in the spirit of F. Pfeiffer, C. Glocker, "Multibody Dynamics
 * with Unilateral Contacts", 1996: the friction interval split at its two
 * ends). Per contact a, with p_a = r_t,a + mu_a r_n,a (distance of r_t to its
 * lower bound -mu r_n) and a slack lambda_a >= 0, the LCP unknown
 * z_a = (r_n, p, lambda) and w_a = (u_n, lambda + u_t, 2 mu r_n - p), i.e.
 *   0 <= r_n    _|_ u_n                >= 0   (Signorini)
 *   0 <= p      _|_ lambda + u_t       >= 0
 *   0 <= lambda _|_ 2 mu r_n - p       >= 0   (= mu r_n - r_t)
 * Then lambda > 0 forces r_t = mu r_n and u_t = -lambda < 0 (slide backwards);
 * lambda = 0 leaves u_t >= 0 with u_t = 0 unless p = 0, i.e. r_t = -mu r_n
 * (stick, or slide forwards): exactly Coulomb's law. Substituting
 * r_t = p - mu r_n in u = W r + q, the LCP matrix has the 3x3 blocks
 *   [ W_nn - mu_b W_nt   W_nt   0       ]
 *   [ W_tn - mu_b W_tt   W_tt   d_ab    ]
 *   [ 2 mu_a d_ab        -d_ab  0       ]     (d_ab = 1 if a = b)
 * for each stored 2x2 block W_ab, and q_lcp,a = (q_n, q_t, 0). Size 3 nc.
 * Lemke works on a dense tableau of 3nc x (6nc + 3). Above
 * FC2D_LEMKE_MAX_SIZE unknowns, the LCP is restricted to the contacts that
 * can carry a reaction: contacts a with r_n > 0 or u_n < 0 after a few NSGS
 * sweeps (the others keep r_a = 0); after each Lemke solve, the contacts left
 * out whose velocity says they must close (u_n < 0) join the set and Lemke
 * runs again, until the full FC2D error is below tolerance (an NSGS prediction
 * that already meets it is returned as it is, its sweeps as iterations).
 * options->warm_start is ignored (Lemke starts from its own basis).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_gs_internal.h"
#include "nsdyn/nsd_lcp.h"

/* Largest LCP (3 x contacts) given to the dense Lemke tableau (about 170 MB there). */
#define FC2D_LEMKE_MAX_SIZE 3000
/* NSGS sweeps that predict the contacts of the reduced LCP, for large problems. */
#define FC2D_LEMKE_PREDICTOR_SWEEPS 1000
/* Lemke solves on a growing contact set before giving up. */
#define FC2D_LEMKE_MAX_ROUNDS 8

/* The sparse-block LCP matrix on the contacts sel[0..ns-1] (increasing; pos[a] is the
 * place of contact a in sel, or -1): 3x3 blocks on W's pattern plus the diagonal.
 * NULL on no memory. */
static NsdMatrix* build_lcp_matrix(const NsdFcgsOperator* op, const double* mu, const int* sel,
                                   int ns, const int* pos) {
  const NsdSparseBlock* s = op->matrix->sbm;
  int* ends = malloc((size_t)(ns > 0 ? ns : 1) * sizeof *ends);
  int* row_ptr = malloc(((size_t)ns + 1) * sizeof *row_ptr);
  int* col_index = malloc(((size_t)s->row_ptr[op->nc] + (size_t)ns + 1) * sizeof *col_index);
  int* wblock = malloc(((size_t)s->row_ptr[op->nc] + (size_t)ns + 1) * sizeof *wblock);
  NsdMatrix* L = NULL;
  if (!ends || !row_ptr || !col_index || !wblock) goto done;

  // block pattern: W's selected blocks of each selected row, with the diagonal
  // block inserted if missing (wblock: the W block behind each, or -1)
  row_ptr[0] = 0;
  int nb = 0;
  for (int i = 0; i < ns; ++i) {
    const int a = sel[i];
    ends[i] = 3 * (i + 1);
    int diag_done = 0;
    for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k) {
      const int j = pos[s->col_index[k]];
      if (j < 0) continue;
      if (!diag_done && j >= i) {
        if (j > i) {
          wblock[nb] = -1;
          col_index[nb++] = i;
        }
        diag_done = 1;
      }
      wblock[nb] = k;
      col_index[nb++] = j;
    }
    if (!diag_done) {
      wblock[nb] = -1;
      col_index[nb++] = i;
    }
    row_ptr[i + 1] = nb;
  }
  L = nsd_matrix_create_sparse_block(ns, ns, ends, ends, row_ptr, col_index);
  if (!L) goto done;

  // block values (column-major 3x3): entry (i, j) at 3 j + i
  for (int i = 0; i < ns; ++i) {
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      const int j = col_index[k], b = sel[j];
      double* B = nsd_matrix_sbm_block(L, k);
      if (wblock[k] >= 0) {
        const double* W = s->values + s->value_start[wblock[k]];
        const double wnn = W[0], wtn = W[1], wnt = W[2], wtt = W[3];
        B[0] = wnn - mu[b] * wnt;
        B[1] = wtn - mu[b] * wtt;
        B[3] = wnt;
        B[4] = wtt;
      }
      if (j == i) {
        B[2] = 2.0 * mu[b];
        B[5] = -1.0;
        B[7] = 1.0;
      }
    }
  }

done:
  free(ends);
  free(row_ptr);
  free(col_index);
  free(wblock);
  return L;
}

/* Lemke on the LCP of the contacts marked in in_set (r = 0 elsewhere), within the
 * time left; r receives the reactions. Adds the pivots to report->iterations. */
static NsdStatus lemke_on_set(const NsdFcgsOperator* op, const NsdFc* p, const char* in_set,
                              const NsdSolverOptions* opt, double* r, NsdReport* report) {
  const int nc = p->nc;
  int* sel = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *sel);
  int* pos = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *pos);
  if (!sel || !pos) {
    free(sel);
    free(pos);
    return nsd_report_fail(report, NSD_FAILED, "out of memory, %d contacts", nc);
  }
  int ns = 0;
  for (int a = 0; a < nc; ++a) {
    pos[a] = in_set[a] ? ns : -1;
    if (in_set[a]) sel[ns++] = a;
  }
  const int n = 3 * ns;
  NsdStatus status = NSD_OK;
  if (n > FC2D_LEMKE_MAX_SIZE) {
    status = nsd_report_fail(report, NSD_FAILED,
                             "%d contacts (%d in the LCP): the LCP of size %d exceeds the dense "
                             "Lemke limit %d",
                             nc, ns, n, FC2D_LEMKE_MAX_SIZE);
    free(sel);
    free(pos);
    return status;
  }

  // the LCP (M_lcp, q_lcp) and its unknowns
  NsdMatrix* L = build_lcp_matrix(op, p->mu, sel, ns, pos);
  double* ql = malloc((size_t)(n > 0 ? n : 1) * sizeof *ql);
  double* z = calloc((size_t)(n > 0 ? n : 1), sizeof *z);
  double* w = calloc((size_t)(n > 0 ? n : 1), sizeof *w);
  NsdLcp* lcp = NULL;
  if (L && ql) {
    for (int i = 0; i < ns; ++i) {
      ql[3 * i] = p->q[2 * sel[i]];
      ql[3 * i + 1] = p->q[2 * sel[i] + 1];
      ql[3 * i + 2] = 0.0;
    }
    lcp = nsd_lcp_create(L, ql);
    L = NULL; /* owned by the LCP (or destroyed by a failed create) */
  }
  nsd_matrix_destroy(L);
  if (!lcp || !z || !w) {
    status = nsd_report_fail(report, NSD_FAILED, "out of memory building the LCP of size %d", n);
  } else {
    // Lemke, within what is left of the time limit
    NsdSolverOptions lopt = *opt;
    lopt.warm_start = 0;
    if (opt->time_limit > 0.0) {
      lopt.time_limit = opt->time_limit - (nsd_wall_time() - report->start_time);
      if (!(lopt.time_limit > 0.0)) lopt.time_limit = 1e-9;
    }
    NsdReport lrep;
    memset(&lrep, 0, sizeof lrep);
    const NsdStatus lstatus = nsd_lcp_lemke(lcp, z, w, &lopt, &lrep);
    report->iterations += lrep.iterations;

    // back to the contact variables: r_n = z_1, r_t = p - mu r_n, r = 0 off the set
    for (int k = 0; k < 2 * nc; ++k) r[k] = 0.0;
    for (int i = 0; i < ns; ++i) {
      const int a = sel[i];
      r[2 * a] = z[3 * i];
      r[2 * a + 1] = z[3 * i + 1] - p->mu[a] * z[3 * i];
    }
    if (lstatus != NSD_OK)
      status =
          nsd_report_fail(report, lstatus == NSD_BAD_INPUT ? NSD_FAILED : lstatus,
                          "Lemke on the LCP reformulation (%d contacts): %s", ns, lrep.message);
  }
  nsd_lcp_destroy(lcp);
  free(ql);
  free(z);
  free(w);
  free(sel);
  free(pos);
  return status;
}

NsdStatus nsd_fc2d_lemke(const NsdFc* problem, double* r, double* u,
                         const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  NsdSolverOptions opt;
  NsdStatus status = nsd_fcgs_begin("lemke", 2, problem, r, u, options, &opt, &report, &own);
  if (status != NSD_OK) return status;
  const int nc = problem->nc;
  if (nc == 0) {
    report->residual = nsd_fc_error(problem, r, u);
    return nsd_report_finish(report, opt.tolerance);
  }

  // the contact-aligned blocks of W, and the contact set of the LCP
  NsdFcgsOperator op;
  status = nsd_fcgs_operator_init(&op, problem, report);
  if (status != NSD_OK) return status;
  char* in_set = malloc((size_t)(nc > 0 ? nc : 1));
  if (!in_set) {
    nsd_fcgs_operator_free(&op);
    return nsd_report_fail(report, NSD_FAILED, "out of memory, %d contacts", nc);
  }
  const int reduce = 3 * nc > FC2D_LEMKE_MAX_SIZE;
  if (!reduce) {
    // all contacts
    memset(in_set, 1, (size_t)nc);
  } else {
    // a large problem: NSGS sweeps predict the contacts that carry a reaction
    NsdSolverOptions popt = opt;
    popt.max_iterations = FC2D_LEMKE_PREDICTOR_SWEEPS;
    popt.warm_start = 0;
    NsdReport prep;
    memset(&prep, 0, sizeof prep);
    nsd_fc2d_nsgs(problem, r, u, &popt, &prep);
    for (int a = 0; a < nc; ++a) in_set[a] = r[2 * a] > 0.0 || u[2 * a] < 0.0;
    // the prediction may already be a solution
    if (prep.status == NSD_OK) {
      free(in_set);
      nsd_fcgs_operator_free(&op);
      report->iterations = prep.iterations;
      report->residual = prep.residual;
      return nsd_report_finish(report, opt.tolerance);
    }
  }

  // Lemke, then (reduced problems) add the contacts that must close and repeat
  const double q_norm = nsd_fcgs_norm(problem->q, 2 * nc);
  for (int round = 0; round < FC2D_LEMKE_MAX_ROUNDS; ++round) {
    status = lemke_on_set(&op, problem, in_set, &opt, r, report);
    if (status != NSD_OK || !reduce) break;
    nsd_fcgs_velocity(&op, problem->q, r, u);
    if (nsd_fc_siconos_error(2, nc, problem->mu, q_norm, r, u) <= opt.tolerance) break;
    int added = 0;
    for (int a = 0; a < nc; ++a)
      if (!in_set[a] && u[2 * a] < 0.0) in_set[a] = 1, ++added;
    if (!added) {
      status = nsd_report_fail(report, NSD_FAILED,
                               "reduced LCP solved but no contact left out is violated");
      break;
    }
    if (round + 1 == FC2D_LEMKE_MAX_ROUNDS)
      status = nsd_report_fail(report, NSD_FAILED, "contact set still growing after %d rounds",
                               FC2D_LEMKE_MAX_ROUNDS);
  }
  free(in_set);
  nsd_fcgs_operator_free(&op);

  // u = M r + q and the FC2D error of r
  report->residual = nsd_fc_error(problem, r, u);
  if (status != NSD_OK && !(report->residual <= opt.tolerance)) return status;
  if (status == NSD_OK && !(report->residual <= opt.tolerance))
    return nsd_report_fail(report, NSD_FAILED,
                           "Lemke solved the LCP but the FC2D error of its answer is %.3e > %.3e",
                           report->residual, opt.tolerance);
  return nsd_report_finish(report, opt.tolerance);
}
