// Exit statuses shared by every nsdyn program (nsdyn solve, nsdyn run,
// solve_folder, LcpObstacle): the table of README.md, section "Exit status".
// Plain C-compatible macros so that C programs (Examples/LcpObstacle) use the
// same numbers; C++ code uses the nsdyn::cli constants.
#ifndef NSDYN_APPS_EXIT_STATUS_HPP
#define NSDYN_APPS_EXIT_STATUS_HPP

#define NSDYN_EXIT_OK 0          /* success: converged, the run done */
#define NSDYN_EXIT_FAILED 1      /* a solve failed or did not converge (a run: failed steps) */
#define NSDYN_EXIT_USAGE 2       /* bad command line: unknown option, bad option value */
#define NSDYN_EXIT_BAD_INPUT 3   /* an input file is missing, unreadable or invalid */
#define NSDYN_EXIT_IO 4          /* results could not be written (folder, file, disk) */
#define NSDYN_EXIT_INTERNAL 5    /* internal error: a bug or out of memory */
#define NSDYN_EXIT_UNAVAILABLE 6 /* a tool the command needs is missing (nsdyn render: VTK, X) */

#ifdef __cplusplus
namespace nsdyn::cli {
constexpr int kExitOk = NSDYN_EXIT_OK;
constexpr int kExitFailed = NSDYN_EXIT_FAILED;
constexpr int kExitUsage = NSDYN_EXIT_USAGE;
constexpr int kExitBadInput = NSDYN_EXIT_BAD_INPUT;
constexpr int kExitIo = NSDYN_EXIT_IO;
constexpr int kExitInternal = NSDYN_EXIT_INTERNAL;
constexpr int kExitUnavailable = NSDYN_EXIT_UNAVAILABLE;
}  // namespace nsdyn::cli
#endif

#endif
