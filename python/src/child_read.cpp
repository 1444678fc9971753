// readInChild: fork, let the child read and send its bytes through a pipe, collect them with a
// deadline, then look at how the child ended.
#include "child_read.hpp"

#include <nsdyn/Error.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>

namespace nsdpy {
namespace {

/// Writes all of @p data to @p fd (the child's side of the pipe); false when the parent left.
bool writeAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

[[noreturn]] void childMain(int fd, const std::function<std::string()>& read) {
  // one tag byte: 'O' the bytes follow, 'E' an nsdyn::Error's message follows; a crash or a
  // loop here is what the parent looks for. _exit skips the interpreter's handlers (atexit,
  // buffered files), which belong to the parent.
  // the interpreter's fault handler (faulthandler, on under pytest) would print a Python
  // traceback for the crash this child is there to catch: the default action, silently
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) signal(sig, SIG_DFL);
  std::string out;
  try {
    out = "O" + read();
  } catch (const nsdyn::Error& e) {
    out = std::string("E") + e.what();
  } catch (const std::exception& e) {
    out = std::string("X") + e.what();
  } catch (...) {
    out = "Xan unknown exception";
  }
  _exit(writeAll(fd, out.data(), out.size()) ? 0 : 3);
}

}  // namespace

std::string readInChild(const std::function<std::string()>& read, double seconds,
                        const std::string& object, const std::string& library) {
  int fd[2];
  if (pipe(fd) != 0) return read();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return read();
  }
  if (pid == 0) {
    close(fd[0]);
    childMain(fd[1], read);
  }
  close(fd[1]);
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  std::string got;
  bool timedOut = false;
  char buffer[1 << 16];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fd[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of file: the child wrote everything, or ended
    got.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd[0]);
  if (timedOut) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", seconds);
  const std::string expected = "a file the " + library + " can read";
  if (timedOut)
    throw nsdyn::Error(
        object, expected,
        "the " + library + " did not finish reading it in " + limit + " s (a damaged file?)");
  if (WIFSIGNALED(status))
    throw nsdyn::Error(object, expected,
                       "the " + library + " crashed reading it (signal " +
                           std::to_string(WTERMSIG(status)) + "): a damaged file");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty())
    throw nsdyn::Error(object, expected,
                       "the " + library + " reader ended without an answer (a damaged file)");
  if (got[0] == 'E') throw nsdyn::Error(got.substr(1));
  if (got[0] == 'X')
    throw nsdyn::Error(object, expected, "the " + library + " failed: " + got.substr(1));
  return got.substr(1);
}

}  // namespace nsdpy
