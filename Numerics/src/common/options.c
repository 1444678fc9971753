/* The solver option table (see nsd_options.h): the one place where an option's
 * name, type, default, range, the solvers that read it and its documentation are
 * written. Defaults, checks, parsing and the Markdown reference derive from it. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

#define OFF(field) offsetof(NsdSolverOptions, field)
#define INF INFINITY

/* Tags (what a solver must read, NsdSolverEntry::options):
 *   relax   the relaxation of the Gauss-Seidel family
 *   pgs     the error-check period of the projected Gauss-Seidel family
 *   block   block PGS's block size
 *   lemke   the pivot tolerance of Lemke
 *   enum    the size cap of enumeration
 *   newton  the line search of the Newton solvers
 *   merit   the merit function of nsd_lcp_newton / nsd_mlcp_newton (the named
 *           solvers newton_fb, newton_min fix it)
 *   gs      the sweep order of NSGS and PSOR on friction contact
 *   local   NSGS's one-contact solver
 *   anderson the Anderson acceleration of the friction-contact sweeps (fc_anderson.h)
 *   drift   the drift jump of the friction-contact sweeps (fc_drift.h)
 *   apgd, bb, admm: their own parameters */
static const NsdOptionEntry kOptions[] = {
    {"max_iterations", NSD_OPTION_INT, OFF(max_iterations), 1000, 1, INT_MAX, 0, 0, NULL, NULL,
     "iteration cap (sweeps, pivots, Newton steps); Lemke uses max(this, 10 n + 100) pivots"},
    {"tolerance", NSD_OPTION_DOUBLE, OFF(tolerance), 1e-8, 0, INF, 1, 1, NULL, NULL,
     "on the Siconos error measure of the problem"},
    {"relaxation", NSD_OPTION_DOUBLE, OFF(relaxation), 1.0, 0, 2, 1, 1, NULL, "relax",
     "omega of projected Gauss-Seidel / SOR (1: plain Gauss-Seidel)"},
    {"warm_start", NSD_OPTION_BOOL, OFF(warm_start), 0, 0, 1, 0, 0, NULL, NULL,
     "start from the x given instead of 0"},
    {"threads", NSD_OPTION_INT, OFF(threads), 0, 0, 4096, 0, 0, NULL, NULL,
     "OpenMP threads of the solvers that use them (0: the runtime's default); results do not "
     "depend on it"},
    {"time_limit", NSD_OPTION_DOUBLE, OFF(time_limit), 0, 0, INF, 0, 1, NULL, NULL,
     "wall-time cap in seconds (0: none); on expiry the status is max_iterations"},
    {"lemke.pivot_tolerance", NSD_OPTION_DOUBLE, OFF(lemke.pivot_tolerance), 1e-10, 0, 1, 0, 1,
     NULL, "lemke", "smallest pivot accepted, relative to the entering column's largest entry"},
    {"pgs.block_size", NSD_OPTION_INT, OFF(pgs.block_size), 3, 1, 25, 0, 0, NULL, "block",
     "block size of block PGS (each block solved exactly by enumeration)"},
    {"pgs.check_every", NSD_OPTION_INT, OFF(pgs.check_every), 1, 1, INT_MAX, 0, 0, NULL, "pgs",
     "compute the full error every k sweeps"},
    {"enumerative.max_size", NSD_OPTION_INT, OFF(enumerative.max_size), 25, 1, 62, 0, 0, NULL,
     "enum", "largest problem enumerated (2^n cases)"},
    {"newton.merit", NSD_OPTION_CHOICE, OFF(newton.merit), NSD_MERIT_FISCHER_BURMEISTER, 0, 2, 0, 0,
     "fischer-burmeister,min,alart-curnier", "merit",
     "merit function of nsd_lcp_newton / nsd_mlcp_newton (newton_fb and newton_min fix it) "
     "and of the LCP rows of gmp newton (fischer-burmeister, else min)"},
    {"newton.max_line_search", NSD_OPTION_INT, OFF(newton.max_line_search), 40, 0, 1000, 0, 0, NULL,
     "newton", "Armijo backtracking steps per Newton step"},
    {"newton.armijo_sigma", NSD_OPTION_DOUBLE, OFF(newton.armijo_sigma), 1e-4, 0, 1, 1, 1, NULL,
     "newton", "sufficient-decrease constant of the line search"},
    {"newton.step_shrink", NSD_OPTION_DOUBLE, OFF(newton.step_shrink), 0.5, 0, 1, 1, 1, NULL,
     "newton", "backtracking factor of the line search"},
    {"nsgs.local_solver", NSD_OPTION_CHOICE, OFF(nsgs.local_solver), NSD_FC_LOCAL_AC_NEWTON, 0, 2,
     0, 0, "projection,ac-newton,fb-newton", "local", "one-contact solver of NSGS"},
    {"nsgs.local_tolerance", NSD_OPTION_DOUBLE, OFF(nsgs.local_tolerance), 1e-14, 0, 1, 1, 1, NULL,
     "local", "one-contact residual of NSGS's local solves"},
    {"nsgs.local_max_iterations", NSD_OPTION_INT, OFF(nsgs.local_max_iterations), 20, 1, 10000, 0,
     0, NULL, "local", "one-contact Newton steps"},
    {"nsgs.shuffle", NSD_OPTION_BOOL, OFF(nsgs.shuffle), 0, 0, 1, 0, 0, NULL, "gs",
     "contacts in a new random order each sweep"},
    {"nsgs.seed", NSD_OPTION_UINT, OFF(nsgs.seed), 1, 0, UINT_MAX, 0, 0, NULL, "gs",
     "seed of the shuffle"},
    {"nsgs.anderson", NSD_OPTION_INT, OFF(nsgs.anderson), 0, 0, 64, 0, 0, NULL, "anderson",
     "Anderson acceleration of the sweeps: the differences kept (0: plain sweeps); the history "
     "restarts whenever the sweep's fixed-point residual grows"},
    {"nsgs.drift", NSD_OPTION_BOOL, OFF(nsgs.drift), 1, 0, 1, 0, 0, NULL, "drift",
     "end a drift of the sweeps along a null direction of W (flat error, equal changes of the "
     "impulses: two contacts of one rolling body) by a jump to the first cone boundary ahead"},
    {"apgd.max_backtracks", NSD_OPTION_INT, OFF(apgd.max_backtracks), 20, 0, 1000, 0, 0, NULL,
     "apgd", "Lipschitz backtracking steps per iteration"},
    {"apgd.adaptive_restart", NSD_OPTION_BOOL, OFF(apgd.adaptive_restart), 1, 0, 1, 0, 0, NULL,
     "apgd", "restart the momentum when the gradient says so"},
    {"apgd.preconditioner", NSD_OPTION_CHOICE, OFF(apgd.preconditioner), 0, 0, 2, 0, 0,
     "none,block,cone", "apgd", "per-contact metric of the projected step (doc/apgd.md)"},
    {"apgd.drift", NSD_OPTION_BOOL, OFF(apgd.drift), 1, 0, 1, 0, 0, NULL, "apgd",
     "end a drift of the iterates along a null direction of W (flat error, one direction of "
     "change, W d ~ 0: two contacts of one rolling body) by a jump to the first cone boundary "
     "downhill"},
    {"bb.memory", NSD_OPTION_INT, OFF(bb.memory), 10, 1, 1000, 0, 0, NULL, "bb",
     "window of the non-monotone line search"},
    {"bb.sigma", NSD_OPTION_DOUBLE, OFF(bb.sigma), 1e-4, 0, 1, 1, 1, NULL, "bb",
     "sufficient-decrease constant"},
    {"admm.rho", NSD_OPTION_DOUBLE, OFF(admm.rho), 0, 0, INF, 0, 1, NULL, "admm",
     "initial penalty (0: from the Delassus diagonal; gfc: trace(M) / sum of H_ij^2)"},
    {"admm.adaptive", NSD_OPTION_BOOL, OFF(admm.adaptive), 1, 0, 1, 0, 0, NULL, "admm",
     "residual balancing of the penalty"},
};

