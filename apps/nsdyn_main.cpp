// nsdyn: command-line entry point, dispatching to subcommands.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include <nsdyn/nsd_version.h>

#include "commands.hpp"
#include "exit_status.hpp"

namespace {
void printUsage(std::FILE* out) {
  std::fprintf(out,
               "nsdyn %s: nonsmooth dynamics kernel\n\n"
               "usage:\n"
               "  nsdyn solve FILE [options]   solve an LCP/MLCP/friction-contact problem file\n"
               "  nsdyn solve --list-solvers   list solvers per problem kind\n"
               "  nsdyn run MODEL.xml [options] simulate an XML model file\n"
               "  nsdyn render MODEL.xml [options] pictures (PNG) of a scene run\n"
               "  nsdyn --version\n\n%s\n%s\n%s",
               NSD_VERSION_STRING, nsdyn::cli::solveUsage(), nsdyn::cli::runUsage(),
               nsdyn::cli::renderUsage());
}
}  // namespace

namespace {
int dispatch(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    printUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("nsdyn %s\n", NSD_VERSION_STRING);
    return 0;
  }
  if (!std::strcmp(argv[1], "solve")) return nsdyn::cli::solveCommand(argc - 2, argv + 2);
  if (!std::strcmp(argv[1], "run")) return nsdyn::cli::runCommand(argc - 2, argv + 2);
  if (!std::strcmp(argv[1], "render")) return nsdyn::cli::renderCommand(argc - 2, argv + 2);
  std::fprintf(stderr, "nsdyn: unknown command '%s'\n\n", argv[1]);
  printUsage(stderr);
  return nsdyn::cli::kExitUsage;
}
}  // namespace

// Exit statuses: apps/exit_status.hpp (README.md, "Exit status"). An exception no
// command caught is an internal error (5), never a crash with 134.
int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "nsdyn: internal error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nsdyn: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "nsdyn: internal error: unknown exception\n");
  }
  return nsdyn::cli::kExitInternal;
}
