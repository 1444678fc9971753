/// @file Collective.hpp
/// @brief Collective error checks: every rank throws the same nsdyn::Error, or none does.
#ifndef NSDYN_PARALLEL_COLLECTIVE_HPP
#define NSDYN_PARALLEL_COLLECTIVE_HPP

#include <mpi.h>

#include <exception>
#include <string>
#include "nsdyn/parallel/ParallelExport.hpp"

namespace nsdyn {
namespace parallel {

/// Collective over @p comm (every rank must call it, with or without a fault): each rank
/// passes its local fault ("" for none). If no rank has one, returns; otherwise the
/// message of the lowest-ranked faulty rank is broadcast and every rank throws
/// nsdyn::Error with that same message, so that no rank is left waiting in a later
/// collective. Costs one MPI_Allreduce (plus one broadcast on failure).
NSDYN_PARALLEL_API void throwIfAnyFault(MPI_Comm comm, const std::string& localFault);

/// For main programs: writes "nsdyn: error: <what>" to stderr on rank 0 of @p comm only
/// (every rank holds the same message after throwIfAnyFault) and returns the exit status 1.
/// Local: no communication.
NSDYN_PARALLEL_API int reportError(MPI_Comm comm, const std::exception& error);

}  // namespace parallel
}  // namespace nsdyn

#endif