const NsdOptionEntry* nsd_option_table(int* count) {
  if (count) *count = (int)(sizeof kOptions / sizeof kOptions[0]);
  return kOptions;
}

/* name == entry name, '-' in name read as '_' */
static int same_name(const char* entry, const char* name) {
  for (; *entry && *name; ++entry, ++name)
    if (*entry != (*name == '-' ? '_' : *name)) return 0;
  return *entry == *name;
}

const NsdOptionEntry* nsd_option_find(const char* name) {
  if (!name) return NULL;
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k)
    if (same_name(kOptions[k].name, name)) return &kOptions[k];
  return NULL;
}

double nsd_option_value(const NsdSolverOptions* o, const NsdOptionEntry* e) {
  const char* base = (const char*)o + e->offset;
  switch (e->type) {
    case NSD_OPTION_DOUBLE:
      return *(const double*)base;
    case NSD_OPTION_UINT:
      return (double)*(const unsigned*)base;
    case NSD_OPTION_CHOICE: {
      int v;  // enums are int-sized (checked below)
      memcpy(&v, base, sizeof v);
      return (double)v;
    }
    default:
      return (double)*(const int*)base;
  }
}

static void store(NsdSolverOptions* o, const NsdOptionEntry* e, double v) {
  char* base = (char*)o + e->offset;
  switch (e->type) {
    case NSD_OPTION_DOUBLE:
      *(double*)base = v;
      break;
    case NSD_OPTION_UINT:
      *(unsigned*)base = (unsigned)v;
      break;
    case NSD_OPTION_CHOICE: {
      const int i = (int)v;
      memcpy(base, &i, sizeof i);
      break;
    }
    default:
      *(int*)base = (int)v;
      break;
  }
}
_Static_assert(sizeof(NsdNewtonMerit) == sizeof(int), "choice options are int-sized enums");
_Static_assert(sizeof(NsdFcLocalSolver) == sizeof(int), "choice options are int-sized enums");

