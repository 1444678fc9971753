// The model fingerprint of a checkpoint (nsdyn/io/Checkpoint.hpp): the time grid, the
// simulation type and the model file, canonical, hashed in items down to depth 3, and the
// items that differ between two fingerprints.
#include <pugixml.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "CheckpointFormat.hpp"
#include "nsdyn/io/Checkpoint.hpp"

namespace nsdyn::io {
namespace {

using ckpt::Fnv;
using detail::bitsOf;

// ---- model fingerprint --------------------------------------------------------------------
void canonical(const pugi::xml_node& n, Fnv& h) {
  h.addString(n.name());
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const pugi::xml_attribute& a : n.attributes()) attrs.emplace_back(a.name(), a.value());
  std::sort(attrs.begin(), attrs.end());
  h.add64(attrs.size());
  for (const auto& [k, v] : attrs) {
    h.addString(k);
    h.addString(v);
  }
  for (const pugi::xml_node& c : n.children()) {
    if (c.type() == pugi::node_element) {
      canonical(c, h);
    } else if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
      // text with its white space collapsed
      std::istringstream words(c.value());
      std::string w, all;
      while (words >> w) all += (all.empty() ? "" : " ") + w;
      if (!all.empty()) h.addString("#" + all);
    }
  }
  h.addString("/");
}

// Items of @p n: its own attributes and text, then each element child under
// LABEL/NAME (its name attribute, else its tag); children are split further
// down to depth 3 (model/systems/ball).
void collect(const pugi::xml_node& n, const std::string& label, int depth, ModelFingerprint& fp) {
  Fnv own;
  own.addString(n.name());
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const pugi::xml_attribute& a : n.attributes()) attrs.emplace_back(a.name(), a.value());
  std::sort(attrs.begin(), attrs.end());
  for (const auto& [k, v] : attrs) {
    own.addString(k);
    own.addString(v);
  }
  std::vector<std::string> seen;
  std::vector<std::pair<std::string, pugi::xml_node>> children;
  for (const pugi::xml_node& c : n.children()) {
    if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
      std::istringstream words(c.value());
      std::string w;
      while (words >> w) own.addString(w);
    }
    if (c.type() != pugi::node_element) continue;
    std::string name = c.attribute("name") ? c.attribute("name").value() : c.name();
    const std::string base = name;
    for (int k = 2; std::find(seen.begin(), seen.end(), name) != seen.end(); ++k)
      name = base + "#" + std::to_string(k);
    seen.push_back(name);
    children.emplace_back(label.empty() ? name : label + "/" + name, c);
  }
  fp.items.emplace_back(label.empty() ? "root" : label, own.h);
  for (const auto& [l, c] : children) {
    if (depth < 2 && c.first_child().type() == pugi::node_element) {
      collect(c, l, depth + 1, fp);
    } else {
      Fnv h;
      canonical(c, h);
      fp.items.emplace_back(l, h.h);
    }
  }
}

}  // namespace

namespace ckpt {

// Items of @p a missing from @p b, or with another hash.
std::vector<std::string> differences(const ModelFingerprint& a, const ModelFingerprint& b) {
  std::vector<std::string> out;
  for (const auto& item : a.items) {
    auto it = std::find_if(b.items.begin(), b.items.end(),
                           [&](const auto& x) { return x.first == item.first; });
    if (it == b.items.end())
      out.push_back(item.first + " (not in the checkpoint's model)");
    else if (it->second != item.second)
      out.push_back(item.first);
  }
  for (const auto& item : b.items)
    if (std::none_of(a.items.begin(), a.items.end(),
                     [&](const auto& x) { return x.first == item.first; }))
      out.push_back(item.first + " (only in the checkpoint's model)");
  return out;
}

}  // namespace ckpt

std::uint64_t ModelFingerprint::digest() const {
  Fnv h;
  for (const auto& [label, hash] : items) {
    h.addString(label);
    h.add64(hash);
  }
  return h.h;
}

ModelFingerprint modelFingerprint(const LoadedModel& run) {
  ModelFingerprint fp;
  // the loaded values of the time grid: parameters evaluated
  for (const auto& [label, value] :
       {std::pair<const char*, double>{"t0", run.t0}, {"T", run.T}, {"h", run.h}})
    fp.items.emplace_back(label, bitsOf(value));
  fp.items.emplace_back("steps", static_cast<std::uint64_t>(run.steps));
  // the parameters set from outside the file (nsdyn run --set): the file alone does not say
  for (const ParameterOverride& o : run.overrides)
    fp.items.emplace_back("--set " + o.name, bitsOf(o.number));
  Fnv type;
  type.addString(run.simulationType);
  fp.items.emplace_back("simulation type", type.h);
  // the model file, canonical (comments, layout and attribute order ignored)
  pugi::xml_document doc;
  if (!run.file.empty() && run.file != "<string>" &&
      doc.load_file(run.file.c_str(), pugi::parse_default & ~pugi::parse_comments)) {
    const pugi::xml_node root = doc.document_element();
    collect(root, "", 0, fp);
  }
  return fp;
}

}  // namespace nsdyn::io
