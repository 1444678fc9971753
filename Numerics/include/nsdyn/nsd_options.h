/**
 * @file nsd_options.h
 * @brief The solver option table: every field of ::NsdSolverOptions with its
 *        name, type, default, range, the solvers that read it and one line of
 *        documentation. The defaults (nsd_solver_options_default), the checks
 *        every solver makes, `nsdyn solve`'s flags, the XML `<options>`
 *        attributes, the Python keyword arguments and doc/solver-options.md
 *        all come from this one table.
 */
#ifndef NSDYN_NSD_OPTIONS_H
#define NSDYN_NSD_OPTIONS_H

#include <stddef.h>

#include "nsd_common.h"
#include "nsd_export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct NsdSolverEntry;

/** Type of an option's value. */
typedef enum NsdOptionType {
  NSD_OPTION_INT = 0,    /**< int field */
  NSD_OPTION_UINT = 1,   /**< unsigned field */
  NSD_OPTION_DOUBLE = 2, /**< double field, always finite */
  NSD_OPTION_BOOL = 3,   /**< int field, 0 or 1; text: true/false, yes/no, on/off, 1/0 */
  NSD_OPTION_CHOICE = 4  /**< enum field; text: one of @c choices */
} NsdOptionType;

/** One row of the option table. */
typedef struct NsdOptionEntry {
  const char* name;     /**< "tolerance", "nsgs.local_tolerance" (group.field) */
  NsdOptionType type;   /**< see ::NsdOptionType */
  size_t offset;        /**< of the field in ::NsdSolverOptions */
  double default_value; /**< NSD_OPTION_CHOICE: the enum value */
  double min, max;      /**< allowed range (numbers) */
  int min_open;         /**< 1: min itself is refused */
  int max_open;         /**< 1: max itself is refused */
  const char* choices; /**< NSD_OPTION_CHOICE: names of the enum values 0, 1, ... comma-separated */
  const char* tag;     /**< what a solver must read for the option to apply (see
                            NsdSolverEntry::options); NULL: every solver */
  const char* doc;     /**< one line */
} NsdOptionEntry;

/** The table and its length. */
NSD_API const NsdOptionEntry* nsd_option_table(int* count);

/** The entry named @p name ('-' accepted for '_': "nsgs.local-tolerance"), or NULL. */
NSD_API const NsdOptionEntry* nsd_option_find(const char* name);

/** The value of @p entry in @p options, as a double. */
NSD_API double nsd_option_value(const NsdSolverOptions* options, const NsdOptionEntry* entry);

/**
 * Parse @p text for the option named @p name and store it in @p options.
 * NSD_OK, or NSD_BAD_INPUT with @p report (nullable) failed by a message naming
 * the option, the text and what was expected (an unknown name lists the names).
 */
NSD_API NsdStatus nsd_option_set(NsdSolverOptions* options, const char* name, const char* text,
                                 NsdReport* report);

/** 1 when the solver @p solver reads the option @p entry (auto solvers read every one). */
NSD_API int nsd_option_applies(const NsdOptionEntry* entry, const struct NsdSolverEntry* solver);

/**
 * As nsd_option_set, refusing (NSD_BAD_INPUT, naming the option and the solver)
 * an option that @p solver does not read.
 */
NSD_API NsdStatus nsd_solver_option_set(const struct NsdSolverEntry* solver,
                                        NsdSolverOptions* options, const char* name,
                                        const char* text, NsdReport* report);

/**
 * Every option of @p options that differs from its default and that @p solver
 * does not read: NSD_BAD_INPUT naming the first; NSD_OK otherwise.
 */
NSD_API NsdStatus nsd_options_check_solver(const NsdSolverOptions* options,
                                           const struct NsdSolverEntry* solver, NsdReport* report);

/**
 * Reset to its default every option of @p options that @p solver does not read
 * (before handing options meant for one solver to another, as a fallback does).
 */
NSD_API void nsd_options_restrict(NsdSolverOptions* options, const struct NsdSolverEntry* solver);

/** Print the table as a Markdown reference (doc/solver-options.md) to @p out (a FILE*). */
NSD_API void nsd_option_table_markdown(void* out);

#ifdef __cplusplus
}
#endif

#endif