void nsd_solver_options_default(NsdSolverOptions* o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k)
    store(o, &kOptions[k], kOptions[k].default_value);
}

/* "expected finite > 0", "expected in (0,2)", "expected an integer in [1, 25]" */
static void describe_range(const NsdOptionEntry* e, char* buf, size_t size) {
  if (e->type == NSD_OPTION_BOOL) {
    snprintf(buf, size, "true or false");
    return;
  }
  if (e->type == NSD_OPTION_CHOICE) {
    snprintf(buf, size, "one of %s", e->choices);
    return;
  }
  const char* what = e->type == NSD_OPTION_DOUBLE ? "finite" : "an integer";
  if (isinf(e->max))
    snprintf(buf, size, "%s %s %.17g", what, e->min_open ? ">" : ">=", e->min);
  else
    snprintf(buf, size, "%s in %c%.17g, %.17g%c", what, e->min_open ? '(' : '[', e->min, e->max,
             e->max_open ? ')' : ']');
}

static int in_range(const NsdOptionEntry* e, double v) {
  if (!isfinite(v)) return 0;
  if (e->min_open ? !(v > e->min) : !(v >= e->min)) return 0;
  if (e->max_open ? !(v < e->max) : !(v <= e->max)) return 0;
  if (e->type != NSD_OPTION_DOUBLE && v != floor(v)) return 0;
  return 1;
}

NsdStatus nsd_check_options(const NsdSolverOptions* o, NsdReport* report) {
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k) {
    const NsdOptionEntry* e = &kOptions[k];
    const double v = nsd_option_value(o, e);
    if (in_range(e, v)) continue;
    char range[96];
    describe_range(e, range, sizeof range);
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s=%g, expected %s", e->name, v, range);
  }
  return NSD_OK;
}

static int parse_bool(const char* t, double* v) {
  static const char* const yes[] = {"1", "true", "yes", "on"};
  static const char* const no[] = {"0", "false", "no", "off"};
  for (int i = 0; i < 4; ++i) {
    if (strcmp(t, yes[i]) == 0) return (*v = 1.0), 1;
    if (strcmp(t, no[i]) == 0) return (*v = 0.0), 1;
  }
  return 0;
}

static int parse_choice(const char* choices, const char* t, double* v) {
  const size_t len = strlen(t);
  int index = 0;
  for (const char* c = choices; *c; ++index) {
    const char* end = strchr(c, ',');
    const size_t n = end ? (size_t)(end - c) : strlen(c);
    if (n == len && strncmp(c, t, n) == 0) return (*v = index), 1;
    if (!end) break;
    c = end + 1;
  }
  return 0;
}

static int parse_number(const char* t, double* v) {
  if (!*t || isspace((unsigned char)*t)) return 0;
  char* end = NULL;
  errno = 0;
  const double x = strtod(t, &end);
  if (end == t || *end != '\0') return 0;
  *v = x;
  return 1;
}

/* The names of the table in short: the options without a group, then each group as
 * "group.*" (the whole list would not fit a report message). */
static void list_options(char* buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  const size_t n = sizeof kOptions / sizeof kOptions[0];
  for (int grouped = 0; grouped < 2; ++grouped)
    for (size_t k = 0; k < n && used < size; ++k) {
      const char* dot = strchr(kOptions[k].name, '.');
      if ((dot != NULL) != grouped) continue;
      const int len = dot ? (int)(dot - kOptions[k].name) : (int)strlen(kOptions[k].name);
      if (dot && k > 0 && strncmp(kOptions[k - 1].name, kOptions[k].name, (size_t)len + 1) == 0)
        continue;  // the group is listed
      const int w = snprintf(buf + used, size - used, "%s%.*s%s", used ? ", " : "", len,
                             kOptions[k].name, dot ? ".*" : "");
      if (w < 0) break;
      used += (size_t)w;
    }
}

