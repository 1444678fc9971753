// Shared main of every nsdyn CppUnit test executable.
//
//   test_exe                       run every registered test
//   test_exe PATH [key=value ...]  run the test (or suite) named PATH, with
//                                  parameters readable by nsdyn::test::param()
#include <cppunit/BriefTestProgressListener.h>
#include <cppunit/CompilerOutputter.h>
#include <cppunit/TestResult.h>
#include <cppunit/TestResultCollector.h>
#include <cppunit/TestRunner.h>
#include <cppunit/extensions/TestFactoryRegistry.h>

#include <cstring>
#include <iostream>
#include <stdexcept>

#include "test_params.hpp"

namespace nsdyn::test {
std::map<std::string, std::string>& params() {
  static std::map<std::string, std::string> p;
  return p;
}
std::string param(const std::string& key, const std::string& fallback) {
  auto it = params().find(key);
  return it == params().end() ? fallback : it->second;
}
}  // namespace nsdyn::test

int main(int argc, char** argv) {
  std::string path;
  for (int a = 1; a < argc; ++a) {
    const char* eq = std::strchr(argv[a], '=');
    if (eq) {
      nsdyn::test::params()[std::string(argv[a], static_cast<size_t>(eq - argv[a]))] = eq + 1;
    } else if (path.empty()) {
      path = argv[a];
    } else {
      std::cerr << "unexpected argument " << argv[a] << "\n";
      return 2;
    }
  }

  CppUnit::TestResult controller;
  CppUnit::TestResultCollector result;
  controller.addListener(&result);
  CppUnit::BriefTestProgressListener progress;
  controller.addListener(&progress);

  CppUnit::TestRunner runner;
  runner.addTest(CppUnit::TestFactoryRegistry::getRegistry().makeTest());
  try {
    runner.run(controller, path);
  } catch (const std::invalid_argument& e) {
    std::cerr << "no test named '" << path << "': " << e.what() << "\n";
    return 2;
  }
  CppUnit::CompilerOutputter outputter(&result, std::cerr);
  outputter.write();
  return result.wasSuccessful() ? 0 : 1;
}
