// nsdyn_schema_gen: IO/schema/nsdyn.xsd and the attribute tables of doc/xml-reference.md,
// written from the loader's schema table (IO/src/xml/Schema.hpp).
//   nsdyn_schema_gen xsd                 the XSD on stdout
//   nsdyn_schema_gen markdown PAGE       PAGE with its generated blocks rewritten, on stdout
//   nsdyn_schema_gen check XSD PAGE      exit 1 naming each file that is not current
//   nsdyn_schema_gen update XSD PAGE     rewrite the files that are not current
// (`cmake --build build --target schema-update` runs the last on the source tree.)

#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "../../apps/exit_status.hpp"
#include "schema_gen.hpp"

namespace {

using namespace nsdyn::cli;

const char* const kUpdate = "cmake --build <build> --target schema-update";

bool read(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

// Written beside the file, then renamed over it: never half-written under its name.
bool write(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

int usage() {
  std::cerr << "usage: nsdyn_schema_gen xsd\n"
               "       nsdyn_schema_gen markdown PAGE\n"
               "       nsdyn_schema_gen check|update XSD PAGE\n"
               "(XSD: IO/schema/nsdyn.xsd, PAGE: doc/xml-reference.md)\n";
  return kExitUsage;
}

int run(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "xsd" && argc == 2) {
    std::cout << nsdyn::io::tools::xsd();
    return kExitOk;
  }
  std::string page;
  if (command == "markdown" && argc == 3) {
    if (!read(argv[2], page)) {
      std::cerr << "nsdyn_schema_gen: cannot read " << argv[2] << "\n";
      return kExitBadInput;
    }
    std::cout << nsdyn::io::tools::markdown(page, argv[2]);
    return kExitOk;
  }
  if ((command != "check" && command != "update") || argc != 4) return usage();
  const std::string xsdPath = argv[2], pagePath = argv[3];
  std::string xsd;
  if (!read(pagePath, page)) {
    std::cerr << "nsdyn_schema_gen: cannot read " << pagePath << "\n";
    return kExitBadInput;
  }
  read(xsdPath, xsd);  // a missing XSD is one to write
  const std::string wantedXsd = nsdyn::io::tools::xsd();
  const std::string wantedPage = nsdyn::io::tools::markdown(page, pagePath);
  struct File {
    const std::string& path;
    const std::string& now;
    const std::string& wanted;
  };
  int stale = 0;
  for (const File& f : {File{xsdPath, xsd, wantedXsd}, File{pagePath, page, wantedPage}}) {
    if (f.now == f.wanted) continue;
    ++stale;
    if (command == "check") {
      std::cerr << f.path
                << " is not current with the schema table (IO/src/xml/Schema*.cpp): regenerate "
                   "it with\n  "
                << kUpdate << "\nor\n  nsdyn_schema_gen update " << xsdPath << " " << pagePath
                << "\n";
    } else if (!write(f.path, f.wanted)) {
      std::cerr << "nsdyn_schema_gen: cannot write " << f.path << "\n";
      return kExitIo;
    } else {
      std::cout << "nsdyn_schema_gen: wrote " << f.path << "\n";
    }
  }
  return command == "check" && stale ? kExitFailed : kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::runtime_error& e) {  // a malformed page
    std::cerr << "nsdyn_schema_gen: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {  // the table itself: a bug
    std::cerr << "nsdyn_schema_gen: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}