NsdStatus nsd_option_set(NsdSolverOptions* o, const char* name, const char* text,
                         NsdReport* report) {
  const NsdOptionEntry* e = nsd_option_find(name);
  if (!e) {
    char names[200];
    list_options(names, sizeof names);
    return nsd_report_fail(report, NSD_BAD_INPUT, "unknown solver option '%.40s'; options: %s",
                           name ? name : "(null)", names);
  }
  if (!o || !text)
    return nsd_report_fail(report, NSD_BAD_INPUT, "option %s: no value given", e->name);
  double v = 0.0;
  int ok;
  if (e->type == NSD_OPTION_BOOL)
    ok = parse_bool(text, &v);
  else if (e->type == NSD_OPTION_CHOICE)
    ok = parse_choice(e->choices, text, &v);
  else
    ok = parse_number(text, &v) && in_range(e, v);
  if (!ok) {
    char range[96];
    describe_range(e, range, sizeof range);
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s='%s', expected %s", e->name, text, range);
  }
  store(o, e, v);
  return NSD_OK;
}

int nsd_option_applies(const NsdOptionEntry* e, const NsdSolverEntry* s) {
  if (!e || !s) return 0;
  if (!e->tag) return 1;
  const char* tags = s->options ? s->options : "";
  if (strcmp(tags, "*") == 0) return 1;
  const size_t len = strlen(e->tag);
  for (const char* t = tags; *t;) {
    while (*t == ' ') ++t;
    const char* end = t;
    while (*end && *end != ' ') ++end;
    if ((size_t)(end - t) == len && strncmp(t, e->tag, len) == 0) return 1;
    t = end;
  }
  return 0;
}

static NsdStatus not_applicable(const NsdOptionEntry* e, const NsdSolverEntry* s,
                                NsdReport* report) {
  return nsd_report_fail(report, NSD_BAD_INPUT,
                         "option %s does not apply to the %s solver '%s' (see nsdyn solve "
                         "--list-options)",
                         e->name, nsd_kind_name(s->kind), s->name);
}

NsdStatus nsd_solver_option_set(const NsdSolverEntry* s, NsdSolverOptions* o, const char* name,
                                const char* text, NsdReport* report) {
  const NsdOptionEntry* e = nsd_option_find(name);
  if (e && s && !nsd_option_applies(e, s)) return not_applicable(e, s, report);
  return nsd_option_set(o, name, text, report);
}

NsdStatus nsd_options_check_solver(const NsdSolverOptions* o, const NsdSolverEntry* s,
                                   NsdReport* report) {
  if (!o || !s) return NSD_OK;
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k) {
    const NsdOptionEntry* e = &kOptions[k];
    if (!nsd_option_applies(e, s) && nsd_option_value(o, e) != e->default_value)
      return not_applicable(e, s, report);
  }
  return NSD_OK;
}

void nsd_options_restrict(NsdSolverOptions* o, const NsdSolverEntry* s) {
  if (!o || !s) return;
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k)
    if (!nsd_option_applies(&kOptions[k], s)) store(o, &kOptions[k], kOptions[k].default_value);
}

/* The default as text: a choice by name, a bool as true/false. */
static void default_text(const NsdOptionEntry* e, char* buf, size_t size) {
  if (e->type == NSD_OPTION_BOOL) {
    snprintf(buf, size, "%s", e->default_value != 0.0 ? "true" : "false");
  } else if (e->type == NSD_OPTION_CHOICE) {
    const char* c = e->choices;
    for (int i = 0; i < (int)e->default_value && c; ++i) {
      c = strchr(c, ',');
      if (c) ++c;
    }
    const char* end = c ? strchr(c, ',') : NULL;
    snprintf(buf, size, "%.*s", c ? (int)(end ? (size_t)(end - c) : strlen(c)) : 0, c ? c : "");
  } else {
    snprintf(buf, size, "%g", e->default_value);
  }
}

