#include "nsdyn/parallel/Collective.hpp"

#include <cstdio>
#include <vector>

#include "nsdyn/Error.hpp"

namespace nsdyn {
namespace parallel {

void throwIfAnyFault(MPI_Comm comm, const std::string& localFault) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = localFault.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int length = rank == first ? static_cast<int>(localFault.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::vector<char> text(static_cast<std::size_t>(length) + 1, '\0');
  if (rank == first) localFault.copy(text.data(), localFault.size());
  MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
  throw Error(std::string(text.data(), static_cast<std::size_t>(length)));
}

int reportError(MPI_Comm comm, const std::exception& error) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    std::fprintf(stderr, "nsdyn: error: %s\n", error.what());
    std::fflush(stderr);
  }
  return 1;
}

}  // namespace parallel
}  // namespace nsdyn
