// Subcommands of the nsdyn command line. Each returns the process exit status.
#pragma once

namespace nsdyn::cli {
/// `nsdyn solve FILE [options]`: read a problem file, solve it, report.
int solveCommand(int argc, char** argv);
/// Usage text of `nsdyn solve`.
const char* solveUsage();
/// `nsdyn run MODEL.xml [options]`: load an XML model, simulate, write results.
int runCommand(int argc, char** argv);
/// Usage text of `nsdyn run`.
const char* runUsage();
/// `nsdyn render MODEL.xml [options]`: PNG pictures of a scene run's bodies
/// (apps/render_command.cpp).
int renderCommand(int argc, char** argv);
/// Usage text of `nsdyn render`.
const char* renderUsage();
}  // namespace nsdyn::cli