void nsd_option_table_markdown(void* out) {
  FILE* f = (FILE*)out;
  int ns;
  const NsdSolverEntry* solvers = nsd_solver_table(&ns);
  fprintf(f,
          "# Solver options\n\n"
          "Generated from the option table of the C library (`nsd_option_table`,\n"
          "Numerics/src/common/options.c) by `nsdyn solve --list-options --markdown`;\n"
          "a test checks that this page is current.\n\n"
          "The same names serve every door:\n\n"
          "- C: the fields of `NsdSolverOptions` (`nsdyn/nsd_common.h`), or by name with\n"
          "  `nsd_option_set(&options, \"nsgs.local_tolerance\", \"1e-12\", &report)`;\n"
          "- `nsdyn solve`: `--option NAME=VALUE`, or `--NAME VALUE` with `.` and `_` written\n"
          "  `-` (`--nsgs-local-tolerance 1e-12`; short forms `--tol`, `--max-iter`,\n"
          "  `--relax`);\n"
          "- XML: attributes of `<options>` for the options without a group (`warm_start` is\n"
          "  the problem's own `warm-start` attribute), of its child element named after the\n"
          "  group for the others (`<options><nsgs local-tolerance=\"1e-12\"/></options>`);\n"
          "- Python: keyword arguments of `nsdyn.solve`, `.` written `__`\n"
          "  (`nsgs__local_tolerance=1e-12`).\n\n"
          "A value outside its range, and an option that the chosen solver does not read\n"
          "(nor its fallback, in a model), are refused naming the option: `NSD_BAD_INPUT`\n"
          "from the C API, exit status 2 from `nsdyn solve`, exit status 3 with the file and\n"
          "line from `nsdyn run`.\n\n"
          "| option | type | default | allowed | read by | meaning |\n"
          "| --- | --- | --- | --- | --- | --- |\n");
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k) {
    const NsdOptionEntry* e = &kOptions[k];
    static const char* const types[] = {"int", "unsigned", "real", "bool", "choice"};
    char def[64], range[96];
    default_text(e, def, sizeof def);
    describe_range(e, range, sizeof range);
    fprintf(f, "| `%s` | %s | %s | %s | ", e->name, types[e->type], def, range);
    if (!e->tag) {
      fprintf(f, "every solver");
    } else {
      int first = 1;
      for (int s = 0; s < ns; ++s) {
        if (!nsd_option_applies(e, &solvers[s]) || strcmp(solvers[s].options, "*") == 0) continue;
        fprintf(f, "%s%s %s", first ? "" : ", ", nsd_kind_name(solvers[s].kind), solvers[s].name);
        first = 0;
      }
      if (first) fprintf(f, "the C functions only");
    }
    fprintf(f, " | %s |\n", e->doc);
  }
  fprintf(f,
          "\n`auto` solvers hand every option on to the solvers they run.\n\n"
          "## Solver properties\n\n"
          "| kind | solver | direct | warm start | default | other name of |\n"
          "| --- | --- | --- | --- | --- | --- |\n");
  for (int s = 0; s < ns; ++s)
    fprintf(f, "| %s | `%s` | %s | %s | %s | %s%s%s |\n", nsd_kind_name(solvers[s].kind),
            solvers[s].name, solvers[s].direct ? "yes" : "no", solvers[s].warm_start ? "yes" : "no",
            solvers[s].is_default ? "yes" : "", solvers[s].alias_of ? "`" : "",
            solvers[s].alias_of ? solvers[s].alias_of : "", solvers[s].alias_of ? "`" : "");
  fprintf(f,
          "\n*direct*: pivoting or enumeration, exact in finitely many steps. *warm start*:\n"
          "iterates from the x given when `warm_start` is set (the Kernel passes the previous\n"
          "step's answer only to these). *other name of*: the same solver under a name kept\n"
          "for existing inputs (Siconos's); its report carries the name used.\n");

  // the XML view of the same table (doc/xml-reference.md, <options>, points here)
  fprintf(f,
          "\n## In XML model files\n\n"
          "The options of a nonsmooth problem's `<options>` element and of its children, one\n"
          "per group (see `doc/xml-reference.md`, `<options>`).\n");
  const char* group = NULL;
  size_t group_len = 0;
  for (size_t k = 0; k < sizeof kOptions / sizeof kOptions[0]; ++k) {
    const NsdOptionEntry* e = &kOptions[k];
    if (strcmp(e->name, "warm_start") == 0) continue;  // the problem's warm-start attribute
    const char* dot = strchr(e->name, '.');
    const size_t len = dot ? (size_t)(dot - e->name) : 0;
    if (k == 0 || len != group_len || (len && strncmp(group, e->name, len) != 0)) {
      group = e->name;
      group_len = len;
      fprintf(f, "\n### `<%.*s>`\n\n| attribute | option |\n| --- | --- |\n", len ? (int)len : 7,
              len ? e->name : "options");
    }
    char attr[64];
    snprintf(attr, sizeof attr, "%s", dot ? dot + 1 : e->name);
    for (char* c = attr; *c; ++c)
      if (*c == '_') *c = '-';
    fprintf(f, "| `%s` | `%s` |\n", attr, e->name);
  }
}
