// XmlLoader: model files (pugixml) to a ready-to-run Model and Simulation.
// Every check is made while reading, element by element, so that each error names the file,
// the line and what was expected, before anything runs. The reading is done by
// xml::Loader, one file per model family under xml/ (Loader.hpp lists them), with the typed
// readers of xml/Reader.hpp.
#include "nsdyn/io/XmlLoader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "xml/Loader.hpp"

namespace nsdyn::io {

SP::DynamicalSystem LoadedModel::system(const std::string& n) const {
  for (const auto& entry : systems)
    if (entry.first == n) return entry.second;
  return nullptr;
}

SP::Interaction LoadedModel::interaction(const std::string& n) const {
  for (const auto& entry : interactions)
    if (entry.first == n) return entry.second;
  return nullptr;
}

std::unique_ptr<LoadedModel> XmlLoader::loadFile(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw LoadError(path, 0, "cannot open the model file: " + std::string(std::strerror(errno)));
  // read into one buffer of the file's size (a stringstream and its copy held it 3 times)
  std::string text;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size >= 0) {
    in.seekg(0, std::ios::beg);
    text.resize(static_cast<std::size_t>(size));
    in.read(&text[0], size);
    text.resize(static_cast<std::size_t>(in.gcount()));
  } else {  // not seekable (a pipe): read it as it comes
    in.clear();
    std::ostringstream rest;
    rest << in.rdbuf();
    text = rest.str();
  }
  if (in.bad())
    throw LoadError(path, 0, "cannot read the model file: " + std::string(std::strerror(errno)));
  xml::Loader loader(std::move(text), path, registry_, limits_);
  loader.setOverrides(overrides_);
  return loader.load();
}

std::unique_ptr<LoadedModel> XmlLoader::loadString(const std::string& xml,
                                                   const std::string& fileName) const {
  xml::Loader loader(xml, fileName, registry_, limits_);
  loader.setOverrides(overrides_);
  return loader.load();
}

}  // namespace nsdyn::io
