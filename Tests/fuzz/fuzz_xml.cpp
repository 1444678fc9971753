// Fuzz target: the XML model loader (XmlLoader::loadString): syntax, expressions, sizes,
// Model::initialize. A refused model throws nsdyn::Error; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "nsdyn/io/XmlLoader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // plugins name shared libraries: never open one from a fuzzed file
  if (text.find("plugin") != std::string::npos || text.find(".so") != std::string::npos) return 0;
  try {
    nsdyn::io::XmlLoader().loadString(text, "fuzz.xml");
  } catch (const nsdyn::Error&) {
  }
  return 0;
}
